//! LSD radix sort of records by a range of bits of a `u64` key.
//!
//! Least significant digit first, 11-bit digits: per digit one counting pass and one stable
//! scatter, both streaming (2048 counters fit in L1, and the scatter writes 2048 sequential
//! streams). `O(k · ⌈bits / 11⌉)` for `k` keys, no comparisons. Stable, so keys equal on the
//! sorted bits keep their order; a digit on which every key agrees is skipped. The caller
//! keeps the scratch buffers, so a steady state allocates nothing.

/// Bits per digit.
const DIGIT: u32 = 11;
/// Buckets per digit.
const BUCKETS: usize = 1 << DIGIT;

/// Buffers for [`RadixScratch::sort`] of records `T`.
#[derive(Clone, Debug, Default)]
pub(crate) struct RadixScratch<T> {
    spare: Vec<T>,
    counts: Vec<u32>,
}

impl<T: Copy + Default> RadixScratch<T> {
    /// Sorts `items` stably by bits `from..to` (bit 0 the least significant) of `key`.
    pub(crate) fn sort(
        &mut self,
        items: &mut Vec<T>,
        key: impl Fn(&T) -> u64 + Copy,
        from: u32,
        to: u32,
    ) {
        self.spare.resize(items.len(), T::default());
        self.counts.resize(BUCKETS, 0);
        let mut at = from;
        while at < to {
            let mask = (1u64 << DIGIT.min(to - at)) - 1; // the last digit may be narrower
            if self.pass(items, |t| ((key(t) >> at) & mask) as usize) {
                std::mem::swap(items, &mut self.spare);
            }
            at += DIGIT;
        }
    }

    /// One stable pass on `digit`, from `items` into `spare`; false (nothing moved) when every
    /// item has the same digit.
    fn pass(&mut self, items: &[T], digit: impl Fn(&T) -> usize) -> bool {
        self.counts.fill(0);
        for t in items {
            self.counts[digit(t)] += 1;
        }
        if self.counts.iter().any(|&c| c as usize == items.len()) {
            return false;
        }
        let mut sum = 0;
        for c in &mut self.counts {
            (*c, sum) = (sum, sum + *c);
        }
        for t in items {
            let slot = &mut self.counts[digit(t)];
            self.spare[*slot as usize] = *t;
            *slot += 1;
        }
        true
    }
}

/// Bits needed to write `n − 1` (at least 1): the width of indices below `n`.
pub(crate) fn index_bits(n: usize) -> u32 {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn sorts_a_bit_range_stably() {
        let mut rng = StdRng::seed_from_u64(3);
        for (from, to) in [(0, 64), (32, 52), (5, 6), (0, 11), (40, 41)] {
            let keys: Vec<u64> = (0..5000)
                .map(|_| rng.gen::<u64>() >> rng.gen_range(0..60))
                .collect();
            let field = |k: u64| (k >> from) & ((1u128 << (to - from)) - 1) as u64;
            let mut want = keys.clone();
            want.sort_by_key(|&k| field(k)); // stable
            let mut got = keys;
            RadixScratch::default().sort(&mut got, |&k| k, from, to);
            assert_eq!(got, want, "bits {from}..{to}");
        }
    }

    #[test]
    fn index_bits_fit_the_largest_index() {
        assert_eq!(index_bits(0), 1);
        assert_eq!(index_bits(2), 1);
        assert_eq!(index_bits(3), 2);
        assert_eq!(index_bits(1 << 20), 20);
        assert_eq!(index_bits((1 << 20) + 1), 21);
        assert_eq!(index_bits(1 << 32), 32);
    }
}
