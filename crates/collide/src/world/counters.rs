//! What the world counts: each step's work ([`Tally`]: broad-phase box tests, narrow-phase
//! tests, collisions, the pair cache, sleep), summed per simulated second and since the scene
//! was loaded, and the state of the balls the panel shows ([`Counters`]: launched,
//! co-located, overlap, asleep, strays).

use super::{OverlapMeter, World};
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
    current_second: Tally,
    steps_in_second: u32,
    /// Whether a simulated second has completed, so `last_second` holds one.
    full_second: bool,
    /// Balls launched since the last clear.
    pub launched: u64,
    /// Co-located balls: sitting at the same place as another (centres closer than half the
    /// smaller radius). Not the overlap of touching balls, which is [`Counters::overlap`].
    pub co_located: u32,
    /// How deep the touching pairs overlap at the end of the last step.
    pub overlap: OverlapMeter,
    /// Balls asleep at the end of the last step.
    pub asleep: u32,
    /// Balls whose centre is outside the play area.
    pub strays: u32,
}

impl World {
    /// What the panel shows as "the last second": the last complete simulated second, and
    /// until one has completed, the second in progress (just after a load, and for as long as
    /// a simulated second takes: half a minute with 100,000 balls in slow motion). Returns
    /// the tally and the factor that turns its counts into rates per simulated second: 1 for
    /// a complete second, `steps per second / steps so far` for the one in progress.
    pub fn recent_second(&self) -> (&Tally, f64) {
        let c = &self.counters;
        if c.full_second || c.steps_in_second == 0 {
            (&c.last_second, 1.0)
        } else {
            let factor = self.steps_per_second() as f64 / c.steps_in_second as f64;
            (&c.current_second, factor)
        }
    }

    pub(super) fn count_after_step(&mut self, mut tally: Tally) {
        tally.wakeups = std::mem::take(&mut self.woken);
        let per_second = self.steps_per_second();
        let c = &mut self.counters;
        c.last_step = tally;
        c.total += tally;
        c.current_second += tally;
        c.steps_in_second += 1;
        if c.steps_in_second >= per_second {
            c.last_second = c.current_second;
            c.current_second = Tally::default();
            c.steps_in_second = 0;
            c.full_second = true;
        }
        let strays = self
            .balls
            .iter()
            .filter(|b| !self.bounds.contains(b.pos))
            .count() as u32;
        self.counters.strays = strays;
        self.counters.co_located = self.count_co_located();
        self.measure_overlap();
        self.counters.asleep = self.asleep_count() as u32;
    }

    /// Balls whose centre is within half the smaller radius of another ball's centre, found
    /// among the last candidate pairs (co-located balls always have overlapping boxes).
    fn count_co_located(&mut self) -> u32 {
        let n_shapes = self.shapes.len() as u32;
        let mut marked = std::mem::take(&mut self.overlap_scratch);
        marked.clear();
        for &(i, j) in self.pairs.iter().filter(|p| p.0 >= n_shapes) {
            let (a, b) = (
                &self.balls[(i - n_shapes) as usize],
                &self.balls[(j - n_shapes) as usize],
            );
            let close = 0.5 * a.radius.min(b.radius);
            if (a.pos - b.pos).length_squared() < close * close || a.pos == b.pos {
                marked.push(i);
                marked.push(j);
            }
        }
        marked.sort_unstable();
        marked.dedup();
        let count = marked.len() as u32;
        self.overlap_scratch = marked;
        count
    }
}
