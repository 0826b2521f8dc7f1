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
use crate::workers;

/// Pairs from which the search for co-located balls reads them on the step's threads.
const PARALLEL_PAIRS: usize = 8192;

/// The meter's own state: the co-located balls' marks, and the sleepers' part as last reduced.
#[derive(Default)]
pub(super) struct MeterStage {
    /// Balls marked as co-located, and the threads' lists of them, kept so a step
    /// allocates nothing.
    marked: Vec<u32>,
    parts: Vec<Vec<u32>>,
    /// The narrow stage's count of the sleepers' part's writings when it was reduced, and
    /// what it gave.
    asleep: (u64, OverlapMeter),
}

impl MeterStage {
    /// Balls whose centre is within half the smaller radius of another ball's centre, found
    /// among the last candidate pairs `bodies` (co-located balls always have overlapping
    /// boxes), read on up to `threads` threads.
    pub(super) fn co_located(
        &mut self,
        balls: &[Ball],
        bodies: &[BodyPair],
        threads: usize,
    ) -> u32 {
        let marked = &mut self.marked;
        marked.clear();
        // Both balls of every pair are written, and the end moves past them only when they
        // are close, into room reserved first: the loop holds no branch on the outcome and no
        // call (the browser's engine spilled the loop's values around a push that may grow).
        let mark = |run: std::ops::Range<usize>, out: &mut Vec<u32>| {
            let pairs = &bodies[run];
            out.reserve(2 * pairs.len());
            let (at, mut n) = (out.len(), 0);
            let room = &mut out.spare_capacity_mut()[..2 * pairs.len()];
            for (k, p) in pairs.iter().enumerate() {
                let Some(o) = p.other_ball() else {
                    continue;
                };
                let (a, b) = (&balls[p.ball.ix()], &balls[o.ix()]);
                let close = 0.5 * a.radius.min(b.radius);
                let hit = (a.pos - b.pos).length_squared() < close * close || a.pos == b.pos;
                debug_assert!(n <= 2 * k);
                // SAFETY: `n ≤ 2k` (it moves on by two at most once a pair), so slots `n`
                // and `n + 1` are below `2 · pairs.len()`.
                unsafe {
                    room.get_unchecked_mut(n).write(p.ball.0);
                    room.get_unchecked_mut(n + 1).write(o.0);
                }
                n += 2 * hit as usize;
            }
            // SAFETY: every slot below `n` was written (each pair's two before `n` passed them).
            unsafe { out.set_len(at + n) }
        };
        let n = bodies.len();
        workers::lists_into(threads, n, PARALLEL_PAIRS, &mut self.parts, marked, mark);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::body::{BallIx, Body};
    use glam::Vec2;

    #[test]
    fn the_co_located_balls_are_counted_alike_on_any_number_of_threads() {
        // A row of balls 4 px apart, every seventh placed on its neighbour (co-located),
        // each paired with the next three: enough pairs for the threads.
        let balls: Vec<Ball> = (0..12_000)
            .map(|i| {
                let x = if i % 7 == 6 {
                    4.0 * (i - 1) as f32
                } else {
                    4.0 * i as f32
                };
                Ball::new(Vec2::new(x, 0.0), Vec2::ZERO, 2.5, 0.0, 0)
            })
            .collect();
        let bodies: Vec<BodyPair> = (0..balls.len() as u32 - 3)
            .flat_map(|i| {
                (1..=3).map(move |d| BodyPair {
                    ball: BallIx(i),
                    other: Body::Ball(BallIx(i + d)),
                })
            })
            .collect();
        assert!(bodies.len() > PARALLEL_PAIRS);
        let counts: Vec<u32> = [1, 2, 3]
            .map(|t| MeterStage::default().co_located(&balls, &bodies, t))
            .to_vec();
        assert_eq!(
            counts, [3428; 3],
            "each seventh ball and the one it sits on"
        );
    }
}
