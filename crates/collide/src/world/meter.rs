//! The overlap meter: how deep the touching pairs sink into each other, at the end of each
//! frame (every `motion_iterations`-th step: the state the window shows, and a tenth of a
//! settling pile's physics time saved by not measuring the sub-steps between).
//!
//! Over the pairs touching at the end of a step, ball–ball and ball–obstacle: the overlap of
//! two balls is `(r₁ + r₂ − distance) / min(r₁, r₂)`, of a ball and an obstacle the contact
//! depth over the radius. The meter keeps the deepest, the mean and how many pairs sink
//! deeper than 1 % and 10 %. A pile at rest in a good engine overlaps by about 1 % of a size
//! (Box2D's linear slop).
//!
//! With soft contacts the live pairs are those of the step's broad-phase call, whose boxes
//! are grown along each ball's motion, so they cover every pair with a ball awake at that
//! call. The push-out moves balls after its last broad-phase call (the last responses, the
//! wall pass), so for it the meter finds the pairs of the awake balls at the end of the step
//! with a grid of its own. Pairs among the balls asleep at that call and between them and
//! the obstacles (which the broad phase never pairs with them) do not change while they sleep, so they are measured with a grid of
//! the meter's own whenever that set changes or a ball woke during the step (its work is the
//! meter's, not the simulation's, and is not counted). The two parts never share a pair.

use super::body::{Body, BodyPair};

use super::narrow_stage::{ball_obstacle, Disc, GroupTests};
use super::pairs::{next_statics_version, SleeperOrder};
use super::OverlapMeter;
use crate::broad::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair};
use crate::geom::{Aabb, Ball, Group, Shape};

/// What the meter reads at the end of a step: the balls and obstacles, whether kinematic
/// shapes turn, and the last broad-phase call's sleepers and obstacles' version.
pub(super) struct MeterView<'a> {
    pub(super) balls: &'a [Ball],
    pub(super) shapes: &'a [Shape],
    pub(super) groups: &'a [Group],
    pub(super) first_moving: usize,
    pub(super) bounds: Aabb,
    pub(super) rotating: bool,
    pub(super) sleepers: &'a [u32],
    pub(super) statics_version: u64,
}

/// The meter's own state: the co-located balls' marks, the sleepers' part and the grid that
/// measured it, and the push-out's own search of the awake balls' pairs.
#[derive(Default)]
pub(super) struct MeterStage {
    /// Balls marked as co-located, kept so a step allocates nothing.
    marked: Vec<u32>,
    /// The sleepers measured (ball indices) and what they gave.
    sleepers: Vec<u32>,
    /// The push-out's own search of the awake balls' pairs: a grid, the obstacles' and all
    /// boxes in the broad phase's order, the awake balls, the pairs, and the statics the grid
    /// keeps (the world's statics version, the sleepers it saw, the version handed to it).
    live_grid: Option<Box<dyn BroadPhase>>,
    live_shapes: Vec<Aabb>,
    live_boxes: Vec<Aabb>,
    live_awake: Vec<u32>,
    live_pairs: Vec<Pair>,
    live_bodies: Vec<BodyPair>,
    live_statics: (u64, Vec<u32>, u64),
    frozen: OverlapMeter,
    /// A sleeper woke at a step since the last measure.
    woke: bool,
    grid: Option<Box<dyn BroadPhase>>,
    boxes: Vec<Aabb>,
    pairs: Vec<Pair>,
    bodies: Vec<BodyPair>,
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

    /// The overlaps at the end of a frame (`frame_end`; none at the other steps): the live
    /// pairs (`bodies` of the step's last broad-phase call with soft contacts, a search of
    /// the meter's own after the push-out), and the sleepers' part, measured again when that
    /// set changed or a ball woke (`woke`: this step; the steps between are remembered).
    pub(super) fn measure(
        &mut self,
        v: &MeterView,
        bodies: &[BodyPair],
        push_out: bool,
        woke: bool,
        frame_end: bool,
    ) -> Option<OverlapMeter> {
        self.woke |= woke;
        if !frame_end {
            return None;
        }
        let woke = std::mem::take(&mut self.woke);
        let mut live = OverlapMeter::default();
        if push_out {
            let pairs = self.pairs_at_end(v);
            for p in &pairs {
                live.add(pair_overlap(v, p));
            }
            self.live_bodies = pairs;
        } else {
            for p in bodies {
                live.add(pair_overlap(v, p));
            }
        }
        if v.sleepers.is_empty() {
            self.sleepers.clear();
        } else {
            self.measure_sleepers(v, woke);
            live = live.merged(&self.frozen);
        }
        Some(live)
    }

    /// The pairs of the awake balls now, with the obstacles, each other and the broad
    /// phase's sleepers, in the world's pair space, found with a grid of the meter's own in
    /// the step's broad-phase order (sleepers as static boxes after the statics).
    fn pairs_at_end(&mut self, v: &MeterView) -> Vec<BodyPair> {
        let m = self;
        let sleepers = v.sleepers;
        m.live_awake.clear();
        m.live_awake
            .extend((0..v.balls.len() as u32).filter(|i| sleepers.binary_search(i).is_err()));
        m.live_shapes.clear();
        m.live_shapes.extend(v.shapes.iter().map(|s| s.aabb()));
        let order = SleeperOrder {
            first_moving: v.first_moving,
            shapes: v.shapes.len(),
            sleepers,
            awake: &m.live_awake,
        };
        order.boxes(
            &m.live_shapes,
            |b| v.balls[b as usize].aabb(),
            &mut m.live_boxes,
        );
        let (world_version, seen, version) = &mut m.live_statics;
        if *world_version != v.statics_version || seen[..] != *sleepers || *version == 0 {
            *world_version = v.statics_version;
            seen.clear();
            seen.extend_from_slice(sleepers);
            *version = next_statics_version();
        }
        let input = BroadInput {
            aabbs: &m.live_boxes,
            first_moving: v.first_moving + sleepers.len(),
            first_dynamic: v.shapes.len() + sleepers.len(),
            statics_version: m.live_statics.2,
            world: v.bounds,
        };
        let grid = m.live_grid.get_or_insert_with(|| BroadKind::Grid.create());
        grid.find_pairs(&input, &mut m.live_pairs, &mut BroadCounters::default());
        let mut pairs = std::mem::take(&mut m.live_bodies);
        order.pairs_to_bodies(&mut m.live_pairs, &mut pairs);
        pairs
    }

    /// Measures the pairs among the broad phase's sleepers and with the obstacles again if that set changed or a ball woke (a woken sleeper may have moved).
    fn measure_sleepers(&mut self, v: &MeterView, woke: bool) {
        let m = self;
        if m.sleepers == v.sleepers && !woke {
            return;
        }
        m.sleepers.clear();
        m.sleepers.extend_from_slice(v.sleepers);
        let n_shapes = v.shapes.len();
        m.boxes.clear();
        m.boxes.extend(v.shapes.iter().map(|s| s.aabb()));
        m.boxes
            .extend(m.sleepers.iter().map(|&b| v.balls[b as usize].aabb()));
        let input = BroadInput {
            aabbs: &m.boxes,
            first_moving: v.first_moving,
            first_dynamic: n_shapes,
            statics_version: next_statics_version(),
            world: v.bounds,
        };
        let grid = m.grid.get_or_insert_with(|| BroadKind::Grid.create());
        grid.find_pairs(&input, &mut m.pairs, &mut BroadCounters::default());
        // Every obstacle, then the sleepers: the sleepers' order with no awake ball.
        let order = SleeperOrder {
            first_moving: n_shapes,
            shapes: n_shapes,
            sleepers: &m.sleepers,
            awake: &[],
        };
        order.pairs_to_bodies(&mut m.pairs, &mut m.bodies);
        let mut frozen = OverlapMeter::default();
        for p in &m.bodies {
            frozen.add(pair_overlap(v, p));
        }
        m.frozen = frozen;
    }
}

/// The overlap of pair `p`, 0 when apart.
fn pair_overlap(v: &MeterView, p: &BodyPair) -> f32 {
    let si = match p.other {
        Body::Shape(s) => s,
        Body::Ball(o) => {
            let (a, b) = (&v.balls[p.ball.ix()], &v.balls[o.ix()]);
            let small = a.radius.min(b.radius);
            let d = a.radius + b.radius - (a.pos - b.pos).length();
            return if small > 0.0 { d / small } else { 0.0 };
        }
    };
    let (b, shape) = (&v.balls[p.ball.ix()], &v.shapes[si.ix()]);
    let vel = b.vel - shape.velocity_at(b.pos, v.rotating);
    let mut scratch = GroupTests::default();
    let disc = Disc {
        centre: b.pos,
        radius: b.radius,
        vel,
    };
    let contact = ball_obstacle(disc, shape, v.groups, &mut scratch);
    match contact {
        Some((c, _)) if b.radius > 0.0 => c.depth / b.radius,
        _ => 0.0,
    }
}
