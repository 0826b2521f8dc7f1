//! Which kernel solves a run of lanes: the wide one for a colour, sixteen lanes at a time
//! with AVX-512 (`avx512.rs`) or eight with AVX2 (`avx2.rs`), on x86-64 CPUs that have them
//! (checked at run time), or four with WebAssembly's SIMD (`simd128.rs`) in a module built
//! with it; the scalar one (`scalar.rs`) for the overflow and everywhere else. All give the
//! same bits (`agree.rs`).

use super::colour::Kind;
use super::lanes::{Bodies, LaneView, Pass};
use super::scalar;
use std::ops::Range;

/// The kernels a colour can be solved with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(dead_code)]
pub(super) enum Width {
    /// One lane at a time.
    Scalar,
    /// Four lanes (WebAssembly's `simd128`).
    Four,
    /// Eight lanes (AVX2).
    Eight,
    /// Sixteen lanes (AVX-512), the last eight of a run with AVX2.
    Sixteen,
}

/// The widest kernel this machine runs (see the x86 kernels for the environment variables
/// that turn them off).
pub(super) fn wide() -> Width {
    #[cfg(target_arch = "x86_64")]
    {
        if super::avx512::enabled() {
            return Width::Sixteen;
        }
        if super::avx2::enabled() {
            return Width::Eight;
        }
    }
    if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        Width::Four
    } else {
        Width::Scalar
    }
}

/// Which lanes a pass solves, and with which kernel.
#[derive(Clone, Debug)]
pub(super) struct At {
    /// The run's lanes.
    pub range: Range<usize>,
    /// What their bodies are.
    pub kind: Kind,
    /// The kernel a colour's lanes take.
    pub width: Width,
}

/// One pass over the lanes `at.range`, of `at.kind`, with kernel `at.width` for a colour.
pub(super) fn pass(l: &mut LaneView, bodies: &mut Bodies, at: At, pass: Pass) {
    let (kind, width) = (at.kind, at.width);
    #[cfg(target_arch = "x86_64")]
    if kind != Kind::Mixed {
        match width {
            Width::Sixteen => return super::avx512::pass(l, bodies, at.range, at.kind, pass),
            Width::Eight => return super::avx2::pass(l, bodies, at.range, at.kind, pass),
            Width::Four | Width::Scalar => {}
        }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    if kind != Kind::Mixed && width == Width::Four {
        return super::simd128::pass(l, bodies, at.range, at.kind, pass);
    }
    let _ = (width, kind);
    scalar::pass(l, bodies, at.range, pass);
}
