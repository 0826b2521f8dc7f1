//! Pairs as sortable `u64` keys, put in canonical order by an LSD radix sort.
//!
//! A pair `(i, j)`, `i < j`, is the key `i · 2^b + j` with `b` the bits of the largest index,
//! so keys order exactly as pairs do. A least-significant-digit radix sort (11-bit digits, a
//! counting pass and a stable scatter per digit) orders `p` keys in `O(p · ⌈2b / 11⌉)`: no
//! comparisons, and the histograms fit in L1. Digits on which every key agrees are skipped.
//! The buffers are kept, so a steady state allocates nothing. Repeats, if any, are dropped
//! after the sort and counted.
//!
//! Used by the broad phases that find pairs in spatial order (cells, sweeps) rather than in
//! index order, in place of a comparison sort of the pair list.

use super::Pair;

/// Bits per radix digit.
const DIGIT: u32 = 11;
/// Buckets per digit.
const BUCKETS: usize = 1 << DIGIT;

/// Pairs collected as keys, then sorted into a pair list.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairKeys {
    /// Bits of the second index in a key.
    shift: u32,
    keys: Vec<u64>,
    scratch: Vec<u64>,
    counts: Vec<u32>,
}

impl PairKeys {
    /// Forgets all keys; indices will be below `n`.
    pub fn clear(&mut self, n: usize) {
        self.keys.clear();
        // Bits of the largest index n − 1 (at least 1), so two of them fit in 64.
        self.shift = (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1);
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
        self.radix_sort();
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

    /// LSD radix sort of `keys` over the `2 · shift` low bits.
    fn radix_sort(&mut self) {
        let bits = 2 * self.shift;
        self.scratch.resize(self.keys.len(), 0);
        self.counts.resize(BUCKETS, 0);
        let mut at = 0;
        while at < bits {
            if self.counting_pass(at) {
                std::mem::swap(&mut self.keys, &mut self.scratch);
            }
            at += DIGIT;
        }
    }

    /// One stable pass on the digit at bit `at`, from `keys` into `scratch`; false (and
    /// nothing moved) when every key has the same digit there.
    fn counting_pass(&mut self, at: u32) -> bool {
        let digit = |k: u64| ((k >> at) as usize) & (BUCKETS - 1);
        self.counts.fill(0);
        for &k in &self.keys {
            self.counts[digit(k)] += 1;
        }
        if self.counts.iter().any(|&c| c as usize == self.keys.len()) {
            return false;
        }
        let mut sum = 0;
        for c in &mut self.counts {
            (*c, sum) = (sum, sum + *c);
        }
        for &k in &self.keys {
            let slot = &mut self.counts[digit(k)];
            self.scratch[*slot as usize] = k;
            *slot += 1;
        }
        true
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
