//! The overlap meter: how deep the touching pairs sink into each other, every step.
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
use super::pairs::{next_statics_version, SleeperOrder};
use super::{OverlapMeter, World};
use crate::broad::{BroadCounters, BroadInput, BroadKind};

impl World {
    /// Measures the overlaps at the end of a step into the counters.
    pub(super) fn measure_overlap(&mut self) {
        let mut live = OverlapMeter::default();
        if self.settings.solver == super::Solver::PushOut {
            let pairs = self.pairs_at_end();
            for p in &pairs {
                live.add(self.pair_overlap(p));
            }
            self.meter.live_bodies = pairs;
        } else {
            for p in &self.bodies {
                live.add(self.pair_overlap(p));
            }
        }
        if self.broad_sleepers().is_empty() {
            self.meter.sleepers.clear();
        } else {
            self.measure_sleepers();
            live = live.merged(&self.meter.frozen);
        }
        self.counters.overlap = live;
    }

    /// The overlap of pair `p`, 0 when apart.
    fn pair_overlap(&self, p: &BodyPair) -> f32 {
        let si = match p.other {
            Body::Shape(s) => s,
            Body::Ball(o) => {
                let (a, b) = (&self.balls[p.ball.ix()], &self.balls[o.ix()]);
                let small = a.radius.min(b.radius);
                let d = a.radius + b.radius - (a.pos - b.pos).length();
                return if small > 0.0 { d / small } else { 0.0 };
            }
        };
        let b = &self.balls[p.ball.ix()];
        let mut scratch = super::Tally::default();
        let contact = self.reached_contact(p.ball.ix(), si.ix(), b.radius, &mut scratch);
        match contact {
            Some((c, _)) if b.radius > 0.0 => c.depth / b.radius,
            _ => 0.0,
        }
    }

    /// The pairs of the awake balls now, with the obstacles, each other and the broad
    /// phase's sleepers, in the world's pair space, found with a grid of the meter's own in
    /// the step's broad-phase order (sleepers as static boxes after the statics).
    fn pairs_at_end(&mut self) -> Vec<BodyPair> {
        let mut m = std::mem::take(&mut self.meter);
        let sleepers = self.broad_sleepers();
        m.live_awake.clear();
        m.live_awake
            .extend((0..self.balls.len() as u32).filter(|i| sleepers.binary_search(i).is_err()));
        m.live_shapes.clear();
        m.live_shapes.extend(self.shapes.iter().map(|s| s.aabb()));
        let order = SleeperOrder {
            first_moving: self.first_moving,
            shapes: self.shapes.len(),
            sleepers,
            awake: &m.live_awake,
        };
        order.boxes(
            &m.live_shapes,
            |b| self.balls[b as usize].aabb(),
            &mut m.live_boxes,
        );
        let (world_version, seen, version) = &mut m.live_statics;
        if *world_version != self.statics_version || seen[..] != *sleepers || *version == 0 {
            *world_version = self.statics_version;
            seen.clear();
            seen.extend_from_slice(sleepers);
            *version = next_statics_version();
        }
        let input = BroadInput {
            aabbs: &m.live_boxes,
            first_moving: self.first_moving + sleepers.len(),
            first_dynamic: self.shapes.len() + sleepers.len(),
            statics_version: m.live_statics.2,
            world: self.bounds,
        };
        let grid = m.live_grid.get_or_insert_with(|| BroadKind::Grid.create());
        grid.find_pairs(&input, &mut m.live_pairs, &mut BroadCounters::default());
        let mut pairs = std::mem::take(&mut m.live_bodies);
        order.pairs_to_bodies(&mut m.live_pairs, &mut pairs);
        self.meter = m;
        pairs
    }

    /// Measures the pairs among the broad phase's sleepers and with the obstacles again if that set changed or a ball woke (a woken sleeper may have moved).
    fn measure_sleepers(&mut self) {
        let mut m = std::mem::take(&mut self.meter);
        let same = m.sleepers == self.broad_sleepers();
        if same && self.counters.last_step.wakeups == 0 {
            self.meter = m;
            return;
        }
        m.sleepers.clear();
        m.sleepers.extend_from_slice(self.broad_sleepers());
        let n_shapes = self.shapes.len();
        m.boxes.clear();
        m.boxes.extend(self.shapes.iter().map(|s| s.aabb()));
        m.boxes
            .extend(m.sleepers.iter().map(|&b| self.balls[b as usize].aabb()));
        let input = BroadInput {
            aabbs: &m.boxes,
            first_moving: self.first_moving,
            first_dynamic: n_shapes,
            statics_version: next_statics_version(),
            world: self.bounds,
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
            frozen.add(self.pair_overlap(p));
        }
        m.frozen = frozen;
        self.meter = m;
    }
}
