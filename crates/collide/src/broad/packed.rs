//! Boxes packed for 4-wide overlap tests: shared by the grid's pair search and the AABB
//! tree's leaf buckets.
//!
//! Closed boxes `a`, `b` overlap iff `b.min ≤ a.max` and `a.min ≤ b.max`, i.e.
//! `−b.max ≤ −a.min`. So with `b` stored as `[min x, min y, −max x, −max y]` ([`packed`]) and
//! `a` as the query `[max x, max y, −min x, −min y]` ([`query_of`]), the test is
//! `packed(b) ≤ query(a)` on all four coordinates. Stored coordinate by coordinate (four
//! arrays), one 4-wide compare per coordinate tests four candidates against the query's
//! coordinate broadcast, and the four results' AND is a mask of hits ([`hits4`]). Negation
//! is exact and `−0.0 = 0.0` in comparisons, so this is the same test as [`Aabb::overlaps`];
//! a NaN coordinate fails every compare, so a box of NaNs overlaps nothing (padding).

use crate::geom::Aabb;

/// `b` packed for storage: `[min x, min y, −max x, −max y]`.
#[inline(always)]
pub(crate) fn packed(b: &Aabb) -> [f32; 4] {
    [b.min.x, b.min.y, -b.max.x, -b.max.y]
}

/// The query `[max x, max y, −min x, −min y]` of a packed box.
#[inline(always)]
pub(crate) fn query_of(p: [f32; 4]) -> [f32; 4] {
    [-p[2], -p[3], -p[0], -p[1]]
}

/// Bit `k` set when entry `j + k` (`k < 4`) of the packed `lanes` lies within the query `q`:
/// each of its four packed coordinates at most `q`'s. With SSE2 (all of x86-64), one 4-wide
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
        use std::arch::x86_64::_mm_set1_ps;
        use std::arch::x86_64::{_mm_and_ps, _mm_cmple_ps, _mm_loadu_ps, _mm_movemask_ps};
        // SAFETY: SSE2 is part of x86-64; the caller vouches for the four entries.
        unsafe {
            let le = |lane: &[f32], q: f32| {
                _mm_cmple_ps(_mm_loadu_ps(lane.as_ptr().add(j)), _mm_set1_ps(q))
            };
            let x = _mm_and_ps(le(lanes[0], q[0]), le(lanes[1], q[1]));
            let y = _mm_and_ps(le(lanes[2], q[2]), le(lanes[3], q[3]));
            _mm_movemask_ps(_mm_and_ps(x, y)) as u32
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        (0..4).fold(0, |mask, k| {
            let hit = (0..4).all(|c| lanes[c][j + k] <= q[c]);
            mask | (hit as u32) << k
        })
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
        assert_eq!(query_of(packed(&a)), [10.0, 10.0, -0.0, -0.0]);
    }
}
