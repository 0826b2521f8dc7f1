//! Boxes stored for 4-wide overlap tests: shared by the grid's pair search and the AABB
//! tree's leaf buckets.
//!
//! Closed boxes `a`, `b` overlap iff `b.min ≤ a.max` and `b.max ≥ a.min` on both axes. So with
//! `b` stored as `[min x, min y, max x, max y]` ([`packed`]) and `a` as the query
//! `[max x, max y, min x, min y]` ([`query_of`]), the test is `b ≤ q` on the first two
//! coordinates and `b ≥ q` on the last two. Stored coordinate by coordinate (four arrays),
//! one 4-wide compare per coordinate tests four candidates against the query's coordinate
//! broadcast, and the four results' AND is a mask of hits ([`hits4`]). The compares are the
//! ones of [`Aabb::overlaps`] with their operands swapped, so the same test (`−0.0 = 0.0`);
//! a NaN coordinate fails every compare, so a box of NaNs overlaps nothing (padding).

use crate::geom::Aabb;

/// `b` as stored: `[min x, min y, max x, max y]`.
#[inline(always)]
pub(crate) fn packed(b: &Aabb) -> [f32; 4] {
    [b.min.x, b.min.y, b.max.x, b.max.y]
}

/// The query `[max x, max y, min x, min y]` of a stored box.
#[inline(always)]
pub(crate) fn query_of(p: [f32; 4]) -> [f32; 4] {
    [p[2], p[3], p[0], p[1]]
}

/// Bit `k` set when entry `j + k` (`k < 4`) of the stored `lanes` overlaps the query `q`: its
/// min corner at most `q`'s first two coordinates, its max corner at least `q`'s last two.
/// With SSE2 (all of x86-64) or WebAssembly's SIMD (`simd128`), one 4-wide
/// compare per coordinate; glam's `Vec4` cannot be relied on for it (a crate depending on
/// this one may turn on glam's `scalar-math` feature, as the app's window library does, and
/// Cargo then builds glam that way for this crate too, making `Vec4` four separate floats).
///
/// # Safety
/// Entries `j .. j + 4` exist in every lane.
#[inline(always)]
pub(crate) unsafe fn hits4(lanes: [&[f32]; 4], j: usize, q: [f32; 4]) -> u32 {
    debug_assert!(lanes.iter().all(|l| j + 4 <= l.len()));
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_and_ps, _mm_cmpge_ps, _mm_cmple_ps};
        use std::arch::x86_64::{_mm_loadu_ps, _mm_movemask_ps, _mm_set1_ps};
        // SAFETY: SSE2 is part of x86-64; the caller vouches for the four entries.
        unsafe {
            let at = |c: usize| _mm_loadu_ps(lanes[c].as_ptr().add(j));
            let below = _mm_and_ps(
                _mm_cmple_ps(at(0), _mm_set1_ps(q[0])),
                _mm_cmple_ps(at(1), _mm_set1_ps(q[1])),
            );
            let above = _mm_and_ps(
                _mm_cmpge_ps(at(2), _mm_set1_ps(q[2])),
                _mm_cmpge_ps(at(3), _mm_set1_ps(q[3])),
            );
            _mm_movemask_ps(_mm_and_ps(below, above)) as u32
        }
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::{f32x4_ge, f32x4_le, f32x4_splat, i32x4_bitmask, v128_and};
        use core::arch::wasm32::{v128, v128_load};
        // SAFETY: the caller vouches for the four entries; `v128_load` needs no alignment.
        let at = |c: usize| unsafe { v128_load(lanes[c].as_ptr().add(j).cast::<v128>()) };
        let below = v128_and(
            f32x4_le(at(0), f32x4_splat(q[0])),
            f32x4_le(at(1), f32x4_splat(q[1])),
        );
        let above = v128_and(
            f32x4_ge(at(2), f32x4_splat(q[2])),
            f32x4_ge(at(3), f32x4_splat(q[3])),
        );
        i32x4_bitmask(v128_and(below, above)) as u32
    }
    #[cfg(not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )))]
    {
        (0..4).fold(0, |mask, k| {
            let v = |c: usize| lanes[c][j + k];
            let hit = v(0) <= q[0] && v(1) <= q[1] && v(2) >= q[2] && v(3) >= q[3];
            mask | (hit as u32) << k
        })
    }
}

/// [`Aabb::overlaps`] of two boxes without its short-circuit: the same four closed compares
/// (false for a NaN), all evaluated, so no branch. With WebAssembly's SIMD each box is one
/// 4-wide load (`Aabb` is `repr(C)`, `[min x, min y, max x, max y]`): `b`'s halves swapped
/// give its query (`[max x, max y, min x, min y]`), and `a ≤ query` on the first two lanes
/// with `a ≥ query` on the last two are the four compares, in one instruction each; the
/// browser's engine runs the eight scalar loads and compares about twice as slowly as the
/// desktop, and this is the pair cache's whole filter.
#[inline(always)]
pub(crate) fn overlap(a: &Aabb, b: &Aabb) -> bool {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        use core::arch::wasm32::{f32x4_ge, f32x4_le, i32x4_all_true, i32x4_shuffle};
        use core::arch::wasm32::{v128, v128_load};
        // SAFETY: an `Aabb` is four `f32`s in a row (`repr(C)`); `v128_load` needs no
        // alignment.
        let (a, b) = unsafe {
            let load = |x: &Aabb| v128_load((x as *const Aabb).cast::<v128>());
            (load(a), load(b))
        };
        let q = i32x4_shuffle::<2, 3, 0, 1>(b, b);
        i32x4_all_true(i32x4_shuffle::<0, 1, 6, 7>(f32x4_le(a, q), f32x4_ge(a, q)))
    }
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        (a.min.x <= b.max.x) & (b.min.x <= a.max.x) & (a.min.y <= b.max.y) & (b.min.y <= a.max.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    #[test]
    fn hits_agree_with_overlaps_including_touching_and_nan() {
        let a = Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0));
        let others = [
            Aabb::new(Vec2::new(10.0, 10.0), Vec2::new(12.0, 12.0)), // touching corner
            Aabb::new(Vec2::new(10.5, 0.0), Vec2::new(12.0, 1.0)),   // apart on x
            Aabb::new(Vec2::new(-5.0, -5.0), Vec2::new(-0.0, 0.0)),  // touching at −0
            Aabb {
                min: Vec2::new(f32::NAN, 0.0),
                max: Vec2::new(1.0, 1.0),
            },
        ];
        let cols: Vec<[f32; 4]> = others.iter().map(packed).collect();
        let lane = |c: usize| cols.iter().map(|p| p[c]).collect::<Vec<f32>>();
        let lanes = [lane(0), lane(1), lane(2), lane(3)];
        let refs = [&lanes[0][..], &lanes[1][..], &lanes[2][..], &lanes[3][..]];
        // SAFETY: four entries in each lane.
        let mask = unsafe { hits4(refs, 0, query_of(packed(&a))) };
        let want = others
            .iter()
            .enumerate()
            .fold(0, |m, (k, b)| m | (a.overlaps(b) as u32) << k);
        assert_eq!(mask, want);
        assert_eq!(mask, 0b0101);
        assert_eq!(query_of(packed(&a)), [10.0, 10.0, 0.0, 0.0]);
    }

    #[test]
    fn the_pair_overlap_is_aabb_overlaps_including_touching_negative_zero_and_nan() {
        let v = [-1.0, -0.0, 0.0, 0.5, 1.0, f32::NAN];
        let boxes: Vec<Aabb> = v
            .iter()
            .flat_map(|&x0| v.iter().map(move |&y0| (x0, y0)))
            .map(|(x0, y0)| Aabb {
                min: Vec2::new(x0, y0),
                max: Vec2::new(x0 + 0.5, y0 + 1.0),
            })
            .collect();
        for a in &boxes {
            for b in &boxes {
                assert_eq!(overlap(a, b), a.overlaps(b), "{a:?} {b:?}");
            }
        }
    }
}
