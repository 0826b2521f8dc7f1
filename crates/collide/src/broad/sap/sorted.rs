//! The kept order of sweep and prune: boxes sorted by their min on the sweep axis, fully by
//! a radix sort when rebuilt and repaired by insertion sort between calls (`O(n + swaps)`).

use crate::broad::radix::RadixScratch;
use crate::geom::Aabb;

/// Boxes sorted by their min on one axis, keys and box copies kept beside the indices, so
/// the sweep reads them in order instead of looking each one up in the input.
#[derive(Clone, Debug, Default)]
pub(super) struct Sorted {
    pub(super) items: Vec<u32>,
    pub(super) keys: Vec<f32>,
    pub(super) boxes: Vec<Aabb>,
    /// Records for rebuilds and the radix sort's buffers.
    records: Vec<Record>,
    radix: RadixScratch<Record>,
}

/// A box with `(ordered key bits << 32) | index`, for the radix sort of a rebuild.
#[derive(Clone, Copy, Debug, Default)]
struct Record {
    key: u64,
    b: Aabb,
}

impl Sorted {
    /// Refills with `range`, keys from `aabbs` on `axis`, and sorts fully: a radix sort of
    /// records carrying the boxes (streaming; a comparison sort looking the keys up in
    /// `aabbs` spends most of its time in cache misses once the boxes outgrow the cache).
    pub(super) fn rebuild(&mut self, aabbs: &[Aabb], range: std::ops::Range<usize>, axis: usize) {
        self.records.clear();
        self.records.extend(range.map(|i| Record {
            key: (ordered_bits(key(aabbs, i as u32, axis)) as u64) << 32 | i as u64,
            b: aabbs[i],
        }));
        self.radix.sort(&mut self.records, |r| r.key, 32, 64);
        self.items.clear();
        self.items.extend(self.records.iter().map(|r| r.key as u32));
        self.keys.clear();
        self.keys
            .extend(self.records.iter().map(|r| r.b.min[axis] + 0.0));
        self.boxes.clear();
        self.boxes.extend(self.records.iter().map(|r| r.b));
    }

    /// Refreshes the keys and boxes and repairs the order by insertion sort; returns the swaps
    /// done.
    pub(super) fn resort(&mut self, aabbs: &[Aabb], axis: usize) -> u64 {
        for ((k, b), &i) in self.keys.iter_mut().zip(&mut self.boxes).zip(&self.items) {
            *b = aabbs[i as usize];
            *k = b.min[axis] + 0.0;
        }
        let mut swaps = 0;
        for k in 1..self.items.len() {
            let (key, item, b) = (self.keys[k], self.items[k], self.boxes[k]);
            let mut h = k;
            while h > 0 && self.keys[h - 1] > key {
                self.keys[h] = self.keys[h - 1];
                self.items[h] = self.items[h - 1];
                self.boxes[h] = self.boxes[h - 1];
                h -= 1;
            }
            swaps += (k - h) as u64;
            self.keys[h] = key;
            self.items[h] = item;
            self.boxes[h] = b;
        }
        swaps
    }

    /// Checks the order is a permutation of `range` sorted by key.
    pub(super) fn check(&self, range: std::ops::Range<usize>, what: &str) -> Result<(), String> {
        if self.items.len() != range.len() || self.keys.len() != range.len() {
            return Err(format!("{what}: {} items for {range:?}", self.items.len()));
        }
        if self.keys.windows(2).any(|w| w[0] > w[1]) {
            return Err(format!("{what}: keys out of order"));
        }
        let mut seen = vec![false; range.len()];
        for &i in &self.items {
            let k = (i as usize).wrapping_sub(range.start);
            if k >= seen.len() || std::mem::replace(&mut seen[k], true) {
                return Err(format!("{what}: item {i} foreign or repeated"));
            }
        }
        Ok(())
    }
}

/// The bits of `x` as a `u32` that orders as `f32::total_cmp` does.
#[inline(always)]
fn ordered_bits(x: f32) -> u32 {
    let b = x.to_bits();
    if b >> 31 == 1 {
        !b
    } else {
        b | 0x8000_0000
    }
}

/// The sort key of box `i`: its min on `axis`, −0.0 normalised (`+ 0.0`), so the order of
/// the key bits agrees with `<` on equal coordinates.
#[inline(always)]
fn key(aabbs: &[Aabb], i: u32, axis: usize) -> f32 {
    aabbs[i as usize].min[axis] + 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordered_bits_sort_as_total_cmp() {
        let xs = [
            f32::NEG_INFINITY,
            -1e30,
            -2.5,
            -f32::MIN_POSITIVE,
            0.0,
            f32::MIN_POSITIVE,
            1.0,
            3e38,
            f32::INFINITY,
        ];
        for w in xs.windows(2) {
            assert!(ordered_bits(w[0]) < ordered_bits(w[1]), "{w:?}");
        }
    }
}
