//! Pairs as sortable `u64` keys, put in canonical order by an LSD radix sort.
//!
//! A pair `(i, j)`, `i < j`, is the key `i · 2^32 + j`, so keys order exactly as pairs do.
//! Keys are written with the two indices in either order (the finder's ball first, which
//! saves a compare per candidate) and put right in the read that counts both histograms.
//! They are then sorted by their first index only, in two LSD radix passes of about `b / 2`
//! bits each (`b` the bits of the largest index: at a million balls 1,024 buckets per pass),
//! no comparisons. The last pass leaves each first index's few partners in the order they
//! were found; a last pass puts them in order and drops repeats, branch-free for the common
//! case ([`partners_in_order`]: a ball has a handful of neighbours, and two found in the
//! wrong order are swapped without a branch, which would be mispredicted often). Each
//! scatter asks the cache for its bucket's write stream two lines ahead ([`prefetch`]).
//!
//! **Writing keys.** [`KeyWriter`] holds the key buffer while the pairs are searched, so its
//! address and length stay in registers; a finder can also take the buffer and write keys
//! itself ([`KeyWriter::take`]). The buffers only grow, so a steady state allocates (and
//! clears) nothing.
//!
//! On several threads the passes are cut into parts (`threads.rs`), with the same result.
//!
//! Used by the broad phases that find pairs in spatial order (cells) rather than in index
//! order, in place of a comparison sort of the pair list.

mod threads;

use super::radix::index_bits;
use super::Pair;

/// Pairs collected as keys, then sorted into a pair list.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairKeys {
    /// Bits of the largest index.
    bits: u32,
    /// `keys[..len]` are the keys; the rest is room already allocated.
    keys: Vec<u64>,
    len: usize,
    /// The radix sort's other buffer.
    spare: Vec<u64>,
    /// Bucket counts of both passes.
    counts: Vec<u32>,
    /// On several threads, each part's pairs of the last pass (`threads.rs`).
    lists: Vec<Vec<Pair>>,
}

/// Appends keys to a [`PairKeys`]. It holds the key buffer itself while it lives, so the
/// buffer's address and length stay in registers (no reload after each write through it).
pub(crate) struct KeyWriter<'a> {
    home: &'a mut PairKeys,
    buf: Vec<u64>,
    len: usize,
}

impl KeyWriter<'_> {
    /// Appends `key` (one index in the high half, the other in the low, either order).
    #[inline(always)]
    pub(crate) fn push(&mut self, key: u64) {
        if self.len == self.buf.len() {
            self.grow(self.len + 1);
        }
        self.buf[self.len] = key;
        self.len += 1;
    }

    /// The buffer and the number of keys in it, for a finder that writes keys itself (see
    /// [`KeyWriter::put_back`]).
    pub(crate) fn take(&mut self) -> (Vec<u64>, usize) {
        (std::mem::take(&mut self.buf), self.len)
    }

    /// Returns what [`KeyWriter::take`] gave, `len` keys now written.
    pub(crate) fn put_back(&mut self, buf: Vec<u64>, len: usize) {
        debug_assert!(len <= buf.len());
        (self.buf, self.len) = (buf, len);
    }

    #[cold]
    fn grow(&mut self, end: usize) {
        grow_keys(&mut self.buf, end);
    }
}

impl Drop for KeyWriter<'_> {
    fn drop(&mut self) {
        self.home.keys = std::mem::take(&mut self.buf);
        self.home.len = self.len;
    }
}

impl PairKeys {
    /// Forgets all keys; indices will be below `n`.
    pub fn clear(&mut self, n: usize) {
        self.len = 0;
        self.bits = index_bits(n);
    }

    /// Makes room for at least `n` keys at once, so that a fresh buffer expected to fill
    /// that far is not grown by doubling (each step copying the keys so far).
    pub(crate) fn reserve(&mut self, n: usize) {
        if self.keys.len() < n {
            grow_keys(&mut self.keys, n);
        }
    }

    /// A writer appending after the keys held.
    pub(crate) fn writer(&mut self) -> KeyWriter<'_> {
        let (buf, len) = (std::mem::take(&mut self.keys), self.len);
        KeyWriter {
            home: self,
            buf,
            len,
        }
    }

    /// Appends the keys of `other`.
    pub(crate) fn append(&mut self, other: &PairKeys) {
        let add = &other.keys[..other.len];
        let end = self.len + add.len();
        if self.keys.len() < end {
            grow_keys(&mut self.keys, end);
        }
        self.keys[self.len..end].copy_from_slice(add);
        self.len = end;
    }

    /// Adds pairs already as `(min, max)`.
    pub(crate) fn extend(&mut self, pairs: &[Pair]) {
        let mut out = self.writer();
        for &(i, j) in pairs {
            out.push((i as u64) << 32 | j as u64);
        }
    }

    /// Sorts `pairs` (each `(min, max)`, indices below `n`) in place and drops repeats, by
    /// the radix sort of [`PairKeys::sorted_into`] with this as its scratch: linear in the
    /// pairs where a comparison sort is `O(p log p)`. Returns the repeats dropped.
    pub(crate) fn sort_pairs(&mut self, pairs: &mut Vec<Pair>, n: usize) -> u64 {
        self.clear(n);
        self.extend(pairs);
        self.sorted_into(pairs)
    }

    /// Sorts the keys and writes them to `pairs` (cleared first), each once; returns the
    /// repeats dropped.
    pub(crate) fn sorted_into(&mut self, pairs: &mut Vec<Pair>) -> u64 {
        let n = self.len;
        let keys = &mut self.keys[..n];
        if self.spare.len() < n {
            self.spare.resize(n, 0);
        }
        let spare = &mut self.spare[..n];
        // Digits of the first index: bits `32..32 + d0`, then `32 + d0..32 + bits`.
        let d0 = self.bits.div_ceil(2);
        let (b0, b1) = (1usize << d0, 1usize << (self.bits - d0));
        let (s1, m0) = (32 + d0, (b0 - 1) as u64);
        self.counts.clear();
        self.counts.resize(b0 + b1, 0);
        let (c0, c1) = self.counts.split_at_mut(b0);
        for k in keys.iter_mut() {
            let (a, b) = (*k >> 32, *k & LOW);
            *k = a.min(b) << 32 | a.max(b);
            c0[((*k >> 32) & m0) as usize] += 1;
            c1[(*k >> s1) as usize] += 1;
        }
        exclusive_sums(c0);
        exclusive_sums(c1);
        // The two scatters index the counters with the keys the count above indexed them
        // with (checked there), and each counter's place runs from its exclusive sum up to
        // the next one's, within the `n` keys: no index below needs a check of its own.
        for &k in keys.iter() {
            // SAFETY: as said above.
            unsafe {
                let at = c0.get_unchecked_mut(((k >> 32) & m0) as usize);
                prefetch(spare.as_ptr().wrapping_add(*at as usize + 16));
                *spare.get_unchecked_mut(*at as usize) = k;
                *at += 1;
            }
        }
        for &k in spare.iter() {
            // SAFETY: as said above.
            unsafe {
                let at = c1.get_unchecked_mut((k >> s1) as usize);
                prefetch(keys.as_ptr().wrapping_add(*at as usize + 16));
                *keys.get_unchecked_mut(*at as usize) = k;
                *at += 1;
            }
        }
        let kept = partners_in_order(keys, &mut self.spare);
        pairs.clear();
        pairs.extend(kept.iter().map(|&k| ((k >> 32) as u32, k as u32)));
        (n - kept.len()) as u64
    }
}

/// Keys sorted by their first index (each first index's partners in any order) put in
/// order, repeats dropped, into `out` (resized): returns the sorted keys, a part of `out`.
///
/// Branch-free in the common case: each key is compared with the last one kept, and the two
/// are written smaller first (a swap when the key belongs before it), so a first index with
/// two partners found in either order costs no branch. Only when the key belongs before the
/// last two kept, or repeats one of them, does [`reinsert`] walk back.
fn partners_in_order<'a>(keys: &[u64], out: &'a mut Vec<u64>) -> &'a [u64] {
    out.resize(keys.len() + 2, 0);
    partners_into(keys, out)
}

/// [`partners_in_order`] into `out`, which holds at least two more keys than `keys`.
fn partners_into<'a>(keys: &[u64], out: &'a mut [u64]) -> &'a [u64] {
    let Some((&first, rest)) = keys.split_first() else {
        return &[];
    };
    // The kept keys are `out[1..len]`, strictly ascending; `out[0]` is 0, at most any key,
    // so that the key before the last two always exists.
    out[0] = 0;
    out[1] = first;
    let (mut len, mut last) = (2, first);
    for &k in rest {
        let before = out[len - 2];
        let (lo, hi) = (last.min(k), last.max(k));
        out[len - 1] = lo;
        out[len] = hi;
        let fresh = k != last;
        len += fresh as usize;
        last = hi;
        if (before >= lo) & fresh {
            // `k` went before `last` but belongs further back, or repeats `before`: the
            // kept keys are `..., before, k, last`.
            len = reinsert(out, len, len - 2);
            last = out[len - 1];
        }
    }
    &out[1..len]
}

/// Moves the key at `at` (of the `len` kept, all ascending but it) back to its place, or
/// drops it if it is already kept; returns the new number kept.
#[cold]
fn reinsert(out: &mut [u64], len: usize, at: usize) -> usize {
    let k = out[at];
    out.copy_within(at + 1..len, at);
    let len = len - 1;
    let mut p = len;
    while p > 1 && out[p - 1] > k {
        p -= 1;
    }
    if p > 1 && out[p - 1] == k {
        return len;
    }
    out.copy_within(p..len, p + 1);
    out[p] = k;
    len + 1
}

/// Grows a key buffer to hold at least `need` keys: doubling, from 1,024.
#[cold]
pub(crate) fn grow_keys(buf: &mut Vec<u64>, need: usize) {
    let want = need.max(2 * buf.len()).max(1024);
    buf.resize(want, 0);
}

/// Asks the cache for the line holding `p` (a hint: no effect on results, never faults, and
/// none at all off x86-64). Used a few entries ahead of a scatter's write streams.
#[inline(always)]
pub(crate) fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults, whatever the address.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(p as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// The low half of a key.
const LOW: u64 = u32::MAX as u64;

/// Turns counts into exclusive prefix sums (each bucket's first slot).
fn exclusive_sums(counts: &mut [u32]) {
    let mut sum = 0;
    for c in counts {
        (*c, sum) = (sum, sum + *c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn sorts_like_a_comparison_sort_and_drops_repeats() {
        let mut rng = StdRng::seed_from_u64(5);
        for n in [1usize, 2, 3, 100, 5000, 1 << 20] {
            let mut want: Vec<Pair> = (0..3000)
                .map(|_| {
                    let (a, b) = (rng.gen_range(0..n as u32), rng.gen_range(0..n as u32));
                    (a.min(b), a.max(b))
                })
                .collect();
            let mut keys = PairKeys::default();
            keys.clear(n);
            let mut out = keys.writer();
            for &(i, j) in &want {
                out.push((j as u64) << 32 | i as u64);
            }
            drop(out);
            want.sort_unstable();
            let before = want.len();
            want.dedup();
            let mut got = vec![(7, 7)];
            let dropped = keys.sorted_into(&mut got);
            assert_eq!(got, want, "n = {n}");
            assert_eq!(dropped as usize, before - want.len());
        }
    }

    #[test]
    fn many_partners_per_index_and_reuse() {
        let mut keys = PairKeys::default();
        for round in 0..2 {
            keys.clear(64);
            let mut want = Vec::new();
            for i in (0..63u32).rev() {
                for j in (i + 1..64).rev().step_by(3 + round) {
                    want.push((i, j));
                }
            }
            keys.extend(&want);
            keys.extend(&want[..10]);
            want.sort_unstable();
            let mut got = Vec::new();
            assert_eq!(keys.sorted_into(&mut got), 10);
            assert_eq!(got, want);
        }
    }

    #[test]
    fn empty_and_largest_index() {
        let mut keys = PairKeys::default();
        keys.clear(0);
        let mut got = Vec::new();
        assert_eq!(keys.sorted_into(&mut got), 0);
        assert!(got.is_empty());
        keys.clear(u32::MAX as usize + 1);
        keys.extend(&[(0, u32::MAX), (1, 2)]);
        keys.sorted_into(&mut got);
        assert_eq!(got, vec![(0, u32::MAX), (1, 2)]);
    }
}
