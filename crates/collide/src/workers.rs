//! The worker threads the step's parallel stages share (the grid's pair search, the soft
//! contacts' narrow phase, lanes and passes): for `threads` threads, a pool of
//! `threads − 1` workers (rayon's), kept for the next call, with the calling thread as the
//! first. A stage cuts its work into one part a thread and hands [`each`] the parts; the call
//! returns when every part is done. Nothing a part computes may depend on which thread ran it
//! or when: the stages using this keep the one thread's bits (`world/soft/threads.rs`,
//! `world/soft/find.rs`, `world/soft/prepare.rs`, `broad/grid/ball_cells/sort.rs`).
//!
//! Every world of the process shares these pools, so a part may start late, after another
//! world's parts queued before it, or only once the call's other parts are done. A part may
//! therefore never wait for another part to start: it may only wait for work that another
//! part has claimed (and so begun), and the calling thread must be able to finish all the
//! call's work alone (`world/soft/threads.rs` claims even the move of the balls).
//!
//! The pools of the last few thread counts are kept (a slider dragged over the counts starts
//! a handful of threads, not one pool a count). WebAssembly has no threads here: there, and
//! wherever a pool cannot be started, the parts run one after another on the caller, which
//! gives the same bits.

#[cfg(not(target_arch = "wasm32"))]
use std::sync::{Arc, Mutex};

/// Most threads a stage runs on.
pub(crate) const MAX_THREADS: usize = 64;

/// Pools kept, the most recently used first.
#[cfg(not(target_arch = "wasm32"))]
const POOLS_KEPT: usize = 3;

/// The threads a stage may use for `threads` asked (1 on WebAssembly).
pub(crate) fn usable(threads: usize) -> usize {
    if cfg!(target_arch = "wasm32") {
        1
    } else {
        threads.clamp(1, MAX_THREADS)
    }
}

/// Runs `work(t, &mut parts[t])` for every part, part 0 on the calling thread and the others
/// on the pool's workers, and returns when all are done.
pub(crate) fn each<T: Send>(parts: &mut [T], work: impl Fn(usize, &mut T) + Sync) {
    #[cfg(not(target_arch = "wasm32"))]
    if parts.len() > 1 {
        if let Some(pool) = pool(parts.len()) {
            let work = &work;
            let (first, rest) = parts.split_at_mut(1);
            pool.in_place_scope(|s| {
                for (t, part) in rest.iter_mut().enumerate() {
                    s.spawn(move |_| work(t + 1, part));
                }
                work(0, &mut first[0]);
            });
            return;
        }
    }
    for (t, part) in parts.iter_mut().enumerate() {
        work(t, part);
    }
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

    #[test]
    fn every_part_runs_once_with_its_number() {
        for threads in [1, 2, 3, 5] {
            let mut parts: Vec<(usize, u32)> = vec![(usize::MAX, 0); threads];
            each(&mut parts, |t, p| {
                p.0 = t;
                p.1 += 1;
            });
            for (t, p) in parts.iter().enumerate() {
                assert_eq!(*p, (t, 1));
            }
        }
    }
}
