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
//! Bands. On one axis alone, n boxes spread over a square overlap about √n others each on
//! the sweep axis, so the active lists grow with √n and the sweep with n^1.5. The world is
//! therefore cut across the other axis into bands (the multi-SAP of Bullet and Terdiman's
//! "box pruning"): one sweep of the same sorted order, but each box joins the active lists of
//! every band its other-axis interval reaches, and a pair met in a band is kept only in the
//! band holding the larger of the two mins on the other axis (both boxes reach that band, so
//! each overlapping pair is kept exactly once). `bands` = 0 (auto) picks the count so that
//! a band's active list holds about [`ACTIVE_PER_BAND`] balls, with bands at least twice as
//! tall as a mean ball box (one band, the classic sweep, when there are few balls).
//!
//! Cost. `O(n)` to repair a nearly sorted order plus the swaps, `O(n + k)` to sweep where `k`
//! is the number of active-list visits. Each visit of an active box is counted as one AABB
//! test (the sweep-axis interval check and the other-axis check of one candidate together),
//! whether it is pruned or tested in full. Sorting work (insertion swaps, full sorts) is kept
//! as separate statistics, not as AABB tests. Worst case (everything on one line across the
//! sweep axis) is `Θ(n²)`, as brute force.
//!
//! Probe. The active-list visits a box's arrival makes belong to that box (a ball, or an
//! obstacle scanning the active balls), band by band; the focus visits its interval in each
//! band it joins (`Interval`: the interval across the band), and is tested against the
//! active boxes it scans. The heat is per box, not per place. Nothing belongs to the
//! structure: sorting is not counted as tests.
//!
//! Invariants (checked by `validate`): the moving order is a permutation of the moving
//! indices sorted by key; each statics order is a permutation of the statics sorted by key.
//! No pair can be met twice, so `repeats_dropped` stays 0. Source: the classic method of
//! Baraff (1992) and Cohen et al. (I-COLLIDE, 1995).

use super::pair_keys::PairKeys;
use super::probe::held_during;
use super::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair, Param, ParamError};
use super::{BroadInfo, ParamInfo, Place, Probe, RuleValues};
use crate::debug_draw::DebugDraw;
use crate::geom::Aabb;
use glam::Vec2;
use sorted::Sorted;

mod draw;
mod sorted;

/// The sweep axis: the sweep's own automatic choice, the axis of larger spread.
const AXIS: ParamInfo = ParamInfo {
    name: "axis",
    unit: "",
    min: 0.0,
    max: 2.0,
    integer: true,
    says: "Sweep along the axis on which the balls' centres spread more: fewer intervals \
           overlap there",
    source: "the sweep's own automatic choice",
    rule: |_| RuleValues {
        auto: 0.0,
        value: None,
        auto_why: "automatic: the axis of larger spread, with hysteresis".into(),
        sweep: [1.0, 2.0].to_vec(),
    },
};

/// The bands: the sweep's own automatic choice, about 8 balls active per band.
const BANDS: ParamInfo = ParamInfo {
    name: "bands",
    unit: "bands",
    min: 0.0,
    max: MAX_BANDS as f32,
    integer: true,
    says: "About 8 balls active at once in each band: more bands keep fewer intervals open, \
           but a ball across a band line is swept in both",
    source: "the sweep's own automatic choice (bands: Terdiman, box pruning)",
    rule: |_| RuleValues {
        auto: 0.0,
        value: None,
        auto_why: "automatic: about 8 balls active per band".into(),
        sweep: [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0].to_vec(),
    },
};

/// What sweep and prune declares: no fixed places.
pub(crate) const DESCRIPTION: BroadInfo = BroadInfo {
    name: "sap",
    label: "Sweep and prune",
    colour: [20, 170, 170],
    places: None,
    params: &[AXIS, BANDS],
    create: || Box::new(Sap::default()),
};

/// How much larger (×) the other axis's spread must be before auto mode switches to it.
const HYSTERESIS: f64 = 1.25;
/// Balls an auto band count aims to keep in a band's active list.
pub(crate) const ACTIVE_PER_BAND: f64 = 8.0;
/// Most bands.
pub(crate) const MAX_BANDS: usize = 1024;

/// How the world is cut into bands across the sweep axis for one call.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Bands {
    /// Number of bands (1: the classic single sweep).
    count: usize,
    /// Other-axis coordinate where band 0 starts.
    lo: f32,
    /// Bands per px on the other axis.
    per_px: f32,
}

impl Default for Bands {
    fn default() -> Self {
        Self {
            count: 1,
            lo: 0.0,
            per_px: 0.0,
        }
    }
}

impl Bands {
    /// The band holding other-axis coordinate `v` (the outer bands reach to infinity).
    #[inline(always)]
    fn of(&self, v: f32) -> usize {
        // `as` saturates (NaN to 0); then clamp to the last band.
        (((v - self.lo) * self.per_px) as i64).clamp(0, self.count as i64 - 1) as usize
    }

    /// Band `band` on the other axis, `(from, to)` px; the outer bands and a single band
    /// reach as far as `world`'s side.
    fn span(&self, band: usize, world: (f32, f32)) -> (f32, f32) {
        if self.count == 1 || self.per_px <= 0.0 {
            return world;
        }
        let at = |k: usize| self.lo + k as f32 / self.per_px;
        let from = if band == 0 {
            world.0.min(at(0))
        } else {
            at(band)
        };
        let to = if band + 1 == self.count {
            world.1.max(at(band + 1))
        } else {
            at(band + 1)
        };
        (from, to)
    }
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
    bands: usize,
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
    /// Bands across the sweep axis: 0 auto, else that many.
    bands_mode: u32,
    bands: Bands,
    /// Per band: active obstacles, active balls.
    active: Vec<(Vec<Active>, Vec<Active>)>,
    intervals: Vec<Interval>,
    world: Aabb,
    /// The pairs' radix sort.
    keys: PairKeys,
    stats: SapStats,
    /// The record of a probed call, held here during it.
    probe: Option<Probe>,
}

impl Sap {
    /// An instance with the given axis mode: 0 auto, 1 x, 2 y.
    #[cfg(test)]
    pub(crate) fn with_axis(mode: u8) -> Self {
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

    /// Cuts the world into bands across the sweep axis, by the mode or from the balls.
    fn choose_bands(&mut self, input: &BroadInput) {
        let (axis, other) = (self.axis, 1 - self.axis);
        let (lo, hi) = (input.world.min[other], input.world.max[other]);
        let count = match self.bands_mode {
            0 => {
                let balls = &input.aabbs[input.first_dynamic.min(input.aabbs.len())..];
                let n = balls.len() as f64;
                let (mut along, mut across) = (0.0f64, 0.0f64);
                for b in balls {
                    along += (b.max[axis] - b.min[axis]) as f64;
                    across += (b.max[other] - b.min[other]) as f64;
                }
                let (along, across) = (along / n.max(1.0), across / n.max(1.0));
                let length = (input.world.max[axis] - input.world.min[axis]) as f64;
                let height = (hi - lo) as f64;
                // Balls met on the sweep axis ≈ n · (box length / world length), per band.
                let wanted = n * along / (ACTIVE_PER_BAND * length);
                let tallest = height / (2.0 * across);
                let count = wanted.min(tallest);
                if count.is_finite() && count >= 2.0 {
                    (count as usize).min(MAX_BANDS)
                } else {
                    1
                }
            }
            k => (k as usize).min(MAX_BANDS),
        };
        let span = hi - lo;
        self.bands = if count > 1 && span.is_finite() && span > 0.0 {
            Bands {
                count,
                lo,
                per_px: count as f32 / span,
            }
        } else {
            Bands::default()
        };
        self.stats.bands = self.bands.count;
        if self.active.len() < self.bands.count {
            self.active.resize_with(self.bands.count, Default::default);
        }
        for a in &mut self.active[..self.bands.count] {
            a.0.clear();
            a.1.clear();
        }
    }

    /// Sweeps statics and moving boxes in merged order; returns the AABB tests done.
    fn sweep(&mut self, input: &BroadInput, pairs: &mut Vec<Pair>) -> u64 {
        if self.probe.is_some() {
            self.sweep_with::<true>(input, pairs)
        } else {
            self.sweep_with::<false>(input, pairs)
        }
    }

    /// [`Sap::sweep`], recording in the probe only when `PROBE` (so the plain sweep has no
    /// trace of it).
    fn sweep_with<const PROBE: bool>(&mut self, input: &BroadInput, pairs: &mut Vec<Pair>) -> u64 {
        let (s, m) = (&self.statics[self.axis], &self.moving);
        let (bands, other) = (self.bands, 1 - self.axis);
        let across = (input.world.min[other], input.world.max[other]);
        let (mut p, mut q, mut tests) = (0, 0, 0);
        let mut probe = self.probe.take();
        while p < s.items.len() || q < m.items.len() {
            let take_static = q == m.items.len() || (p < s.items.len() && s.keys[p] <= m.keys[q]);
            let me = if take_static {
                p += 1;
                Active {
                    b: s.boxes[p - 1],
                    item: s.items[p - 1],
                }
            } else {
                q += 1;
                Active {
                    b: m.boxes[q - 1],
                    item: m.items[q - 1],
                }
            };
            let ball = me.item as usize >= input.first_dynamic;
            let (first, last) = (bands.of(me.b.min[other]), bands.of(me.b.max[other]));
            for band in first..=last {
                let keep = Keep { bands, band, other };
                let (obstacles, balls) = &mut self.active[band];
                if let Some(p) = probe.as_mut().filter(|p| PROBE && p.is_focus(me.item)) {
                    p.against.extend(balls.iter().map(|a| a.item));
                    if ball {
                        p.against.extend(obstacles.iter().map(|a| a.item));
                    }
                }
                let t = visit(self.axis, me, ball, obstacles, balls, keep, pairs);
                tests += t;
                if let Some(p) = probe.as_mut().filter(|_| PROBE) {
                    probe_arrival(p, self.axis, &me, t, bands.span(band, across));
                }
                let st = &mut self.stats;
                st.max_active_obstacles = st.max_active_obstacles.max(obstacles.len());
                st.max_active_balls = st.max_active_balls.max(balls.len());
            }
        }
        self.probe = probe;
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

    /// One call; a probed call's record is held in `self.probe` meanwhile.
    fn run(&mut self, input: &BroadInput, pairs: &mut Vec<Pair>, counters: &mut BroadCounters) {
        pairs.clear();
        self.stats = SapStats::default();
        self.sync_statics(input);
        self.choose_axis(input);
        self.sync_moving(input);
        self.choose_bands(input);
        counters.aabb_tests += self.sweep(input, pairs);
        self.keys.sort_pairs(pairs, input.aabbs.len());
        counters.pairs += pairs.len() as u64;
        self.keep_intervals(input, pairs);
    }
}

/// Gives the `t` active-list visits of `me`'s arrival in a band spanning `across` on the
/// other axis to it; the focus visits its interval there.
fn probe_arrival(p: &mut Probe, axis: usize, me: &Active, t: u64, across: (f32, f32)) {
    p.test(me.item, t);
    if p.is_focus(me.item) {
        let (from, to) = across;
        let rect = interval_box(axis, &me.b, from, to);
        p.visit(me.item, Place::Interval, rect, t);
    }
}

/// The box of interval `b` on the sweep axis `axis` across `from..to` on the other.
fn interval_box(axis: usize, b: &Aabb, from: f32, to: f32) -> Aabb {
    if axis == 0 {
        Aabb::new(Vec2::new(b.min.x, from), Vec2::new(b.max.x, to))
    } else {
        Aabb::new(Vec2::new(from, b.min.y), Vec2::new(to, b.max.y))
    }
}

/// Handles one box reached by the sweep: scans the active lists it can pair with, then joins
/// its own list. Returns the AABB tests (active-list visits) done.
fn visit(
    axis: usize,
    me: Active,
    ball: bool,
    obstacles: &mut Vec<Active>,
    balls: &mut Vec<Active>,
    keep: Keep,
    pairs: &mut Vec<Pair>,
) -> u64 {
    let mut tests = scan(axis, me, balls, keep, pairs);
    if ball {
        tests += scan(axis, me, obstacles, keep, pairs);
        balls.push(me);
    } else {
        obstacles.push(me);
    }
    tests
}

/// A box in an active list, its coordinates copied beside its index so that a scan streams
/// through the list instead of looking each one up in the input.
#[derive(Clone, Copy, Debug)]
struct Active {
    b: Aabb,
    item: u32,
}

/// Which overlaps a band keeps: those whose larger other-axis min lies in it.
#[derive(Clone, Copy, Debug)]
struct Keep {
    bands: Bands,
    band: usize,
    other: usize,
}

impl Keep {
    #[inline(always)]
    fn keeps(&self, a: &Aabb, b: &Aabb) -> bool {
        self.bands.count == 1
            || self.bands.of(a.min[self.other].max(b.min[self.other])) == self.band
    }
}

/// Prunes from `active` the boxes ending before `item` starts on `axis`, tests the rest
/// against `item` and records the overlaps this band keeps as `(min, max)`. Returns the boxes
/// visited.
fn scan(
    axis: usize,
    me: Active,
    active: &mut Vec<Active>,
    keep: Keep,
    pairs: &mut Vec<Pair>,
) -> u64 {
    let (b, item) = (&me.b, me.item);
    let start = b.min[axis];
    let visited = active.len() as u64;
    let mut k = 0;
    while k < active.len() {
        let Active { b: a, item: other } = active[k];
        if a.max[axis] < start {
            active.swap_remove(k);
            continue;
        }
        if a.overlaps(b) && keep.keeps(&a, b) {
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

    fn find_pairs_with(
        &mut self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
        probe: Option<&mut Probe>,
    ) {
        held_during(
            self,
            probe,
            |s| &mut s.probe,
            |s| s.run(input, pairs, counters),
        );
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
        let axis = "Sweep axis: 0 auto (larger spread of centres, with hysteresis), 1 x, 2 y";
        let bands = format!(
            "Bands across the sweep axis, each swept with its own active lists: 0 auto (about \
             {ACTIVE_PER_BAND} balls active per band), 1 the classic single sweep, up to \
             {MAX_BANDS}"
        );
        vec![
            AXIS.param(self.axis_mode as f32, axis.into()),
            BANDS.param(self.bands_mode as f32, bands),
        ]
    }

    fn set_param(&mut self, name: &str, value: f32) -> Result<(), ParamError> {
        match name {
            "axis" => {
                if ![0.0, 1.0, 2.0].contains(&value) {
                    return Err(ParamError::Invalid(
                        "axis must be 0 (auto), 1 (x) or 2 (y)".into(),
                    ));
                }
                self.axis_mode = value as u8;
            }
            "bands" => {
                if !(value.fract() == 0.0 && (0.0..=MAX_BANDS as f32).contains(&value)) {
                    return Err(ParamError::Invalid(format!(
                        "bands must be a whole number 0..={MAX_BANDS}"
                    )));
                }
                self.bands_mode = value as u32;
            }
            _ => return Err(ParamError::unknown(self.kind(), name)),
        }
        Ok(())
    }

    fn stats(&self) -> Vec<(&'static str, String)> {
        let s = &self.stats;
        vec![
            ("axis", ["x", "y"][self.axis].to_string()),
            ("bands", s.bands.to_string()),
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
        self.draw_structure(draw);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::brute_pairs;
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

    /// Seeded boxes of mixed sizes, some reaching outside the world and some huge.
    fn scattered(n: usize, seed: u64) -> Vec<Aabb> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        (0..n)
            .map(|k| {
                let c = Vec2::new(rng.gen_range(-10.0..110.0), rng.gen_range(-10.0..110.0));
                let half = if k % 97 == 0 {
                    Vec2::new(rng.gen_range(0.0..80.0), rng.gen_range(0.0..80.0))
                } else {
                    Vec2::new(rng.gen_range(0.0..3.0), rng.gen_range(0.0..3.0))
                };
                Aabb::new(c - half, c + half)
            })
            .collect()
    }

    #[test]
    fn banded_sweeps_find_exactly_the_brute_force_pairs_once() {
        for seed in 0..20 {
            let boxes = scattered(600, seed);
            for bands in [0.0, 1.0, 2.0, 3.0, 7.0, 64.0, 1024.0] {
                for axis in [0.0, 1.0, 2.0] {
                    let mut sap = Sap::default();
                    sap.set_param("bands", bands).unwrap();
                    sap.set_param("axis", axis).unwrap();
                    // `run` compares with brute force (sorted, each pair once).
                    run(&mut sap, &input(&boxes, 5, 10));
                    let mut moved = boxes.clone();
                    for b in moved.iter_mut().skip(5) {
                        *b = Aabb::new(b.min + Vec2::splat(0.7), b.max + Vec2::splat(0.7));
                    }
                    run(&mut sap, &input(&moved, 5, 10));
                }
            }
        }
    }

    #[test]
    fn auto_bands_grow_with_the_balls_and_cut_the_visits() {
        let boxes = scattered(5_000, 1);
        let (mut one, mut auto) = (Sap::default(), Sap::default());
        one.set_param("bands", 1.0).unwrap();
        let (_, c1) = run(&mut one, &input(&boxes, 0, 0));
        let (_, ca) = run(&mut auto, &input(&boxes, 0, 0));
        assert_eq!(one.stats.bands, 1);
        assert!(auto.stats.bands > 4, "{} bands", auto.stats.bands);
        assert!(ca.aabb_tests * 3 < c1.aabb_tests, "{ca:?} vs {c1:?}");
        let few = scattered(20, 1);
        let mut small = Sap::default();
        run(&mut small, &input(&few, 0, 0));
        assert_eq!(small.stats.bands, 1, "few balls: the classic sweep");
    }

    #[test]
    fn bands_param_is_checked() {
        let mut sap = Sap::default();
        assert!(sap.set_param("bands", 1.5).is_err());
        assert!(sap.set_param("bands", -1.0).is_err());
        assert!(sap.set_param("bands", 5000.0).is_err());
        sap.set_param("bands", 12.0).unwrap();
        assert_eq!(sap.params()[1].value, 12.0);
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
