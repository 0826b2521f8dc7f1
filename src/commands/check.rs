//! `check`: runs the library's checks (`collide_lab::checks`) at full size, or at the tests' size
//! with `--quick`, and prints a table: check, cases tried, failures, worst figure seen.

use crate::cli::CheckArgs;
use crate::clock::Instant;
use collide::Solver;
use collide_lab::checks::{self, bad_files, sizes::Sizes, CheckReport};
use std::path::Path;

/// The bad-scene corpus, read from the source tree.
const CORPUS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/crates/collide/tests/corpus/bad_scenes"
);

/// Resident size of this process (bytes), from /proc/self/statm; 0 where there is none.
fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

/// The checks with one row whatever the solver (the kernels, the narrow phase, bad files), those
/// `wanted`, each report handed to `note`.
fn once_checks(
    quick: bool,
    sizes: &Sizes,
    wanted: &dyn Fn(&str) -> bool,
    note: &mut dyn FnMut(CheckReport),
) {
    if wanted("kernels") {
        note(checks::kernels::run(if quick { 20 } else { 200 }));
    }
    if wanted("narrow") {
        checks::narrow::run(sizes.narrow)
            .into_iter()
            .for_each(&mut *note);
    }
    if wanted("bad-files") {
        match bad_files::load_corpus(Path::new(CORPUS)) {
            Ok(files) => note(bad_files::corpus(&files)),
            Err(e) => eprintln!("error: cannot read {CORPUS}: {e}"),
        }
        let (stride, edits) = sizes.damage;
        note(bad_files::generated(stride, edits, 1));
    }
}

/// Runs every check (or those whose name contains `--only`); returns the exit status.
pub fn run(args: &CheckArgs) -> i32 {
    let sizes = if args.quick {
        Sizes::ci()
    } else {
        Sizes::full()
    };
    let wanted = |name: &str| args.only.as_deref().is_none_or(|o| name.contains(o));
    let mut reports: Vec<CheckReport> = Vec::new();
    let start = Instant::now();
    let mut last = Instant::now();
    let mut note = |r: CheckReport, _: Instant| {
        eprintln!("{r}  ({:.1} s)", last.elapsed().as_secs_f64());
        last = Instant::now();
        reports.push(r);
    };
    // The physics checks, a row per contact solver; `--only soft` picks one solver's rows.
    for solver in [Solver::PushOut, Solver::Soft] {
        let wanted = |name: &str| wanted(&checks::row_name(name, solver));
        if wanted("no-nan") {
            note(checks::finite::run(sizes.finite, solver), Instant::now());
        }
        if wanted("energy") {
            note(
                checks::energy::conserved(sizes.energy, solver),
                Instant::now(),
            );
            note(checks::energy::adders(sizes.adders, solver), Instant::now());
        }
        if wanted("restitution") {
            let r = checks::restitution::run(&sizes.restitution, solver);
            note(r, Instant::now());
        }
        if wanted("determinism") {
            note(
                checks::determinism::run(sizes.determinism, solver),
                Instant::now(),
            );
        }
        if wanted("containment") {
            let r = checks::containment::run(
                sizes.containment,
                solver,
                &mut super::bench::progress_printer("containment"),
            );
            note(r, Instant::now());
        }
        if wanted("soak") {
            let r = checks::soak::run(
                sizes.soak,
                solver,
                &resident_bytes,
                &mut super::bench::progress_printer("soak"),
            );
            note(r, Instant::now());
        }
        if wanted("pile") {
            let mut progress = super::bench::progress_printer("pile");
            for r in checks::pile::run(sizes.pile, solver, &mut progress) {
                note(r, Instant::now());
            }
        }
    }
    once_checks(args.quick, &sizes, &wanted, &mut |r| {
        note(r, Instant::now())
    });
    println!("{}", checks::report_table(&reports));
    println!("took {:.1} s", start.elapsed().as_secs_f64());
    let failed = reports.iter().any(|r| !r.passed());
    i32::from(failed)
}
