//! The wide kernel (`wide.rs`) on eight lanes with AVX2, on CPUs that have it (checked at
//! run time, once). A block's bodies are gathered as eight 32-byte states transposed into
//! one register a field, as Box2D v3's `b2GatherBodies` does, and scattered back the same way.

use super::colour::Kind;
use super::find::FindWide;
use super::lanes::{Bodies, LaneView, Pass};
use super::wide::{self, Wide};
use crate::geom::Ball;
use std::arch::x86_64::*;
use std::ops::Range;
use std::sync::OnceLock;

/// Lanes in one AVX2 vector.
pub(super) const LANES: usize = 8;

/// Whether the AVX2 kernel may run: the CPU has AVX2 and the environment variable
/// `COLLIDE_NO_AVX2` is not set (for comparing with the scalar kernel; results are the same).
pub(super) fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("COLLIDE_NO_AVX2").is_none() && avx2())
}

/// Whether the CPU has AVX2 (whatever the environment says).
pub(super) fn avx2() -> bool {
    is_x86_feature_detected!("avx2")
}

/// One pass over `range` of lanes of `kind` (`Balls` or `Obstacles`), whole blocks of
/// [`LANES`].
///
/// # Panics
/// When the CPU lacks AVX2 ([`avx2`]), or the range is not whole blocks.
pub(super) fn pass(
    l: &mut LaneView,
    bodies: &mut Bodies,
    range: Range<usize>,
    kind: Kind,
    pass: Pass,
) {
    pass_as::<W8>(l, bodies, range, kind, pass)
}

/// [`pass`] with the lanes as `V`, [`W8`] or a width made of it (the tests read the lanes'
/// fields at their uses through one, `agree.rs`).
///
/// # Panics
/// As [`pass`], and when `V` is not eight lanes.
pub(super) fn pass_as<V: Wide>(
    l: &mut LaneView,
    bodies: &mut Bodies,
    range: Range<usize>,
    kind: Kind,
    pass: Pass,
) {
    assert!(V::LANES == LANES);
    assert!(avx2() && range.len().is_multiple_of(LANES) && range.end <= l.len());
    // SAFETY: AVX2 is present (asserted); every lane of the range exists (asserted) and
    // names a body slot in `bodies` (the lanes' promise).
    unsafe { pass_avx2::<V>(l, bodies, range, kind == Kind::Balls, pass) }
}

#[target_feature(enable = "avx2")]
unsafe fn pass_avx2<V: Wide>(
    l: &mut LaneView,
    bodies: &mut Bodies,
    range: Range<usize>,
    two: bool,
    pass: Pass,
) {
    wide::run::<V>(l, bodies, range, two, pass)
}

/// Eight lanes in an AVX2 register. Made only inside [`pass_avx2`] and the AVX-512 kernel,
/// after the run-time check, so its methods may use AVX2.
#[derive(Clone, Copy)]
pub(super) struct W8(pub(super) __m256);

// SAFETY (every method): a `W8` exists only where AVX2 is present (see the type).
impl Wide for W8 {
    const LANES: usize = LANES;
    const READ_AT_USE: bool = false;
    type Mask = __m256;

    #[inline(always)]
    fn splat(x: f32) -> Self {
        W8(unsafe { _mm256_set1_ps(x) })
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        W8(unsafe { _mm256_add_ps(self.0, b.0) })
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        W8(unsafe { _mm256_sub_ps(self.0, b.0) })
    }
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        W8(unsafe { _mm256_mul_ps(self.0, b.0) })
    }
    #[inline(always)]
    fn div(self, b: Self) -> Self {
        W8(unsafe { _mm256_div_ps(self.0, b.0) })
    }
    #[inline(always)]
    fn max(self, b: Self) -> Self {
        W8(unsafe { _mm256_max_ps(self.0, b.0) })
    }
    #[inline(always)]
    fn min(self, b: Self) -> Self {
        W8(unsafe { _mm256_min_ps(self.0, b.0) })
    }
    #[inline(always)]
    fn neg(self) -> Self {
        W8(unsafe { _mm256_xor_ps(self.0, _mm256_set1_ps(-0.0)) })
    }
    #[inline(always)]
    fn gt(self, b: Self) -> __m256 {
        unsafe { _mm256_cmp_ps::<_CMP_GT_OQ>(self.0, b.0) }
    }
    #[inline(always)]
    fn ne(self, b: Self) -> __m256 {
        unsafe { _mm256_cmp_ps::<_CMP_NEQ_OQ>(self.0, b.0) }
    }
    #[inline(always)]
    fn blend(off: Self, on: Self, mask: __m256) -> Self {
        W8(unsafe { _mm256_blendv_ps(off.0, on.0, mask) })
    }
    #[inline(always)]
    fn load(v: &[f32], k: usize) -> Self {
        let s = &v[k..k + LANES];
        // The slice holds eight floats; unaligned load.
        W8(unsafe { _mm256_loadu_ps(s.as_ptr()) })
    }
    #[inline(always)]
    fn store(self, v: &mut [f32], k: usize) {
        let s = &mut v[k..k + LANES];
        // The slice holds eight floats; unaligned store.
        unsafe { _mm256_storeu_ps(s.as_mut_ptr(), self.0) }
    }
    #[inline(always)]
    fn gather(bodies: &Bodies, ids: &[u32]) -> [Self; 8] {
        // `row` checks the slot; a state's first 32 bytes are its fields, aligned (`BodyState`).
        let rows: [*const f32; LANES] = std::array::from_fn(|i| bodies.row(ids[i]).cast_const());
        // SAFETY: each row holds eight floats.
        wide(unsafe { transposed(loaded(rows)) })
    }
    #[inline(always)]
    fn scatter(bodies: &mut Bodies, ids: &[u32], s: [Self; 4]) {
        let [W8(vx), W8(vy), W8(w), W8(inv_m)] = s;
        // The first four floats of each state (`vx vy w inv_m`): lanes `i` and `i + 4` side
        // by side in the two halves of row `i`, four shuffles to interleave, four to join.
        unsafe {
            let (t0, t1) = (_mm256_unpacklo_ps(vx, vy), _mm256_unpackhi_ps(vx, vy));
            let (t2, t3) = (_mm256_unpacklo_ps(w, inv_m), _mm256_unpackhi_ps(w, inv_m));
            let rows = [
                _mm256_shuffle_ps::<0x44>(t0, t2),
                _mm256_shuffle_ps::<0xEE>(t0, t2),
                _mm256_shuffle_ps::<0x44>(t1, t3),
                _mm256_shuffle_ps::<0xEE>(t1, t3),
            ];
            // As in `gather`; no other thread touches the state (`Bodies`). In lane order,
            // as the padding's spare body needs.
            for (i, &row) in rows.iter().enumerate() {
                _mm_store_ps(bodies.row(ids[i]), _mm256_castps256_ps128(row));
            }
            for (i, &row) in rows.iter().enumerate() {
                _mm_store_ps(bodies.row(ids[i + 4]), _mm256_extractf128_ps::<1>(row));
            }
        }
    }
}

// SAFETY (every method): as for `Wide`.
impl FindWide for W8 {
    #[inline(always)]
    fn sqrt(self) -> Self {
        W8(unsafe { _mm256_sqrt_ps(self.0) })
    }
    #[inline(always)]
    fn ge_bits(self, b: Self) -> u32 {
        unsafe { _mm256_movemask_ps(_mm256_cmp_ps::<_CMP_GE_OQ>(self.0, b.0)) as u32 }
    }
    #[inline(always)]
    fn balls(balls: &[Ball], ids: &[u32]) -> [Self; 7] {
        // A ball's first 32 bytes are its first eight fields as floats (`Ball`); the index
        // is checked.
        let rows: [*const f32; LANES] = std::array::from_fn(|i| {
            let ball: *const Ball = &balls[ids[i] as usize];
            ball.cast()
        });
        // SAFETY: each ball holds 32 bytes from its start.
        let [a, b, c, d, e, f, g, _] = wide(unsafe { transposed(loaded(rows)) });
        [a, b, c, d, e, f, g]
    }
}

// The helpers below call the intrinsics directly, with no closure between (such as
// `std::array::from_fn`'s): a closure is compiled without the caller's AVX, so the
// intrinsics in it are calls unless the compiler happens to inline the closure first, and in
// one build it did not (the passes then took twice as long).

/// The vectors of `rows` as they are.
#[inline(always)]
fn wide(r: [__m256; LANES]) -> [W8; LANES] {
    [
        W8(r[0]),
        W8(r[1]),
        W8(r[2]),
        W8(r[3]),
        W8(r[4]),
        W8(r[5]),
        W8(r[6]),
        W8(r[7]),
    ]
}

/// Eight floats from each of `rows` (unaligned loads: as fast as aligned ones on data that
/// is aligned, as the body states are, and the balls need not be).
///
/// # Safety
/// Each row holds eight floats.
#[inline(always)]
unsafe fn loaded(r: [*const f32; LANES]) -> [__m256; LANES] {
    // SAFETY: as the caller promises.
    unsafe {
        [
            _mm256_loadu_ps(r[0]),
            _mm256_loadu_ps(r[1]),
            _mm256_loadu_ps(r[2]),
            _mm256_loadu_ps(r[3]),
            _mm256_loadu_ps(r[4]),
            _mm256_loadu_ps(r[5]),
            _mm256_loadu_ps(r[6]),
            _mm256_loadu_ps(r[7]),
        ]
    }
}

/// The 8 × 8 transpose of `r` (row `i` becomes column `i`).
#[inline(always)]
unsafe fn transposed(r: [__m256; LANES]) -> [__m256; LANES] {
    // Pairs of rows interleaved, then pairs of pairs, then the 128-bit halves swapped.
    // SAFETY: AVX is present where a `W8` exists (the type's notes).
    unsafe {
        let (t0, t1) = (
            _mm256_unpacklo_ps(r[0], r[1]),
            _mm256_unpackhi_ps(r[0], r[1]),
        );
        let (t2, t3) = (
            _mm256_unpacklo_ps(r[2], r[3]),
            _mm256_unpackhi_ps(r[2], r[3]),
        );
        let (t4, t5) = (
            _mm256_unpacklo_ps(r[4], r[5]),
            _mm256_unpackhi_ps(r[4], r[5]),
        );
        let (t6, t7) = (
            _mm256_unpacklo_ps(r[6], r[7]),
            _mm256_unpackhi_ps(r[6], r[7]),
        );
        let (u0, u1) = (
            _mm256_shuffle_ps::<0x44>(t0, t2),
            _mm256_shuffle_ps::<0xEE>(t0, t2),
        );
        let (u2, u3) = (
            _mm256_shuffle_ps::<0x44>(t1, t3),
            _mm256_shuffle_ps::<0xEE>(t1, t3),
        );
        let (u4, u5) = (
            _mm256_shuffle_ps::<0x44>(t4, t6),
            _mm256_shuffle_ps::<0xEE>(t4, t6),
        );
        let (u6, u7) = (
            _mm256_shuffle_ps::<0x44>(t5, t7),
            _mm256_shuffle_ps::<0xEE>(t5, t7),
        );
        [
            _mm256_permute2f128_ps::<0x20>(u0, u4),
            _mm256_permute2f128_ps::<0x20>(u1, u5),
            _mm256_permute2f128_ps::<0x20>(u2, u6),
            _mm256_permute2f128_ps::<0x20>(u3, u7),
            _mm256_permute2f128_ps::<0x31>(u0, u4),
            _mm256_permute2f128_ps::<0x31>(u1, u5),
            _mm256_permute2f128_ps::<0x31>(u2, u6),
            _mm256_permute2f128_ps::<0x31>(u3, u7),
        ]
    }
}
