//! Pairs as sortable `u64` keys, put in canonical order by an LSD radix sort.
//!
//! A pair `(i, j)`, `i < j`, is the key `i · 2^b + j` with `b` the bits of the largest index,
//! so keys order exactly as pairs do. The keys are sorted by their first index only, in two
//! LSD radix passes of about `b / 2` bits each (both histograms counted in one read of the
//! keys; at a million balls 1,024 buckets per pass), no comparisons. The last pass leaves
//! each first index's few partners in the order they were found; the pass that writes the
//! pair list puts each one in place as it goes (a ball has a handful of neighbours, so this
//! moves at most a few pairs, and only where they are out of order), and drops repeats.
//!
//! **Writing keys.** [`KeyWriter`] writes a candidate's key whether or not it is a pair and
//! advances only on a hit, so the pair test needs no branch; room is reserved per ball. The
//! buffers only grow, so a steady state allocates (and clears) nothing.
//!
//! Used by the broad phases that find pairs in spatial order (cells) rather than in index
//! order, in place of a comparison sort of the pair list.

use super::radix::index_bits;
use super::Pair;

/// Pairs collected as keys, then sorted into a pair list.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairKeys {
    /// Bits of the second index in a key.
    shift: u32,
    /// `keys[..len]` are the keys; the rest is room already allocated.
    keys: Vec<u64>,
    len: usize,
    /// The radix sort's other buffer.
    spare: Vec<u64>,
    /// Bucket counts of both passes.
    counts: Vec<u32>,
}

/// Appends keys to a [`PairKeys`] without a branch per candidate (see the module docs).
pub(crate) struct KeyWriter<'a> {
    keys: &'a mut PairKeys,
    len: usize,
}

impl KeyWriter<'_> {
    /// Makes room for `m` more candidates.
    #[inline(always)]
    pub fn reserve(&mut self, m: usize) {
        if self.keys.keys.len() - self.len < m {
            self.grow(m);
        }
    }

    #[cold]
    fn grow(&mut self, m: usize) {
        let want = (self.len + m).max(2 * self.keys.keys.len()).max(1024);
        self.keys.keys.resize(want, 0);
    }

    /// Writes pair `(i, j)` (either order) as the next key, kept only if `hit`. Needs room
    /// reserved.
    #[inline(always)]
    pub fn put(&mut self, i: u32, j: u32, hit: bool) {
        let (lo, hi) = (i.min(j) as u64, i.max(j) as u64);
        self.keys.keys[self.len] = lo << self.keys.shift | hi;
        self.len += hit as usize;
    }
}

impl Drop for KeyWriter<'_> {
    fn drop(&mut self) {
        self.keys.len = self.len;
    }
}

impl PairKeys {
    /// Forgets all keys; indices will be below `n`.
    pub fn clear(&mut self, n: usize) {
        self.len = 0;
        self.shift = index_bits(n); // two indices below 2^32 fit in 64 bits
    }

    /// A writer appending after the keys held.
    pub fn writer(&mut self) -> KeyWriter<'_> {
        let len = self.len;
        KeyWriter { keys: self, len }
    }

    /// Adds pairs already as `(min, max)`.
    pub fn extend(&mut self, pairs: &[Pair]) {
        let mut out = self.writer();
        out.reserve(pairs.len());
        for &(i, j) in pairs {
            out.put(i, j, true);
        }
    }

    /// Sorts the keys and writes them to `pairs` (cleared first), each once; returns the
    /// repeats dropped.
    pub fn sorted_into(&mut self, pairs: &mut Vec<Pair>) -> u64 {
        let (n, shift) = (self.len, self.shift);
        let keys = &mut self.keys[..n];
        if self.spare.len() < n {
            self.spare.resize(n, 0);
        }
        let spare = &mut self.spare[..n];
        // Digits of the first index: bits `shift..shift + d0`, then the rest.
        let d0 = shift.div_ceil(2);
        let (b0, b1) = (1usize << d0, 1usize << (shift - d0));
        let m0 = (b0 - 1) as u64;
        self.counts.clear();
        self.counts.resize(b0 + b1, 0);
        let (c0, c1) = self.counts.split_at_mut(b0);
        for &k in keys.iter() {
            c0[((k >> shift) & m0) as usize] += 1;
            c1[(k >> (shift + d0)) as usize] += 1;
        }
        exclusive_sums(c0);
        exclusive_sums(c1);
        for &k in keys.iter() {
            let at = &mut c0[((k >> shift) & m0) as usize];
            spare[*at as usize] = k;
            *at += 1;
        }
        for &k in spare.iter() {
            let at = &mut c1[(k >> (shift + d0)) as usize];
            keys[*at as usize] = k;
            *at += 1;
        }
        // Partners of one first index in order, repeats dropped.
        let mask = (1u64 << shift) - 1;
        pairs.clear();
        pairs.reserve(n);
        let mut dropped = 0;
        let mut last = None;
        for &k in keys.iter() {
            let p = ((k >> shift) as u32, (k & mask) as u32);
            if last < Some(p) {
                pairs.push(p);
                last = Some(p);
            } else {
                dropped += place(pairs, p) as u64;
            }
        }
        dropped
    }
}

/// Turns counts into exclusive prefix sums (each bucket's first slot).
fn exclusive_sums(counts: &mut [u32]) {
    let mut sum = 0;
    for c in counts {
        (*c, sum) = (sum, sum + *c);
    }
}

/// Inserts `p`, not above the last pair of sorted `pairs`, where it belongs; false (and
/// nothing inserted) when it is already there.
#[cold]
fn place(pairs: &mut Vec<Pair>, p: Pair) -> bool {
    // The pairs above `p` share its first index: a short walk back from the end.
    let mut at = pairs.len();
    while at > 0 && pairs[at - 1] > p {
        at -= 1;
    }
    if at > 0 && pairs[at - 1] == p {
        return true;
    }
    pairs.insert(at, p);
    false
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
                out.reserve(2);
                out.put(j, i, true);
                out.put(0, 0, false); // a miss leaves nothing
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
