//! Sweep and prune (sort and sweep) on one axis, with a persistent insertion-sorted order.
//!
//! Algorithm. Every box is ordered by its min on the sweep axis. A sweep visits the boxes in
//! that order keeping an *active list* of boxes whose interval may still reach the current
//! one: on reaching a box with min `m`, each active box whose max is `< m` is pruned (it can
//! reach no later box either, since mins only grow), and every other active box overlaps the
//! current one on the sweep axis, so it gets the full box test. A pair is thus met once, when
//! its later box is reached. Intervals are closed: a box whose max equals `m` stays active, so
//! touching boxes are found, and the order of equal mins does not matter.
//!
//! Persistence. Between calls little moves, so the order of the moving boxes (kinematic shapes
//! and balls) is kept and repaired by insertion sort, `O(n + swaps)`. It is rebuilt with a
//! full sort when the number of moving boxes, the layout or the axis changes. Statics are
//! sorted once per `statics_version`, on both axes, and merged into the sweep. Two active
//! lists are kept, obstacles and balls: an obstacle is only compared with active balls, so
//! obstacle–obstacle pairs (never wanted) cost nothing; the obstacle list is pruned lazily,
//! when a ball scans it.
//!
//! Axis. With `axis` = 0 (auto) the axis whose box centres spread more (variance) is used,
//! with hysteresis: the axis changes only when the other's variance is 25 % larger, so a
//! balanced scene does not thrash between full sorts.
//!
//! Cost. `O(n)` to repair a nearly sorted order plus the swaps, `O(n + k)` to sweep where `k`
//! is the number of active-list visits. Each visit of an active box is counted as one AABB
//! test (the sweep-axis interval check and the other-axis check of one candidate together),
//! whether it is pruned or tested in full. Sorting work (insertion swaps, full sorts) is kept
//! as separate statistics, not as AABB tests. Worst case (everything on one line across the
//! sweep axis) is `Θ(n²)`, as brute force.
//!
//! Invariants (checked by `validate`): the moving order is a permutation of the moving
//! indices sorted by key; each statics order is a permutation of the statics sorted by key.
//! No pair can be met twice, so `repeats_dropped` stays 0. Seed: none of the seed documents
//! describes SAP; it is the classic method of Baraff (1992) and Cohen et al. (I-COLLIDE, 1995).

use super::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair, Param};
use crate::debug_draw::{DebugDraw, Prim, Rgba};
use crate::geom::Aabb;
use glam::Vec2;

/// How much larger (×) the other axis's spread must be before auto mode switches to it.
const HYSTERESIS: f64 = 1.25;
/// Rows the projected intervals are spread over in the debug drawing.
const DRAW_ROWS: usize = 8;

/// Boxes sorted by their min on one axis, keys kept beside the indices.
#[derive(Clone, Debug, Default)]
struct Sorted {
    items: Vec<u32>,
    keys: Vec<f32>,
}

impl Sorted {
    /// Refills with `range`, keys from `aabbs` on `axis`, and sorts fully.
    fn rebuild(&mut self, aabbs: &[Aabb], range: std::ops::Range<usize>, axis: usize) {
        self.items.clear();
        self.items.extend(range.map(|i| i as u32));
        // `+ 0.0` maps −0.0 to +0.0 so total_cmp agrees with `<` on equal coordinates.
        self.items
            .sort_unstable_by(|&a, &b| key(aabbs, a, axis).total_cmp(&key(aabbs, b, axis)));
        self.keys.clear();
        self.keys
            .extend(self.items.iter().map(|&i| key(aabbs, i, axis)));
    }

    /// Refreshes the keys and repairs the order by insertion sort; returns the swaps done.
    fn resort(&mut self, aabbs: &[Aabb], axis: usize) -> u64 {
        for (k, &i) in self.keys.iter_mut().zip(&self.items) {
            *k = key(aabbs, i, axis);
        }
        let mut swaps = 0;
        for k in 1..self.items.len() {
            let (key, item) = (self.keys[k], self.items[k]);
            let mut h = k;
            while h > 0 && self.keys[h - 1] > key {
                self.keys[h] = self.keys[h - 1];
                self.items[h] = self.items[h - 1];
                h -= 1;
            }
            swaps += (k - h) as u64;
            self.keys[h] = key;
            self.items[h] = item;
        }
        swaps
    }

    /// Checks the order is a permutation of `range` sorted by key.
    fn check(&self, range: std::ops::Range<usize>, what: &str) -> Result<(), String> {
        if self.items.len() != range.len() || self.keys.len() != range.len() {
            return Err(format!("{what}: {} items for {range:?}", self.items.len()));
        }
        if self.keys.windows(2).any(|w| w[0] > w[1]) {
            return Err(format!("{what}: keys out of order"));
        }
        let mut seen = vec![false; range.len()];
        for &i in &self.items {
            let k = (i as usize).wrapping_sub(range.start);
            if k >= seen.len() || std::mem::replace(&mut seen[k], true) {
                return Err(format!("{what}: item {i} foreign or repeated"));
            }
        }
        Ok(())
    }
}

/// The sort key of box `i`: its min on `axis`, −0.0 normalised.
#[inline(always)]
fn key(aabbs: &[Aabb], i: u32, axis: usize) -> f32 {
    aabbs[i as usize].min[axis] + 0.0
}

/// One box's interval on the sweep axis, for drawing.
#[derive(Clone, Copy, Debug)]
struct Interval {
    lo: f32,
    hi: f32,
    ball: bool,
    in_pair: bool,
}

/// Read-outs of the last call.
#[derive(Clone, Copy, Debug, Default)]
struct SapStats {
    swaps: u64,
    full_sorts: u64,
    max_active_obstacles: usize,
    max_active_balls: usize,
    spread: [f64; 2],
}

/// Sweep and prune broad phase.
#[derive(Debug, Default)]
pub struct Sap {
    /// 0 auto, 1 x, 2 y.
    axis_mode: u8,
    /// Axis of the last sweep (0 = x, 1 = y).
    axis: usize,
    statics_version: Option<u64>,
    statics: [Sorted; 2],
    moving: Sorted,
    /// `(first_moving, len, axis)` the moving order was built for.
    moving_layout: Option<(usize, usize, usize)>,
    active_obstacles: Vec<u32>,
    active_balls: Vec<u32>,
    intervals: Vec<Interval>,
    world: Aabb,
    stats: SapStats,
}

impl Sap {
    /// An instance with the given axis mode: 0 auto, 1 x, 2 y.
    pub fn with_axis(mode: u8) -> Self {
        Self {
            axis_mode: mode.min(2),
            ..Self::default()
        }
    }

    /// Re-sorts the statics on both axes when their version or count changed.
    fn sync_statics(&mut self, input: &BroadInput) {
        let fm = input.first_moving.min(input.aabbs.len());
        if self.statics_version == Some(input.statics_version) && self.statics[0].items.len() == fm
        {
            return;
        }
        for axis in 0..2 {
            self.statics[axis].rebuild(input.aabbs, 0..fm, axis);
        }
        self.stats.full_sorts += 2;
        self.statics_version = Some(input.statics_version);
    }

    /// Picks the sweep axis from the mode, or from the spread of centres with hysteresis.
    fn choose_axis(&mut self, input: &BroadInput) {
        self.stats.spread = spread(input.aabbs);
        self.axis = match self.axis_mode {
            1 => 0,
            2 => 1,
            _ => {
                let [cur, other] = [self.axis, 1 - self.axis].map(|a| self.stats.spread[a]);
                if other > cur * HYSTERESIS {
                    1 - self.axis
                } else {
                    self.axis
                }
            }
        };
    }

    /// Brings the moving order up to date: insertion sort, or a full sort on layout change.
    fn sync_moving(&mut self, input: &BroadInput) {
        let n = input.aabbs.len();
        let fm = input.first_moving.min(n);
        let layout = Some((fm, n, self.axis));
        if self.moving_layout == layout {
            self.stats.swaps = self.moving.resort(input.aabbs, self.axis);
        } else {
            self.moving.rebuild(input.aabbs, fm..n, self.axis);
            self.moving_layout = layout;
            self.stats.full_sorts += 1;
        }
    }

    /// Sweeps statics and moving boxes in merged order; returns the AABB tests done.
    fn sweep(&mut self, input: &BroadInput, pairs: &mut Vec<Pair>) -> u64 {
        self.active_obstacles.clear();
        self.active_balls.clear();
        let (s, m) = (&self.statics[self.axis], &self.moving);
        let (mut p, mut q, mut tests) = (0, 0, 0);
        while p < s.items.len() || q < m.items.len() {
            let take_static = q == m.items.len() || (p < s.items.len() && s.keys[p] <= m.keys[q]);
            let item = if take_static {
                p += 1;
                s.items[p - 1]
            } else {
                q += 1;
                m.items[q - 1]
            };
            let ball = item as usize >= input.first_dynamic;
            let a = (&mut self.active_obstacles, &mut self.active_balls);
            tests += visit(input, self.axis, item, ball, a, pairs);
            let st = &mut self.stats;
            st.max_active_obstacles = st.max_active_obstacles.max(self.active_obstacles.len());
            st.max_active_balls = st.max_active_balls.max(self.active_balls.len());
        }
        tests
    }

    /// Keeps each box's interval on the sweep axis, marking those in a pair, for drawing.
    fn keep_intervals(&mut self, input: &BroadInput, pairs: &[Pair]) {
        self.world = input.world;
        self.intervals.clear();
        self.intervals
            .extend(input.aabbs.iter().enumerate().map(|(i, b)| Interval {
                lo: b.min[self.axis],
                hi: b.max[self.axis],
                ball: i >= input.first_dynamic,
                in_pair: false,
            }));
        for &(i, j) in pairs {
            self.intervals[i as usize].in_pair = true;
            self.intervals[j as usize].in_pair = true;
        }
    }
}

/// Handles one box reached by the sweep: scans the active lists it can pair with, then joins
/// its own list. Returns the AABB tests (active-list visits) done.
fn visit(
    input: &BroadInput,
    axis: usize,
    item: u32,
    ball: bool,
    (obstacles, balls): (&mut Vec<u32>, &mut Vec<u32>),
    pairs: &mut Vec<Pair>,
) -> u64 {
    let mut tests = scan(input, axis, item, balls, pairs);
    if ball {
        tests += scan(input, axis, item, obstacles, pairs);
        balls.push(item);
    } else {
        obstacles.push(item);
    }
    tests
}

/// Prunes from `active` the boxes ending before `item` starts on `axis`, tests the rest
/// against `item` and records overlaps as `(min, max)`. Returns the boxes visited.
fn scan(
    input: &BroadInput,
    axis: usize,
    item: u32,
    active: &mut Vec<u32>,
    pairs: &mut Vec<Pair>,
) -> u64 {
    let b = &input.aabbs[item as usize];
    let start = b.min[axis];
    let visited = active.len() as u64;
    let mut k = 0;
    while k < active.len() {
        let other = active[k];
        let a = &input.aabbs[other as usize];
        if a.max[axis] < start {
            active.swap_remove(k);
            continue;
        }
        if a.overlaps(b) {
            pairs.push((other.min(item), other.max(item)));
        }
        k += 1;
    }
    visited
}

/// Variance of box centres on x and on y (px²).
fn spread(aabbs: &[Aabb]) -> [f64; 2] {
    if aabbs.is_empty() {
        return [0.0; 2];
    }
    let (mut sum, mut sq) = ([0.0f64; 2], [0.0f64; 2]);
    for b in aabbs {
        let c = b.centre();
        for (axis, v) in [c.x as f64, c.y as f64].into_iter().enumerate() {
            sum[axis] += v;
            sq[axis] += v * v;
        }
    }
    let n = aabbs.len() as f64;
    // var = E[c²] − E[c]²
    [0, 1].map(|a| (sq[a] / n - (sum[a] / n).powi(2)).max(0.0))
}

impl BroadPhase for Sap {
    fn kind(&self) -> BroadKind {
        BroadKind::Sap
    }

    fn find_pairs(
        &mut self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
    ) {
        pairs.clear();
        self.stats = SapStats::default();
        self.sync_statics(input);
        self.choose_axis(input);
        self.sync_moving(input);
        counters.aabb_tests += self.sweep(input, pairs);
        pairs.sort_unstable();
        counters.pairs += pairs.len() as u64;
        self.keep_intervals(input, pairs);
    }

    fn validate(&self) -> Result<(), String> {
        let fm = self.statics[0].items.len();
        for axis in 0..2 {
            self.statics[axis].check(0..fm, "statics order")?;
        }
        if let Some((first_moving, n, axis)) = self.moving_layout {
            if first_moving != fm || axis != self.axis {
                return Err(format!("moving order built for {first_moving}/{axis}"));
            }
            self.moving.check(fm..n, "moving order")?;
        }
        Ok(())
    }

    fn params(&self) -> Vec<Param> {
        vec![Param {
            name: "axis",
            value: self.axis_mode as f32,
            min: 0.0,
            max: 2.0,
            integer: true,
            help: "Sweep axis: 0 auto (larger spread of centres, with hysteresis), 1 x, 2 y".into(),
        }]
    }

    fn set_param(&mut self, name: &str, value: f32) -> Result<(), String> {
        if name != "axis" {
            return Err(format!("{} has no parameter {name:?}", self.kind().label()));
        }
        if ![0.0, 1.0, 2.0].contains(&value) {
            return Err("axis must be 0 (auto), 1 (x) or 2 (y)".into());
        }
        self.axis_mode = value as u8;
        Ok(())
    }

    fn stats(&self) -> Vec<(&'static str, String)> {
        let s = &self.stats;
        vec![
            ("axis", ["x", "y"][self.axis].to_string()),
            ("insertion swaps", s.swaps.to_string()),
            ("full sorts", s.full_sorts.to_string()),
            ("max active balls", s.max_active_balls.to_string()),
            ("max active obstacles", s.max_active_obstacles.to_string()),
            (
                "spread x / y (px)",
                format!("{:.0} / {:.0}", s.spread[0].sqrt(), s.spread[1].sqrt()),
            ),
        ]
    }

    fn debug_draw(&self, draw: &mut dyn DebugDraw) {
        let (w, axis) = (self.world, self.axis);
        // The sweep axis runs along the world's bottom edge (x) or left edge (y), just outside.
        let place = |along: f32, offset: f32| match axis {
            0 => Vec2::new(along, w.min.y - offset),
            _ => Vec2::new(w.min.x - offset, along),
        };
        let grey = Rgba(0.7, 0.7, 0.7, 0.8);
        let (lo, hi) = (w.min[axis], w.max[axis]);
        draw.draw(Prim::Line {
            a: place(lo, 4.0),
            b: place(hi, 4.0),
            color: grey,
        });
        draw.draw(Prim::Text {
            at: place(lo, 2.0),
            text: format!("sweep {}", ["x", "y"][axis]),
            color: grey,
        });
        for (k, iv) in self.intervals.iter().enumerate() {
            let offset = 8.0 + 3.0 * (k % DRAW_ROWS) as f32;
            let color = match (iv.in_pair, iv.ball) {
                (true, _) => Rgba(1.0, 0.45, 0.3, 1.0),
                (false, true) => Rgba(0.4, 0.8, 1.0, 0.5),
                (false, false) => Rgba(0.6, 0.6, 0.6, 0.4),
            };
            draw.draw(Prim::Line {
                a: place(iv.lo, offset),
                b: place(iv.hi, offset),
                color,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::brute::brute_pairs;
    use crate::debug_draw::Recorder;

    fn input(aabbs: &[Aabb], first_moving: usize, first_dynamic: usize) -> BroadInput<'_> {
        BroadInput {
            aabbs,
            first_moving,
            first_dynamic,
            statics_version: 7,
            world: Aabb::new(Vec2::ZERO, Vec2::splat(100.0)),
        }
    }

    fn run(sap: &mut Sap, inp: &BroadInput) -> (Vec<Pair>, BroadCounters) {
        let (mut pairs, mut c) = (Vec::new(), BroadCounters::default());
        sap.find_pairs(inp, &mut pairs, &mut c);
        sap.validate().unwrap();
        let mut expect = Vec::new();
        brute_pairs(inp, &mut expect);
        assert_eq!(pairs, expect);
        (pairs, c)
    }

    fn row(n: usize, step: f32, y: f32) -> Vec<Aabb> {
        (0..n)
            .map(|k| {
                Aabb::new(
                    Vec2::new(k as f32 * step, y),
                    Vec2::new(k as f32 * step + 1.0, y + 1.0),
                )
            })
            .collect()
    }

    #[test]
    fn touching_intervals_are_paired_whatever_the_tie_order() {
        let boxes = row(6, 1.0, 0.0);
        let mut sap = Sap::with_axis(1);
        let (pairs, _) = run(&mut sap, &input(&boxes, 0, 0));
        assert_eq!(pairs.len(), 5);
    }

    #[test]
    fn negative_zero_touches_positive_zero() {
        let a = Aabb::new(Vec2::new(-1.0, 0.0), Vec2::new(-0.0, 1.0));
        let b = Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(1.0, 1.0));
        let mut sap = Sap::with_axis(1);
        let (pairs, _) = run(&mut sap, &input(&[a, b], 0, 0));
        assert_eq!(pairs, vec![(0, 1)]);
    }

    #[test]
    fn auto_axis_follows_the_spread_and_obstacles_skip_each_other() {
        // Boxes spread along y only: auto picks y; obstacles (first 3) never scan each other.
        let boxes: Vec<Aabb> = (0..10)
            .map(|k| {
                Aabb::new(
                    Vec2::new(0.0, k as f32 * 5.0),
                    Vec2::new(50.0, k as f32 * 5.0 + 1.0),
                )
            })
            .collect();
        let mut sap = Sap::default();
        let (_, c) = run(&mut sap, &input(&boxes, 3, 3));
        assert_eq!(sap.axis, 1);
        assert!(
            c.aabb_tests <= 7 * 2,
            "each ball meets at most the box before it"
        );
    }

    #[test]
    fn order_persists_and_insertion_sort_repairs_it() {
        let mut boxes = row(8, 3.0, 0.0);
        let mut sap = Sap::with_axis(1);
        run(&mut sap, &input(&boxes, 0, 0));
        assert_eq!(sap.stats.full_sorts, 3);
        boxes.swap(2, 5);
        run(&mut sap, &input(&boxes, 0, 0));
        assert_eq!(sap.stats.full_sorts, 0);
        assert_eq!(sap.stats.swaps, 5, "2↔5 displaced: 3 + 2 moves");
        boxes.pop();
        run(&mut sap, &input(&boxes, 0, 0));
        assert_eq!(sap.stats.full_sorts, 1, "ball count changed");
    }

    #[test]
    fn axis_param_is_checked_and_draws_intervals() {
        let mut sap = Sap::default();
        assert!(sap.set_param("axis", 3.0).is_err());
        assert!(sap.set_param("axes", 1.0).is_err());
        sap.set_param("axis", 2.0).unwrap();
        let boxes = row(4, 0.5, 0.0);
        run(&mut sap, &input(&boxes, 1, 2));
        let mut rec = Recorder::default();
        sap.debug_draw(&mut rec);
        assert_eq!(rec.prims.len(), 2 + boxes.len());
    }
}
