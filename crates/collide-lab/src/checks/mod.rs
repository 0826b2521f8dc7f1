//! Checks: the toy's promises, each a function that tries many seeded cases and reports the
//! cases tried, the failures and the worst figure seen.
//!
//! Every check takes a size (how many cases, how long) so that the integration tests run it
//! small under `cargo test` and the app's `check` command runs it at full size. A check never
//! reads a clock and never asserts on time; it only counts. The same size and seed give the
//! same report.
//!
//! - [`finite`]: no NaN, no panic, over generated worlds and settings.
//! - [`energy`]: energy never rises without elasticity above 1 or motion; bumpers and
//!   rotating shapes add energy only at their contacts.
//! - [`restitution`]: the measured coefficient of every bounce against the set one.
//! - [`determinism`]: the same state hash across runs, frame rates and broad phases.
//! - [`containment`]: exact tunnelling keeps every ball on the closed table.
//! - [`soak`]: memory stays flat over a long run.
//! - [`bad_files`]: broken scene files give one line, never a panic.
//! - [`narrow`]: every contact and swept test against an exact f64 reference.
//! - [`kernels`]: the soft contacts' wide kernels give the scalar kernel's bits.
//! - [`pile`]: the overlap meter agrees with a direct measurement, and soft contacts hold a
//!   pile at rest and put it to sleep.
//!
//! The physics checks run once per contact solver, a row each: `energy (push-out)`,
//! `energy (soft)`.

pub mod bad_files;
pub mod containment;
pub mod determinism;
pub mod energy;
pub mod finite;
pub mod kernels;
pub mod narrow;
pub mod pile;
pub mod restitution;
pub mod sizes;
pub mod soak;

use std::fmt;

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckReport {
    /// Short name of the check.
    pub name: String,
    /// Cases tried.
    pub cases: u64,
    /// Cases that broke the promise.
    pub failures: u64,
    /// The worst figure seen, in words with units.
    pub worst: String,
    /// Up to a few failing cases, described well enough to reproduce them.
    pub examples: Vec<String>,
}

/// The name of a check's row for one contact solver: `energy (soft)`.
pub fn row_name(check: &str, solver: collide::world::Solver) -> String {
    format!("{check} ({})", solver.name())
}

/// A world's settings switched to `solver`, with sleep following the solver.
pub fn use_solver(w: &mut collide::World, solver: collide::world::Solver) {
    w.edit_settings(|st| st.solver = solver);
    w.edit_settings(|st| st.sleep.enabled = None);
}

/// Most failing cases a report keeps.
const MAX_EXAMPLES: usize = 5;

impl CheckReport {
    /// An empty report named `name`.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_string(),
            cases: 0,
            failures: 0,
            worst: String::new(),
            examples: Vec::new(),
        }
    }

    /// Counts a failure and keeps its description if there is room.
    pub fn fail(&mut self, what: String) {
        self.failures += 1;
        if self.examples.len() < MAX_EXAMPLES {
            self.examples.push(what);
        }
    }

    /// True when nothing failed and something was tried.
    pub fn passed(&self) -> bool {
        self.failures == 0 && self.cases > 0
    }
}

impl fmt::Display for CheckReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} cases, {} failures, worst {}",
            self.name, self.cases, self.failures, self.worst
        )?;
        for e in &self.examples {
            write!(f, "\n  failed: {e}")?;
        }
        Ok(())
    }
}

/// The table of reports the `check` command prints: check, cases, failures, worst figure.
pub fn report_table(reports: &[CheckReport]) -> String {
    let mut out = format!(
        "{:<26} {:>12} {:>9}  {}\n",
        "check", "cases", "failures", "worst figure seen"
    );
    for r in reports {
        out.push_str(&format!(
            "{:<26} {:>12} {:>9}  {}\n",
            r.name, r.cases, r.failures, r.worst
        ));
    }
    out
}

/// Runs `f`, turning a panic into `Err(message)`. The default panic hook still prints.
pub(crate) fn no_panic<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).map_err(|e| {
        e.downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| e.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_string())
    })
}

/// Total energy of the balls (mass · px²/s²): kinetic `½·m·v²`, spin `½·I·ω²` with the
/// disc's `I = ½·m·r²` (soft contacts' friction turns motion into spin and back), and
/// potential `m·g·(y − floor)`, in f64 so that summing many balls adds no error of its own.
pub fn total_energy(world: &collide::World, floor: f32) -> f64 {
    let g = world.settings().gravity as f64;
    world
        .balls()
        .iter()
        .map(|b| {
            let m = b.mass as f64;
            let rim = (b.spin * b.radius) as f64;
            0.5 * m * b.vel.length_squared() as f64
                + 0.25 * m * rim * rim
                + m * g * (b.pos.y - floor) as f64
        })
        .sum()
}

/// The table scene shipped with the app (the checks run on it).
pub const TABLE_RON: &str = collide::scene::BUILTIN[0].1;

/// The table built with `seed`.
pub fn table(seed: u64) -> collide::World {
    collide::Scene::parse(TABLE_RON, "table.ron")
        .expect("the table scene parses")
        .build(seed)
}
