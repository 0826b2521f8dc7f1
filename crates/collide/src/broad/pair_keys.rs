//! Pairs as sortable `u64` keys, put in canonical order by an LSD radix sort.
//!
//! A pair `(i, j)`, `i < j`, is the key `i · 2^b + j` with `b` the bits of the largest index,
//! so keys order exactly as pairs do. A radix sort (`radix.rs`) orders the keys by their first
//! index only, `O(p · ⌈b / 11⌉)`, no comparisons; then each first index's few partners are
//! put in order where they lie (a ball has a handful of neighbours, so these runs are tiny). The buffers are kept, so a steady state allocates
//! nothing. Repeats, if any, are dropped after the sort and counted.
//!
//! Used by the broad phases that find pairs in spatial order (cells, sweeps) rather than in
//! index order, in place of a comparison sort of the pair list.

use super::radix::{index_bits, RadixScratch};
use super::Pair;

/// Pairs collected as keys, then sorted into a pair list.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairKeys {
    /// Bits of the second index in a key.
    shift: u32,
    keys: Vec<u64>,
    radix: RadixScratch<u64>,
}

impl PairKeys {
    /// Forgets all keys; indices will be below `n`.
    pub fn clear(&mut self, n: usize) {
        self.keys.clear();
        self.shift = index_bits(n); // two indices below 2^32 fit in 64 bits
    }

    /// Adds pair `(i, j)` in either order.
    #[inline(always)]
    pub fn push(&mut self, i: u32, j: u32) {
        let (lo, hi) = (i.min(j) as u64, i.max(j) as u64);
        self.keys.push(lo << self.shift | hi);
    }

    /// Adds pairs already as `(min, max)`.
    pub fn extend(&mut self, pairs: &[Pair]) {
        for &(i, j) in pairs {
            self.push(i, j);
        }
    }

    /// Sorts the keys and writes them to `pairs` (cleared first), each once; returns the
    /// repeats dropped.
    pub fn sorted_into(&mut self, pairs: &mut Vec<Pair>) -> u64 {
        self.radix
            .sort(&mut self.keys, |&k| k, self.shift, 2 * self.shift);
        for run in self
            .keys
            .chunk_by_mut(|a, b| a >> self.shift == b >> self.shift)
        {
            if run.len() > 1 {
                run.sort_unstable();
            }
        }
        let before = self.keys.len();
        self.keys.dedup();
        let mask = (1u64 << self.shift) - 1;
        pairs.clear();
        pairs.extend(
            self.keys
                .iter()
                .map(|&k| ((k >> self.shift) as u32, (k & mask) as u32)),
        );
        (before - self.keys.len()) as u64
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
            for &(i, j) in &want {
                keys.push(j, i);
            }
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
    fn empty_and_largest_index() {
        let mut keys = PairKeys::default();
        keys.clear(0);
        let mut got = Vec::new();
        assert_eq!(keys.sorted_into(&mut got), 0);
        assert!(got.is_empty());
        keys.clear(u32::MAX as usize + 1);
        keys.push(u32::MAX, 0);
        keys.push(1, 2);
        keys.sorted_into(&mut got);
        assert_eq!(got, vec![(0, u32::MAX), (1, 2)]);
    }
}
