//! The passes on several threads: each colour's lanes cut into runs of whole blocks, one run
//! a thread, the threads meeting at a barrier after every colour (Box2D v3's `solver.c` does
//! the same with its stages and blocks).
//!
//! The result is the one thread's, bit for bit: within a colour no two lanes share a ball, so
//! the order its lanes are solved in changes nothing, and the colours still go one after
//! another. The overflow (any contacts, one at a time) and the integration of the positions
//! are the first thread's while the others wait. The workers are started once a step (scoped
//! threads) and wait for each other by spinning, yielding when the wait is long.
//! Cost: one barrier a colour a pass.

use super::colour::{Kind, LaneRange};
use super::kernel;
use super::lanes::{integrate_states, Bodies, BodyState, LaneView, Lanes, Pass, WIDTH};
use crate::geom::Ball;
use glam::Vec2;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What the threads do in turn: a pass over every colour, or the move of the positions.
#[derive(Clone, Copy, Debug)]
pub(super) enum Job {
    Pass(Pass),
    /// Integrates the awake balls over the step (s).
    Integrate(f32),
}

/// Runs `jobs` over `lanes` in the order of `ranges` on `threads` threads (at least 2).
pub(super) fn run(
    (lanes, states): (&mut Lanes, &mut [BodyState]),
    ranges: &[LaneRange],
    balls: (&mut [Ball], &[Vec2]),
    (jobs, threads): (&[Job], usize),
) {
    let cuts = cuts(ranges, threads);
    let mut runs = lanes.views(&cuts).into_iter();
    // The runs in lane order are: before the first range (empty), then each range's one a
    // thread; hand each thread its own, range by range.
    runs.next();
    let mut mine: Vec<Vec<(LaneView, Kind)>> = (0..threads).map(|_| Vec::new()).collect();
    for r in ranges {
        for m in mine.iter_mut() {
            m.push((runs.next().expect("a run a thread a range"), r.kind));
        }
    }
    let bodies = Bodies::new(states);
    let barrier = SpinBarrier::new(threads);
    let wide = kernel::wide();
    let mut mine = mine.into_iter();
    let first = mine.next().expect("a first thread");
    std::thread::scope(|s| {
        for runs in mine {
            // SAFETY: the threads touch one state only within one colour's run, and the
            // colours are separated by the barrier (see `Bodies`).
            let b = unsafe { bodies.share() };
            let barrier = &barrier;
            s.spawn(move || work(runs, b, (jobs, barrier), (None, wide)));
        }
        work(first, bodies, (jobs, &barrier), (Some(balls), wide));
    });
}

/// The lanes where the runs begin and end: each range cut into `threads` runs of whole blocks
/// (the overflow all to the first thread), then the range's end.
fn cuts(ranges: &[LaneRange], threads: usize) -> Vec<usize> {
    let mut cuts = Vec::with_capacity(ranges.len() * (threads + 1));
    for r in ranges {
        cuts.push(r.lanes.start);
        let blocks = r.lanes.len().div_ceil(WIDTH);
        for t in 1..threads {
            let at = match r.kind {
                Kind::Mixed => r.lanes.end,
                _ => (r.lanes.start + t * blocks / threads * WIDTH).min(r.lanes.end),
            };
            cuts.push(at);
        }
    }
    if let Some(r) = ranges.last() {
        cuts.push(r.lanes.end);
    }
    cuts
}

/// The balls the first thread moves, and where each was when the contacts were found.
type Moving<'a> = (&'a mut [Ball], &'a [Vec2]);

/// One thread's share: its runs, range by range, for each job; the first thread (`balls`)
/// also integrates.
fn work(
    mut runs: Vec<(LaneView, Kind)>,
    mut bodies: Bodies,
    (jobs, barrier): (&[Job], &SpinBarrier),
    (mut balls, wide): (Option<Moving>, bool),
) {
    for job in jobs {
        match *job {
            Job::Pass(pass) => {
                for (run, kind) in runs.iter_mut() {
                    let range = 0..run.len();
                    kernel::pass(run, &mut bodies, (range, *kind, wide), pass);
                    barrier.wait();
                }
            }
            Job::Integrate(dt) => {
                if let Some((balls, found_at)) = balls.as_mut() {
                    integrate_states(&mut bodies, (balls, found_at), dt);
                }
                barrier.wait();
            }
        }
    }
}

/// A barrier for a fixed number of threads that spins (then yields) while it waits.
struct SpinBarrier {
    threads: usize,
    arrived: AtomicUsize,
    generation: AtomicUsize,
}

impl SpinBarrier {
    fn new(threads: usize) -> Self {
        Self {
            threads,
            arrived: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
        }
    }

    /// Returns once every thread has called it: the last to arrive opens the next round.
    fn wait(&self) {
        let round = self.generation.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.threads {
            self.arrived.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::Release);
            return;
        }
        let mut spins = 0u32;
        while self.generation.load(Ordering::Acquire) == round {
            spins += 1;
            if spins < 200 {
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}
