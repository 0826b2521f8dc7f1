//! The worker threads the step's parallel stages share (the grid's pair search and obstacle
//! query, the soft contacts' narrow phase, lanes and passes): for `threads` threads, a pool
//! of `threads − 1` workers (rayon's), kept for the next call, with the calling thread as
//! the first. A stage cuts its work into parts and hands [`each`] the parts; the call returns
//! when every part is done. Nothing a part computes may depend on which thread ran it or
//! when: the stages using this keep the one thread's bits (`world/soft/threads.rs`,
//! `world/soft/find.rs`, `world/soft/prepare.rs`, `broad/grid/ball_cells/search.rs`).
//!
//! **No thread waits for one that has not started.** The parts are claimed, one at a time,
//! from a counter, by the caller and by every worker that has started; the caller claims
//! until none is left, then closes the call and waits only for the parts claimed (and so
//! begun) by workers. A worker that starts after the close finds the call closed and leaves
//! without touching it. So a worker that is late (descheduled, or busy with another world's
//! step: every world of the process shares these pools) costs its share of the speed and
//! nothing more, and the caller alone can finish a call's every part (as Box2D v3's worker 0
//! can). Several worlds may call at once, each on any number of threads.
//!
//! The pools of the last few thread counts are kept (a slider dragged over the counts starts
//! a handful of threads, not one pool a count). WebAssembly has no threads here: there, and
//! wherever a pool cannot be started, the parts run one after another on the caller, which
//! gives the same bits.
//!
//! Each call can say how its parts were spread ([`Spread`]): the time each thread was busy
//! with them, by the clock it is given.

#[cfg(not(target_arch = "wasm32"))]
mod hold;

/// Holds the pool's workers for the calling thread's step on `threads` threads until the
/// value returned is dropped (`hold.rs`; nothing is held on one thread, or where no pool can
/// start).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn hold(threads: usize) -> hold::Held {
    let threads = usable(threads);
    match threads > 1 {
        true => pool(threads).map(|pool| hold::start(&pool, threads, slot_of)),
        false => None,
    }
    .unwrap_or_else(hold::Held::none)
}

/// The timing slot of the pool's worker `index` (none: the last slot).
#[cfg(not(target_arch = "wasm32"))]
fn slot_of(index: Option<usize>) -> usize {
    index.map_or(SLOTS - 1, |i| (i + 1).min(SLOTS - 1))
}

#[cfg(not(target_arch = "wasm32"))]
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::{Arc, Mutex};

/// Most threads a stage runs on.
pub(crate) const MAX_THREADS: usize = 64;

/// Threads a [`Spread`] tells apart: the caller, then the pool's workers; the last slot also
/// holds every worker beyond it.
pub const SLOTS: usize = 8;

/// Pools kept, the most recently used first.
#[cfg(not(target_arch = "wasm32"))]
const POOLS_KEPT: usize = 3;

/// Parts a thread's share of a stage is cut into: a worker that is late, or descheduled in
/// the middle of its work, then holds up only a small part, which another thread takes.
const PARTS_PER_THREAD: usize = 4;

/// The parts a stage on `threads` threads cuts its work into (one on one thread).
pub(crate) fn parts(threads: usize) -> usize {
    match threads {
        0 | 1 => 1,
        n => n * PARTS_PER_THREAD,
    }
}

/// The threads a stage may use for `threads` asked (1 on WebAssembly).
pub(crate) fn usable(threads: usize) -> usize {
    if cfg!(target_arch = "wasm32") {
        1
    } else {
        threads.clamp(1, MAX_THREADS)
    }
}

/// How a call's parts were spread over the threads: each thread's busy time (ns by the
/// clock given, zero without one) and parts run. Slot 0 is the caller, slot `k` the pool's
/// `k`-th worker (the last slot holds every worker beyond).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spread {
    /// Time each thread spent working (ns).
    pub busy: [u64; SLOTS],
    /// Time each thread spent waiting for others, within the stage (ns).
    pub idle: [u64; SLOTS],
    /// Parts each thread ran.
    pub parts: [u32; SLOTS],
}

impl Spread {
    /// Threads that took part: those busy or waiting for a while.
    pub fn threads(&self) -> usize {
        (0..SLOTS)
            .filter(|&k| self.busy[k] + self.idle[k] > 0 || self.parts[k] > 0)
            .count()
    }
}

impl std::ops::AddAssign for Spread {
    fn add_assign(&mut self, o: Self) {
        for k in 0..SLOTS {
            self.busy[k] += o.busy[k];
            self.idle[k] += o.idle[k];
            self.parts[k] += o.parts[k];
        }
    }
}

/// Runs `work(k, &mut parts[k])` for every part on up to `threads` threads (the caller and
/// `threads − 1` of the pool's workers, whichever claim it first), and returns when all are
/// done; while a step is timed ([`start_timing`]), how they were spread goes to its stage.
pub(crate) fn each<T: Send>(threads: usize, parts: &mut [T], work: impl Fn(usize, &mut T) + Sync) {
    let clock = TIMING.with(|t| t.get().clock);
    #[cfg(not(target_arch = "wasm32"))]
    if threads > 1 && parts.len() > 1 {
        let workers = match hold::held(threads) {
            Some(hold) => Some(Workers::Held(hold)),
            None => pool(threads).map(Workers::Pool),
        };
        if let Some(workers) = workers {
            let spread = on_pool(&workers, threads, parts, clock, &work);
            return TIMING.with(|t| t.set(t.get().with(spread)));
        }
    }
    #[cfg(target_arch = "wasm32")]
    let _ = threads;
    for (k, part) in parts.iter_mut().enumerate() {
        work(k, part);
    }
    if clock.is_some() {
        let mut spread = Spread::default();
        spread.parts[0] = parts.len() as u32;
        TIMING.with(|t| t.set(t.get().with(spread)));
    }
}

/// Runs `work(start, chunk)` over `data` cut into chunks (`start`: the chunk's first index
/// in `data`), on up to `threads` threads where `data` holds at least `from` items, else
/// as one chunk on the caller. For loops whose items are each computed alone: any cut gives
/// the same items.
pub(crate) fn chunks<T: Send>(
    threads: usize,
    data: &mut [T],
    from: usize,
    work: impl Fn(usize, &mut [T]) + Sync,
) {
    let n = data.len();
    let threads = threads_for(threads, n, from);
    if threads == 1 {
        return work(0, data);
    }
    let cuts = parts(threads);
    let mut rest = data;
    let mut runs = Vec::with_capacity(cuts);
    for t in 0..cuts {
        let span = span(t, n, cuts);
        let (run, tail) = std::mem::take(&mut rest).split_at_mut(span.len());
        runs.push((span.start, run));
        rest = tail;
    }
    each(threads, &mut runs, |_, (start, run)| work(*start, run));
}

/// Sets `out` to `f(0), f(1), …, f(n − 1)`, on up to `threads` threads where `n` is at
/// least `from`: each thread writes its run of the list's room in place, with no list
/// filled first and written again (the one thread's list, whatever the cut).
pub(crate) fn map_indices_into<B: Send>(
    threads: usize,
    n: usize,
    from: usize,
    out: &mut Vec<B>,
    f: impl Fn(usize) -> B + Sync,
) {
    out.clear();
    out.reserve(n);
    let room = &mut out.spare_capacity_mut()[..n];
    chunks(threads, room, from, |start, run| {
        for (k, slot) in (start..).zip(run.iter_mut()) {
            slot.write(f(k));
        }
    });
    // SAFETY: every one of the first `n` slots was written above (the chunks cover the
    // room once, and a panic in `f` propagates before this line).
    unsafe { out.set_len(n) }
}

/// Appends to `out`, in the order of `items`, `f(x)` for each item `x` that gives one, on up
/// to `threads` threads where `items` holds at least `from` (each part's list in `scratch`,
/// kept between calls, then the lists one after another): the one thread's list.
pub(crate) fn filter_map_into<A: Sync, B: Send>(
    threads: usize,
    items: &[A],
    from: usize,
    scratch: &mut Vec<Vec<B>>,
    out: &mut Vec<B>,
    f: impl Fn(&A) -> Option<B> + Sync,
) {
    let f = |i: usize| f(&items[i]);
    filter_map_indices_into(threads, items.len(), from, scratch, out, f);
}

/// [`filter_map_into`] over the indices `0..n`: appends `f(i)` for each `i` that gives one,
/// in order, on up to `threads` threads where `n` is at least `from`.
pub(crate) fn filter_map_indices_into<B: Send>(
    threads: usize,
    n: usize,
    from: usize,
    scratch: &mut Vec<Vec<B>>,
    out: &mut Vec<B>,
    f: impl Fn(usize) -> Option<B> + Sync,
) {
    let fill = |run: std::ops::Range<usize>, list: &mut Vec<B>| extend_filtered(list, run, &f);
    lists_into(threads, n, from, scratch, out, fill);
}

/// Appends `f(i)` for each `i` of `run` that gives one, in order, into room reserved first,
/// so the loop holds no call (a `Vec::push` that may grow the list is one): the browser's
/// engine keeps a loop's values in registers only where the loop makes no call, and spilled
/// them at every item around the rare growth.
fn extend_filtered<B>(
    list: &mut Vec<B>,
    run: std::ops::Range<usize>,
    f: impl Fn(usize) -> Option<B>,
) {
    list.reserve(run.len());
    let (at, mut n) = (list.len(), 0);
    let room = &mut list.spare_capacity_mut()[..run.len()];
    for i in run {
        if let Some(b) = f(i) {
            // SAFETY: at most one item an index, so `n` is below `room.len()`.
            unsafe { room.get_unchecked_mut(n).write(b) };
            n += 1;
        }
    }
    // SAFETY: the first `n` slots of the room were written above.
    unsafe { list.set_len(at + n) }
}

/// Calls `apply(f(i))` for each `i` of `0..n` that gives one, in order: `f` on up to
/// `threads` threads where `n` is at least `from` (the results gathered in `scratch` and
/// `found`, kept by the caller), `apply` on the calling thread; on one thread each result is
/// applied as it is found, with no list between.
pub(crate) fn each_found<B: Send>(
    threads: usize,
    n: usize,
    from: usize,
    lists: (&mut Vec<Vec<B>>, &mut Vec<B>),
    f: impl Fn(usize) -> Option<B> + Sync,
    mut apply: impl FnMut(B),
) {
    if threads_for(threads, n, from) == 1 {
        return (0..n).filter_map(f).for_each(apply);
    }
    let (scratch, found) = lists;
    found.clear();
    filter_map_indices_into(threads, n, from, scratch, found, f);
    found.drain(..).for_each(&mut apply);
}

/// Appends to `out` what `fill(run, list)` appends to `list` for the indices `0..n` cut into
/// runs in order, on up to `threads` threads where `n` is at least `from` (each run's list
/// in `scratch`, kept between calls, then the lists one after another): as one call of
/// `fill(0..n, out)` gives, for any `fill` whose list for a run is its items' lists joined.
pub(crate) fn lists_into<B: Send>(
    threads: usize,
    n: usize,
    from: usize,
    scratch: &mut Vec<Vec<B>>,
    out: &mut Vec<B>,
    fill: impl Fn(std::ops::Range<usize>, &mut Vec<B>) + Sync,
) {
    let threads = threads_for(threads, n, from);
    if threads == 1 {
        return fill(0..n, out);
    }
    let cuts = parts(threads);
    scratch.resize_with(cuts, Vec::new);
    let mut runs: Vec<(std::ops::Range<usize>, &mut Vec<B>)> = scratch
        .iter_mut()
        .enumerate()
        .map(|(t, list)| (span(t, n, cuts), list))
        .collect();
    each(threads, &mut runs, |_, (run, list)| {
        list.clear();
        fill(run.clone(), list);
    });
    for list in scratch.iter_mut() {
        out.append(list);
    }
}

/// The sum of `f(run)` over the indices `0..n` cut into runs, on up to `threads` threads
/// where `n` is at least `from` (any cut gives the same sum of counts).
pub(crate) fn sum(
    threads: usize,
    n: usize,
    from: usize,
    f: impl Fn(std::ops::Range<usize>) -> u64 + Sync,
) -> u64 {
    let threads = threads_for(threads, n, from);
    if threads == 1 {
        return f(0..n);
    }
    let cuts = parts(threads);
    let mut runs: Vec<(std::ops::Range<usize>, u64)> =
        (0..cuts).map(|t| (span(t, n, cuts), 0)).collect();
    each(threads, &mut runs, |_, (run, total)| {
        *total = f(run.clone())
    });
    runs.iter().map(|r| r.1).sum()
}

/// The threads a loop over `n` items runs on when `threads` are asked and it goes to the
/// threads from `from` items: one below, else the usable count.
pub(crate) fn threads_for(threads: usize, n: usize, from: usize) -> usize {
    match n >= from.max(2) {
        true => usable(threads),
        false => 1,
    }
}

/// Part `t`'s items of `n` cut into `cuts` parts of nearly equal length, in order.
pub(crate) fn span(t: usize, n: usize, cuts: usize) -> std::ops::Range<usize> {
    t * n / cuts..(t + 1) * n / cuts
}

/// What a thread's timing keeps: the clock of the step it times ([`start_timing`], or of
/// the call whose parts it runs), the spread of the calls made so far, and its time waiting.
#[derive(Clone, Copy, Default)]
struct Timing {
    clock: Option<fn() -> u64>,
    spread: Spread,
    idle: u64,
}

impl Timing {
    fn with(mut self, spread: Spread) -> Self {
        self.spread += spread;
        self
    }
}

thread_local! {
    static TIMING: std::cell::Cell<Timing> = const { std::cell::Cell::new(Timing {
        clock: None,
        spread: Spread { busy: [0; SLOTS], idle: [0; SLOTS], parts: [0; SLOTS] },
        idle: 0,
    }) };
}

/// Starts timing a step's stages on the calling thread by `clock` (nothing is timed
/// without one): each stage then ends with [`spread_of`].
pub(crate) fn start_timing(clock: Option<fn() -> u64>) {
    TIMING.with(|t| {
        t.set(Timing {
            clock,
            ..Timing::default()
        })
    });
}

/// How the stage that took `wall` ns on the calling thread, ended now, spread over the
/// threads: the caller busy all of it but the time it waited for the workers, each worker
/// busy with the parts it ran; zero without a clock. The next stage starts from nothing.
pub(crate) fn spread_of(wall: u64) -> Spread {
    let mine = TIMING.with(|t| {
        let now = t.get();
        t.set(Timing {
            clock: now.clock,
            ..Timing::default()
        });
        now
    });
    if mine.clock.is_none() {
        return Spread::default();
    }
    let mut spread = mine.spread;
    spread.idle[0] += mine.idle;
    spread.busy[0] = wall.saturating_sub(spread.idle[0]);
    spread
}

/// Waits until `ready()`, spinning, then yielding while it waits long; the time counts as
/// the thread's idle time in the stage's [`Spread`].
pub(crate) fn wait_until(ready: impl Fn() -> bool) {
    if ready() {
        return;
    }
    let clock = TIMING.with(|t| t.get().clock);
    let t0 = clock.map_or(0, |c| c());
    let mut spins = 0u32;
    while !ready() {
        spins += 1;
        if spins < 200 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
    let ns = clock.map_or(0, |c| c()).saturating_sub(t0);
    TIMING.with(|t| {
        let mut now = t.get();
        now.idle += ns;
        t.set(now);
    });
}

/// What the threads of one call share, kept alive by every worker that holds it, so that a
/// worker starting after the caller returned reads the closed call and nothing else.
#[cfg(not(target_arch = "wasm32"))]
struct Call {
    /// The next part to claim.
    next: AtomicUsize,
    /// Workers inside the call, and [`CLOSED`] once the caller closed it.
    inside: AtomicUsize,
    parts: usize,
    clock: Option<fn() -> u64>,
    busy: [AtomicU64; SLOTS],
    idle: [AtomicU64; SLOTS],
    ran: [AtomicU64; SLOTS],
    /// The call's parts, run by number; valid while the call is open or a worker is inside.
    run: Erased,
}

/// Set in [`Call::inside`] once the caller has closed the call.
#[cfg(not(target_arch = "wasm32"))]
const CLOSED: usize = 1 << (usize::BITS - 1);

/// The call's `run(k)`, its lifetime erased; see [`Call::run`].
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy)]
struct Erased(*const (dyn Fn(usize) + Sync));

// SAFETY: the closure behind it is `Sync`, and it is only called while the call is open or
// by a worker inside it, both of which keep the caller (who owns it) waiting.
#[cfg(not(target_arch = "wasm32"))]
unsafe impl Send for Erased {}
// SAFETY: as above.
#[cfg(not(target_arch = "wasm32"))]
unsafe impl Sync for Erased {}

/// The raw pointer to `parts`, handed to whichever thread claims a part.
#[cfg(not(target_arch = "wasm32"))]
struct PartsPtr<T>(*mut T);

// SAFETY: each part is claimed once (a counter), so no two threads ever reach one part.
#[cfg(not(target_arch = "wasm32"))]
unsafe impl<T: Send> Sync for PartsPtr<T> {}

#[cfg(not(target_arch = "wasm32"))]
impl Call {
    /// Claims and runs parts while any are left, timing them on `slot`.
    fn claim(&self, slot: usize) {
        let slot = slot.min(SLOTS - 1);
        let t0 = self.clock.map_or(0, |c| c());
        let mut ran = 0;
        loop {
            let k = self.next.fetch_add(1, Ordering::Relaxed);
            if k >= self.parts {
                break;
            }
            // SAFETY: see `Call::run`: the call is open or this thread is inside it.
            unsafe { (*self.run.0)(k) };
            ran += 1;
        }
        if ran > 0 && slot > 0 {
            // A worker's waits within its parts are its idle time, the rest busy.
            let idle = TIMING.with(|t| t.replace(Timing::default()).idle);
            let ns = self.clock.map_or(0, |c| c()).saturating_sub(t0);
            self.busy[slot].fetch_add(ns.saturating_sub(idle), Ordering::Relaxed);
            self.idle[slot].fetch_add(idle, Ordering::Relaxed);
        }
        self.ran[slot].fetch_add(ran, Ordering::Relaxed);
    }

    /// A worker's part of the call: enters unless the call is closed, claims, leaves.
    fn work(&self, slot: usize) {
        let mut inside = self.inside.load(Ordering::Relaxed);
        loop {
            if inside & CLOSED != 0 {
                return;
            }
            match self.inside.compare_exchange_weak(
                inside,
                inside + 1,
                Ordering::Acquire,
                Ordering::Relaxed,
            ) {
                Ok(_) => break,
                Err(now) => inside = now,
            }
        }
        // Leaves even if a part panics, so the caller never waits for it forever.
        struct Leave<'a>(&'a AtomicUsize);
        impl Drop for Leave<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::Release);
            }
        }
        let _leave = Leave(&self.inside);
        TIMING.with(|t| {
            t.set(Timing {
                clock: self.clock,
                ..Timing::default()
            })
        });
        self.claim(slot);
    }

    /// Closes the call and waits for the workers inside it to leave: the parts they
    /// claimed are then done.
    fn close(&self) {
        self.inside.fetch_or(CLOSED, Ordering::AcqRel);
        wait_until(|| self.inside.load(Ordering::Acquire) == CLOSED);
    }
}

/// Where a call's workers come from: the pool, each asked in turn, or the step's hold.
#[cfg(not(target_arch = "wasm32"))]
enum Workers {
    Pool(Arc<rayon::ThreadPool>),
    Held(Arc<hold::Hold>),
}

#[cfg(not(target_arch = "wasm32"))]
impl hold::Servable for Call {
    fn serve(&self, slot: usize) {
        self.work(slot);
    }
}

/// [`each`] on the `workers` and the caller.
#[cfg(not(target_arch = "wasm32"))]
fn on_pool<T: Send>(
    workers: &Workers,
    threads: usize,
    parts: &mut [T],
    clock: Option<fn() -> u64>,
    work: &(impl Fn(usize, &mut T) + Sync),
) -> Spread {
    let ptr = PartsPtr(parts.as_mut_ptr());
    let n = parts.len();
    let run = |k: usize| {
        let ptr = &ptr;
        // SAFETY: `k < n` and each part is claimed once (`Call::claim`).
        work(k, unsafe { &mut *ptr.0.add(k) })
    };
    let run: &(dyn Fn(usize) + Sync) = &run;
    // SAFETY: only the lifetime is erased; the closure outlives every call of it, since the
    // caller does not return before the call is closed and every worker inside has left.
    let run: &'static (dyn Fn(usize) + Sync) = unsafe { std::mem::transmute(run) };
    let call = Arc::new(Call {
        next: AtomicUsize::new(0),
        inside: AtomicUsize::new(0),
        parts: n,
        clock,
        busy: Default::default(),
        idle: Default::default(),
        ran: Default::default(),
        run: Erased(run),
    });
    match workers {
        Workers::Held(hold) => hold.publish(call.clone()),
        Workers::Pool(pool) => {
            for _ in 1..threads.min(n) {
                let call = Arc::clone(&call);
                pool.spawn(move || call.work(slot_of(rayon::current_thread_index())));
            }
        }
    }
    call.claim(0);
    call.close();
    let mut spread = Spread::default();
    for k in 1..SLOTS {
        spread.busy[k] = call.busy[k].load(Ordering::Relaxed);
        spread.idle[k] = call.idle[k].load(Ordering::Relaxed);
    }
    for k in 0..SLOTS {
        spread.parts[k] = call.ran[k].load(Ordering::Relaxed) as u32;
    }
    spread
}

/// The pool for `threads` threads (`threads − 1` workers), started on first use.
#[cfg(not(target_arch = "wasm32"))]
fn pool(threads: usize) -> Option<Arc<rayon::ThreadPool>> {
    type Pools = Vec<(usize, Arc<rayon::ThreadPool>)>;
    static POOLS: Mutex<Pools> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(|e| e.into_inner());
    let at = match pools.iter().position(|(n, _)| *n == threads) {
        Some(at) => at,
        None => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads - 1)
                .thread_name(|i| format!("collide-{}", i + 1))
                .build()
                .ok()?;
            pools.push((threads, Arc::new(pool)));
            pools.len() - 1
        }
    };
    pools[..=at].rotate_right(1);
    pools.truncate(POOLS_KEPT);
    Some(Arc::clone(&pools[0].1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn filter_map_into_gives_the_one_threads_list_on_any_number_of_threads() {
        let items: Vec<u32> = (0..1000).collect();
        let keep = |&x: &u32| (x % 7 != 3).then_some(x * 2);
        let want: Vec<u32> = items.iter().filter_map(keep).collect();
        let mut scratch = Vec::new();
        for threads in [1, 2, 3, 7] {
            let mut out = vec![9];
            filter_map_into(threads, &items, 2, &mut scratch, &mut out, keep);
            assert_eq!(out[0], 9, "appended after what was there");
            assert_eq!(out[1..], want[..], "{threads} threads");
        }
    }

    #[test]
    fn map_indices_into_sets_the_list_to_each_index_mapped_on_any_number_of_threads() {
        for threads in [1, 2, 3, 7] {
            for n in [0, 1, 5, 99, 5000] {
                let mut out = vec![String::from("before"); 3];
                map_indices_into(threads, n, 2, &mut out, |k| format!("{k}"));
                let want: Vec<String> = (0..n).map(|k| format!("{k}")).collect();
                assert_eq!(out, want, "{threads} threads, {n} items");
            }
        }
    }

    #[test]
    fn each_found_applies_what_is_found_in_order_on_any_number_of_threads() {
        let find = |i: usize| (i % 5 != 2).then_some(i * 3);
        let want: Vec<usize> = (0..5000).filter_map(find).collect();
        let (mut scratch, mut found) = (Vec::new(), Vec::new());
        for threads in [1, 2, 3, 7] {
            let mut got = Vec::new();
            let lists = (&mut scratch, &mut found);
            each_found(threads, 5000, 2, lists, find, |x| got.push(x));
            assert_eq!(got, want, "{threads} threads");
        }
    }

    #[test]
    fn chunks_cover_every_item_once_with_its_own_index_on_any_number_of_threads() {
        for threads in [1, 2, 3, 7] {
            for n in [0, 1, 5, 99, 1000] {
                let mut data = vec![u32::MAX; n];
                chunks(threads, &mut data, 2, |start, run| {
                    for (k, v) in run.iter_mut().enumerate() {
                        assert_eq!(*v, u32::MAX, "an item written twice");
                        *v = (start + k) as u32;
                    }
                });
                let want: Vec<u32> = (0..n as u32).collect();
                assert_eq!(data, want, "{threads} threads, {n} items");
            }
        }
    }

    #[test]
    fn every_part_runs_once_with_its_number() {
        for threads in [1, 2, 3, 5] {
            for n in [1, threads, 3 * threads + 1] {
                let mut parts: Vec<(usize, u32)> = vec![(usize::MAX, 0); n];
                start_timing(Some(|| 0));
                each(threads, &mut parts, |k, p| {
                    p.0 = k;
                    p.1 += 1;
                });
                let spread = spread_of(0);
                for (k, p) in parts.iter().enumerate() {
                    assert_eq!(*p, (k, 1));
                }
                assert_eq!(spread.parts.iter().sum::<u32>() as usize, n);
            }
        }
    }

    #[test]
    fn the_caller_finishes_alone_when_every_worker_is_busy_elsewhere() {
        // Hold the 3-thread pool's two workers until the caller is done: the call must not
        // wait for them, and they find it closed when they start.
        let pool = pool(3).expect("a pool");
        let release = Arc::new(std::sync::Barrier::new(3));
        for _ in 0..2 {
            let release = Arc::clone(&release);
            pool.spawn(move || {
                release.wait();
            });
        }
        let mut parts = vec![0u32; 12];
        start_timing(Some(|| 0));
        each(3, &mut parts, |k, p| *p = k as u32 + 1);
        let spread = spread_of(0);
        assert_eq!(parts, (1..=12).collect::<Vec<u32>>());
        assert_eq!(spread.parts[0], 12, "the caller ran every part");
        release.wait();
    }

    /// Sums `0..n` in `n` parts on `threads` threads.
    fn sum(threads: usize, n: u64) -> u64 {
        let mut parts: Vec<u64> = (0..n).collect();
        each(threads, &mut parts, |k, v| *v += k as u64);
        parts.iter().sum()
    }

    #[test]
    fn a_held_steps_calls_are_all_done_and_the_hold_ends_with_it() {
        assert!(hold::held(2).is_none());
        {
            let _outer = hold(2);
            assert!(hold::held(2).is_some() && hold::held(3).is_none());
            for n in [2, 7, 100] {
                assert_eq!(sum(2, n), n * (n - 1), "{n} parts");
            }
            {
                let _inner = hold(3);
                assert!(hold::held(3).is_some() && hold::held(2).is_none());
                assert_eq!(sum(3, 50), 50 * 49);
            }
            assert!(hold::held(2).is_some(), "the outer hold is back");
        }
        assert!(hold::held(2).is_none(), "released");
        let _none = hold(1);
        assert!(hold::held(1).is_none(), "one thread holds nothing");
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
