//! Which kernel solves a run of lanes: the wide one (`wide.rs`, x86-64 with AVX2, checked at
//! run time) for a colour, the scalar one (`scalar.rs`) for the overflow and everywhere
//! else. Both give the same bits.

use super::colour::Kind;
use super::lanes::{Bodies, LaneView, Pass};
use super::scalar;
use std::ops::Range;

/// Whether the wide kernel runs on this machine.
pub(super) fn wide() -> bool {
    #[cfg(target_arch = "x86_64")]
    return super::wide::enabled();
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// One pass over the run's lanes `range`, of `kind`, wide when `wide` and a colour.
pub(super) fn pass(
    l: &mut LaneView,
    bodies: &mut Bodies,
    (range, kind, wide): (Range<usize>, Kind, bool),
    pass: Pass,
) {
    #[cfg(target_arch = "x86_64")]
    if wide && kind != Kind::Mixed {
        return super::wide::pass(l, bodies, (range, kind), pass);
    }
    let _ = (wide, kind);
    scalar::pass(l, bodies, range, pass);
}
