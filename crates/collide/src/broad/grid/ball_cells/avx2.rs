//! The pair search's step with AVX2, on CPUs that have it (checked at run time, once).
//!
//! A ball's two runs (its own cell after it with the right-hand cell, and the cells below)
//! hold about four candidates between them at the benchmark's density, so the SSE2 search
//! ([`super::Lanes::scan`]) spends two 4-wide blocks on most balls, each with four key
//! writes. Here one 8-wide block tests the first four entries of both runs (the own run's in
//! the low half, the row below's in the high), and the keys of the hits are packed to the
//! front with one lane permutation (from [`COMPRESS`], by the hit mask) and written as two
//! 32-byte stores; the key count moves on by the hits. Longer runs go on 8 entries a block.
//! The same test as the SSE2 search (min corner at most the query's max, max corner at least
//! its min, false for NaN), so the same keys; only their order in the buffer differs, and the
//! sort removes that.

use super::lanes::{Lanes, Run};
use std::arch::x86_64::*;
use std::sync::OnceLock;

/// Whether the AVX2 search runs: the CPU has AVX2, POPCNT and BMI2, and the environment variable
/// `COLLIDE_NO_AVX2` is not set (for comparing the two searches; results are the same).
pub(crate) fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| {
        std::env::var_os("COLLIDE_NO_AVX2").is_none()
            && is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("bmi2")
    })
}

/// For each 8-bit mask, the positions of its set bits in ascending order, one per byte from
/// the lowest, the rest 0: the lane permutation that packs a block's hits to the front.
static COMPRESS: [u64; 256] = compress_table();

const fn compress_table() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut mask = 0;
    while mask < 256 {
        let (mut packed, mut k, mut bit) = (0u64, 0, 0);
        while bit < 8 {
            if (mask >> bit) & 1 == 1 {
                packed |= (bit as u64) << (8 * k);
                k += 1;
            }
            bit += 1;
        }
        table[mask] = packed;
        mask += 1;
    }
    table
}

/// The query `q` (lane by lane; the ball's index in the high half of `id`) against the runs
/// `own` and `below`: writes the key of each hit at `buf[len..]` and returns the new `len`.
///
/// # Safety
/// AVX2, POPCNT and BMI2; both runs ordered, the lanes and ids with 8 entries past each run's
/// end; and `len + own.len() + below.len() + 8 ≤ buf.len()`.
#[target_feature(enable = "avx2,popcnt,bmi2")]
#[inline]
pub(super) unsafe fn scan_runs(
    lanes: &Lanes,
    q: [f32; 4],
    id: u64,
    own: Run,
    below: Run,
    buf: &mut [u64],
    len: usize,
) -> usize {
    debug_assert!(own.start <= own.end && below.start <= below.end);
    debug_assert!(own.end.max(below.end) + 8 <= lanes.x0.len().min(lanes.ids.len()));
    debug_assert!(len + own.len() + below.len() + 8 <= buf.len());
    let q = [
        _mm256_set1_ps(q[0]),
        _mm256_set1_ps(q[1]),
        _mm256_set1_ps(q[2]),
        _mm256_set1_ps(q[3]),
    ];
    let id = _mm256_set1_epi64x(id as i64);
    let out = buf.as_mut_ptr();
    // The first `k` lanes of a block's half (`most` 4) or of a whole block (`most` 8): the
    // low `k` bits of `most` set bits (`bzhi` reads only the low byte of its count, so the
    // count is capped first).
    let live = |k: usize, most: u32| _bzhi_u32((1 << most) - 1, k.min(most as usize) as u32);
    // SAFETY (every block): a block reads 4 entries from each of its two starts, each start
    // before its run's end or at it, so within the padding; and it writes 8 keys at `len`,
    // which has grown by at most the candidates tested before it, so within the room.
    unsafe {
        let first = live(own.len(), 4) | live(below.len(), 4) << 4;
        let mut len = block(lanes, &q, id, own.start, below.start, first, out, len);
        for run in [own, below] {
            let mut j = run.start + 4;
            while j < run.end {
                len = block(lanes, &q, id, j, j + 4, live(run.end - j, 8), out, len);
                j += 8;
            }
        }
        len
    }
}

/// One block: the entries `lo .. lo + 4` in lanes 0–3 and `hi .. hi + 4` in lanes 4–7,
/// the lanes outside `live` counted as misses. Writes 8 keys at `out + len`, the hits'
/// first, and returns `len` plus the hits.
///
/// # Safety
/// AVX2, POPCNT and BMI2; the entries exist; `out + len` has room for 8 keys.
#[target_feature(enable = "avx2,popcnt,bmi2")]
#[inline]
#[allow(clippy::too_many_arguments)]
unsafe fn block(
    lanes: &Lanes,
    q: &[__m256; 4],
    id: __m256i,
    lo: usize,
    hi: usize,
    live: u32,
    out: *mut u64,
    len: usize,
) -> usize {
    // SAFETY: the caller vouches for the entries, the room and the CPU.
    unsafe {
        let load = |lane: &[f32]| {
            let p = lane.as_ptr();
            _mm256_set_m128(_mm_loadu_ps(p.add(hi)), _mm_loadu_ps(p.add(lo)))
        };
        let below = _mm256_and_ps(
            _mm256_cmp_ps::<_CMP_LE_OQ>(load(lanes.x0), q[0]),
            _mm256_cmp_ps::<_CMP_LE_OQ>(load(lanes.y0), q[1]),
        );
        let above = _mm256_and_ps(
            _mm256_cmp_ps::<_CMP_GE_OQ>(load(lanes.x1), q[2]),
            _mm256_cmp_ps::<_CMP_GE_OQ>(load(lanes.y1), q[3]),
        );
        let hits = _mm256_movemask_ps(_mm256_and_ps(below, above)) as u32 & live;
        let p = lanes.ids.as_ptr();
        let ids = _mm256_set_m128i(
            _mm_loadu_si128(p.add(hi) as *const __m128i),
            _mm_loadu_si128(p.add(lo) as *const __m128i),
        );
        let order = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(COMPRESS[hits as usize] as i64));
        let packed = _mm256_permutevar8x32_epi32(ids, order);
        let front = _mm256_cvtepu32_epi64(_mm256_castsi256_si128(packed));
        let back = _mm256_cvtepu32_epi64(_mm256_extracti128_si256::<1>(packed));
        _mm256_storeu_si256(out.add(len) as *mut __m256i, _mm256_or_si256(front, id));
        _mm256_storeu_si256(out.add(len + 4) as *mut __m256i, _mm256_or_si256(back, id));
        len + hits.count_ones() as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compress_table_lists_the_set_bits() {
        assert_eq!(COMPRESS[0], 0);
        assert_eq!(COMPRESS[0b1], 0);
        assert_eq!(COMPRESS[0b1010_0100], 0x07_05_02);
        assert_eq!(COMPRESS[0xFF], 0x07_06_05_04_03_02_01_00);
    }
}
