//! The pair cache ([`super::Settings::pair_cache`]): candidate pairs kept across collision
//! iterations and steps, exactly.
//!
//! A query asks the broad phase once with every ball's box grown by a margin (obstacles'
//! boxes as they are) and keeps those boxes and the pairs it returned. A later broad-phase
//! call of the world (a collision iteration, the wall pass) may be answered from the cache
//! when every current box lies inside its cached box (same count of boxes, same obstacles):
//! two current boxes that overlap then have cached boxes that overlap, so every pair the
//! broad phase would return now is among the cached pairs, and keeping the cached pairs
//! (sorted) whose current boxes overlap gives exactly that list, in the same order. The
//! simulation is therefore bit for bit the same with the cache on or off, in every
//! tunnelling mode (the argument holds for any boxes, so for the swept modes' path boxes
//! too); only the work differs.
//!
//! A ball's margin is half its radius plus its motion over [`LOOKAHEAD_STEPS`] steps at its
//! present speed, at most its radius (larger boxes make every broad phase slower: the grid's
//! cells follow the largest box). When a few balls have left their boxes, the cache re-boxes
//! just those and finds their pairs by testing each against every cached box (a repair),
//! as long as that costs fewer tests than the last query did; otherwise it queries again.
//!
//! **Standing aside.** When balls keep leaving their boxes (a pile still settling under
//! rain, say), most calls end in a query with grown boxes, each dearer than a plain call,
//! and the cache's own checks come on top, so it costs more than it saves. So the cache counts its
//! queries over windows of [`WINDOW`] calls; a window with more than [`MOST_QUERIES`] of them
//! makes it stand aside — pass the calls straight to the broad phase, as with the cache off —
//! for [`FIRST_REST`] windows, then try again, resting twice as long after each try that
//! fails again (up to [`MOST_REST`] windows) and as short as at first after one that does
//! not. The decision rests on counts, never on time, so the work done is as repeatable as
//! the simulation, which it does not change either way.
//!
//! Counting: a query's box tests and repeats go to the broad-phase counters like any call's;
//! the pairs counted there are the ones handed to the narrow phase, as without the cache.
//! The cache's own work goes to [`Tally::cache_queries`], [`Tally::cache_served`],
//! [`Tally::cache_pairs`] and [`Tally::cache_tests`]. A call with no balls (only obstacles'
//! boxes) has no pairs to keep: it goes straight to the broad phase and counts as none of
//! the cache's.

use super::Tally;
use crate::broad::packed;
use crate::broad::{BroadCounters, BroadInput, BroadPhase, Pair};
use crate::geom::Aabb;
use crate::workers;

/// A ball's margin: this fraction of its radius, plus its speed times [`LOOKAHEAD_STEPS`]
/// steps, at most [`MAX_MARGIN_RADII`] of its radius.
pub(crate) const MARGIN_RADII: f32 = 0.5;
/// Steps of a ball's motion at its present speed added to its margin.
pub(crate) const LOOKAHEAD_STEPS: f32 = 2.0;
/// Largest margin, as a fraction of the radius: grown boxes much larger than the balls' make
/// every broad phase slower (the grid's cells follow the largest box).
pub(crate) const MAX_MARGIN_RADII: f32 = 1.0;

/// Pairs (or boxes) from which the cache's filter and checks run on several threads.
const PARALLEL_PAIRS: usize = 8192;
/// Calls per window of the standing-aside rule (see the module notes).
pub(crate) const WINDOW: u32 = 32;
/// A window with more queries than this makes the cache stand aside: past about a third of
/// the calls, its queries with grown boxes cost more than the calls they replace.
pub(crate) const MOST_QUERIES: u32 = 12;
/// Windows stood aside after a window with too many queries.
pub(crate) const FIRST_REST: u32 = 2;
/// Longest rest, in windows.
pub(crate) const MOST_REST: u32 = 64;

/// The cached query.
#[derive(Clone, Debug, Default)]
pub(super) struct PairCache {
    /// False until the first query, and after anything that asks for a fresh one.
    valid: bool,
    /// The cached boxes: obstacles as they were at the query, balls grown.
    boxes: Vec<Aabb>,
    /// The wanted pairs whose cached boxes overlap, sorted.
    pairs: Vec<Pair>,
    first_moving: usize,
    first_dynamic: usize,
    statics_version: u64,
    /// Box tests of the last query, the yardstick of what a repair may cost.
    query_tests: u64,
    /// Scratch: boxes out of their cached box, a mark per box, the repair's pairs.
    escaped: Vec<u32>,
    marked: Vec<bool>,
    fresh: Vec<Pair>,
    merged: Vec<Pair>,
    /// Threads the checks and the filter run on (the step's), and their lists.
    threads: usize,
    parts: Vec<Vec<Pair>>,
    escaped_parts: Vec<Vec<u32>>,
    /// Calls and queries in the window so far.
    calls: u32,
    queries: u32,
    /// Calls left to pass straight to the broad phase (standing aside).
    resting: u32,
    /// Tries in a row that ended in a rest (capped): the next rest is [`FIRST_REST`] doubled
    /// this many times, at most [`MOST_REST`] windows.
    failed: u32,
}

/// What the cache does for one call.
enum Plan {
    /// Every box is inside its cached box.
    Serve,
    /// A few balls left theirs: re-box them and find their pairs by testing them against
    /// every cached box.
    Repair,
    /// Ask the broad phase.
    Query,
}

impl PairCache {
    /// Forgets the cached query (the next call queries).
    /// The longest side of the grown ball boxes the last query gave the broad phase, while
    /// the cache holds a query and is not standing aside (`None` otherwise).
    pub(super) fn largest_ball_box(&self) -> Option<f32> {
        if !self.valid || self.resting() {
            return None;
        }
        let balls = self.boxes.get(self.first_dynamic..)?;
        let side = balls.iter().map(|b| b.size().max_element());
        side.reduce(f32::max)
    }

    /// Runs the cache's checks and filter on up to `threads` threads from now on (the same
    /// pairs on any number).
    pub(super) fn set_threads(&mut self, threads: usize) {
        self.threads = threads;
    }

    pub(super) fn invalidate(&mut self) {
        self.valid = false;
    }

    /// Finds the boxes of `input` outside their cached box (one test per box, counted) and
    /// decides what to do.
    fn plan(&mut self, input: &BroadInput, tally: &mut Tally) -> Plan {
        if !self.valid
            || self.boxes.len() != input.aabbs.len()
            || self.first_moving != input.first_moving
            || self.first_dynamic != input.first_dynamic
            || self.statics_version != input.statics_version
        {
            return Plan::Query;
        }
        self.escaped.clear();
        // Static boxes (sleepers among them) change only with the statics version, checked
        // above, so only the moving ones are tested.
        let fm = input.first_moving;
        let (cached, now) = (&self.boxes[fm..], &input.aabbs[fm..]);
        let out = |k: usize| (!cached[k].encloses(&now[k])).then_some((fm + k) as u32);
        let parts = &mut self.escaped_parts;
        let m = cached.len();
        workers::filter_map_indices_into(
            self.threads,
            m,
            PARALLEL_PAIRS,
            parts,
            &mut self.escaped,
            out,
        );
        tally.cache_tests += (self.boxes.len() - fm) as u64;
        let n = self.boxes.len() as u64;
        match self.escaped.first() {
            None => Plan::Serve,
            // An obstacle moved out of its box (a turning shape): its pairs are many.
            Some(&i) if (i as usize) < input.first_dynamic => Plan::Query,
            _ if self.escaped.len() as u64 * n > self.query_tests => Plan::Query,
            _ => Plan::Repair,
        }
    }

    /// The pairs of `input` into `pairs`, sorted, exactly as `broad` would return them (see
    /// the module notes); `margin(b)` is ball `b`'s margin. The broad phase's work goes to
    /// `tally.broad` (its pair count excepted: `pairs.len()` is counted there instead).
    pub(super) fn find_pairs(
        &mut self,
        broad: &mut dyn BroadPhase,
        input: &BroadInput,
        margin: impl Fn(usize) -> f32,
        pairs: &mut Vec<Pair>,
        tally: &mut Tally,
    ) {
        if input.first_dynamic >= input.aabbs.len() {
            // No balls, so no pairs to keep: the call goes to the broad phase as with the
            // cache off, and is none of the cache's (an empty table answered from the cache
            // every iteration would read as a busy cache).
            broad.find_pairs(input, pairs, &mut tally.broad);
            return;
        }
        if self.resting > 0 {
            self.resting -= 1;
            tally.cache_passed += 1;
            broad.find_pairs(input, pairs, &mut tally.broad);
            return;
        }
        let plan = self.plan(input, tally);
        self.count_call(matches!(plan, Plan::Query));
        match plan {
            Plan::Serve => tally.cache_served += 1,
            Plan::Repair => {
                self.repair(input, &margin, tally);
                tally.cache_served += 1;
            }
            Plan::Query => self.query(broad, input, &margin, tally),
        }
        pairs.clear();
        let (kept, boxes) = (&self.pairs[..], input.aabbs);
        let fill =
            |run: std::ops::Range<usize>, out: &mut Vec<Pair>| filter(&kept[run], boxes, out);
        let parts = &mut self.parts;
        workers::lists_into(self.threads, kept.len(), PARALLEL_PAIRS, parts, pairs, fill);
        tally.cache_tests += self.pairs.len() as u64;
        tally.broad.pairs += pairs.len() as u64;
    }

    /// Whether the cache is standing aside (see the module notes).
    pub(super) fn resting(&self) -> bool {
        self.resting > 0
    }

    /// Counts a call of the window, and at the window's end applies the standing-aside rule.
    fn count_call(&mut self, query: bool) {
        self.calls += 1;
        self.queries += query as u32;
        if self.calls < WINDOW {
            return;
        }
        if self.queries > MOST_QUERIES {
            self.resting = (FIRST_REST << self.failed).min(MOST_REST) * WINDOW;
            // Capped where the rest stops growing.
            self.failed = (self.failed + 1).min(MOST_REST.ilog2());
            // The boxes go stale while resting; the next try starts with a query.
            self.valid = false;
        } else {
            self.failed = 0;
        }
        (self.calls, self.queries) = (0, 0);
    }

    fn query(
        &mut self,
        broad: &mut dyn BroadPhase,
        input: &BroadInput,
        margin: &impl Fn(usize) -> f32,
        tally: &mut Tally,
    ) {
        let first_ball = input.first_dynamic.min(input.aabbs.len());
        self.boxes.clear();
        self.boxes.extend_from_slice(&input.aabbs[..first_ball]);
        self.boxes.extend(
            input.aabbs[first_ball..]
                .iter()
                .enumerate()
                .map(|(b, a)| grown(a, margin(b))),
        );
        let grown = BroadInput {
            aabbs: &self.boxes,
            ..*input
        };
        let mut counters = BroadCounters::default();
        broad.find_pairs(&grown, &mut self.pairs, &mut counters);
        tally.broad.aabb_tests += counters.aabb_tests;
        tally.broad.repeats_dropped += counters.repeats_dropped;
        tally.cache_queries += 1;
        tally.cache_pairs += counters.pairs;
        self.query_tests = counters.aabb_tests;
        self.first_moving = input.first_moving;
        self.first_dynamic = input.first_dynamic;
        self.statics_version = input.statics_version;
        self.valid = true;
    }

    /// Re-boxes the escaped balls and replaces their pairs by testing each against every
    /// cached box; the other pairs' boxes did not change, so the list stays exactly the
    /// wanted pairs whose cached boxes overlap.
    fn repair(&mut self, input: &BroadInput, margin: &impl Fn(usize) -> f32, tally: &mut Tally) {
        let first_ball = input.first_dynamic;
        let n = self.boxes.len();
        self.marked.resize(n, false);
        for &e in &self.escaped {
            let e = e as usize;
            self.boxes[e] = grown(&input.aabbs[e], margin(e - first_ball));
            self.marked[e] = true;
        }
        self.fresh.clear();
        for &e in &self.escaped {
            let e = e as usize;
            let g = self.boxes[e];
            tally.cache_tests += n as u64 - 1;
            for (x, c) in self.boxes.iter().enumerate() {
                // A pair of two escaped balls is found from the lower one.
                if c.overlaps(&g) && x != e && !(self.marked[x] && x < e) {
                    let (i, j) = if x < e { (x, e) } else { (e, x) };
                    self.fresh.push((i as u32, j as u32));
                }
            }
        }
        self.fresh.sort_unstable();
        tally.cache_moved += self.escaped.len() as u64;
        let marked = &self.marked;
        let kept = self
            .pairs
            .iter()
            .filter(|&&(i, j)| !marked[i as usize] && !marked[j as usize]);
        self.merged.clear();
        merge_into(kept, &self.fresh, &mut self.merged);
        std::mem::swap(&mut self.pairs, &mut self.merged);
        for &e in &self.escaped {
            self.marked[e as usize] = false;
        }
    }
}

/// The pairs of `kept` whose boxes overlap, in order, appended to `out`. Without a branch on the
/// outcome (about half the kept pairs overlap, which no predictor guesses): each pair is
/// written, and the write position moves on only when the boxes overlap. One bounds check a
/// pair (its larger index against the boxes) and none on the write (the `k`-th pair is
/// written at most at slot `k`), into the list's spare room, not cleared first: the browser's
/// engine runs each check as a compare and a branch, and this loop is most of the pair
/// cache's work.
fn filter(kept: &[Pair], boxes: &[Aabb], out: &mut Vec<Pair>) {
    let at = out.len();
    out.reserve(kept.len());
    let dst = &mut out.spare_capacity_mut()[..kept.len()];
    let mut n = 0;
    for (k, &(i, j)) in kept.iter().enumerate() {
        let (i, j) = (i as usize, j as usize);
        assert!(
            i.max(j) < boxes.len(),
            "a kept pair names a box that is not there"
        );
        debug_assert!(n <= k && k < dst.len());
        // SAFETY: `n ≤ k < kept.len() = dst.len()` (`n` moves on at most once a pair), and
        // both indices are below `boxes.len()` (asserted).
        unsafe {
            dst.get_unchecked_mut(n).write((i as u32, j as u32));
            n += packed::overlap(boxes.get_unchecked(i), boxes.get_unchecked(j)) as usize;
        }
    }
    // SAFETY: every slot below `n` was written (slot `m` when `n` was `m`, before it moved on).
    unsafe { out.set_len(at + n) }
}

/// `b` grown by `m`, or `b` itself when that would not hold it (a margin that is not a
/// finite number ≥ 0).
fn grown(b: &Aabb, m: f32) -> Aabb {
    let g = b.expanded(m);
    if g.encloses(b) {
        g
    } else {
        *b
    }
}

/// The sorted union of two sorted lists without common pairs.
fn merge_into<'a>(a: impl Iterator<Item = &'a Pair>, b: &[Pair], out: &mut Vec<Pair>) {
    let mut b = b.iter().peekable();
    for &p in a {
        while let Some(&&q) = b.peek() {
            if q < p {
                out.push(q);
                b.next();
            } else {
                break;
            }
        }
        out.push(p);
    }
    out.extend(b);
}

/// Ball `b`'s margin for a step of `dt` seconds (see the module notes).
pub(super) fn margin(ball: &super::Ball, dt: f32) -> f32 {
    let r = ball.radius.max(0.0);
    (r * MARGIN_RADII + ball.vel.length() * dt * LOOKAHEAD_STEPS).min(r * MAX_MARGIN_RADII)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A window of calls, `queries` of them queries.
    fn window(c: &mut PairCache, queries: u32) {
        for k in 0..WINDOW {
            c.count_call(k < queries);
        }
    }

    /// `n` balls' boxes (side 4–6 px) at random in a square (obstacles none), each moved
    /// by up to `jitter` px.
    fn boxes(n: usize, jitter: f32, seed: u64) -> Vec<Aabb> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut jiggle = rand_chacha::ChaCha8Rng::seed_from_u64(seed + 1);
        (0..n)
            .map(|_| {
                let p = glam::Vec2::new(rng.gen_range(0.0..600.0), rng.gen_range(0.0..600.0));
                let d = glam::Vec2::new(jiggle.gen_range(-1.0..1.0), jiggle.gen_range(-1.0..1.0));
                let r = rng.gen_range(2.0..3.0);
                let q = p + d * jitter;
                Aabb::new(q, q).expanded(r)
            })
            .collect()
    }

    #[test]
    fn the_cache_serves_the_broad_phases_pairs_on_any_number_of_threads() {
        let world = Aabb::new(glam::Vec2::ZERO, glam::Vec2::splat(600.0));
        let input = |aabbs| BroadInput {
            aabbs,
            first_moving: 0,
            first_dynamic: 0,
            statics_version: 1,
            world,
        };
        let first = boxes(12_000, 0.0, 7);
        let moved = boxes(12_000, 0.8, 7);
        let mut wanted = Vec::new();
        let mut broad = crate::BroadKind::Grid.create();
        broad.find_pairs(&input(&moved), &mut wanted, &mut BroadCounters::default());
        assert!(wanted.len() > PARALLEL_PAIRS, "the parts path runs");
        for threads in [1, 2, 3] {
            let mut cache = PairCache::default();
            cache.set_threads(threads);
            let (mut pairs, mut tally) = (Vec::new(), Tally::default());
            let margin = |_| 1.0;
            cache.find_pairs(
                broad.as_mut(),
                &input(&first),
                margin,
                &mut pairs,
                &mut tally,
            );
            cache.find_pairs(
                broad.as_mut(),
                &input(&moved),
                margin,
                &mut pairs,
                &mut tally,
            );
            assert_eq!((tally.cache_queries, tally.cache_served), (1, 1));
            assert_eq!(pairs, wanted, "{threads} threads");
        }
    }

    #[test]
    fn too_many_queries_rest_the_cache_longer_each_time_until_a_good_window() {
        let mut c = PairCache::default();
        window(&mut c, MOST_QUERIES);
        assert!(!c.resting(), "at most MOST_QUERIES queries is fine");
        c.valid = true;
        window(&mut c, MOST_QUERIES + 1);
        assert_eq!(c.resting, FIRST_REST * WINDOW);
        assert!(!c.valid, "the next try starts with a query");
        let mut rests = Vec::new();
        for _ in 0..8 {
            c.resting = 0; // rested (find_pairs counts the rest down)
            window(&mut c, WINDOW);
            rests.push(c.resting / WINDOW);
        }
        assert_eq!(rests, [4, 8, 16, 32, 64, 64, 64, 64]);
        c.resting = 0;
        window(&mut c, 0);
        assert!(!c.resting());
        window(&mut c, WINDOW);
        assert_eq!(
            c.resting,
            FIRST_REST * WINDOW,
            "a good window resets the rest"
        );
    }
}
