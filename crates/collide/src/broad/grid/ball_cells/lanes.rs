//! The balls' boxes in cell order, one coordinate per array (`[min x, min y, max x, max y]`),
//! and the SSE2 scan of a run of them against one query, four candidates per compare; the
//! AVX2 scan (`avx2.rs`) reads the same lanes.

use crate::broad::packed::hits4;

/// A run of entries in cell order.
pub(super) type Run = std::ops::Range<usize>;

/// Candidates tested per block of the pair search (SSE2).
pub(super) const LANES: usize = 4;

/// The boxes in cell order lane by lane, and their ids, each with `PAD` entries of padding.
pub(super) struct Lanes<'a> {
    pub(super) x0: &'a [f32],
    pub(super) y0: &'a [f32],
    pub(super) x1: &'a [f32],
    pub(super) y1: &'a [f32],
    pub(super) ids: &'a [u32],
}

impl Lanes<'_> {
    /// The query `q` (lane by lane; the ball's index in the high half of `id`) against the
    /// entries `j0..j1`, four at a time (lanes past `j1` count as misses): each candidate's
    /// key goes to `buf[len]`, and `len` moves on only for a hit. Returns the new `len`.
    ///
    /// # Safety
    /// `j0 ≤ j1`, `j1 + LANES` at most the lanes' length, and
    /// `len + (j1 − j0) + LANES ≤ buf.len()`.
    #[inline(always)]
    pub(super) unsafe fn scan(
        &self,
        q: [f32; 4],
        id: u64,
        j0: usize,
        j1: usize,
        buf: &mut [u64],
        mut len: usize,
    ) -> usize {
        debug_assert!(j0 <= j1 && j1 + LANES <= self.x0.len() && j1 + LANES <= self.ids.len());
        debug_assert!(len + (j1 - j0) + LANES <= buf.len());
        // SAFETY (every read and write below): a block starts at `j ≤ j1` (the first at
        // `j0 ≤ j1`, the next only while `j < j1`), so it reads entries `j .. j + LANES`,
        // within the padding past `j1`; and it writes one slot past the keys so far, which
        // are at most the run's candidates before it: within `buf`'s room.
        let (ip, op) = (self.ids.as_ptr(), buf.as_mut_ptr());
        let mut j = j0;
        loop {
            let live = (j1 - j).min(LANES);
            let mask = unsafe { self.hits(q, j) } & ((1u32 << live) - 1);
            len = unsafe { write_keys(ip.add(j), mask, id, op, len) };
            j += LANES;
            if j >= j1 {
                break;
            }
        }
        len
    }

    /// [`hits4`] on these lanes.
    ///
    /// # Safety
    /// Entries `j .. j + 4` exist in every lane.
    #[inline(always)]
    unsafe fn hits(&self, q: [f32; 4], j: usize) -> u32 {
        // SAFETY: the caller vouches for the entries.
        unsafe { hits4([self.x0, self.y0, self.x1, self.y1], j, q) }
    }
}

/// Writes the keys of four candidates (their ids at `ids`, the query's id in the high half
/// of `id`) at `out + len`, those of the set bits of `mask` first in lane order, and returns
/// `len` plus the hits: every candidate's key goes to the end, and the end moves past it only
/// for a hit.
///
/// # Safety
/// `ids` has four entries and `out + len` room for four keys.
#[inline(always)]
unsafe fn write_keys(ids: *const u32, mask: u32, id: u64, out: *mut u64, len: usize) -> usize {
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    {
        let (mut len, mut mask) = (len, mask);
        for k in 0..LANES {
            // SAFETY: the caller vouches for the four ids and the room.
            unsafe { *out.add(len) = id | *ids.add(k) as u64 };
            len += (mask & 1) as usize;
            mask >>= 1;
        }
        len
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        // With WebAssembly's SIMD the hits' ids are packed to the front by one byte shuffle
        // (from [`COMPRESS`]) and their keys written as two 16-byte stores: the browser's
        // engine ran the four scalar writes and their bookkeeping about twice as slowly as
        // the desktop.
        use core::arch::wasm32::*;
        // SAFETY: the caller vouches for the four ids and the room; the loads and stores
        // need no alignment; `mask < 16` indexes the table.
        unsafe {
            let v = v128_load(ids.cast::<v128>());
            let order = v128_load(COMPRESS[(mask & 15) as usize].as_ptr().cast::<v128>());
            let packed = i8x16_swizzle(v, order);
            let high = u64x2_splat(id);
            let at = out.add(len);
            v128_store(
                at.cast::<v128>(),
                v128_or(u64x2_extend_low_u32x4(packed), high),
            );
            v128_store(
                at.add(2).cast::<v128>(),
                v128_or(u64x2_extend_high_u32x4(packed), high),
            );
        }
        len + mask.count_ones() as usize
    }
}

/// For each 4-bit mask, the bytes of the set lanes' 32-bit values in lane order, then zeros
/// (an index of 16 or more gives a zero byte): the shuffle that packs a block's hits to the
/// front.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
static COMPRESS: [[u8; 16]; 16] = compress_table();

#[cfg_attr(
    not(all(target_arch = "wasm32", target_feature = "simd128")),
    allow(dead_code)
)]
const fn compress_table() -> [[u8; 16]; 16] {
    let mut table = [[0x80u8; 16]; 16];
    let mut mask = 0;
    while mask < 16 {
        let (mut k, mut lane) = (0, 0);
        while lane < 4 {
            if (mask >> lane) & 1 == 1 {
                let mut b = 0;
                while b < 4 {
                    table[mask][4 * k + b] = (4 * lane + b) as u8;
                    b += 1;
                }
                k += 1;
            }
            lane += 1;
        }
        mask += 1;
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compress_table_packs_the_set_lanes_bytes_to_the_front() {
        let t = compress_table();
        assert_eq!(t[0], [0x80; 16]);
        assert_eq!(t[0b0100][..4], [8, 9, 10, 11]);
        assert_eq!(t[0b0100][4..], [0x80; 12]);
        let want: Vec<u8> = [0, 1, 2, 3, 12, 13, 14, 15].into();
        assert_eq!(t[0b1001][..8], want[..]);
        assert_eq!(t[0b1111], std::array::from_fn(|b| b as u8));
    }

    #[test]
    fn the_keys_of_the_hits_come_first_in_lane_order() {
        let ids = [7u32, 8, 9, 10];
        let mut out = [0u64; 8];
        // SAFETY: four ids, room for four keys from slot 1.
        let len = unsafe { write_keys(ids.as_ptr(), 0b1010, 5 << 32, out.as_mut_ptr(), 1) };
        assert_eq!(len, 3);
        assert_eq!(out[1..3], [5 << 32 | 8, 5 << 32 | 10]);
    }
}
