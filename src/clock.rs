//! The app's one clock. Everything that times itself (the frame, the physics, the load meter,
//! the broad phase's microseconds, a long start) reads [`Instant`] or [`nanos`] from here, never
//! `std::time` directly: on the desktop they are the standard library's monotonic clock; in a
//! browser (`wasm32-unknown-unknown`, where `std::time::Instant::now` and `SystemTime::now`
//! panic) they come from the page, `performance.now()` and `Date.now()` (`web/page.js`).
//!
//! Only wall time comes from here; the simulation's time is its step count, so no reading of
//! this clock ever changes a run.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use browser::Instant;

/// Nanoseconds since the first call: the clock the world times its broad phase with, and the
/// experiments their runs.
pub fn nanos() -> u64 {
    use std::sync::OnceLock;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// Whole seconds since 1970-01-01 UTC by the wall clock (0 if it reads earlier): names files.
#[cfg(not(target_arch = "wasm32"))]
pub fn unix_seconds() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Whole seconds since 1970-01-01 UTC, from the browser's `Date.now()`.
#[cfg(target_arch = "wasm32")]
pub fn unix_seconds() -> u64 {
    // SAFETY: a plain call with no pointers, provided by web/page.js.
    (unsafe { browser::cmt_date_now() } / 1000.0).max(0.0) as u64
}

#[cfg(target_arch = "wasm32")]
mod browser {
    use std::time::Duration;

    extern "C" {
        /// `performance.now()`: milliseconds since the page began loading, monotonic, finer
        /// than a millisecond where the browser allows (miniquad's `date::now` is `Date.now()`,
        /// whole milliseconds that may step back).
        pub fn cmt_perf_now() -> f64;
        /// `Date.now()`: milliseconds since 1970-01-01 UTC.
        pub fn cmt_date_now() -> f64;
    }

    /// A moment of the browser's monotonic clock, with the parts of `std::time::Instant` the
    /// app uses.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant {
        /// Milliseconds since the page began loading.
        ms: f64,
    }

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: a plain call with no pointers, provided by web/page.js.
            Instant {
                ms: unsafe { cmt_perf_now() },
            }
        }

        /// The time since `earlier` (zero if `earlier` is later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.ms - earlier.ms) / 1000.0).max(0.0))
        }

        /// The time since this moment.
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_never_runs_backwards() {
        let (a, b) = (nanos(), nanos());
        assert!(b >= a);
        let t = Instant::now();
        assert!(Instant::now().duration_since(t) >= std::time::Duration::ZERO);
    }

    #[test]
    fn the_wall_clock_reads_after_2020() {
        assert!(unix_seconds() > 1_577_836_800);
    }
}
