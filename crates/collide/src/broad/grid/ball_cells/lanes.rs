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
            let mut mask = unsafe { self.hits(q, j) } & ((1u32 << live) - 1);
            for k in 0..LANES {
                unsafe { *op.add(len) = id | *ip.add(j + k) as u64 };
                len += (mask & 1) as usize;
                mask >>= 1;
            }
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
