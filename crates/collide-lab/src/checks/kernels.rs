//! Every kernel width gives the same bits: the soft contacts' wide kernels this machine runs
//! (AVX-512 and AVX2 on x86-64, WebAssembly's SIMD in a browser) against the scalar kernel on
//! seeded runs of random lanes, and the narrow phase's ball pairs eight at a time against the
//! scalar test on seeded runs of random pairs (`collide::world::soft_kernels_agree`), so the
//! hashes of a run are the same on every machine and in the page.

use super::CheckReport;
use collide::world::{soft_kernel, soft_kernels_agree};

/// Runs `rounds` runs of random lanes through each wide kernel and the scalar one; a case is
/// one pass compared, a failure a pass whose bits differed. The worst figure names the
/// kernels compared and the one the solver uses here.
pub fn run(rounds: u32) -> CheckReport {
    let mut r = CheckReport::new("kernels");
    let mut compared = Vec::new();
    for k in soft_kernels_agree(1, rounds) {
        if !k.present {
            compared.push(format!("{} not on this machine", k.name));
            continue;
        }
        compared.push(format!("{} ({} lanes)", k.name, k.lanes));
        r.cases += k.passes;
        for _ in 0..k.differing {
            r.fail(format!(
                "{}: {}",
                k.name,
                k.first.clone().unwrap_or_default()
            ));
        }
    }
    if r.cases == 0 {
        // Nothing wide to compare: the scalar kernel alone is its own definition.
        r.cases = 1;
    }
    r.worst = format!(
        "{}; the solver uses {}",
        if compared.is_empty() {
            "no wide kernel built for this target".to_string()
        } else {
            compared.join(", ")
        },
        soft_kernel()
    );
    r
}
