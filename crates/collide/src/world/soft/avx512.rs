//! The wide kernel (`wide.rs`) on sixteen lanes with AVX-512, on CPUs that have it (checked
//! at run time, once). A colour's lanes are padded to whole blocks of eight, so a run is
//! solved sixteen lanes at a time and its last eight, if any, by the AVX2 kernel; each lane
//! does the same operations either way, so the bits are those of the scalar kernel.
//! A block's bodies are gathered as two AVX2 blocks joined into one register a field.

use super::avx2::{self, W8};
use super::colour::Kind;
use super::lanes::{Bodies, LaneView, Pass};
use super::wide::{self, Wide};
use std::arch::x86_64::*;
use std::ops::Range;
use std::sync::OnceLock;

/// Lanes in one AVX-512 vector.
const LANES: usize = 16;

/// Whether the AVX-512 kernel may run: the CPU has AVX-512 F (and AVX2), and neither
/// `COLLIDE_NO_AVX512` nor `COLLIDE_NO_AVX2` is set (for comparing kernels; the results are
/// the same).
pub(super) fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var_os("COLLIDE_NO_AVX512").is_none() && avx2::enabled() && avx512()
    })
}

/// Whether the CPU has AVX-512 F and AVX2 (whatever the environment says).
pub(super) fn avx512() -> bool {
    is_x86_feature_detected!("avx512f") && avx2::avx2()
}

/// One pass over `range` of lanes of `kind` (`Balls` or `Obstacles`), whole blocks of
/// eight: sixteen at a time, then the last eight.
///
/// # Panics
/// When the CPU lacks AVX-512 F or AVX2 ([`avx512`]), or the range is not whole blocks of
/// eight.
pub(super) fn pass(
    l: &mut LaneView,
    bodies: &mut Bodies,
    range: Range<usize>,
    kind: Kind,
    pass: Pass,
) {
    assert!(avx512() && range.len().is_multiple_of(avx2::LANES) && range.end <= l.len());
    // SAFETY: AVX-512 F and AVX2 are present (asserted); every lane of the range exists
    // (asserted) and names a body slot in `bodies` (the lanes' promise).
    unsafe { pass_avx512(l, bodies, range, kind == Kind::Balls, pass) }
}

#[target_feature(enable = "avx512f,avx2")]
unsafe fn pass_avx512(
    l: &mut LaneView,
    bodies: &mut Bodies,
    range: Range<usize>,
    two: bool,
    pass: Pass,
) {
    let split = range.start + range.len() / LANES * LANES;
    wide::run::<W16>(l, bodies, range.start..split, two, pass);
    wide::run::<W8>(l, bodies, split..range.end, two, pass);
}

/// Sixteen lanes in an AVX-512 register. Made only inside [`pass_avx512`], after the
/// run-time check, so its methods may use AVX-512 F and AVX2.
#[derive(Clone, Copy)]
struct W16(__m512);

/// The halves of a 16-lane register as two 8-lane ones.
#[inline(always)]
fn halves(x: __m512) -> (__m256, __m256) {
    unsafe {
        let lo = _mm512_castps512_ps256(x);
        let hi = _mm256_castpd_ps(_mm512_extractf64x4_pd::<1>(_mm512_castps_pd(x)));
        (lo, hi)
    }
}

/// Two 8-lane registers joined, `lo` in lanes 0–7.
#[inline(always)]
fn joined(lo: __m256, hi: __m256) -> __m512 {
    unsafe {
        let lo = _mm512_castpd256_pd512(_mm256_castps_pd(lo));
        _mm512_castpd_ps(_mm512_insertf64x4::<1>(lo, _mm256_castps_pd(hi)))
    }
}

// SAFETY (every method): a `W16` exists only where AVX-512 F and AVX2 are present.
impl Wide for W16 {
    const LANES: usize = LANES;
    const READ_AT_USE: bool = false;
    type Mask = __mmask16;

    #[inline(always)]
    fn splat(x: f32) -> Self {
        W16(unsafe { _mm512_set1_ps(x) })
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        W16(unsafe { _mm512_add_ps(self.0, b.0) })
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        W16(unsafe { _mm512_sub_ps(self.0, b.0) })
    }
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        W16(unsafe { _mm512_mul_ps(self.0, b.0) })
    }
    #[inline(always)]
    fn div(self, b: Self) -> Self {
        W16(unsafe { _mm512_div_ps(self.0, b.0) })
    }
    #[inline(always)]
    fn max(self, b: Self) -> Self {
        W16(unsafe { _mm512_max_ps(self.0, b.0) })
    }
    #[inline(always)]
    fn min(self, b: Self) -> Self {
        W16(unsafe { _mm512_min_ps(self.0, b.0) })
    }
    #[inline(always)]
    fn neg(self) -> Self {
        // Integer xor of the sign bit (AVX-512 F has no float xor without DQ).
        unsafe {
            let sign = _mm512_set1_epi32(i32::MIN);
            W16(_mm512_castsi512_ps(_mm512_xor_si512(
                _mm512_castps_si512(self.0),
                sign,
            )))
        }
    }
    #[inline(always)]
    fn gt(self, b: Self) -> __mmask16 {
        unsafe { _mm512_cmp_ps_mask::<_CMP_GT_OQ>(self.0, b.0) }
    }
    #[inline(always)]
    fn ne(self, b: Self) -> __mmask16 {
        unsafe { _mm512_cmp_ps_mask::<_CMP_NEQ_OQ>(self.0, b.0) }
    }
    #[inline(always)]
    fn blend(off: Self, on: Self, mask: __mmask16) -> Self {
        W16(unsafe { _mm512_mask_blend_ps(mask, off.0, on.0) })
    }
    #[inline(always)]
    fn load(v: &[f32], k: usize) -> Self {
        let s = &v[k..k + LANES];
        // The slice holds sixteen floats; unaligned load.
        W16(unsafe { _mm512_loadu_ps(s.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, v: &mut [f32], k: usize) {
        let s = &mut v[k..k + LANES];
        // The slice holds sixteen floats; unaligned store.
        unsafe { _mm512_storeu_ps(s.as_mut_ptr(), self.0) }
    }
    // No closures here: a closure is compiled without the caller's instruction sets, and
    // the intrinsics inside it would become calls.
    #[inline(always)]
    fn gather(bodies: &Bodies, ids: &[u32]) -> [Self; 8] {
        let lo = W8::gather(bodies, &ids[..8]);
        let hi = W8::gather(bodies, &ids[8..16]);
        let mut out = [W16(unsafe { _mm512_setzero_ps() }); 8];
        for f in 0..8 {
            out[f] = W16(joined(lo[f].0, hi[f].0));
        }
        out
    }
    #[inline(always)]
    fn scatter(bodies: &mut Bodies, ids: &[u32], s: [Self; 4]) {
        let zero = W8(unsafe { _mm256_setzero_ps() });
        let (mut lo, mut hi) = ([zero; 4], [zero; 4]);
        for f in 0..4 {
            let (l, h) = halves(s[f].0);
            (lo[f], hi[f]) = (W8(l), W8(h));
        }
        W8::scatter(bodies, &ids[..8], lo);
        W8::scatter(bodies, &ids[8..16], hi);
    }
}
