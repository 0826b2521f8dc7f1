//! Helpers shared by this package's `scale` benchmark and its examples.

/// Has the C allocator keep the memory it is given back and hand it out again (glibc: no
/// `mmap` for large blocks, no trimming of the heap), as the app's `bench` command does: the
/// contenders are timed building fresh structures, and with the allocator's defaults a
/// structure of a few megabytes is mapped fresh each time and page-faults on every 4 KiB it
/// touches, which in this virtual machine costs about 1 µs each. That is the system's cost of
/// fresh memory, not the algorithm's. Applies to every contender alike (one process).
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets allocator parameters; called before any timed work.
    unsafe {
        libc::mallopt(libc::M_MMAP_MAX, 0);
        libc::mallopt(libc::M_TRIM_THRESHOLD, i32::MAX);
    }
}
