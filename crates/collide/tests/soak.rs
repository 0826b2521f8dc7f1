//! Soak at CI size: live heap bytes, counted by a global allocator in this test binary alone,
//! do not grow after the first simulated minute.
use collide::checks::sizes::Sizes;
use collide::Solver;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

/// The system allocator, counting the bytes currently allocated.
struct Counting;

static LIVE: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
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
        let r = collide::checks::soak::run(Sizes::ci().soak, solver, &probe, &mut |_| {});
        println!("{r}");
        assert!(r.passed(), "{r}");
    }
}
