//! The pair search over the balls in cell order: each ball against the two runs of entries
//! that can overlap it.
//!
//! **Four tests per compare.** The boxes are stored as `[min x, min y, max x, max y]`,
//! one coordinate per array, so that one 4-wide compare per coordinate tests four candidates
//! against a query (see `broad/packed.rs`). The compares are SSE2 intrinsics (all of x86-64; plain
//! compares elsewhere), not glam's `Vec4`: a crate depending on this one may turn on glam's
//! `scalar-math` feature (the app's window library does), and Cargo then builds glam that
//! way for this crate too, and its scalar compares make the pair search slower than the
//! intrinsics do.
//!
//! **Pairs**, each ball against the later balls of its cell and the cells its box reaches
//! into among the forward half of the neighbours, searched band by band as soon as the next
//! band is sorted (while both are in cache), branch-light: each ball's runs come from its cell
//! code (no loop over cells skipping the empty ones, a branch taken on four cells in ten at the
//! benchmark's density), and the runs are tested a fixed number of candidates at a time with
//! the lanes past the run masked, giving a mask of hits. Keys are written branch-free: every
//! candidate's key goes to the end of the key buffer and the end moves past it only on a
//! hit, so whether a pair overlaps (true about three times in ten, unpredictably) is never a
//! branch (a branch per hit would be mispredicted about once per ball).

use super::lanes::{Lanes, Run};
use super::searched::searched_runs;
use super::{BallCells, Record, PAD};
use crate::broad::packed::query_of;
use crate::broad::pair_keys::{grow_keys, KeyWriter, PairKeys};
use crate::workers;

/// Balls from which the pair search runs on several threads, when it may.
const PARALLEL_FROM: usize = 8192;

impl BallCells {
    /// Threads the next search runs on: those it may use, or one for fewer than
    /// [`PARALLEL_FROM`] balls or while a probe records the search.
    pub(crate) fn search_threads(&self) -> usize {
        match self.count >= PARALLEL_FROM && self.record.is_none() {
            true => workers::usable(self.threads),
            false => 1,
        }
    }

    /// [`BallCells::pairs`] on `threads` threads, the entries all sorted: the balls in cell
    /// order cut into runs (a few a thread), each searched into keys of its own, then appended to
    /// `keys` in order; returns the box tests. The same keys as one thread finds (a run's
    /// search reads only the sorted cells), so the same pairs and counts on any number.
    pub(super) fn pairs_on_threads(&mut self, keys: &mut PairKeys, threads: usize) -> u64 {
        assert!(self.holds_all(), "pairs searched after a windowed build");
        let mut parts = std::mem::take(&mut self.parts);
        let cuts = workers::parts(threads);
        parts.resize_with(cuts, Default::default);
        let (n, this) = (self.count, &*self);
        workers::each(threads, &mut parts[..cuts], |t, (part, tests)| {
            part.clear(0);
            let run = t * n / cuts..(t + 1) * n / cuts;
            *tests = this.pairs_in(run, &mut part.writer(), None);
        });
        let mut tests = 0;
        for (part, t) in &parts[..cuts] {
            keys.append(part);
            tests += t;
        }
        self.parts = parts;
        tests
    }

    /// Every ball against the later balls of its own cell, the cell to its right and the
    /// three cells below (the forward half of the 8 neighbours: each pair of neighbouring
    /// cells is visited once). Overlapping pairs go to `keys`; returns the box tests.
    pub(crate) fn pairs(&mut self, keys: &mut PairKeys) -> u64 {
        assert!(self.holds_all(), "pairs searched after a windowed build");
        let mut rec = self.record.take();
        let tests = self.pairs_in(0..self.count, &mut keys.writer(), rec.as_mut());
        self.record = rec;
        tests
    }

    /// [`BallCells::pairs`] for the balls at `balls` in cell order: needs only their cells,
    /// the cells right of them and the row below. Each ball's own cell after it and the
    /// right-hand one if its box reaches into it are one run; the cells below, left to right,
    /// if the box reaches into that row, another. (A ball whose min corner lies in a column or
    /// row the box does not reach has its min beyond the box's max — the cell function is
    /// monotone — so cannot overlap it.) Each run is tested four candidates at a time
    /// ([`Lanes::scan`]), or with AVX2 where the CPU has it both runs' first four in one
    /// 8-wide block ([`avx2::scan_runs`]): the same keys, in another order, and the sort puts
    /// them in one order.
    /// With `rec`, each ball's tests are also pushed there as (ball, cell code, tests), and the
    /// focus's partners listed.
    pub(super) fn pairs_in(
        &self,
        balls: std::ops::Range<usize>,
        out: &mut KeyWriter,
        rec: Option<&mut Record>,
    ) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if super::avx2::enabled() {
            // SAFETY: the CPU has AVX2, POPCNT and BMI2 (checked by `enabled`).
            return unsafe { self.pairs_in_avx2(balls, out, rec) };
        }
        self.pairs_in_sse2(balls, out, rec)
    }

    /// [`BallCells::pairs_in`] with [`Lanes::scan`] on each run.
    pub(super) fn pairs_in_sse2(
        &self,
        balls: std::ops::Range<usize>,
        out: &mut KeyWriter,
        rec: Option<&mut Record>,
    ) -> u64 {
        // SAFETY: `search` gives runs ordered and ending at most at `n`, with `PAD ≥ LANES`
        // entries past `n`, and room in `buf` for every candidate's key and two blocks more.
        self.search(
            balls,
            out,
            rec,
            |lanes, q, id, own, below, buf, len| unsafe {
                let len = lanes.scan(q, id, own.start, own.end, buf, len);
                lanes.scan(q, id, below.start, below.end, buf, len)
            },
        )
    }

    /// [`BallCells::pairs_in`] with [`avx2::scan_runs`].
    ///
    /// # Safety
    /// The CPU has AVX2, POPCNT and BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi2")]
    pub(super) unsafe fn pairs_in_avx2(
        &self,
        balls: std::ops::Range<usize>,
        out: &mut KeyWriter,
        rec: Option<&mut Record>,
    ) -> u64 {
        // SAFETY: as in `pairs_in_sse2`, with `PAD = 8` entries past `n` and room for 8 keys
        // past the candidates'; the caller vouches for the CPU.
        self.search(
            balls,
            out,
            rec,
            |lanes, q, id, own, below, buf, len| unsafe {
                super::avx2::scan_runs(lanes, q, id, own, below, buf, len)
            },
        )
    }

    /// The pair search's loop over `balls`, testing each ball's two runs with `scan`
    /// (given the lanes, the query, the ball's id in the high half, the runs, the key buffer
    /// and the keys in it; returns the new number of keys). Each call's runs are ordered and
    /// end at most at `n`, the lanes have `PAD` entries past `n`, and the buffer has room for
    /// every candidate's key and `PAD` more.
    #[inline(always)]
    fn search(
        &self,
        balls: std::ops::Range<usize>,
        out: &mut KeyWriter,
        mut rec: Option<&mut Record>,
        scan: impl Fn(&Lanes, [f32; 4], u64, Run, Run, &mut [u64], usize) -> usize,
    ) -> u64 {
        let s = self.stride;
        let n = self.count;
        let (start, ids) = (&self.start[..], &self.ids[..]);
        let [x0, y0, x1, y1] = &self.lanes;
        // The window's entries: position `p` in cell order is entry `p − base`.
        let (base, cap) = (self.base, self.codes.len());
        let lanes = Lanes {
            x0: &x0[..cap + PAD],
            y0: &y0[..cap + PAD],
            x1: &x1[..cap + PAD],
            y1: &y1[..cap + PAD],
            ids: &ids[..cap + PAD],
        };
        let (mut buf, mut len) = out.take();
        let mut tests = 0;
        let first = balls.start;
        // Every stored cell read below is at most the last real cell's `+ s + 2`: within
        // `start` (the padding row and column), so the reads need no bounds checks; a cell
        // code's cell is clamped to the last real cell (it never exceeds it) to make that hold
        // whatever the codes hold.
        let (w, h) = self.dims;
        let last_cell = (h * s).saturating_sub(2);
        assert!(balls.end <= n && w + 2 == s && start.len() == s * (h + 1) + 1);
        assert!(base <= first && balls.end <= base + cap);
        let codes = &self.codes[first - base..balls.end - base];
        for (a, &code) in (first..).zip(codes) {
            // The own cell (and the right-hand one) and the row below, as stored cells.
            let (own_cells, below) = searched_runs(code, s, last_cell);
            // SAFETY: every end is at most `cell + s + 2 ≤ last_cell + s + 2 < start.len()`
            // (above), the cell clamped to `last_cell` by `searched_runs`.
            let (own_end, b0, b1) = unsafe {
                (
                    *start.get_unchecked(own_cells.end) as usize,
                    *start.get_unchecked(below.start) as usize,
                    *start.get_unchecked(below.end) as usize,
                )
            };
            // Every run lies in the window: it starts after `a` and ends within the band
            // after `a`'s, the window's last (clamped so whatever `start` holds).
            let own_end = own_end.min(base + cap).max(a + 1);
            let b1 = b1.min(base + cap).max(a + 1);
            let b0 = b0.min(b1).max(a + 1);
            let own_len = own_end - (a + 1);
            let below_len = b1 - b0;
            tests += (own_len + below_len) as u64;
            if let Some(r) = rec.as_deref_mut() {
                let me = ids[a - base];
                r.searched.push((me, code, (own_len + below_len) as u64));
                if r.focus == Some(me) {
                    r.against.extend(&ids[a + 1 - base..own_end - base]);
                    r.against.extend(&ids[b0 - base..b1 - base]);
                }
            }
            // Room for every candidate's key, written or not, and a block's overrun.
            let need = len + own_len + below_len + PAD;
            if need > buf.len() {
                grow_keys(&mut buf, need);
            }
            // The query ([`query_of`]), lane by lane.
            // SAFETY: `base ≤ a < balls.end ≤ base + cap` (asserted), and the lanes and ids
            // have `cap + PAD`.
            let (q, id) = unsafe {
                let at = |lane: &[f32]| *lane.get_unchecked(a - base);
                let q = query_of([at(lanes.x0), at(lanes.y0), at(lanes.x1), at(lanes.y1)]);
                (q, (*lanes.ids.get_unchecked(a - base) as u64) << 32)
            };
            let (own, below) = (a + 1 - base..own_end - base, b0 - base..b1 - base);
            len = scan(&lanes, q, id, own, below, &mut buf, len);
        }
        out.put_back(buf, len);
        tests
    }
}
