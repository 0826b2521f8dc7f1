//! The pairs stage: where candidate pairs leave the broad phase. It boxes the obstacles once a
//! step and the balls as each call asks, calls the broad phase (through the pair cache when
//! asked) with the sleepers shown to it as static boxes, verifies its pairs against brute
//! force when asked, times it, and turns the pairs of the broad phase's number space
//! (obstacles, then balls) into typed [`BodyPair`]s. No other file does arithmetic on that
//! number space.
//!
//! At the end of each frame it finds the pairs the narrow stage tests for the frame's end
//! (`narrow_stage.rs`; [`PairsStage::frame_end`]). Those with a ball awake at the step's last
//! broad-phase call: with soft contacts that call's pairs, whose boxes are grown along each
//! ball's motion over the frame; after the push-out, which moves balls after its last call
//! (the last responses, the walls' last word), a grid search of its own where the balls
//! are now, in that call's box order (sleepers as static boxes after the statics). And
//! those among that call's sleepers and between them and the obstacles (which the broad
//! phase never pairs): they do not change while the sleepers sleep, so they are found again
//! only when that set changed or a ball woke since the last frame's end, and then from the
//! last search's (`sleeper_pairs.rs`: only the new sleepers, and those back with another box,
//! are searched) or, where that cannot answer, by a second grid. The two parts never share a
//! pair. Their work is the measurement's, not the simulation's, and is
//! not counted.

use super::body::{BallIx, Body, BodyPair, ShapeIx};
use super::cache::PairCache;
use super::context::{Frame, Query};
use super::narrow_stage::{AsleepPairs, FrameEndPairs};
use super::probing::{BoxOwner, Call, ProbeAsk, Probing};
use super::sleeper_pairs::SleeperPairs;
use super::Tally;
use crate::balls::Removed;
use crate::broad::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair};
use crate::geom::{Aabb, Ball, Shape};
use crate::response::ContactWith;
use crate::workers;

/// Pairs from which typing them, mapping them back from the sleepers' order and sorting them
/// run on the step's threads.
const PARALLEL_PAIRS: usize = 8192;

/// The broad phase, its pair cache and what the last call found.
pub(super) struct PairsStage {
    pub(super) broad: Box<dyn BroadPhase>,
    pub(super) cache: PairCache,
    /// Identifies the obstacles' boxes: a new number whenever they may have changed.
    pub(super) statics_version: u64,
    /// The boxes of the last call: obstacles, then balls.
    aabbs: Vec<Aabb>,
    /// The last call's pairs in the broad phase's number space, sorted, and typed.
    pairs: Vec<Pair>,
    bodies: Vec<BodyPair>,
    /// The threads' lists of typed pairs and of pairs being sorted, kept between calls.
    scratch: Scratch,
    verify_scratch: Vec<Pair>,
    /// Sleepers (ball indices) as the last call saw them, the awake balls, the version the
    /// broad phase knows that set of static boxes by, and the permuted boxes.
    sleepers: Vec<u32>,
    previous_sleepers: Vec<u32>,
    awake: Vec<u32>,
    sleepers_version: u64,
    boxes: Vec<Aabb>,
    /// The per-ball record, while a viewer asks for it (`probing.rs`).
    pub(super) probing: Option<Box<Probing>>,
    /// The search at the end of a frame.
    end: EndSearch,
}

/// The searches at the end of a frame (see the module notes).
#[derive(Default)]
struct EndSearch {
    /// A sleeper woke at a step since the last frame's end.
    woke: bool,
    /// Threads the searches may run on (the step's).
    threads: usize,
    /// After the push-out: a grid, the obstacles' and all boxes in the broad phase's order,
    /// the awake balls, the pairs, and the statics the grid keeps (the world's statics
    /// version, the sleepers it saw, the version handed to it).
    live_grid: Option<Box<dyn BroadPhase>>,
    live_shapes: Vec<Aabb>,
    live_boxes: Vec<Aabb>,
    live_awake: Vec<u32>,
    live_pairs: Vec<Pair>,
    live_bodies: Vec<BodyPair>,
    live_statics: (u64, Vec<u32>, u64),
    /// The sleepers' part: the sleepers it was found for, the grid, the boxes and pairs.
    sleepers: Vec<u32>,
    grid: Option<Box<dyn BroadPhase>>,
    boxes: Vec<Aabb>,
    pairs: Vec<Pair>,
    bodies: Vec<BodyPair>,
    /// The sleepers' part kept from one search to the next (`sleeper_pairs.rs`).
    kept: SleeperPairs,
}

impl Default for PairsStage {
    fn default() -> Self {
        Self {
            broad: BroadKind::Brute.create(),
            cache: PairCache::default(),
            statics_version: next_statics_version(),
            aabbs: Vec::new(),
            pairs: Vec::new(),
            bodies: Vec::new(),
            scratch: Scratch::default(),
            verify_scratch: Vec::new(),
            sleepers: Vec::new(),
            previous_sleepers: Vec::new(),
            awake: Vec::new(),
            sleepers_version: 0,
            boxes: Vec::new(),
            probing: None,
            end: EndSearch::default(),
        }
    }
}

impl PairsStage {
    /// The last call's pairs, typed.
    pub(super) fn bodies(&self) -> &[BodyPair] {
        &self.bodies
    }

    /// The last call's pairs in the broad phase's number space.
    pub(super) fn raw(&self) -> &[Pair] {
        &self.pairs
    }

    /// The last call's boxes (obstacles, then balls).
    pub(super) fn aabbs(&self) -> &[Aabb] {
        &self.aabbs
    }

    /// The balls the last call saw asleep (indices, ascending).
    pub(super) fn sleepers(&self) -> &[u32] {
        &self.sleepers
    }

    /// Applies the remap of a removal: the gone ball's pairs go and the later balls'
    /// numbers move down one, so a pass or a drawing reading the last pairs never joins two
    /// different balls.
    pub(super) fn ball_left(&mut self, gone: &Removed, n_shapes: usize) {
        let moved = |x: u32| match (x as usize).checked_sub(n_shapes) {
            Some(ball) => gone.moved(ball).map(|b| (n_shapes + b) as u32),
            None => Some(x),
        };
        self.pairs.retain_mut(|p| match (moved(p.0), moved(p.1)) {
            (Some(a), Some(b)) => {
                *p = (a, b);
                true
            }
            _ => false,
        });
        decode_all(
            &self.pairs,
            n_shapes,
            &mut self.bodies,
            (1, &mut self.scratch),
        );
    }

    /// Asks the broad phase to record its work per ball from the next call on (`None`:
    /// stop); the pair cache asks afresh whenever the probe starts or stops.
    pub(super) fn set_probe(&mut self, ask: Option<ProbeAsk>) {
        match (ask, self.probing.as_mut()) {
            (None, _) => {
                if self.probing.take().is_some() {
                    self.cache.invalidate();
                }
            }
            (Some(ask), Some(p)) => p.ask = ask,
            (Some(ask), None) => {
                self.cache.invalidate();
                self.probing = Some(Box::new(Probing::new(ask)));
            }
        }
    }

    /// Forgets the last call's pairs (the balls changed).
    pub(super) fn forget_pairs(&mut self) {
        self.pairs.clear();
        self.bodies.clear();
    }

    /// The typed pairs of a restored frame's search (the soft contacts', `soft/saved.rs`).
    pub(super) fn restore_bodies(&mut self, bodies: Vec<BodyPair>) {
        self.bodies = bodies;
    }

    /// Forgets everything a restored world cannot use: pairs, boxes, the cache, the sleepers
    /// seen, and the obstacles' version.
    pub(super) fn forget_all(&mut self) {
        self.forget_pairs();
        self.forget_sleepers();
        self.aabbs.clear();
        self.cache.invalidate();
        self.statics_version = next_statics_version();
    }

    /// Forgets the sleepers the last call saw (a world put into another state).
    pub(super) fn forget_sleepers(&mut self) {
        self.sleepers.clear();
        self.sleepers_version = 0;
    }

    /// Boxes the obstacles, once a step after they moved.
    pub(super) fn box_shapes(&mut self, shapes: &[Shape]) {
        self.aabbs.clear();
        self.aabbs.extend(shapes.iter().map(Shape::aabb));
    }

    /// One broad-phase call over the obstacles' boxes and `ball_box` of each ball, as `query`
    /// says; the pairs are kept sorted and typed, its work counted in `tally`.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
    pub(super) fn find(
        &mut self,
        w: &Frame,
        ball_box: impl Fn(usize, &Ball) -> Aabb,
        query: Query,
        tally: &mut Tally,
    ) {
        let n_shapes = w.shapes.len();
        self.aabbs.truncate(n_shapes);
        let boxes = w.balls.iter().enumerate().map(|(i, b)| ball_box(i, b));
        self.aabbs.extend(boxes);
        self.find_pairs_of_boxes(w, query, tally);
        let threads = (query.threads, &mut self.scratch);
        decode_all(&self.pairs, n_shapes, &mut self.bodies, threads);
    }

    /// The broad phase over `self.aabbs` (obstacles, then every ball); the pairs go to
    /// `self.pairs` in its number space (obstacle index, or shape count plus ball index),
    /// sorted. While some balls sleep, the broad phase sees them as static boxes placed after
    /// the statics, so it never pairs two sleepers or a sleeper with a static; its pairs are
    /// mapped back and sorted.
    fn find_pairs_of_boxes(&mut self, w: &Frame, query: Query, tally: &mut Tally) {
        let n_shapes = w.shapes.len();
        if !w.balls.any_asleep() {
            self.sleepers.clear();
            let aabbs = std::mem::take(&mut self.aabbs);
            let input = BroadInput {
                aabbs: &aabbs,
                first_moving: w.first_moving,
                first_dynamic: n_shapes,
                statics_version: self.statics_version,
                world: w.bounds,
            };
            let owners = AllAwake { shapes: n_shapes };
            self.run_broad(&input, w, &owners, query, tally);
            self.aabbs = aabbs;
            return;
        }
        // The sleepers of the call before are kept to tell whether the set changed; the two
        // lists trade places, so a steady step allocates nothing.
        let mut sleepers = std::mem::take(&mut self.previous_sleepers);
        sleepers.clear();
        let before = std::mem::take(&mut self.sleepers);
        let mut awake = std::mem::take(&mut self.awake);
        awake.clear();
        for (i, r) in w.balls.rests().iter().enumerate() {
            if r.asleep {
                sleepers.push(i as u32);
            } else {
                awake.push(i as u32);
            }
        }
        if sleepers != before || self.sleepers_version == 0 {
            self.sleepers_version = next_statics_version();
        }
        let order = SleeperOrder {
            first_moving: w.first_moving,
            shapes: n_shapes,
            sleepers: &sleepers,
            awake: &awake,
        };
        let ball_box = |b: u32| self.aabbs[n_shapes + b as usize];
        let mut boxes = std::mem::take(&mut self.boxes);
        order.boxes(&self.aabbs[..n_shapes], ball_box, &mut boxes);
        let z = sleepers.len();
        let input = BroadInput {
            aabbs: &boxes,
            first_moving: w.first_moving + z,
            first_dynamic: n_shapes + z,
            statics_version: self.sleepers_version,
            world: w.bounds,
        };
        self.run_broad(&input, w, &order, query, tally);
        // With no sleeper the order is the world's own, and the broad phase's pairs (sorted,
        // each once) are already the world's.
        if z > 0 {
            order.pairs_to_world(&mut self.pairs, query.threads);
            sort_pairs(&mut self.pairs, query.threads, &mut self.scratch.sorting);
        }
        (self.sleepers, self.awake, self.boxes) = (sleepers, awake, boxes);
        self.previous_sleepers = before;
    }

    /// One broad-phase call on `input` (cached or not; probed while a viewer asks), verified
    /// when asked; `owners` maps the input's boxes to the world's obstacles and balls.
    fn run_broad(
        &mut self,
        input: &BroadInput,
        w: &Frame,
        owners: &dyn BoxOwner,
        query: Query,
        tally: &mut Tally,
    ) {
        let t0 = query.clock.map(|c| c());
        self.broad.set_threads(query.threads);
        self.cache.set_threads(query.threads);
        if let Some(mut probing) = self.probing.take() {
            let before = tally.broad.aabb_tests;
            let probe = probing.probe_for(owners, w.balls.len());
            self.broad
                .find_pairs_probed(input, &mut self.pairs, &mut tally.broad, probe);
            let call = Call {
                input,
                pairs: &self.pairs[..],
                aabb_tests: tally.broad.aabb_tests - before,
            };
            probing.after_call(call, owners, w, query.second);
            self.probing = Some(probing);
        } else if query.cached && query.pair_cache {
            let (balls, awake) = (&w.balls[..], owners.awake());
            let margin = |b: usize| {
                let i = awake.map_or(b, |a| a[b] as usize);
                super::cache::margin(&balls[i], query.dt)
            };
            let broad = self.broad.as_mut();
            self.cache
                .find_pairs(broad, input, margin, &mut self.pairs, tally);
        } else {
            self.broad
                .find_pairs(input, &mut self.pairs, &mut tally.broad);
        }
        if let (Some(c), Some(t0)) = (query.clock, t0) {
            let ns = c().saturating_sub(t0);
            tally.broad_nanos += ns;
            tally.threads.pairs += crate::workers::spread_of(ns);
        }
        if query.verify {
            let (missed, extra) = verified(input, &self.pairs, &mut self.verify_scratch);
            tally.missed += missed;
            tally.extra += extra;
        }
    }
}

impl PairsStage {
    /// The pairs of the frame's end at the end of a frame (`frame_end`; `None` at the other
    /// steps): those with a ball awake at the step's last broad-phase call (that call's own
    /// after soft contacts, a search of the balls where they are now after the push-out), and
    /// the sleepers' part, found again when that set changed or a ball woke (`woke`: this
    /// step; the steps between are remembered); its searches run on up to `threads` threads.
    /// See the module notes.
    pub(super) fn frame_end(
        &mut self,
        w: &Frame,
        push_out: bool,
        woke: bool,
        frame_end: bool,
        threads: usize,
    ) -> Option<FrameEndPairs<'_>> {
        let e = &mut self.end;
        e.threads = threads;
        e.woke |= woke;
        if !frame_end {
            return None;
        }
        let woke = std::mem::take(&mut e.woke);
        if push_out {
            e.pairs_at_end(w, &self.sleepers, self.statics_version);
        }
        let asleep = if self.sleepers.is_empty() {
            e.sleepers.clear();
            AsleepPairs::None
        } else if e.sleepers_pairs(w, &self.sleepers, woke) {
            AsleepPairs::Found(&e.bodies)
        } else {
            AsleepPairs::Kept
        };
        let awake = if push_out {
            &e.live_bodies
        } else {
            &self.bodies
        };
        Some(FrameEndPairs { awake, asleep })
    }
}

impl EndSearch {
    /// The pairs of the awake balls now, with the obstacles, each other and the broad
    /// phase's `sleepers`, in the world's pair space, found with a grid of its own in the
    /// step's broad-phase order (sleepers as static boxes after the statics), into
    /// `live_bodies`; `statics_version` is the world's obstacles' version.
    fn pairs_at_end(&mut self, w: &Frame, sleepers: &[u32], statics_version: u64) {
        let (balls, n_shapes) = (&w.balls[..], w.shapes.len());
        self.live_awake.clear();
        self.live_awake
            .extend((0..balls.len() as u32).filter(|i| sleepers.binary_search(i).is_err()));
        self.live_shapes.clear();
        self.live_shapes.extend(w.shapes.iter().map(|s| s.aabb()));
        let order = SleeperOrder {
            first_moving: w.first_moving,
            shapes: n_shapes,
            sleepers,
            awake: &self.live_awake,
        };
        let ball_box = |b: u32| balls[b as usize].aabb();
        order.boxes(&self.live_shapes, ball_box, &mut self.live_boxes);
        let (world_version, seen, version) = &mut self.live_statics;
        if *world_version != statics_version || seen[..] != *sleepers || *version == 0 {
            *world_version = statics_version;
            seen.clear();
            seen.extend_from_slice(sleepers);
            *version = next_statics_version();
        }
        let input = BroadInput {
            aabbs: &self.live_boxes,
            first_moving: w.first_moving + sleepers.len(),
            first_dynamic: n_shapes + sleepers.len(),
            statics_version: self.live_statics.2,
            world: w.bounds,
        };
        let grid = self
            .live_grid
            .get_or_insert_with(|| BroadKind::Grid.create());
        grid.set_threads(self.threads);
        grid.find_pairs(&input, &mut self.live_pairs, &mut BroadCounters::default());
        order.pairs_to_bodies(&mut self.live_pairs, &mut self.live_bodies);
    }

    /// The pairs among the broad phase's `sleepers` and between them and the obstacles,
    /// found again into `bodies` if that set changed or a ball woke (a woken sleeper may have
    /// moved); false when kept as they were.
    fn sleepers_pairs(&mut self, w: &Frame, sleepers: &[u32], woke: bool) -> bool {
        if self.sleepers == sleepers && !woke {
            return false;
        }
        self.sleepers.clear();
        self.sleepers.extend_from_slice(sleepers);
        let n_shapes = w.shapes.len();
        self.boxes.clear();
        self.boxes.extend(w.shapes.iter().map(|s| s.aabb()));
        let balls = &w.balls[..];
        let box_of = |b: u32| balls[b as usize].aabb();
        if let Some(pairs) = self.kept.update(&self.boxes, &self.sleepers, box_of) {
            let n = n_shapes as u32;
            self.bodies.clear();
            self.bodies
                .extend(pairs.iter().filter_map(|&p| decode(p, n)));
            return true;
        }
        self.boxes.extend(self.sleepers.iter().map(|&b| box_of(b)));
        let input = BroadInput {
            aabbs: &self.boxes,
            first_moving: w.first_moving,
            first_dynamic: n_shapes,
            statics_version: next_statics_version(),
            world: w.bounds,
        };
        let grid = self.grid.get_or_insert_with(|| BroadKind::Grid.create());
        grid.set_threads(self.threads);
        grid.find_pairs(&input, &mut self.pairs, &mut BroadCounters::default());
        // Every obstacle, then the sleepers: the sleepers' order with no awake ball.
        let order = SleeperOrder {
            first_moving: n_shapes,
            shapes: n_shapes,
            sleepers: &self.sleepers,
            awake: &[],
        };
        order.pairs_to_bodies(&mut self.pairs, &mut self.bodies);
        let shapes = &self.boxes[..n_shapes];
        self.kept.keep(shapes, &self.sleepers, box_of, &self.pairs);
        true
    }
}

impl PairsStage {
    /// The last call made again over its own boxes, probed as now asked, for a viewer that
    /// points at another ball while the world stands still (`World::probe_again`): the same
    /// boxes, statics and sleepers, so the broad phase's structures end as the call left them
    /// and the record is the call's as it would have been for that ball. Its pairs and work
    /// are dropped: the pairs kept, the counters and the simulation are unchanged. False when
    /// nothing is probed or the balls changed since the call (nothing is repeated then).
    pub(super) fn probe_again(&mut self, w: &Frame) -> bool {
        let Some(mut probing) = self.probing.take() else {
            return false;
        };
        let done = self.repeat_probed(&mut probing, w);
        self.probing = Some(probing);
        done
    }

    fn repeat_probed(&mut self, probing: &mut Probing, w: &Frame) -> bool {
        let (n_shapes, n) = (w.shapes.len(), w.balls.len());
        let broad = self.broad.as_mut();
        if self.sleepers.is_empty() {
            if self.aabbs.len() != n_shapes + n {
                return false;
            }
            let input = BroadInput {
                aabbs: &self.aabbs,
                first_moving: w.first_moving,
                first_dynamic: n_shapes,
                statics_version: self.statics_version,
                world: w.bounds,
            };
            repeat_call(broad, probing, &input, &AllAwake { shapes: n_shapes }, w);
            return true;
        }
        let z = self.sleepers.len();
        if z + self.awake.len() != n || self.boxes.len() != n_shapes + n {
            return false;
        }
        let order = SleeperOrder {
            first_moving: w.first_moving,
            shapes: n_shapes,
            sleepers: &self.sleepers,
            awake: &self.awake,
        };
        let input = BroadInput {
            aabbs: &self.boxes,
            first_moving: w.first_moving + z,
            first_dynamic: n_shapes + z,
            statics_version: self.sleepers_version,
            world: w.bounds,
        };
        repeat_call(broad, probing, &input, &order, w);
        true
    }
}

/// One probed call of `broad` over `input` (its boxes owned as `owners` says), taken in as a
/// repeat; its pairs and its work are dropped.
fn repeat_call(
    broad: &mut dyn BroadPhase,
    probing: &mut Probing,
    input: &BroadInput,
    owners: &dyn BoxOwner,
    w: &Frame,
) {
    let (mut pairs, mut counters) = (Vec::new(), BroadCounters::default());
    let probe = probing.probe_for(owners, w.balls.len());
    broad.find_pairs_probed(input, &mut pairs, &mut counters, probe);
    let call = Call {
        input,
        pairs: &pairs,
        aabb_tests: counters.aabb_tests,
    };
    probing.after_repeat(call, owners, w);
}

/// Pair `(i, j)`, `i < j`, of the broad phase's number space (obstacles below `n_shapes`, then
/// balls) as typed; `None` for two obstacles (never a candidate).
pub(super) fn decode(p: Pair, n_shapes: u32) -> Option<BodyPair> {
    let (i, j) = p;
    let ball_j = BallIx(j.checked_sub(n_shapes)?);
    Some(if i < n_shapes {
        BodyPair {
            ball: ball_j,
            other: Body::Shape(ShapeIx(i)),
        }
    } else {
        BodyPair {
            ball: BallIx(i - n_shapes),
            other: Body::Ball(ball_j),
        }
    })
}

/// Typed pair `p` in the broad phase's number space, as [`decode`] reads it.
pub(super) fn encode(p: &BodyPair, n_shapes: u32) -> Pair {
    match p.other {
        Body::Shape(s) => (s.0, n_shapes + p.ball.0),
        Body::Ball(o) => (n_shapes + p.ball.0, n_shapes + o.0),
    }
}

/// The threads' lists: of typed pairs, and of the pairs each sorts.
#[derive(Default)]
struct Scratch {
    typed: Vec<Vec<BodyPair>>,
    sorting: Vec<Vec<Pair>>,
}

/// The pairs of `raw` as typed into `out`, on up to `threads` threads (their lists in
/// `scratch`): the one thread's list.
fn decode_all(
    raw: &[Pair],
    n_shapes: usize,
    out: &mut Vec<BodyPair>,
    (threads, scratch): (usize, &mut Scratch),
) {
    out.clear();
    let (n, typed) = (n_shapes as u32, &mut scratch.typed);
    workers::filter_map_into(threads, raw, PARALLEL_PAIRS, typed, out, |&p| decode(p, n));
}

/// Sorts `pairs` (distinct, so any sort gives one order), on up to `threads` threads (their
/// lists in `lists`, kept between calls). Mapped back from the sleepers' order, the broad
/// phase's sorted pairs are a few sorted runs (those of the statics, of the sleepers, of the
/// awake balls): the stable sort merges runs in about one pass where the unstable one sorts
/// from scratch. On several threads each takes the pairs whose first number lies in its
/// part of the range (cut at the quantiles of every 64th pair's), in order, and sorts them
/// so; the parts one after another are the sorted pairs.
fn sort_pairs(pairs: &mut [Pair], threads: usize, lists: &mut Vec<Vec<Pair>>) {
    let threads = workers::threads_for(threads, pairs.len(), PARALLEL_PAIRS);
    if threads == 1 {
        return pairs.sort();
    }
    let mut sample: Vec<u32> = pairs.iter().step_by(64).map(|p| p.0).collect();
    sample.sort_unstable();
    // Part `t` takes first numbers from `cuts[t]` up to `cuts[t + 1]`.
    let mut cuts: Vec<u32> = (0..threads)
        .map(|t| sample[t * sample.len() / threads])
        .collect();
    cuts[0] = 0;
    cuts.push(u32::MAX);
    lists.resize_with(threads, Vec::new);
    let mut parts: Vec<(usize, &mut Vec<Pair>)> = lists.iter_mut().enumerate().collect();
    let all = &*pairs;
    workers::each(threads, &mut parts, |_, (t, list)| {
        let (lo, hi) = (cuts[*t], cuts[*t + 1]);
        list.clear();
        list.extend(
            all.iter()
                .filter(|p| p.0 >= lo && (p.0 < hi || hi == u32::MAX)),
        );
        list.sort();
    });
    let mut at = 0;
    for list in lists.iter().take(threads) {
        pairs[at..at + list.len()].copy_from_slice(list);
        at += list.len();
    }
    debug_assert_eq!(at, pairs.len());
}

/// Compares `pairs` with brute force's pairs for the same input (both sorted): returns
/// `(missed, extra)`.
pub(super) fn verified(input: &BroadInput, pairs: &[Pair], scratch: &mut Vec<Pair>) -> (u64, u64) {
    crate::broad::brute_pairs(input, scratch);
    let (mut i, mut j, mut missed, mut extra) = (0, 0, 0u64, 0u64);
    while i < scratch.len() || j < pairs.len() {
        match (scratch.get(i), pairs.get(j)) {
            (Some(a), Some(b)) if a == b => (i, j) = (i + 1, j + 1),
            (Some(a), Some(b)) if a < b => (i, missed) = (i + 1, missed + 1),
            (Some(_), None) => (i, missed) = (i + 1, missed + 1),
            _ => (j, extra) = (j + 1, extra + 1),
        }
    }
    (missed, extra)
}

/// A number no other world has used, so a broad phase moved between worlds rebuilds statics.
pub(super) fn next_statics_version() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The boxes' order while no ball sleeps: the obstacles, then the balls.
struct AllAwake {
    shapes: usize,
}

impl BoxOwner for AllAwake {
    fn owner(&self, k: u32) -> ContactWith {
        match k.checked_sub(self.shapes as u32) {
            Some(i) => ContactWith::Ball(i),
            None => ContactWith::Shape(k),
        }
    }

    fn box_of_ball(&self, i: usize) -> u32 {
        (self.shapes + i) as u32
    }

    fn awake(&self) -> Option<&[u32]> {
        None
    }
}

impl BoxOwner for SleeperOrder<'_> {
    fn owner(&self, k: u32) -> ContactWith {
        let m = self.world_index(k);
        match m.checked_sub(self.shapes as u32) {
            Some(i) => ContactWith::Ball(i),
            None => ContactWith::Shape(m),
        }
    }

    fn box_of_ball(&self, i: usize) -> u32 {
        let i = i as u32;
        let (fm, n, z) = (self.first_moving, self.shapes, self.sleepers.len());
        let at = match self.sleepers.binary_search(&i) {
            Ok(k) => fm + k,
            Err(_) => n + z + self.awake.binary_search(&i).unwrap_or(0),
        };
        at as u32
    }

    fn awake(&self) -> Option<&[u32]> {
        Some(self.awake)
    }
}

/// The broad phase's order of the boxes while some balls sleep: the statics, the sleepers (as
/// static boxes), the moving shapes, the awake balls. Used by the step's broad phase and by the
/// searches at the end of a frame.
pub(super) struct SleeperOrder<'a> {
    pub first_moving: usize,
    pub shapes: usize,
    pub sleepers: &'a [u32],
    pub awake: &'a [u32],
}

impl SleeperOrder<'_> {
    /// The boxes in this order: `shape_boxes` of every obstacle, `ball_box(b)` of ball `b`.
    pub(crate) fn boxes(
        &self,
        shape_boxes: &[Aabb],
        ball_box: impl Fn(u32) -> Aabb,
        out: &mut Vec<Aabb>,
    ) {
        let fm = self.first_moving;
        out.clear();
        out.extend_from_slice(&shape_boxes[..fm]);
        out.extend(self.sleepers.iter().map(|&b| ball_box(b)));
        out.extend_from_slice(&shape_boxes[fm..self.shapes]);
        out.extend(self.awake.iter().map(|&b| ball_box(b)));
    }

    /// Pairs of this order's indices typed, in their order, into `out`.
    pub(crate) fn pairs_to_bodies(&self, pairs: &mut [Pair], out: &mut Vec<BodyPair>) {
        self.pairs_to_world(pairs, 1);
        out.clear();
        out.extend(pairs.iter().filter_map(|&p| decode(p, self.shapes as u32)));
    }

    /// Pairs of this order's indices turned into the world's pair space, each `(min, max)`,
    /// on up to `threads` threads.
    pub(crate) fn pairs_to_world(&self, pairs: &mut [crate::broad::Pair], threads: usize) {
        workers::chunks(threads, pairs, PARALLEL_PAIRS, |_, run| {
            for p in run.iter_mut() {
                let (a, b) = (self.world_index(p.0), self.world_index(p.1));
                *p = (a.min(b), a.max(b));
            }
        });
    }

    /// Box `k` of this order in the world's pair space (obstacles, then balls).
    #[inline]
    fn world_index(&self, k: u32) -> u32 {
        let (fm, n, z) = (self.first_moving, self.shapes, self.sleepers.len());
        let k = k as usize;
        let m = if k < fm {
            k
        } else if k < fm + z {
            n + self.sleepers[k - fm] as usize
        } else if k < n + z {
            k - z
        } else {
            n + self.awake[k - n - z] as usize
        };
        m as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_sorted_on_several_threads_are_the_one_threads() {
        // Three sorted runs of distinct pairs, as mapped back from the sleepers' order, with
        // many pairs sharing a first number.
        let run = |from: u32, step: u32| (0..7_000u32).map(move |k| (from + k / 3 * step, k));
        let mixed: Vec<Pair> = run(0, 5).chain(run(2, 7)).chain(run(40_000, 1)).collect();
        let mut want = mixed.clone();
        want.sort();
        want.dedup();
        assert_eq!(want.len(), mixed.len(), "distinct pairs");
        let mut lists = Vec::new();
        for threads in [1, 2, 3, 4] {
            let mut got = mixed.clone();
            sort_pairs(&mut got, threads, &mut lists);
            assert_eq!(got, want, "{threads} threads");
        }
    }

    #[test]
    fn pairs_of_the_broad_phase_type_and_untype_unchanged() {
        let n = 5;
        for p in [(0, 5), (4, 9), (5, 6), (7, 12)] {
            let typed = decode(p, n).expect("a ball pair or an obstacle pair");
            assert_eq!(encode(&typed, n), p);
        }
        let shape_pair = decode((1, 7), n).unwrap();
        assert_eq!(shape_pair.other, Body::Shape(ShapeIx(1)));
        assert_eq!(shape_pair.ball, BallIx(2));
        assert_eq!(
            decode((1, 3), n),
            None,
            "two obstacles are never a candidate"
        );
    }

    #[test]
    fn typed_pairs_sort_as_the_broad_phase_reports_them() {
        let n = 3;
        let mut raw = [(0, 4), (0, 7), (2, 3), (3, 4), (3, 9), (5, 6)];
        raw.sort_unstable();
        let keys: Vec<_> = raw.iter().map(|&p| decode(p, n).unwrap().key()).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
    }
}
