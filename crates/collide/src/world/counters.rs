//! What the world counts: each step's work ([`Tally`]: broad-phase box tests, narrow-phase
//! tests, collisions, the pair cache, sleep), summed per simulated second and since the scene
//! was loaded, and the state of the balls the panel shows ([`Counters`]: launched,
//! co-located, overlap, asleep, strays).

use super::profile::{StageThreads, StageTime, SLOTS};
use crate::broad::BroadCounters;

/// Work counts of one period (a step, or one simulated second).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Collision iterations run.
    pub iterations: u64,
    /// Broad-phase work.
    pub broad: BroadCounters,
    /// Narrow-phase tests run (one per candidate pair).
    pub full_tests: u64,
    /// Narrow-phase tests that found contact.
    pub collisions: u64,
    /// Time spent in the broad phase (ns), when a clock is set.
    pub broad_nanos: u64,
    /// With verification on: pairs brute force found that the broad phase did not.
    pub missed: u64,
    /// With verification on: pairs the broad phase reported that brute force did not.
    pub extra: u64,
    /// Ball–shape tests of the tunnelling mode: one per pair when Off, the places sampled by
    /// linear search, envelopes and places by binary search, closed forms when exact; group
    /// members included.
    pub impact_tests: u64,
    /// Group hulls tested.
    pub hull_tests: u64,
    /// The discrete mode's last pass against the obstacles after the collision iterations
    /// (see `walls_last`): its broad-phase work, kept apart from the iterations' figures so
    /// that per-iteration counts stay comparable with the original toy's (Parberry).
    pub wall_pass: BroadCounters,
    /// Ball–obstacle tests of that last pass.
    pub wall_pass_tests: u64,
    /// Hull tests that missed, sparing the group's member tests.
    pub hull_rejections: u64,
    /// Pair cache: broad-phase calls made with grown boxes (their box tests are in `broad`).
    pub cache_queries: u64,
    /// Pair cache: broad-phase calls answered from the kept pairs, without the broad phase.
    pub cache_served: u64,
    /// Pair cache: pairs the grown queries returned (kept for the calls that follow).
    pub cache_pairs: u64,
    /// Pair cache: its own box tests: one per box checked against its grown box, one per
    /// kept pair filtered, and a re-boxed ball's tests against every box.
    pub cache_tests: u64,
    /// Pair cache: balls that left their grown box and were re-boxed without a query.
    pub cache_moved: u64,
    /// Pair cache: calls passed straight to the broad phase while the cache stood aside
    /// (too many of its recent calls had to query; `world/cache.rs`). Their work is in
    /// `broad`, as with the cache off.
    pub cache_passed: u64,
    /// Sleep: box tests of moving kinematic shapes against sleepers (to wake them).
    pub sleep_tests: u64,
    /// Sleep: balls woken.
    pub wakeups: u64,
    /// Soft contacts: sub-steps that found their contacts (the others solved the frame's).
    pub soft_finds: u64,
    /// Soft contacts: sub-steps after which some ball had strayed from the path its frame's
    /// contacts were found for, so the next sub-step found them again.
    pub soft_strays: u64,
    /// Time by stage (ns), when a clock is set: the physics profile.
    pub stages: StageNanos,
    /// The stages' work by thread, when a clock is set ([`Tally::profile`]).
    pub threads: StageThreads,
}

/// Time spent in each stage of the step (ns), when the world has a clock
/// ([`crate::World::set_clock`]); zero otherwise. The soft contacts' stages are timed apart
/// (as Box2D's profile is); the broad phase is [`Tally::broad_nanos`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageNanos {
    /// Soft contacts: the narrow phase (finding the contacts).
    pub narrow: u64,
    /// Soft contacts: colouring, the lanes and the body states.
    pub prepare: u64,
    /// Soft contacts: warm start and the solve passes.
    pub solve: u64,
    /// Soft contacts: integrating the positions and the relax passes.
    pub relax: u64,
    /// Soft contacts: restitution, writing the velocities back, the swept guard, the kept
    /// impulses.
    pub restitution: u64,
    /// Sleep: the groups of still balls after the step.
    pub sleep: u64,
    /// The overlap meter and the co-located count.
    pub meter: u64,
}

impl std::ops::AddAssign for StageNanos {
    fn add_assign(&mut self, o: Self) {
        self.narrow += o.narrow;
        self.prepare += o.prepare;
        self.solve += o.solve;
        self.relax += o.relax;
        self.restitution += o.restitution;
        self.sleep += o.sleep;
        self.meter += o.meter;
    }
}

impl Tally {
    /// Adds the hull and member tests of group queries.
    pub(super) fn add_group(&mut self, t: super::narrow_stage::GroupTests) {
        self.hull_tests += t.hulls;
        self.hull_rejections += t.rejections;
        self.impact_tests += t.members;
    }
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, o: Self) {
        self.iterations += o.iterations;
        self.broad += o.broad;
        self.full_tests += o.full_tests;
        self.collisions += o.collisions;
        self.broad_nanos += o.broad_nanos;
        self.missed += o.missed;
        self.extra += o.extra;
        self.impact_tests += o.impact_tests;
        self.hull_tests += o.hull_tests;
        self.wall_pass += o.wall_pass;
        self.wall_pass_tests += o.wall_pass_tests;
        self.hull_rejections += o.hull_rejections;
        self.sleep_tests += o.sleep_tests;
        self.wakeups += o.wakeups;
        self.soft_finds += o.soft_finds;
        self.soft_strays += o.soft_strays;
        self.stages += o.stages;
        self.threads += o.threads;
        self.add_cache(&o);
    }
}

impl Tally {
    /// Adds `o`'s pair-cache counters.
    pub(super) fn add_cache(&mut self, o: &Tally) {
        self.cache_queries += o.cache_queries;
        self.cache_served += o.cache_served;
        self.cache_pairs += o.cache_pairs;
        self.cache_tests += o.cache_tests;
        self.cache_moved += o.cache_moved;
        self.cache_passed += o.cache_passed;
    }
}

impl Tally {
    /// Per collision iteration: `(aabb tests, pairs, repeats dropped, broad µs)`.
    pub fn per_iteration(&self) -> (f64, f64, f64, f64) {
        let n = self.iterations.max(1) as f64;
        (
            self.broad.aabb_tests as f64 / n,
            self.broad.pairs as f64 / n,
            self.broad.repeats_dropped as f64 / n,
            self.broad_nanos as f64 / n / 1000.0,
        )
    }
}

/// The counters the panel shows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counters {
    /// Everything since the scene was loaded.
    pub total: Tally,
    /// The last step.
    pub last_step: Tally,
    /// The last complete simulated second.
    pub last_second: Tally,
    /// The simulated second in progress.
    pub(super) current_second: Tally,
    pub(super) steps_in_second: u32,
    /// Whether a simulated second has completed, so `last_second` holds one.
    pub(super) full_second: bool,
    /// Balls launched since the last clear.
    pub launched: u64,
    /// Co-located balls: sitting at the same place as another (centres closer than half the
    /// smaller radius). Not the overlap of touching balls, which is [`Counters::overlap`].
    pub co_located: u32,
    /// How deep the touching pairs overlap at the end of the last frame (the last step of
    /// each `motion_iterations`; the steps between keep the frame's figure).
    pub overlap: OverlapMeter,
    /// Balls asleep at the end of the last step.
    pub asleep: u32,
    /// Balls whose centre is outside the play area.
    pub strays: u32,
}

/// Overlap of the touching pairs at the end of one frame.
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

    /// Counts one pair of `overlap` (a fraction of the smaller radius); 0, negative or NaN
    /// is apart.
    pub fn add(&mut self, overlap: f32) {
        if overlap.is_nan() || overlap <= 0.0 {
            return;
        }
        self.pairs += 1;
        self.max = self.max.max(overlap);
        self.sum += overlap as f64;
        self.over_1pct += (overlap > 0.01) as u32;
        self.over_10pct += (overlap > 0.1) as u32;
    }

    pub(super) fn merged(mut self, o: &OverlapMeter) -> Self {
        self.pairs += o.pairs;
        self.max = self.max.max(o.max);
        self.sum += o.sum;
        self.over_1pct += o.over_1pct;
        self.over_10pct += o.over_10pct;
        self
    }
}

impl Tally {
    /// The stages in the step's order, each with its wall time and its spread.
    pub fn profile(&self) -> [StageTime; 8] {
        let (n, t) = (&self.stages, &self.threads);
        let stage = |name, soft, nanos, spread| StageTime {
            name,
            soft,
            nanos,
            spread,
        };
        [
            stage("pairs", false, self.broad_nanos, t.pairs),
            stage("narrow", true, n.narrow, t.narrow),
            stage("prepare", true, n.prepare, t.prepare),
            stage("solve", true, n.solve, t.solve),
            stage("relax", true, n.relax, t.relax),
            stage("restitution", true, n.restitution, t.restitution),
            stage("sleep", false, n.sleep, t.sleep),
            stage("meter", false, n.meter, t.meter),
        ]
    }

    /// Threads that took part in any stage.
    pub fn profiled_threads(&self) -> usize {
        let p = self.profile();
        (0..SLOTS)
            .rev()
            .find(|&k| p.iter().any(|s| s.spread.busy[k] + s.spread.idle[k] > 0))
            .map_or(0, |k| k + 1)
    }
}
