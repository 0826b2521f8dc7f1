//! Soak: a long run of many balls on the table (rotation on, tunnelling off, as the app starts)
//! must not grow its memory after the first simulated minute.
//!
//! Memory is read through a probe the caller gives: the integration test counts live heap
//! bytes with a counting global allocator; the `check` command reads the process's resident
//! size. The probe is read once every simulated second. A buffer may reach its working size
//! after the first minute (a ceiling); a leak keeps growing. So the readings after the first
//! minute are split in halves, and a reading of the second half above everything before it
//! fails ([`judge`]).

use super::{no_panic, row_name, table, use_solver, CheckReport};
use collide::world::Solver;
use collide::BroadKind;

/// Size of the check.
#[derive(Clone, Copy, Debug)]
pub struct SoakSize {
    /// Balls launched.
    pub balls: u32,
    /// Simulated minutes (at least 2).
    pub minutes: u32,
    /// Seed.
    pub seed: u64,
}

/// Runs the soak; `probe` returns the memory in use (bytes), `progress` the fraction done.
pub fn run(
    size: SoakSize,
    solver: Solver,
    probe: &dyn Fn() -> u64,
    progress: &mut dyn FnMut(f32),
) -> CheckReport {
    let mut report = CheckReport::new(&row_name("soak", solver));
    if let Err(m) = no_panic(|| run_inner(size, solver, probe, &mut report, progress)) {
        report.fail(format!("panic: {m}"));
    }
    report
}

fn run_inner(
    size: SoakSize,
    solver: Solver,
    probe: &dyn Fn() -> u64,
    report: &mut CheckReport,
    progress: &mut dyn FnMut(f32),
) {
    let mut w = table(size.seed);
    use_solver(&mut w, solver);
    w.edit_settings(|st| st.rotate = true);
    w.edit_settings(|st| st.ball_radius = super::containment::RADIUS);
    w.set_broad_phase(BroadKind::Grid);
    w.launch(size.balls);
    let per_second = w.steps_per_second() as u64;
    let seconds = 60 * size.minutes.max(2) as u64;
    // Every reading is kept and judged at the end: nothing the check does allocates while
    // the run is measured (a failure message made mid-run would itself raise the reading).
    let mut readings = Vec::with_capacity(seconds as usize);
    for s in 0..seconds {
        for _ in 0..per_second {
            w.step();
            w.drain_hits();
        }
        readings.push(probe());
        progress(s as f32 / seconds as f32);
    }
    progress(1.0);
    if !w.all_finite() {
        report.fail("the world went non-finite".into());
    }
    judge(&readings, report);
    report.worst = format!(
        "{} balls, {} min: {}",
        w.balls().len(),
        seconds / 60,
        report.worst
    );
}

/// Judges one reading a second. After the first minute, buffers that grow with the pile may
/// still reach their working size once (a grid bucket doubling, pages touched for the first
/// time inside memory already allocated): a ceiling. A leak keeps growing. So the run after
/// the first minute is split in halves, and every reading of the second half above the
/// highest of everything before it is a failure; any steady growth, however slow, fails.
pub fn judge(readings: &[u64], report: &mut CheckReport) {
    let first_minute = readings.iter().take(60).copied().max().unwrap_or(0);
    let after = readings.get(60..).unwrap_or(&[]);
    let half = after.len() / 2;
    let ceiling = after[..half].iter().copied().fold(first_minute, u64::max);
    for (k, &bytes) in after[half..].iter().enumerate() {
        report.cases += 1;
        if bytes > ceiling {
            report.fail(format!(
                "second {}: {bytes} bytes, {} above the highest before second {}: still growing",
                60 + half + k,
                bytes - ceiling,
                60 + half
            ));
        }
    }
    let highest = after.iter().copied().max().unwrap_or(first_minute);
    report.worst = format!(
        "first minute {:.1} MiB, after it at most {:.1} MiB ({:+} bytes), last half {}",
        first_minute as f64 / 1048576.0,
        highest as f64 / 1048576.0,
        highest as i64 - first_minute as i64,
        if report.failures == 0 {
            "flat"
        } else {
            "growing"
        }
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(readings: &[u64]) -> CheckReport {
        let mut r = CheckReport::new("soak");
        judge(readings, &mut r);
        r
    }

    #[test]
    fn a_steady_leak_fails_however_slow() {
        // One byte a second over 30 minutes.
        let readings: Vec<u64> = (0..1800).map(|s| 1_000_000 + s).collect();
        let r = judged(&readings);
        assert_eq!(r.cases, 870);
        assert_eq!(r.failures, 870, "{r}");
    }

    #[test]
    fn a_buffer_reaching_its_size_after_the_first_minute_is_a_ceiling() {
        // As the 2,000-ball soft table read: new highs at seconds 72 to 164, then flat.
        let mut readings = vec![6_000_000u64; 1800];
        for (s, r) in readings.iter_mut().enumerate() {
            *r += match s {
                0..=71 => 0,
                72..=163 => 8_192,
                _ => 24_576,
            };
        }
        assert!(judged(&readings).passed());
    }

    #[test]
    fn growth_that_starts_late_fails() {
        let mut readings = vec![6_000_000u64; 180];
        readings[150] += 4_096;
        let r = judged(&readings);
        assert_eq!((r.cases, r.failures), (60, 1), "{r}");
    }

    #[test]
    fn a_flat_run_passes() {
        assert!(judged(&[5_000_000u64; 180]).passed());
    }
}
