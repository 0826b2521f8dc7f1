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
    call: Mutex<Option<Arc<dyn Servable>>>,
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

/// A call the held workers take part in: [`Servable::serve`] runs on a worker, in slot
/// `slot` of the call's timing, whatever the call's state (a closed call is left at once).
pub(super) trait Servable: Send + Sync {
    fn serve(&self, slot: usize);
}

/// Holds the `threads − 1` workers of `pool` for the calling thread's calls on `threads`
/// threads, until the value returned is dropped; a worker takes part in calls as slot
/// `slot_of(its index in the pool)`.
pub(super) fn start(
    pool: &rayon::ThreadPool,
    threads: usize,
    slot_of: fn(Option<usize>) -> usize,
) -> Held {
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
        pool.spawn(move || hold.serve(slot_of(rayon::current_thread_index())));
    }
    let before = HELD.with(|h| h.replace(Some(hold)));
    Held { before, made: true }
}

impl Held {
    /// Nothing held.
    pub(super) fn none() -> Self {
        Held {
            before: None,
            made: false,
        }
    }
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
    pub(super) fn publish(&self, call: Arc<dyn Servable>) {
        *self.call.lock().unwrap_or_else(|e| e.into_inner()) = Some(call);
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
                    call.serve(slot);
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
