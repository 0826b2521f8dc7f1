//! Determinism: the table with rotation on and balls launched gives the same state hash after
//! the same number of steps in two runs, when fed at different frame rates through the
//! [`Stepper`], with each broad phase, and in each tunnelling mode.
//!
//! Frame rates 30, 60, 75, 120 and 240 FPS each pay for a whole number of 1/240 s steps over
//! a run of a multiple of 40 steps, so every run ends at exactly the same step.

use super::{no_panic, row_name, table, use_solver, CheckReport};
use collide::world::Solver;
use collide::{BroadKind, Stepper, Tunnelling, World};

/// Size of the check.
#[derive(Clone, Copy, Debug)]
pub struct DeterminismSize {
    /// Steps per run (rounded up to a multiple of 40).
    pub steps: u64,
    /// Balls launched at the start.
    pub balls: u32,
    /// Seed of the table.
    pub seed: u64,
}

/// Frame rates tried (FPS).
pub const FRAME_RATES: &[u32] = &[30, 60, 75, 120, 240];

fn start(size: DeterminismSize, solver: Solver, mode: Tunnelling, kind: BroadKind) -> World {
    let mut w = table(size.seed);
    use_solver(&mut w, solver);
    w.edit_settings(|st| st.rotate = true);
    w.edit_settings(|st| st.tunnelling = mode);
    w.set_broad_phase(kind);
    w.launch(size.balls);
    w
}

/// The hash after `steps` steps run one by one.
fn hash_stepped(size: DeterminismSize, solver: Solver, mode: Tunnelling, kind: BroadKind) -> u64 {
    let mut w = start(size, solver, mode, kind);
    for _ in 0..size.steps {
        w.step();
        w.drain_hits();
    }
    w.state_hash()
}

/// The hash after the frames at `fps` that pay for `steps` steps, or None if the stepper ran
/// a different number of steps.
fn hash_at_fps(size: DeterminismSize, solver: Solver, fps: u32) -> Option<u64> {
    let mut w = start(size, solver, Tunnelling::Off, BroadKind::Brute);
    let seconds = size.steps as f64 * w.step_seconds();
    let frames = (seconds * fps as f64).round() as u64;
    let mut stepper = Stepper::default();
    for _ in 0..frames {
        stepper.advance(1.0 / fps as f64, &mut w);
        w.drain_hits();
    }
    (w.steps() == size.steps).then(|| w.state_hash())
}

/// Runs the check.
pub fn run(mut size: DeterminismSize, solver: Solver) -> CheckReport {
    size.steps = size.steps.div_ceil(40) * 40;
    let mut report = CheckReport::new(&row_name("determinism", solver));
    let reference = hash_stepped(size, solver, Tunnelling::Off, BroadKind::Brute);
    let compare = |report: &mut CheckReport, what: String, got: Result<Option<u64>, String>| {
        report.cases += 1;
        match got {
            Ok(Some(h)) if h == reference => {}
            Ok(Some(h)) => report.fail(format!("{what}: hash {h:016x}, not {reference:016x}")),
            Ok(None) => report.fail(format!("{what}: the stepper ran another number of steps")),
            Err(m) => report.fail(format!("{what}: panic: {m}")),
        }
    };
    let again = no_panic(|| {
        Some(hash_stepped(
            size,
            solver,
            Tunnelling::Off,
            BroadKind::Brute,
        ))
    });
    compare(&mut report, "second run".into(), again);
    for &fps in FRAME_RATES {
        let got = no_panic(|| hash_at_fps(size, solver, fps));
        compare(&mut report, format!("{fps} FPS"), got);
    }
    for &kind in BroadKind::ALL {
        let got = no_panic(|| Some(hash_stepped(size, solver, Tunnelling::Off, kind)));
        compare(&mut report, format!("broad phase {}", kind.name()), got);
    }
    // Each tunnelling mode against itself with brute force and with the AABB tree.
    for &mode in &Tunnelling::ALL[1..] {
        report.cases += 1;
        let a = no_panic(|| hash_stepped(size, solver, mode, BroadKind::Brute));
        let b = no_panic(|| hash_stepped(size, solver, mode, BroadKind::Tree));
        let c = no_panic(|| hash_stepped(size, solver, mode, BroadKind::Brute));
        if !(a.is_ok() && a == b && a == c) {
            report.fail(format!(
                "tunnelling {}: hashes {a:x?}, {b:x?} (tree), {c:x?} (again)",
                mode.name()
            ));
        }
    }
    report.worst = format!(
        "{} steps, {} balls: one hash {reference:016x} in every run",
        size.steps, size.balls
    );
    report
}
