//! Where a ball's box falls in the lattice: the f32 cell function of each axis, both axes at
//! once on a box's corners, a box's cell code, and the region and largest side of the boxes.
//!
//! **Cell of a coordinate.** `col(x) = trunc(clamp((x − x0) · (1 / size), 0, w − 1))` in f32,
//! `x0` the left edge of the range, both axes in one 4-lane operation on a box's corners.
//! Each step is monotone in `x`, so `col` is: that is all the grid's exactness argument
//! needs, provided the same function also checks that no ball spans more than two cells per
//! axis (the first pass over the boxes does both).

use crate::geom::Aabb;
use glam::{Vec2, Vec4};

/// The f32 cell function of one axis: `trunc(clamp((v − origin) · inv, 0, last))`.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Axis {
    origin: f32,
    inv: f32,
    /// The last column (row) as an f32 no greater than it.
    last: f32,
}

impl Axis {
    pub(super) fn new(origin: f32, inv: f32, cells: usize) -> Self {
        let mut last = (cells - 1) as f32;
        if last as usize > cells - 1 {
            last = f32::from_bits(last.to_bits() - 1); // rounded up: one step down
        }
        Self { origin, inv, last }
    }

    /// `v` in cells from the origin, clamped to `[0, last]` (a NaN fails `t > 0` and becomes
    /// 0): monotone in `v`.
    #[inline(always)]
    pub(super) fn t(&self, v: f32) -> f32 {
        let t = (v - self.origin) * self.inv;
        let t = if t > 0.0 { t } else { 0.0 };
        if t < self.last {
            t
        } else {
            self.last
        }
    }

    /// The cell of `v`: `t(v)` truncated (in range, so `as` never saturates).
    #[inline(always)]
    pub(super) fn cell(&self, v: f32) -> u32 {
        self.t(v) as u32
    }
}

/// Both axes' cell functions at once on a box's corners `[min x, min y, max x, max y]`: the
/// same operations lane by lane as [`Axis::t`] (`maxps`/`minps` pick as its compares do), so
/// the same results.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Lattice {
    origin: Vec4,
    inv: Vec4,
    pub(super) last: Vec4,
}

impl Lattice {
    pub(super) fn new(ax: Axis, ay: Axis) -> Self {
        Self {
            origin: Vec4::new(ax.origin, ay.origin, ax.origin, ay.origin),
            inv: Vec4::new(ax.inv, ay.inv, ax.inv, ay.inv),
            last: Vec4::new(ax.last, ay.last, ax.last, ay.last),
        }
    }

    /// `[t(min x), t(min y), t(max x), t(max y)]`.
    #[inline(always)]
    pub(super) fn t4(&self, corners: Vec4) -> Vec4 {
        // `max` keeps the right operand where the left is NaN, like `t > 0 ? t : 0`.
        ((corners - self.origin) * self.inv)
            .max(Vec4::ZERO)
            .min(self.last)
    }

    /// [`Lattice::cells`] of box `b`.
    #[inline(always)]
    #[cfg_attr(
        any(target_arch = "x86_64", target_feature = "simd128"),
        allow(dead_code)
    )] // `place` does it there (and tests)
    pub(super) fn box_cells(&self, b: &Aabb) -> [i32; 4] {
        self.cells(Vec4::new(b.min.x, b.min.y, b.max.x, b.max.y))
    }

    /// The cells of a box's corners `[min x, min y, max x, max y]`: its [`Lattice::t4`]
    /// coordinates truncated, `[col(min x), row(min y), col(max x), row(max y)]`. They lie in
    /// `0..2^24`, so the truncation is exact; all four in one instruction on x86-64 (where
    /// `as` would check each lane's range and NaN with branches).
    #[inline(always)]
    pub(super) fn cells(&self, corners: Vec4) -> [i32; 4] {
        let t = self.t4(corners);
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{__m128i, _mm_cvttps_epi32, _mm_loadu_ps};
            let t = t.to_array();
            // SAFETY: SSE2 is part of x86-64; `t` is four readable floats. The conversion
            // truncates each lane (a lane out of range, none here, would become `i32::MIN`,
            // nothing undefined), and any 16 bytes are four valid `i32`.
            unsafe {
                let i = _mm_cvttps_epi32(_mm_loadu_ps(t.as_ptr()));
                std::mem::transmute::<__m128i, [i32; 4]>(i)
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        t.to_array().map(|v| v as i32)
    }
}

/// What the first sort needs of a box: its cell code ([`cell_code`]), its row (for its band),
/// and whether it spans at most two cells per axis ([`within_two`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Placed {
    pub(super) code: u32,
    pub(super) row: u32,
    pub(super) within_two: bool,
}

impl Lattice {
    /// [`Placed`] of box `b` in a lattice of row stride `stride`: the same as
    /// [`Lattice::box_cells`] then [`cell_code`] and [`within_two`], with the spans' tests
    /// done on all four lanes at once on x86-64 (SSE2: one subtract and two compares where the
    /// lanes were taken out one by one) and with WebAssembly's SIMD (the cell function too).
    #[inline(always)]
    pub(super) fn place(&self, b: &Aabb, stride: usize) -> Placed {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            let t = self
                .t4(Vec4::new(b.min.x, b.min.y, b.max.x, b.max.y))
                .to_array();
            // SAFETY: SSE2 is part of x86-64; `t` is four readable floats in `0..2^24`, so the
            // truncation is exact (as in `cells`).
            unsafe {
                let k = _mm_cvttps_epi32(_mm_loadu_ps(t.as_ptr()));
                // Lanes 0 and 1: columns and rows spanned past the first, `[c1 − c0, r1 − r0]`.
                let d = _mm_sub_epi32(_mm_shuffle_epi32::<0b11_10_11_10>(k), k);
                let lanes = |m: __m128i| _mm_movemask_ps(_mm_castsi128_ps(m)) as u32 & 3;
                let far = lanes(_mm_cmpgt_epi32(d, _mm_set1_epi32(1)));
                let reach = lanes(_mm_cmpgt_epi32(d, _mm_setzero_si128()));
                let c0 = _mm_cvtsi128_si32(k) as u32 as usize;
                let r0 = _mm_cvtsi128_si32(_mm_shuffle_epi32::<0b01>(k)) as u32;
                Placed {
                    code: (r0 as usize * stride + c0 + 1) as u32 | reach << 30,
                    row: r0,
                    within_two: far == 0,
                }
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            use core::arch::wasm32::*;
            let v = |a: Vec4| f32x4(a.x, a.y, a.z, a.w);
            let corners = f32x4(b.min.x, b.min.y, b.max.x, b.max.y);
            // `t4` lane by lane: `pmax(0, t)` is `0 < t ? t : 0` (0 for a NaN) and
            // `pmin(last, t)` is `t < last ? t : last`, as `Axis::t`; then truncated (exact
            // in range, as in `cells`).
            let t = f32x4_mul(f32x4_sub(corners, v(self.origin)), v(self.inv));
            let t = f32x4_pmin(v(self.last), f32x4_pmax(f32x4_splat(0.0), t));
            let k = i32x4_trunc_sat_f32x4(t);
            // Lanes 0 and 1: columns and rows spanned past the first, `[c1 − c0, r1 − r0]`.
            let d = i32x4_sub(i32x4_shuffle::<2, 3, 2, 3>(k, k), k);
            let far = i32x4_bitmask(i32x4_gt(d, i32x4_splat(1))) as u32 & 3;
            let reach = i32x4_bitmask(i32x4_gt(d, i32x4_splat(0))) as u32 & 3;
            let (c0, r0) = (i32x4_extract_lane::<0>(k), i32x4_extract_lane::<1>(k));
            Placed {
                code: (r0 as usize * stride + c0 as usize + 1) as u32 | reach << 30,
                row: r0 as u32,
                within_two: far == 0,
            }
        }
        #[cfg(not(any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        )))]
        {
            let spans = self.box_cells(b);
            Placed {
                code: cell_code(spans, stride),
                row: spans[1] as u32,
                within_two: within_two(spans),
            }
        }
    }
}

/// Whether a box whose corners lie in the cells `k` (as [`Lattice::cells`] gives) spans at
/// most two cells on each axis. Signed: a box whose max lies before its min (a NaN corner
/// clamped to 0) spans none.
#[inline(always)]
#[cfg_attr(
    any(target_arch = "x86_64", target_feature = "simd128"),
    allow(dead_code)
)] // `place` does it there (and tests)
pub(super) fn within_two(k: [i32; 4]) -> bool {
    (k[2] - k[0] <= 1) & (k[3] - k[1] <= 1)
}

/// Bit of a cell code: the box reaches into the next column.
pub(super) const REACHES_RIGHT: u32 = 1 << 30;
/// Bit of a cell code: the box reaches into the next row.
pub(super) const REACHES_DOWN: u32 = 1 << 31;
/// The stored cell of a cell code.
pub(super) const CELL_BITS: u32 = REACHES_RIGHT - 1;
/// Most stored cells, so a stored cell fits [`CELL_BITS`].
pub(crate) const MAX_STORED_CELLS: usize = 1 << 30;

/// The cell code of a box whose corners lie in the cells `k` (as [`Lattice::cells`] gives),
/// its cell `(c, r)` stored at `r · stride + c + 1`: the stored cell, with
/// [`REACHES_RIGHT`] when the box's max lies in a later column and [`REACHES_DOWN`] in a
/// later row. No box reaches further ([`within_two`]).
#[inline(always)]
pub(super) fn cell_code(k: [i32; 4], stride: usize) -> u32 {
    let (c, r) = (k[0] as usize, k[1] as usize);
    let right = (k[2] > k[0]) as u32;
    let down = (k[3] > k[1]) as u32;
    (r * stride + c + 1) as u32 | right << 30 | down << 31
}

/// The box holding some boxes and their largest side, gathered one box at a time.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Extent {
    /// Min corner and negated max corner.
    lo: [f32; 4],
    /// Lanes x and y: the least of `min x − max x` and of `min y − max y` (the negated
    /// largest width and height), each rounded to f32 as the subtraction gives it.
    sides: [f32; 4],
}

impl Default for Extent {
    fn default() -> Self {
        Self {
            lo: [f32::INFINITY; 4],
            sides: [0.0; 4],
        }
    }
}

impl Extent {
    /// Adds `b`. Min corners and negated max corners in one 4-lane min, the new box first, so
    /// a NaN coordinate leaves the running value (as `f32::min` does); from +∞, so a NaN never
    /// enters it. The box's negated sides (`min + (−max)`, which rounds exactly as `max − min`
    /// does, negated) in one 4-lane add and min, the same way. With SSE2 (all of x86-64) or
    /// WebAssembly's SIMD, one instruction each: glam's `Vec4` may be four separate floats
    /// (see [`crate::broad::packed::hits4`]), and each lane's `f32::min` then took a compare
    /// and a select (the page's first pass over the boxes ran three times the desktop's).
    #[inline(always)]
    pub fn add(&mut self, b: &Aabb) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            // SAFETY: SSE2 is part of x86-64; a box is four floats (`repr(C)`), as are `lo`
            // and `sides`.
            unsafe {
                let sign = _mm_set_ps(-0.0, -0.0, 0.0, 0.0);
                let v = _mm_xor_ps(_mm_loadu_ps((b as *const Aabb).cast()), sign);
                // `minps(a, b)` is `a < b ? a : b`: `b` on a tie or a NaN.
                let lo = _mm_min_ps(v, _mm_loadu_ps(self.lo.as_ptr()));
                let s = _mm_add_ps(v, _mm_shuffle_ps::<0b01_00_11_10>(v, v));
                let sides = _mm_min_ps(s, _mm_loadu_ps(self.sides.as_ptr()));
                _mm_storeu_ps(self.lo.as_mut_ptr(), lo);
                _mm_storeu_ps(self.sides.as_mut_ptr(), sides);
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            use core::arch::wasm32::*;
            let [x0, y0, x1, y1] = [b.min.x, b.min.y, -b.max.x, -b.max.y];
            let v = f32x4(x0, y0, x1, y1);
            let at = |a: [f32; 4]| f32x4(a[0], a[1], a[2], a[3]);
            // `pmin(a, b)` is `b < a ? b : a`: `a` on a tie or a NaN.
            let lo = f32x4_pmin(at(self.lo), v);
            let s = f32x4_add(v, i32x4_shuffle::<2, 3, 0, 1>(v, v));
            let sides = f32x4_pmin(at(self.sides), s);
            let out = |v: v128| {
                [
                    f32x4_extract_lane::<0>(v),
                    f32x4_extract_lane::<1>(v),
                    f32x4_extract_lane::<2>(v),
                    f32x4_extract_lane::<3>(v),
                ]
            };
            (self.lo, self.sides) = (out(lo), out(sides));
        }
        #[cfg(not(any(
            target_arch = "x86_64",
            all(target_arch = "wasm32", target_feature = "simd128")
        )))]
        {
            use glam::Vec4Swizzles;
            let v = Vec4::new(b.min.x, b.min.y, -b.max.x, -b.max.y);
            self.lo = v.min(Vec4::from_array(self.lo)).to_array();
            self.sides = (v + v.zwxy()).min(Vec4::from_array(self.sides)).to_array();
        }
    }

    /// The box and the largest side (px, the f32 difference `max − min`), of at least one box
    /// added.
    pub(crate) fn get(&self) -> (Aabb, f64) {
        let [x0, y0, x1, y1] = self.lo;
        let largest = (-self.sides[0]).max(-self.sides[1]) as f64;
        (Aabb::new(Vec2::new(x0, y0), Vec2::new(-x1, -y1)), largest)
    }
}
