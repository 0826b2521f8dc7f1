//! The passes on several threads, as Box2D v3's `solver.c` runs its stages: the jobs become a
//! schedule of stages (each job's colours in order, and the move), each stage cut into blocks
//! of lanes. Thread `t` owns the `t`-th run of each colour's blocks (on two threads the
//! plan's regions, `colour.rs`: the pile's part on one side of a line is one thread's run
//! in every colour, the part beyond it the other's, so a ball's state mostly stays in one thread's
//! cache; on more, an even cut) and claims them a few at a time from the front of its run;
//! a thread done with its own run takes what is left of the others' from their back, a
//! block or two at a time, so it takes only what their owner would not reach soon (each
//! block it takes moves its balls' states to its own cache, and back at the next colour).
//! A thread moves to the next stage once every block of this one is done.
//!
//! The result is the one thread's, bit for bit: within a colour no two lanes share a ball, so
//! the order its blocks are solved in, and by which thread, changes nothing, and the stages
//! still go one after another. The overflow (any contacts, one at a time) is one block; the
//! move of the positions is cut into one run of the balls a thread (each ball moves by its
//! own state alone), and the runs are claimed like blocks.
//!
//! No thread ever waits for another to arrive, only for work another has claimed (and so
//! begun) to be done. A thread that never starts, because the pool's workers are busy with
//! another world's step, costs nothing but its share of the speed: the threads that did
//! start claim everything, and the calling thread alone finishes the whole schedule if it
//! must (as Box2D v3's worker 0 can). Several worlds may share the pool and step at once on
//! any number of threads each. The workers are the pool's (`workers.rs`), kept between
//! calls.
//! Cost: a counter a thread and one of blocks done a stage, one claim every [`CLAIM`] blocks
//! (every [`TAKE`] blocks a thread takes from another's run).

use super::colour::{Kind, LaneRange};
use super::kernel;
use super::lanes::{integrate_run, BallRun, Bodies, BodyState, Lanes, Pass, WIDTH};
use super::shared::SharedLanes;
use crate::balls::BallSet;
use crate::workers;
use glam::Vec2;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// Blocks of [`WIDTH`] lanes a thread claims at once from its own run.
const CLAIM: u64 = 32;
/// Blocks a thread takes at once from the back of another's run.
const TAKE: u64 = 2;

/// What the threads do in turn: a pass over every colour, or over their firm lanes only, or
/// the move of the positions.
#[derive(Clone, Copy, Debug)]
pub(super) enum Job {
    Pass(Pass),
    Firm(Pass),
    /// Integrates the awake balls over the step (s).
    Integrate(f32),
}

/// A pass over range `range` of the plan (of its firm ranges if `firm`), in `blocks` blocks.
#[derive(Clone, Copy)]
struct RangeStage {
    pass: Pass,
    range: (usize, bool),
    blocks: usize,
}

/// One stage of the schedule: a pass over one range of lanes, or the move.
#[derive(Clone, Copy)]
enum Stage {
    /// A pass over one range of the plan.
    Range(RangeStage),
    /// The move, each thread its run of the balls.
    Integrate(f32),
}

/// A counter on a cache line of its own, so that threads counting apart never share one.
#[derive(Default)]
#[repr(align(64))]
struct Counter(AtomicUsize);

/// A run's blocks claimed from its front (the low half) and from its back (the high half),
/// on a cache line of its own: one word, so that the two ends never claim a block twice.
#[derive(Default)]
#[repr(align(64))]
struct Ends(AtomicU64);

impl Ends {
    /// Claims up to `most` blocks of a run of `len` from its front (`back` false) or its
    /// back: the claimed blocks, counted from the run's start; `None` when none are left.
    fn claim(&self, len: usize, most: u64, back: bool) -> Option<Range<usize>> {
        let len = len as u64;
        let mut now = self.0.load(Ordering::Relaxed);
        loop {
            let (front, from_back) = (now & u64::from(u32::MAX), now >> 32);
            let left = len.saturating_sub(front + from_back);
            if left == 0 {
                return None;
            }
            let n = left.min(most);
            let (add, first) = match back {
                true => (n << 32, len - from_back - n),
                false => (n, front),
            };
            match self
                .0
                .compare_exchange_weak(now, now + add, Ordering::Relaxed, Ordering::Relaxed)
            {
                Ok(_) => return Some(first as usize..(first + n) as usize),
                Err(seen) => now = seen,
            }
        }
    }
}

/// A stage's counters: the blocks done, and for each thread's run, the blocks claimed from
/// its two ends (for the move, the runs of the balls claimed: the first's front).
#[derive(Clone, Copy)]
struct Counters<'a> {
    done: &'a Counter,
    ends: &'a [Ends],
}

/// The schedule and its counters, kept between calls (each call sets them afresh), so that
/// a step allocates nothing for them: some 300 stages a call, each with a counter a thread.
#[derive(Default)]
pub(super) struct Schedule {
    stages: Vec<Stage>,
    done: Vec<Counter>,
    ends: Vec<Ends>,
}

impl Clone for Schedule {
    /// An empty schedule: nothing in one outlives its call.
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl std::fmt::Debug for Schedule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Schedule({} stages)", self.stages.len())
    }
}

impl Schedule {
    /// The stages of `jobs` over `ranges` on `threads` threads, every counter at zero.
    fn set(&mut self, jobs: &[Job], ranges: (&[LaneRange], &[LaneRange]), threads: usize) {
        schedule(jobs, ranges, &mut self.stages);
        let n = self.stages.len();
        self.done.clear();
        self.done.resize_with(n, Counter::default);
        self.ends.clear();
        self.ends.resize_with(n * threads, Ends::default);
    }

    /// Stage `k`'s counters on `threads` threads.
    fn counters(&self, k: usize, threads: usize) -> Counters<'_> {
        Counters {
            done: &self.done[k],
            ends: &self.ends[k * threads..(k + 1) * threads],
        }
    }
}

/// Runs `jobs` over `lanes` in the order of `ranges` (every colour's, and their firm lanes')
/// on `threads` threads (at least 2), with `schedule`'s storage.
#[allow(clippy::too_many_arguments)]
pub(super) fn run(
    lanes: &mut Lanes,
    states: &mut [BodyState],
    ranges: (&[LaneRange], &[LaneRange]),
    balls: &mut BallSet,
    found_at: &[Vec2],
    jobs: &[Job],
    threads: usize,
    schedule: &mut Schedule,
) {
    schedule.set(jobs, ranges, threads);
    let schedule = &*schedule;
    let shared = SharedLanes::new(lanes);
    let bodies = Bodies::new(states);
    let (all, rests) = balls.with_rests();
    let runs: Vec<Mutex<BallRun>> = BallRun::whole(all, rests, found_at)
        .cut(threads)
        .into_iter()
        .map(Mutex::new)
        .collect();
    let plan = Plan {
        schedule,
        threads,
        ranges,
        lanes: &shared,
        runs: &runs,
        wide: kernel::wide(),
    };
    // SAFETY: the threads touch one state only within one stage's blocks or one run of the
    // balls, each claimed once, and a stage begins when the one before is done (see `Bodies`).
    let mut parts: Vec<Bodies> = (0..threads).map(|_| unsafe { bodies.share() }).collect();
    workers::each(threads, &mut parts, |t, b| plan.work(t, *b));
}

/// The stages of `jobs` over `ranges` (every colour's, and their firm lanes'), in order,
/// into `stages`.
fn schedule(jobs: &[Job], ranges: (&[LaneRange], &[LaneRange]), stages: &mut Vec<Stage>) {
    let (all, firm) = ranges;
    stages.clear();
    for job in jobs {
        match *job {
            Job::Pass(pass) | Job::Firm(pass) => {
                let (ranges, firm) = match job {
                    Job::Firm(_) => (firm, true),
                    _ => (all, false),
                };
                stages.extend(ranges.iter().enumerate().map(|(range, r)| {
                    let blocks = match r.kind {
                        Kind::Mixed => 1,
                        _ => r.lanes.len().div_ceil(WIDTH),
                    };
                    Stage::Range(RangeStage {
                        pass,
                        range: (range, firm),
                        blocks,
                    })
                }))
            }
            Job::Integrate(dt) => stages.push(Stage::Integrate(dt)),
        }
    }
}

/// The two runs of a range of `blocks` blocks whose runs start at `starts` (see
/// [`LaneRange::runs`]), each as its first block and its length: run 0 goes from its start
/// round to run 1's, run 1 from its start round to run 0's (all of it to run 0 when they
/// start together).
fn two_runs(starts: [usize; 2], blocks: usize) -> [(usize, usize); 2] {
    if blocks == 0 {
        return [(0, 0); 2];
    }
    let (s0, s1) = (starts[0] % blocks, starts[1] % blocks);
    let second = (s0 + blocks - s1) % blocks;
    [(s0, blocks - second), (s1, second)]
}

/// What every thread of one call shares.
struct Plan<'a> {
    schedule: &'a Schedule,
    threads: usize,
    ranges: (&'a [LaneRange], &'a [LaneRange]),
    lanes: &'a SharedLanes<'a>,
    /// The balls cut into runs, one a thread; any thread may claim any run (each once a
    /// move), so the lock is never contended.
    runs: &'a [Mutex<BallRun<'a>>],
    wide: kernel::Width,
}

impl Plan<'_> {
    /// Thread `me`'s part: every stage in turn, claiming blocks of its own run, then of the
    /// others', while there are any, then waiting for the blocks the others claimed to be
    /// done. It never waits for a thread that has not started.
    fn work(&self, me: usize, mut bodies: Bodies) {
        for (s, stage) in self.schedule.stages.iter().enumerate() {
            let c = self.schedule.counters(s, self.threads);
            match *stage {
                Stage::Range(at) => {
                    let runs = c.ends.len();
                    for k in 0..runs {
                        let run = (me + k) % runs;
                        self.claim(&mut bodies, at, c, run, k > 0);
                    }
                    workers::wait_until(|| c.done.0.load(Ordering::Acquire) >= at.blocks);
                }
                Stage::Integrate(dt) => {
                    self.integrate(&mut bodies, c, dt);
                    workers::wait_until(|| c.done.0.load(Ordering::Acquire) >= self.runs.len());
                }
            }
        }
    }

    /// Moves the runs of the balls while any are left to claim (the stage's first counter
    /// numbers them).
    fn integrate(&self, bodies: &mut Bodies, c: Counters, dt: f32) {
        while let Some(k) = c.ends[0].claim(self.runs.len(), 1, false) {
            let run = &self.runs[k.start];
            let mut run = run.lock().unwrap_or_else(|e| e.into_inner());
            integrate_run(bodies, &mut run, dt);
            c.done.0.fetch_add(1, Ordering::Release);
        }
    }

    /// Solves blocks of run `run` of range `range` while any are left to claim: from its
    /// front, or from its back where the run is another thread's (`taking`).
    fn claim(&self, bodies: &mut Bodies, at: RangeStage, c: Counters, run: usize, taking: bool) {
        let RangeStage {
            pass,
            range,
            blocks,
        } = at;
        let r = match range {
            (k, false) => &self.ranges.0[k],
            (k, true) => &self.ranges.1[k],
        };
        let runs = c.ends.len();
        // The run's blocks, `len` of them from `from` (round the end of the range): the
        // plan's regions on two threads, else an even cut; the overflow is one block, the
        // first run's.
        let (from, len) = match (r.kind, r.runs) {
            (Kind::Mixed, _) if run > 0 => return,
            (Kind::Mixed, _) => (0, 1),
            (_, Some(starts)) if runs == 2 => two_runs(starts, blocks)[run],
            _ => (
                run * blocks / runs,
                (run + 1) * blocks / runs - run * blocks / runs,
            ),
        };
        let most = if taking { TAKE } else { CLAIM };
        while let Some(claimed) = c.ends[run].claim(len, most, taking) {
            let (first, last) = (claimed.start, claimed.end);
            // The claimed blocks, in at most two pieces where the run goes round the end.
            let start = from + first;
            let pieces = match start >= blocks {
                true => [(start - blocks, last - first), (0, 0)],
                false => {
                    let n = (last - first).min(blocks - start);
                    [(start, n), (0, last - first - n)]
                }
            };
            for (b, n) in pieces.into_iter().filter(|&(_, n)| n > 0) {
                self.solve(bodies, r, b..b + n, pass);
            }
            c.done.0.fetch_add(last - first, Ordering::Release);
        }
    }

    /// Solves the blocks `blocks` of range `r` in pass `pass`.
    fn solve(&self, bodies: &mut Bodies, r: &LaneRange, blocks: Range<usize>, pass: Pass) {
        let lanes = match r.kind {
            Kind::Mixed => r.lanes.clone(),
            _ => {
                let to = (r.lanes.start + blocks.end * WIDTH).min(r.lanes.end);
                r.lanes.start + blocks.start * WIDTH..to
            }
        };
        // SAFETY: these blocks are this thread's alone (claimed once, see `shared.rs`).
        let mut view = unsafe { self.lanes.view(lanes.clone()) };
        let at = kernel::At {
            range: 0..lanes.len(),
            kind: r.kind,
            width: self.wide,
        };
        kernel::pass(&mut view, bodies, at, pass);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_runs_two_ends_meet_and_never_claim_a_block_twice() {
        let ends = Ends::default();
        assert_eq!(ends.claim(10, 4, false), Some(0..4));
        assert_eq!(ends.claim(10, 2, true), Some(8..10));
        assert_eq!(ends.claim(10, 4, false), Some(4..8));
        assert_eq!(ends.claim(10, 2, true), None);
        assert_eq!(ends.claim(10, 4, false), None);
        assert_eq!(Ends::default().claim(0, 4, false), None);
    }

    #[test]
    fn an_owner_and_a_taker_at_once_claim_every_block_once() {
        for len in [0, 1, 7, 100, 1000] {
            let ends = Ends::default();
            let claim = |most: u64, back: bool| {
                let mut got = Vec::new();
                while let Some(r) = ends.claim(len, most, back) {
                    got.extend(r);
                }
                got
            };
            let (mut front, back) = std::thread::scope(|s| {
                let taker = s.spawn(|| claim(TAKE, true));
                (claim(CLAIM, false), taker.join().unwrap())
            });
            front.extend(back);
            front.sort_unstable();
            assert_eq!(front, (0..len).collect::<Vec<_>>(), "{len} blocks");
        }
    }
}
