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

use super::World;
use crate::broad::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair};
use crate::geom::Aabb;

/// Overlap of the touching pairs of one step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct OverlapMeter {
    /// Touching pairs measured.
    pub pairs: u32,
    /// Deepest overlap, as a fraction of the smaller radius.
    pub max: f32,
    /// Sum of the overlaps (for the mean).
    pub sum: f64,
    /// Pairs deeper than 1 % of the smaller radius.
    pub over_1pct: u32,
    /// Pairs deeper than 10 %.
    pub over_10pct: u32,
}

impl OverlapMeter {
    /// Mean overlap over the touching pairs (0 when none touch).
    pub fn mean(&self) -> f32 {
        if self.pairs == 0 {
            0.0
        } else {
            (self.sum / self.pairs as f64) as f32
        }
    }

    fn add(&mut self, overlap: f32) {
        if overlap.is_nan() || overlap <= 0.0 {
            return;
        }
        self.pairs += 1;
        self.max = self.max.max(overlap);
        self.sum += overlap as f64;
        self.over_1pct += (overlap > 0.01) as u32;
        self.over_10pct += (overlap > 0.1) as u32;
    }

    fn merged(mut self, o: &OverlapMeter) -> Self {
        self.pairs += o.pairs;
        self.max = self.max.max(o.max);
        self.sum += o.sum;
        self.over_1pct += o.over_1pct;
        self.over_10pct += o.over_10pct;
        self
    }
}

/// From this many balls the meter finds the push-out's pairs with a grid instead of a sweep
/// along x (a sweep meets every box of a pile's column; a grid costs a fixed setup).
const GRID_FROM: usize = 1000;

/// The meter's own state: the sleepers' part and the grid that measured it.
#[derive(Default)]
pub(super) struct MeterState {
    /// The sleepers measured (ball indices) and what they gave.
    sleepers: Vec<u32>,
    /// The push-out's own search of the awake balls' pairs: every box, their order along x
    /// (kept from step to step), the pairs.
    live_boxes: Vec<Aabb>,
    live_order: Vec<u32>,
    live_pairs: Vec<Pair>,
    /// For many balls, a grid of the meter's own instead of the sweep: the grid, the balls in
    /// its order (sleepers first), and the statics it keeps (the world's statics version, the
    /// sleepers it saw, the version handed to the grid).
    live_grid: Option<Box<dyn BroadPhase>>,
    live_balls: Vec<u32>,
    live_statics: (u64, Vec<u32>, u64),
    frozen: OverlapMeter,
    grid: Option<Box<dyn BroadPhase>>,
    boxes: Vec<Aabb>,
    pairs: Vec<Pair>,
}

impl World {
    /// Measures the overlaps at the end of a step into the counters.
    pub(super) fn measure_overlap(&mut self) {
        let n_shapes = self.shapes.len() as u32;
        let mut live = OverlapMeter::default();
        if self.settings.solver == super::Solver::PushOut {
            let pairs = self.pairs_at_end();
            for &(i, j) in &pairs {
                live.add(self.pair_overlap(i, j, n_shapes));
            }
            self.meter.live_pairs = pairs;
        } else {
            for &(i, j) in &self.pairs {
                live.add(self.pair_overlap(i, j, n_shapes));
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

    /// The overlap of pair `(i, j)` of the world's pair space, 0 when apart.
    fn pair_overlap(&self, i: u32, j: u32, n_shapes: u32) -> f32 {
        let b = &self.balls[(j - n_shapes) as usize];
        if i >= n_shapes {
            let a = &self.balls[(i - n_shapes) as usize];
            let small = a.radius.min(b.radius);
            let d = a.radius + b.radius - (a.pos - b.pos).length();
            return if small > 0.0 { d / small } else { 0.0 };
        }
        let mut scratch = super::Tally::default();
        let contact =
            self.reached_contact((j - n_shapes) as usize, i as usize, b.radius, &mut scratch);
        match contact {
            Some((c, _)) if b.radius > 0.0 => c.depth / b.radius,
            _ => 0.0,
        }
    }

    /// The pairs of the awake balls now, with the obstacles, each other and the broad
    /// phase's sleepers, in the world's pair space: a sort of every box along x (nearly
    /// sorted from the last step, so cheap) and a sweep.
    fn pairs_at_end(&mut self) -> Vec<Pair> {
        if self.balls.len() >= GRID_FROM {
            return self.pairs_at_end_by_grid();
        }
        let mut m = std::mem::take(&mut self.meter);
        let n_shapes = self.shapes.len();
        let sleepers = self.broad_sleepers();
        let asleep =
            |k: usize| k >= n_shapes && sleepers.binary_search(&((k - n_shapes) as u32)).is_ok();
        m.live_boxes.clear();
        m.live_boxes.extend(self.shapes.iter().map(|s| s.aabb()));
        m.live_boxes.extend(self.balls.iter().map(|b| b.aabb()));
        let boxes = &m.live_boxes;
        if m.live_order.len() != boxes.len() {
            m.live_order.clear();
            m.live_order.extend(0..boxes.len() as u32);
        }
        m.live_order
            .sort_by(|&a, &b| boxes[a as usize].min.x.total_cmp(&boxes[b as usize].min.x));
        let mut pairs = std::mem::take(&mut m.live_pairs);
        pairs.clear();
        for (k, &a) in m.live_order.iter().enumerate() {
            let (a, box_a) = (a as usize, &boxes[a as usize]);
            for &b in &m.live_order[k + 1..] {
                let (b, box_b) = (b as usize, &boxes[b as usize]);
                if box_b.min.x > box_a.max.x {
                    break;
                }
                let (lo, hi) = (a.min(b), a.max(b));
                // Obstacles never pair; the sleepers' own pairs are the frozen part's.
                if hi < n_shapes || (asleep(hi) && (lo < n_shapes || asleep(lo))) {
                    continue;
                }
                if box_a.overlaps(box_b) {
                    pairs.push((lo as u32, hi as u32));
                }
            }
        }
        self.meter = m;
        pairs
    }

    /// The same pairs found with a grid (sleepers as static boxes after the statics, as the
    /// step's broad phase sees them), for piles where a sweep along x meets too many boxes.
    fn pairs_at_end_by_grid(&mut self) -> Vec<Pair> {
        let mut m = std::mem::take(&mut self.meter);
        let (n_shapes, fm) = (self.shapes.len(), self.first_moving);
        let sleepers = self.broad_sleepers();
        let z = sleepers.len();
        m.live_balls.clear();
        m.live_balls.extend_from_slice(sleepers);
        let asleep = |i: u32| sleepers.binary_search(&i).is_ok();
        m.live_balls
            .extend((0..self.balls.len() as u32).filter(|&i| !asleep(i)));
        m.live_boxes.clear();
        m.live_boxes
            .extend(self.shapes[..fm].iter().map(|s| s.aabb()));
        m.live_boxes.extend(
            m.live_balls[..z]
                .iter()
                .map(|&b| self.balls[b as usize].aabb()),
        );
        m.live_boxes
            .extend(self.shapes[fm..].iter().map(|s| s.aabb()));
        m.live_boxes.extend(
            m.live_balls[z..]
                .iter()
                .map(|&b| self.balls[b as usize].aabb()),
        );
        let (world_version, seen, version) = &mut m.live_statics;
        if *world_version != self.statics_version || seen[..] != *sleepers || *version == 0 {
            *world_version = self.statics_version;
            seen.clear();
            seen.extend_from_slice(sleepers);
            *version = super::next_statics_version();
        }
        let input = BroadInput {
            aabbs: &m.live_boxes,
            first_moving: fm + z,
            first_dynamic: n_shapes + z,
            statics_version: m.live_statics.2,
            world: self.bounds,
        };
        let grid = m.live_grid.get_or_insert_with(|| BroadKind::Grid.create());
        let mut pairs = std::mem::take(&mut m.live_pairs);
        grid.find_pairs(&input, &mut pairs, &mut BroadCounters::default());
        let balls = &m.live_balls;
        let map = |k: u32| -> u32 {
            let k = k as usize;
            let w = if k < fm {
                k
            } else if k < fm + z {
                n_shapes + balls[k - fm] as usize
            } else if k < n_shapes + z {
                k - z
            } else {
                n_shapes + balls[k - n_shapes] as usize
            };
            w as u32
        };
        for p in pairs.iter_mut() {
            let (a, b) = (map(p.0), map(p.1));
            *p = (a.min(b), a.max(b));
        }
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
            statics_version: super::next_statics_version(),
            world: self.bounds,
        };
        let grid = m.grid.get_or_insert_with(|| BroadKind::Grid.create());
        grid.find_pairs(&input, &mut m.pairs, &mut BroadCounters::default());
        let map = |k: u32| {
            if (k as usize) < n_shapes {
                k
            } else {
                n_shapes as u32 + m.sleepers[k as usize - n_shapes]
            }
        };
        let mut frozen = OverlapMeter::default();
        for &(i, j) in &m.pairs {
            frozen.add(self.pair_overlap(map(i), map(j), n_shapes as u32));
        }
        m.frozen = frozen;
        self.meter = m;
    }
}
