//! Soak at CI size: live heap bytes, counted by a global allocator in this test binary alone,
//! do not grow after the first simulated minute; and a steady step allocates nothing.
use collide::{BroadKind, Solver};
use collide_lab::checks::sizes::Sizes;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

/// The system allocator, counting the bytes currently allocated.
struct Counting;

static LIVE: AtomicU64 = AtomicU64::new(0);

thread_local! {
    /// Allocations and growing reallocations made by this thread.
    static CALLS: Cell<u64> = const { Cell::new(0) };
}

/// Counts one allocation call of this thread.
fn count_call() {
    CALLS.with(|c| c.set(c.get() + 1));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        count_call();
        if !p.is_null() {
            LIVE.fetch_add(layout.size() as u64, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size() as u64, Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        count_call();
        if !p.is_null() {
            LIVE.fetch_add(new_size as u64, Ordering::Relaxed);
            LIVE.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[test]
fn live_heap_does_not_grow_after_the_first_simulated_minute() {
    let probe = || LIVE.load(Ordering::Relaxed);
    for solver in [Solver::PushOut, Solver::Soft] {
        let r = collide_lab::checks::soak::run(Sizes::ci().soak, solver, &probe, &mut |_| {});
        println!("{r}");
        assert!(r.passed(), "{r}");
    }
}

/// Soft contacts with sleepers: the broad phase sees the sleepers as a list rebuilt every
/// step, and each sleep check marks groups in scratch lists. These buffers are kept across
/// steps, so once the pile has settled a second of steps makes no allocation at all (a
/// buffer made anew each step left freed blocks all over the heap, and the resident size
/// crept up long after the first minute).
#[test]
fn a_settled_soft_table_with_sleepers_steps_without_allocating() {
    let mut w = collide_lab::checks::table(1);
    collide_lab::checks::use_solver(&mut w, Solver::Soft);
    w.edit_settings(|s| s.rotate = true);
    w.edit_settings(|s| s.ball_radius = collide_lab::checks::containment::RADIUS);
    w.set_broad_phase(BroadKind::Grid);
    w.launch(200);
    let per_second = w.steps_per_second();
    for _ in 0..40 * per_second {
        w.step();
        w.drain_hits();
    }
    let asleep = w.asleep_count();
    assert!(asleep > 0, "no ball asleep after 40 s: nothing to test");
    let before = CALLS.with(Cell::get);
    for _ in 0..per_second {
        w.step();
        w.drain_hits();
    }
    let calls = CALLS.with(Cell::get) - before;
    assert_eq!(
        calls, 0,
        "{calls} allocations in a second of steps, {asleep} balls asleep"
    );
}
