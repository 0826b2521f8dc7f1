//! The pair keys' radix sort on several threads: the same two LSD passes as
//! [`PairKeys::sorted_into`], each cut into parts of the keys. A part counts its digits, the
//! counts of all parts become each part's first slot of each bucket (bucket by bucket, part
//! by part in order, so equal digits keep their order as one thread keeps them), and each
//! part scatters its keys to its own slots. The result is the one thread's, key for key:
//! a sort has one answer, and the passes stay stable. The last pass (partners in order,
//! repeats dropped) is cut where the first index changes, so each first index's keys are one
//! part's, and the parts' pairs are joined in order.

use super::{partners_into, prefetch, PairKeys, LOW};
use crate::broad::Pair;
use crate::workers;

/// Keys from which the sort runs on several threads: below, one thread sorts them in less
/// time than it takes to hand out the parts. The box pile's calls (about 22,000 keys) gain
/// from two threads (`pile_stages`, the pairs stage over the first 3 s: 2.09 ms a frame
/// against 2.22 with the parts from 32,768 keys).
pub(crate) const PARALLEL_KEYS: usize = 1 << 13;

/// Where the parts scatter their keys: every slot is written by one part once (the counts
/// give each part its own slots of each bucket).
struct Slots(*mut u64);

// SAFETY: see `Slots`: no two parts write one slot, and no part reads another's.
unsafe impl Sync for Slots {}

impl PairKeys {
    /// [`PairKeys::sorted_into`] on up to `threads` threads: the same pairs and the same
    /// count of repeats dropped.
    pub(crate) fn sorted_into_on(&mut self, pairs: &mut Vec<Pair>, threads: usize) -> u64 {
        let n = self.len;
        let threads = workers::usable(threads);
        if threads <= 1 || n < PARALLEL_KEYS {
            return self.sorted_into(pairs);
        }
        if self.spare.len() < n {
            self.spare.resize(n, 0);
        }
        let d0 = self.bits.div_ceil(2);
        let (b0, b1) = (1usize << d0, 1usize << (self.bits - d0));
        let (s1, m0) = (32 + d0, (b0 - 1) as u64);
        let cuts = workers::parts(threads);
        let keys = &mut self.keys[..n];
        let spare = &mut self.spare[..n];
        // Pass one: the first index's low digit, keys to spare (canonical order first).
        let first = |k: u64| ((k >> 32) & m0) as usize;
        // The parts' bucket counts, in the one thread's buffer (kept between calls).
        let mut counts = std::mem::take(&mut self.counts);
        counts.clear();
        counts.resize(cuts * b0, 0);
        count(threads, keys, &mut counts, b0, |k: &mut u64| {
            let (a, b) = (*k >> 32, *k & LOW);
            *k = a.min(b) << 32 | a.max(b);
            first(*k)
        });
        scatter(threads, keys, spare, &mut counts, b0, first);
        // Pass two: its high digit, spare back to keys.
        let second = |k: u64| (k >> s1) as usize;
        counts.clear();
        counts.resize(cuts * b1, 0);
        count(threads, spare, &mut counts, b1, |k: &mut u64| second(*k));
        scatter(threads, spare, keys, &mut counts, b1, second);
        self.counts = counts;
        // The last pass: each part's keys into its stretch of `spare` (two more slots a
        // part), then into its list of pairs.
        if self.spare.len() < n + 2 * cuts {
            self.spare.resize(n + 2 * cuts, 0);
        }
        let ends = group_ends(&self.keys[..n], cuts);
        self.lists.resize_with(cuts, Vec::new);
        let (mut keys, mut spare) = (&self.keys[..n], &mut self.spare[..]);
        let mut parts = Vec::with_capacity(cuts);
        let mut start = 0;
        for (end, list) in ends.into_iter().zip(self.lists.iter_mut()) {
            let (run, rest) = keys.split_at(end - start);
            let (out, tail) = std::mem::take(&mut spare).split_at_mut(run.len() + 2);
            parts.push((run, out, list));
            (keys, spare, start) = (rest, tail, end);
        }
        workers::each(threads, &mut parts, |_, (run, out, list)| {
            let kept = partners_into(run, out);
            list.clear();
            list.extend(kept.iter().map(|&k| ((k >> 32) as u32, k as u32)));
        });
        pairs.clear();
        for list in &self.lists {
            pairs.extend_from_slice(list);
        }
        (n - pairs.len()) as u64
    }
}

/// Where each of `cuts` parts of the sorted `keys` ends: near equal lengths, each moved on
/// to where the first index changes (so a first index's keys are all one part's; a part
/// may be empty).
fn group_ends(keys: &[u64], cuts: usize) -> Vec<usize> {
    let n = keys.len();
    let mut ends = Vec::with_capacity(cuts);
    let mut end = 0;
    for p in 1..=cuts {
        end = end.max(p * n / cuts);
        while end > 0 && end < n && keys[end] >> 32 == keys[end - 1] >> 32 {
            end += 1;
        }
        ends.push(end);
    }
    ends
}

/// Counts each part's digits (`digit` may rewrite the key first) into its `buckets` counts,
/// one row of `counts` a part.
fn count(
    threads: usize,
    keys: &mut [u64],
    counts: &mut [u32],
    buckets: usize,
    digit: impl Fn(&mut u64) -> usize + Sync,
) {
    let cuts = counts.len() / buckets;
    let mut parts = cut(keys, cuts)
        .into_iter()
        .zip(counts.chunks_mut(buckets))
        .collect::<Vec<_>>();
    workers::each(threads, &mut parts, |_, (keys, counts)| {
        for k in keys.iter_mut() {
            counts[digit(k)] += 1;
        }
    });
}

/// Turns the parts' counts into each part's first slot of each bucket (bucket by bucket,
/// part by part), then scatters each part's keys from `from` to its slots of `to`.
fn scatter(
    threads: usize,
    from: &mut [u64],
    to: &mut [u64],
    counts: &mut [u32],
    buckets: usize,
    digit: impl Fn(u64) -> usize + Sync,
) {
    let cuts = counts.len() / buckets;
    let mut sum = 0;
    for b in 0..buckets {
        for p in 0..cuts {
            let c = &mut counts[p * buckets + b];
            (*c, sum) = (sum, sum + *c);
        }
    }
    let n = to.len();
    let slots = Slots(to.as_mut_ptr());
    let mut parts = cut(from, cuts)
        .into_iter()
        .zip(counts.chunks_mut(buckets))
        .collect::<Vec<_>>();
    workers::each(threads, &mut parts, |_, (keys, at)| {
        let slots = &slots;
        for &k in keys.iter() {
            let slot = &mut at[digit(k)];
            let i = *slot as usize;
            assert!(i < n);
            prefetch(slots.0.wrapping_add(i + 16));
            // SAFETY: `i < n`, and slot `i` is this part's alone (see `Slots`).
            unsafe { slots.0.add(i).write(k) };
            *slot += 1;
        }
    });
}

/// `keys` cut into `cuts` runs of nearly equal length, in order.
fn cut(mut keys: &mut [u64], cuts: usize) -> Vec<&mut [u64]> {
    let n = keys.len();
    let mut runs = Vec::with_capacity(cuts);
    for p in 0..cuts {
        let len = (p + 1) * n / cuts - p * n / cuts;
        let (run, rest) = keys.split_at_mut(len);
        runs.push(run);
        keys = rest;
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_last_pass_is_cut_where_the_first_index_changes() {
        let keys: Vec<u64> = [1u64, 1, 1, 2, 2, 3, 4, 4, 4, 4]
            .iter()
            .zip(0..)
            .map(|(&a, b)| a << 32 | b)
            .collect();
        assert_eq!(group_ends(&keys, 3), [3, 6, 10]);
        assert_eq!(group_ends(&keys, 4), [3, 5, 10, 10]);
        // One first index for every key: the first part takes them all.
        let same: Vec<u64> = (0..10).map(|b| 7 << 32 | b).collect();
        assert_eq!(group_ends(&same, 4), [10, 10, 10, 10]);
        assert_eq!(group_ends(&[], 2), [0, 0]);
    }

    #[test]
    fn the_sort_on_threads_gives_the_one_threads_pairs() {
        let mut rng = StdRng::seed_from_u64(9);
        for (n, len) in [
            (50_000usize, PARALLEL_KEYS + 1),
            (1 << 20, 3 * PARALLEL_KEYS),
        ] {
            let raw: Vec<u64> = (0..len)
                .map(|_| {
                    let (a, b) = (rng.gen_range(0..n as u64), rng.gen_range(0..n as u64));
                    a << 32 | b
                })
                .collect();
            let sorted = |threads: usize| {
                let mut keys = PairKeys::default();
                keys.clear(n);
                let mut out = keys.writer();
                for &k in &raw {
                    out.push(k);
                }
                drop(out);
                let mut got = Vec::new();
                let dropped = keys.sorted_into_on(&mut got, threads);
                (got, dropped)
            };
            let one = sorted(1);
            assert!(one.0.windows(2).all(|w| w[0] < w[1]));
            for threads in [2, 3, 4] {
                assert_eq!(sorted(threads), one, "{threads} threads, n = {n}");
            }
        }
    }
}
