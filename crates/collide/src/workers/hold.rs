//! Holding the pool's workers for a step: between two calls of a step (each stage's parts,
//! [`super::each`]) a worker that went back to the pool falls asleep, and waking it costs
//! more than a small stage's parts; the caller then runs every part alone. While a step
//! holds them ([`hold`]), the workers wait for its calls instead, as Box2D v3's workers
//! wait between its solver's stages; each call is published to them rather than handed to
//! the pool. A waiting worker spins for about a tenth of a millisecond (the gaps between a
//! step's calls are mostly shorter), then sleeps until the next call or the step's end
//! wakes it: a worker spinning on through the step's longer serial parts would take a core
//! from the window's thread or another program, and the step's own calling thread with it
//! when they outnumber the cores.
//!
//! Nothing waits for a held worker: the caller claims every part a worker has not (as
//! without a hold), a worker that has not yet come (busy with another world's step, or not
//! scheduled) costs its share of the speed only, and the step's end releases the workers
//! whatever they are doing. A call a worker finds already closed is left untouched.

use super::Call;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::Thread;
use std::time::Duration;

/// Checks a waiting worker spins through before it sleeps (about 0.1 ms).
const SPINS: u32 = 1 << 12;
/// Longest sleep before a waiting worker looks again without being woken.
const NAP: Duration = Duration::from_millis(2);

/// What a held pool's workers watch: the call published last and its number, and whether
/// the step let them go.
pub(super) struct Hold {
    pub(super) threads: usize,
    call: Mutex<Option<Arc<Call>>>,
    published: AtomicU64,
    released: AtomicBool,
    /// The workers asleep, to wake for the next call or the release, and their count.
    sleepers: Mutex<Vec<Thread>>,
    asleep: AtomicUsize,
}

thread_local! {
    /// The hold of the step running on this thread, if any.
    static HELD: RefCell<Option<Arc<Hold>>> = const { RefCell::new(None) };
}

/// The workers held for the calling thread's step, until this is dropped.
#[must_use = "the workers are held until this is dropped"]
pub(crate) struct Held {
    /// The hold this one replaced on the thread (restored on drop).
    before: Option<Arc<Hold>>,
    /// Whether this value made a hold.
    made: bool,
}

/// Holds the `threads − 1` workers of the pool for `threads` threads for the calling
/// thread's calls, until the value returned is dropped (nothing held on one thread, or
/// where no pool can start).
pub(crate) fn hold(threads: usize) -> Held {
    let threads = super::usable(threads);
    let pool = match threads > 1 {
        true => super::pool(threads),
        false => None,
    };
    let Some(pool) = pool else {
        return Held {
            before: None,
            made: false,
        };
    };
    let hold = Arc::new(Hold {
        threads,
        call: Mutex::new(None),
        published: AtomicU64::new(0),
        released: AtomicBool::new(false),
        sleepers: Mutex::new(Vec::new()),
        asleep: AtomicUsize::new(0),
    });
    for _ in 1..threads {
        let hold = Arc::clone(&hold);
        pool.spawn(move || {
            let slot = rayon::current_thread_index().map_or(super::SLOTS - 1, |i| i + 1);
            hold.serve(slot);
        });
    }
    let before = HELD.with(|h| h.replace(Some(hold)));
    Held { before, made: true }
}

impl Drop for Held {
    fn drop(&mut self) {
        if !self.made {
            return;
        }
        if let Some(hold) = HELD.with(|h| h.replace(self.before.take())) {
            hold.released.store(true, Ordering::SeqCst);
            hold.wake();
        }
    }
}

/// The hold of the calling thread's step for calls on `threads` threads, if one is held.
pub(super) fn held(threads: usize) -> Option<Arc<Hold>> {
    HELD.with(|h| h.borrow().clone())
        .filter(|h| h.threads == threads)
}

impl Hold {
    /// Hands `call` to the held workers.
    pub(super) fn publish(&self, call: &Arc<Call>) {
        *self.call.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::clone(call));
        self.published.fetch_add(1, Ordering::SeqCst);
        self.wake();
    }

    /// Wakes the workers asleep. A worker counts itself asleep before it looks a last time
    /// for a call or the release and sleeps (both sequentially consistent), so either it
    /// sees what was published or it is counted here and woken (a wake before its sleep
    /// ends that sleep at once).
    fn wake(&self) {
        if self.asleep.load(Ordering::SeqCst) > 0 {
            for t in self
                .sleepers
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .iter()
            {
                t.unpark();
            }
        }
    }

    /// Sleeps until woken, unless a call was published since `seen` or the step ended.
    fn sleep(&self, seen: u64) {
        let me = std::thread::current();
        let id = me.id();
        self.sleepers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(me);
        self.asleep.fetch_add(1, Ordering::SeqCst);
        let quiet = self.published.load(Ordering::SeqCst) == seen;
        if quiet && !self.released.load(Ordering::SeqCst) {
            std::thread::park_timeout(NAP);
        }
        self.asleep.fetch_sub(1, Ordering::SeqCst);
        self.sleepers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|t| t.id() != id);
    }

    /// A held worker (`slot` for the timing): takes part in each call published, until
    /// released.
    fn serve(&self, slot: usize) {
        let (mut seen, mut spins) = (0, 0u32);
        loop {
            let now = self.published.load(Ordering::Acquire);
            if now != seen {
                seen = now;
                spins = 0;
                let call = self.call.lock().unwrap_or_else(|e| e.into_inner()).clone();
                if let Some(call) = call {
                    call.work(slot);
                }
                continue;
            }
            if self.released.load(Ordering::Acquire) {
                return;
            }
            spins += 1;
            if spins < SPINS {
                std::hint::spin_loop();
            } else {
                self.sleep(seen);
                spins = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// Sums `0..n` in `n` parts on `threads` threads.
    fn sum(threads: usize, n: u64) -> u64 {
        let mut parts: Vec<u64> = (0..n).collect();
        super::super::each(threads, &mut parts, |k, v| *v += k as u64);
        parts.iter().sum()
    }

    #[test]
    fn a_held_steps_calls_are_all_done_and_the_hold_ends_with_it() {
        assert!(held(2).is_none());
        {
            let _outer = hold(2);
            assert!(held(2).is_some() && held(3).is_none());
            for n in [2, 7, 100] {
                assert_eq!(sum(2, n), n * (n - 1), "{n} parts");
            }
            {
                let _inner = hold(3);
                assert!(held(3).is_some() && held(2).is_none());
                assert_eq!(sum(3, 50), 50 * 49);
            }
            assert!(held(2).is_some(), "the outer hold is back");
        }
        assert!(held(2).is_none(), "released");
        let _none = hold(1);
        assert!(held(1).is_none(), "one thread holds nothing");
    }

    #[test]
    fn steps_holding_one_pool_from_several_threads_all_finish() {
        let start = Instant::now();
        let runs: Vec<_> = (0..4)
            .map(|_| {
                std::thread::spawn(|| {
                    for _ in 0..200 {
                        let _held = hold(2);
                        assert_eq!(sum(2, 16), 16 * 15);
                    }
                })
            })
            .collect();
        for r in runs {
            r.join().expect("a step finished");
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no step waited for long"
        );
    }
}
