//! The wide kernel (`wide.rs`) on four lanes with WebAssembly's 128-bit SIMD (`simd128`), in
//! a module built with it (`-C target-feature=+simd128`, as `web/build.sh` builds the page).
//! WebAssembly has no run-time check: a browser without SIMD refuses the whole module when it
//! compiles it, so the page tests for SIMD first and says so in words.
//!
//! Each operation rounds as the scalar one does, so the lanes give the scalar kernel's bits:
//! `+ − × ÷` are IEEE single precision with no fused multiply–add; [`Wide::max`] is
//! `f32x4.pmax` with its operands swapped (`pmax(b, a)` is `b < a ? a : b`, so `b` on a tie or
//! a NaN, as `maxps` and Rust's `a.max(b)` as the scalar kernel reads it), [`Wide::min`] is
//! `pmin` the same way (not `f32x4.max`/`min`, which order −0 below +0 and propagate NaN);
//! the masks are full lanes from `f32x4.gt` and `f32x4.ne` (`ne` is true for a NaN, as the
//! scalar `warm == 0.0` test skips only a zero) and a blend is `v128.bitselect`.
//!
//! A colour's lanes come in blocks of eight, solved as one block of two vectors ([`W4x2`]:
//! every operation on both, two chains of work side by side for the engine to overlap, and the
//! loop's bookkeeping once per eight lanes). A vector's bodies are gathered as four 32-byte
//! states, each half transposed (4 × 4 shuffles): velocity x, y, spin and inverse mass, then
//! move x, y, inverse inertia and radius; the first half is scattered back the same way (the
//! passes only read the second). The pass is one loop for each kind of lane and each pass
//! (solve, relax) with both fixed, so the loop holds no branch on them: the engine keeps more
//! of a block in registers. Each loop is a function of its own, never inlined, which the
//! engine's optimizing compiler takes alone.

use super::colour::Kind;
use super::find::FindWide;
use super::lanes::{Bodies, LaneView, Pass};
use super::wide::{self, Wide};
use crate::geom::Ball;
use core::arch::wasm32::*;
use std::ops::Range;

/// Lanes in one `v128` of `f32`.
const LANES: usize = 4;

/// One pass over `range` of lanes of `kind` (`Balls` or `Obstacles`), whole blocks of eight
/// lanes.
///
/// # Panics
/// When the range is not whole blocks or runs past the lanes.
pub(super) fn pass(
    l: &mut LaneView,
    bodies: &mut Bodies,
    range: Range<usize>,
    kind: Kind,
    pass: Pass,
) {
    assert!(range.len().is_multiple_of(2 * LANES) && range.end <= l.len());
    // The run inlined once for each kind of solve and relax pass, with the kind and the pass
    // fixed, so that the loop holds no branch on them (the engine keeps more in registers);
    // each its own function, so that the engine's optimizing compiler takes each alone and
    // the hot ones sooner (V8 in Node on the loaded project machine: 2–28 ms each, where all
    // five in one function took 111 ms, the first frames running the baseline's slower code).
    match (kind == Kind::Balls, pass) {
        (true, Pass::Solve(push, h)) => solve::<true>(l, bodies, range, push, h),
        (false, Pass::Solve(push, h)) => solve::<false>(l, bodies, range, push, h),
        (true, Pass::Relax(h, over)) => relax::<true>(l, bodies, range, h, over),
        (false, Pass::Relax(h, over)) => relax::<false>(l, bodies, range, h, over),
        (two, Pass::Warm) => warm(l, bodies, range, two),
    }
}

/// A solve pass (push-out speed cap `push`, px/s; sub-step `h`, s) over ball–ball lanes
/// (`TWO`) or ball–obstacle lanes.
#[inline(never)]
fn solve<const TWO: bool>(
    l: &mut LaneView,
    bodies: &mut Bodies,
    range: Range<usize>,
    push: f32,
    h: f32,
) {
    wide::run::<W4x2>(l, bodies, range, TWO, Pass::Solve(push, h));
}

/// A relax pass (sub-step `h`, s; `over`: the lanes' own over-relaxation) over ball–ball
/// lanes (`TWO`) or ball–obstacle lanes.
#[inline(never)]
fn relax<const TWO: bool>(
    l: &mut LaneView,
    bodies: &mut Bodies,
    range: Range<usize>,
    h: f32,
    over: bool,
) {
    wide::run::<W4x2>(l, bodies, range, TWO, Pass::Relax(h, over));
}

/// The warm start over ball–ball lanes (`two`) or ball–obstacle lanes.
#[inline(never)]
fn warm(l: &mut LaneView, bodies: &mut Bodies, range: Range<usize>, two: bool) {
    wide::run::<W4x2>(l, bodies, range, two, Pass::Warm);
}

/// Four lanes in a `v128`. The module is built with `simd128` (the kernel is compiled in only
/// then), so every method's instructions are present wherever the module runs.
#[derive(Clone, Copy)]
struct W4(v128);

impl Wide for W4 {
    const LANES: usize = LANES;
    const READ_AT_USE: bool = true;
    type Mask = v128;

    #[inline(always)]
    fn splat(x: f32) -> Self {
        W4(f32x4_splat(x))
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        W4(f32x4_add(self.0, b.0))
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        W4(f32x4_sub(self.0, b.0))
    }
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        W4(f32x4_mul(self.0, b.0))
    }
    #[inline(always)]
    fn div(self, b: Self) -> Self {
        W4(f32x4_div(self.0, b.0))
    }
    #[inline(always)]
    fn max(self, b: Self) -> Self {
        // `b < self ? self : b`: `self` only when strictly greater.
        W4(f32x4_pmax(b.0, self.0))
    }
    #[inline(always)]
    fn min(self, b: Self) -> Self {
        // `self < b ? self : b`: `self` only when strictly less.
        W4(f32x4_pmin(b.0, self.0))
    }
    #[inline(always)]
    fn neg(self) -> Self {
        W4(f32x4_neg(self.0))
    }
    #[inline(always)]
    fn gt(self, b: Self) -> v128 {
        f32x4_gt(self.0, b.0)
    }
    #[inline(always)]
    fn ne(self, b: Self) -> v128 {
        f32x4_ne(self.0, b.0)
    }
    #[inline(always)]
    fn blend(off: Self, on: Self, mask: v128) -> Self {
        W4(v128_bitselect(on.0, off.0, mask))
    }
    #[inline(always)]
    fn load(v: &[f32], k: usize) -> Self {
        let s = &v[k..k + LANES];
        // SAFETY: the slice holds four floats; `v128_load` needs no alignment.
        W4(unsafe { v128_load(s.as_ptr().cast()) })
    }
    #[inline(always)]
    fn store(self, v: &mut [f32], k: usize) {
        let s = &mut v[k..k + LANES];
        // SAFETY: as in `load`.
        unsafe { v128_store(s.as_mut_ptr().cast(), self.0) }
    }
    #[inline(always)]
    fn gather(bodies: &Bodies, ids: &[u32]) -> [Self; 8] {
        // `row` checks the slot; a state is eight floats: `vx vy w inv_m dx dy inv_i r`.
        let rows: [*mut f32; LANES] = std::array::from_fn(|i| bodies.row(ids[i]));
        // SAFETY: each row holds eight floats.
        let half = |at: usize| -> [v128; LANES] {
            std::array::from_fn(|i| unsafe { v128_load(rows[i].add(at).cast()) })
        };
        let [vx, vy, w, inv_m] = transposed(half(0));
        let [dx, dy, inv_i, r] = transposed(half(4));
        [vx, vy, w, inv_m, dx, dy, inv_i, r].map(W4)
    }
    #[inline(always)]
    fn scatter(bodies: &mut Bodies, ids: &[u32], s: [Self; 4]) {
        let [W4(vx), W4(vy), W4(w), W4(inv_m)] = s;
        let front = transposed([vx, vy, w, inv_m]);
        for (i, row) in front.into_iter().enumerate() {
            // As in `gather`; no other thread touches the state (`Bodies`). Lanes naming the
            // same (spare) body are written in lane order.
            unsafe { v128_store(bodies.row(ids[i]).cast(), row) }
        }
    }
}

/// The 4 × 4 transpose of `r` (row `i` becomes column `i`).
#[inline(always)]
fn transposed(r: [v128; LANES]) -> [v128; LANES] {
    // Rows interleaved in pairs (`a0 b0 a1 b1`, `a2 b2 a3 b3`), then the pairs' halves joined.
    let t0 = i32x4_shuffle::<0, 4, 1, 5>(r[0], r[1]);
    let t1 = i32x4_shuffle::<0, 4, 1, 5>(r[2], r[3]);
    let t2 = i32x4_shuffle::<2, 6, 3, 7>(r[0], r[1]);
    let t3 = i32x4_shuffle::<2, 6, 3, 7>(r[2], r[3]);
    [
        i64x2_shuffle::<0, 2>(t0, t1),
        i64x2_shuffle::<1, 3>(t0, t1),
        i64x2_shuffle::<0, 2>(t2, t3),
        i64x2_shuffle::<1, 3>(t2, t3),
    ]
}

/// Eight lanes as two [`W4`]s, lanes 0–3 and 4–7: each operation on both.
#[derive(Clone, Copy)]
pub(super) struct W4x2(W4, W4);

impl W4x2 {
    #[inline(always)]
    fn both(self, b: Self, f: impl Fn(W4, W4) -> W4) -> Self {
        W4x2(f(self.0, b.0), f(self.1, b.1))
    }
}

impl Wide for W4x2 {
    const LANES: usize = 2 * LANES;
    const READ_AT_USE: bool = true;
    type Mask = (v128, v128);

    #[inline(always)]
    fn splat(x: f32) -> Self {
        W4x2(W4::splat(x), W4::splat(x))
    }
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        self.both(b, W4::add)
    }
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        self.both(b, W4::sub)
    }
    #[inline(always)]
    fn mul(self, b: Self) -> Self {
        self.both(b, W4::mul)
    }
    #[inline(always)]
    fn div(self, b: Self) -> Self {
        self.both(b, W4::div)
    }
    #[inline(always)]
    fn max(self, b: Self) -> Self {
        self.both(b, W4::max)
    }
    #[inline(always)]
    fn min(self, b: Self) -> Self {
        self.both(b, W4::min)
    }
    #[inline(always)]
    fn neg(self) -> Self {
        W4x2(self.0.neg(), self.1.neg())
    }
    #[inline(always)]
    fn gt(self, b: Self) -> (v128, v128) {
        (self.0.gt(b.0), self.1.gt(b.1))
    }
    #[inline(always)]
    fn ne(self, b: Self) -> (v128, v128) {
        (self.0.ne(b.0), self.1.ne(b.1))
    }
    #[inline(always)]
    fn blend(off: Self, on: Self, mask: (v128, v128)) -> Self {
        W4x2(
            W4::blend(off.0, on.0, mask.0),
            W4::blend(off.1, on.1, mask.1),
        )
    }
    #[inline(always)]
    fn load(v: &[f32], k: usize) -> Self {
        W4x2(W4::load(v, k), W4::load(v, k + LANES))
    }
    #[inline(always)]
    fn store(self, v: &mut [f32], k: usize) {
        self.0.store(v, k);
        self.1.store(v, k + LANES);
    }
    #[inline(always)]
    fn gather(bodies: &Bodies, ids: &[u32]) -> [Self; 8] {
        let (lo, hi) = (
            W4::gather(bodies, &ids[..LANES]),
            W4::gather(bodies, &ids[LANES..]),
        );
        std::array::from_fn(|i| W4x2(lo[i], hi[i]))
    }
    #[inline(always)]
    fn scatter(bodies: &mut Bodies, ids: &[u32], s: [Self; 4]) {
        // Lanes 0–3 first, then 4–7: in lane order, as the padding's spare body needs.
        W4::scatter(bodies, &ids[..LANES], s.map(|w| w.0));
        W4::scatter(bodies, &ids[LANES..], s.map(|w| w.1));
    }
}

impl FindWide for W4 {
    #[inline(always)]
    fn sqrt(self) -> Self {
        W4(f32x4_sqrt(self.0))
    }
    #[inline(always)]
    fn ge_bits(self, b: Self) -> u32 {
        u32::from(i32x4_bitmask(f32x4_ge(self.0, b.0)))
    }
    #[inline(always)]
    fn balls(balls: &[Ball], ids: &[u32]) -> [Self; 7] {
        // A ball's first 32 bytes are its first eight fields as floats (`Ball`), aligned to
        // 16; the index is checked.
        let ptrs: [*const f32; LANES] =
            std::array::from_fn(|i| (&balls[ids[i] as usize] as *const Ball).cast());
        // SAFETY: each ball holds 32 bytes from its start.
        let front = transposed(std::array::from_fn(|i| unsafe {
            v128_load(ptrs[i].cast())
        }));
        let back = transposed(std::array::from_fn(|i| unsafe {
            v128_load(ptrs[i].add(4).cast())
        }));
        [
            W4(front[0]),
            W4(front[1]),
            W4(front[2]),
            W4(front[3]),
            W4(back[0]),
            W4(back[1]),
            W4(back[2]),
        ]
    }
}

impl FindWide for W4x2 {
    #[inline(always)]
    fn sqrt(self) -> Self {
        W4x2(self.0.sqrt(), self.1.sqrt())
    }
    #[inline(always)]
    fn ge_bits(self, b: Self) -> u32 {
        self.0.ge_bits(b.0) | self.1.ge_bits(b.1) << LANES
    }
    #[inline(always)]
    fn balls(balls: &[Ball], ids: &[u32]) -> [Self; 7] {
        let (lo, hi) = (
            W4::balls(balls, &ids[..LANES]),
            W4::balls(balls, &ids[LANES..]),
        );
        std::array::from_fn(|i| W4x2(lo[i], hi[i]))
    }
}
