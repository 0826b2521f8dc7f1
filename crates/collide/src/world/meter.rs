//! The overlap meter: how deep the touching pairs sink into each other, at the end of each
//! frame (every `motion_iterations`-th step: the state the window shows, and a tenth of a
//! settling pile's physics time saved by not measuring the sub-steps between).
//!
//! It reads the contact list's frame's end (`narrow_stage.rs`, `World::frame_end_contacts`),
//! the contacts touching then, ball–ball and ball–obstacle: the overlap of two balls is the
//! depth `r₁ + r₂ − distance` over `min(r₁, r₂)`, of a ball and an obstacle the contact
//! depth over the radius. The meter keeps the deepest, the mean and how many pairs sink
//! deeper than 1 % and 10 %. A pile at rest in a good engine overlaps by about 1 % of a size
//! (Box2D's linear slop). The awake part is reduced at every frame's end, the sleepers' part
//! once each time the narrow stage writes it afresh, and the two figures are merged.

use super::body::BodyPair;
use super::narrow_stage::FrameEndContacts;
use super::{OverlapMeter, PairContact};
use crate::geom::Ball;
use crate::response::ContactWith;

/// The meter's own state: the co-located balls' marks, and the sleepers' part as last reduced.
#[derive(Default)]
pub(super) struct MeterStage {
    /// Balls marked as co-located, kept so a step allocates nothing.
    marked: Vec<u32>,
    /// The narrow stage's count of the sleepers' part's writings when it was reduced, and
    /// what it gave.
    asleep: (u64, OverlapMeter),
}

impl MeterStage {
    /// Balls whose centre is within half the smaller radius of another ball's centre, found
    /// among the last candidate pairs `bodies` (co-located balls always have overlapping
    /// boxes).
    pub(super) fn co_located(&mut self, balls: &[Ball], bodies: &[BodyPair]) -> u32 {
        let marked = &mut self.marked;
        marked.clear();
        for p in bodies {
            let Some(o) = p.other_ball() else {
                continue;
            };
            let (a, b) = (&balls[p.ball.ix()], &balls[o.ix()]);
            let close = 0.5 * a.radius.min(b.radius);
            if (a.pos - b.pos).length_squared() < close * close || a.pos == b.pos {
                marked.push(p.ball.0);
                marked.push(o.0);
            }
        }
        marked.sort_unstable();
        marked.dedup();
        marked.len() as u32
    }

    /// The overlaps of the frame's end `end` just written (`asleep_writes`: the narrow
    /// stage's count of the writings of its sleepers' part) among `balls`.
    pub(super) fn measure(
        &mut self,
        balls: &[Ball],
        end: FrameEndContacts,
        asleep_writes: u64,
    ) -> OverlapMeter {
        if self.asleep.0 != asleep_writes {
            self.asleep = (asleep_writes, reduced(balls, end.asleep));
        }
        reduced(balls, end.awake).merged(&self.asleep.1)
    }
}

/// The meter of `contacts` among `balls`, in their order.
fn reduced(balls: &[Ball], contacts: &[PairContact]) -> OverlapMeter {
    let mut m = OverlapMeter::default();
    for c in contacts {
        m.add(overlap(balls, c));
    }
    m
}

/// The overlap of contact `c`: its depth over the smaller radius of its balls, or over its
/// ball's radius with an obstacle; 0 for a ball of no size.
fn overlap(balls: &[Ball], c: &PairContact) -> f32 {
    let r = balls[c.ball as usize].radius;
    let size = match c.with {
        ContactWith::Ball(o) => r.min(balls[o as usize].radius),
        ContactWith::Shape(_) => r,
    };
    if size > 0.0 {
        c.depth / size
    } else {
        0.0
    }
}
