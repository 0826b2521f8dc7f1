//! Experiments: the measurements of the source documents (Moertel 1994; Parberry, Collision
//! Math Toy), re-run on this library.
//!
//! Each experiment is a pure function of its configuration that returns plain rows, so the
//! app's `bench` command can print and chart them and the window can run them on a
//! background thread. They take a progress callback (`0.0 ..= 1.0`) and, where they time
//! anything, a clock function (nanoseconds from any fixed origin) — the library never reads
//! a clock by itself.
//!
//! - [`sectors_1994`] — the four-shifts article's timing harness (Moertel 1994): complete
//!   checks per second on a 640 × 480 screen of 30 × 30 objects, and rectangle tests of four
//!   shifts against adjacent sectors beside the post's predicted ratio.
//! - [`table_sweep`] — the toy's Fig. 26–28 (Parberry, Collision Math Toy): AABB tests per
//!   iteration on the table for 2 … 32 balls of radius 21 px, 60 simulated seconds each,
//!   every broad phase.
//! - [`param_sweep`] — one broad phase's parameter swept on a world as it stands: AABB tests
//!   per collision iteration against the value (the app's "Sweep" beside each parameter).
//! - [`scale`] — uniform random balls, 1k … 1M: build-plus-all-pairs time.
//! - [`fit`] — least-squares line and R², as the toy's spreadsheet did (Parberry, Collision
//!   Math Toy).

pub mod fit;
pub mod param_sweep;
pub mod scale;
pub mod sectors_1994;
pub mod table_sweep;

pub use fit::{linear_fit, LinearFit};

/// Has the C allocator keep the memory it is given back and hand it out again, never
/// returning it to the system (glibc: no `mmap` for large blocks, no trimming of the heap);
/// for the processes that time the experiments (the app's `bench` command, the peer
/// benchmarks), before any timed work.
///
/// The experiments time fresh instances, so each run allocates its structure anew. With the
/// allocator's defaults, blocks of a few megabytes (every structure at 100,000 balls) are
/// mapped fresh and unmapped on free, and the next run pays a page fault for every 4 KiB it
/// touches (about 1,600 per grid call at 100k balls, each costing about a microsecond in a
/// virtual machine), while at 10k the blocks are small and come back warm. That is the system's cost
/// of fresh memory, not the algorithm's, and it made growth from 10k to 100k look worse than
/// the work grows. The World keeps its instances and allocates nothing in a steady step, so
/// this is also the state the app's physics runs in. It applies to everything in the
/// process alike (the peer crates too).
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets allocator parameters.
    unsafe {
        libc::mallopt(libc::M_MMAP_MAX, 0);
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
    }
}

/// Median of `values` (the mean of the middle two for an even count); `None` when empty.
/// NaNs sort last.
pub fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(|a, b| a.total_cmp(b));
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        0.5 * (values[n / 2 - 1] + values[n / 2])
    })
}

/// The parameters of a broad phase as one short string, `name=value; …` (empty if none).
pub fn params_text(broad: &dyn collide::broad::BroadPhase) -> String {
    broad
        .params()
        .iter()
        .map(|p| format!("{}={}", p.name, p.value))
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), Some(2.5));
    }
}
