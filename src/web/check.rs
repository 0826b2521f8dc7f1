//! `?check=kernels` in a page: the checks a page can run (those that need no files or
//! threads): the kernels' check, WebAssembly's SIMD kernel held to the scalar kernel's bits as
//! this browser compiled and runs both. Prints the check's table into the page.

use crate::cli::CheckArgs;
use collide_lab::checks::{self, CheckReport};

/// Runs the checks `args` asks for that a page can run; returns the exit status (1 when one
/// failed, 2 when it asked for one a page cannot run).
pub fn run(args: &CheckArgs) -> i32 {
    let only = args.only.as_deref().unwrap_or("kernels");
    if !"kernels".contains(only) {
        eprintln!(
            "error: a page runs only check=kernels; the desktop's check command runs '{only}'"
        );
        return 2;
    }
    let rounds = if args.quick { 20 } else { 200 };
    let reports: Vec<CheckReport> = vec![checks::kernels::run(rounds)];
    println!("{}", checks::report_table(&reports));
    i32::from(reports.iter().any(|r| !r.passed()))
}
