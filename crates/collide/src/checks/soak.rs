//! Soak: a long run of many balls on the table (rotation on, tunnelling off, as the app starts)
//! must not grow its memory after the first simulated minute.
//!
//! Memory is read through a probe the caller gives: the integration test counts live heap
//! bytes with a counting global allocator; the `check` command reads the process's resident
//! size. The probe is read once every simulated second; the baseline is the highest reading
//! of the first minute, and every later reading above it is a failure.

use super::{no_panic, row_name, table, use_solver, CheckReport};
use crate::world::Solver;
use crate::BroadKind;

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
    let (mut baseline, mut highest) = (0u64, 0u64);
    for s in 0..seconds {
        for _ in 0..per_second {
            w.step();
            w.drain_hits();
        }
        let bytes = probe();
        if s < 60 {
            baseline = baseline.max(bytes);
            continue;
        }
        report.cases += 1;
        highest = highest.max(bytes);
        if bytes > baseline {
            report.fail(format!(
                "second {s}: {bytes} bytes, {} above the first minute's highest",
                bytes - baseline
            ));
        }
        progress(s as f32 / seconds as f32);
    }
    progress(1.0);
    if !w.all_finite() {
        report.fail("the world went non-finite".into());
    }
    report.worst = format!(
        "{} balls, {} min: first minute {:.1} MiB, after it at most {:.1} MiB ({:+} bytes)",
        w.balls().len(),
        seconds / 60,
        baseline as f64 / 1048576.0,
        highest as f64 / 1048576.0,
        highest as i64 - baseline as i64
    );
}
