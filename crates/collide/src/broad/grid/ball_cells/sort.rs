//! The two counting sorts that put the balls into cell order, and the window of entries the
//! pair search reads.
//!
//! **Sorting**, in two counting sorts that each stay in cache: first by band (a band is a
//! power-of-two number of rows, chosen so there are at most [`MAX_BANDS`] bands, so the
//! scatter's write streams' lines fit in L1), then each band by cell (one counter per cell of
//! the band, the band's entries moved within L2), which also yields the cell starts. Both
//! are stable, so a cell's balls stay in index order. A one-level counting sort needs one
//! counter per cell, and with a million cells its random increments and scattered writes
//! missed the cache on every ball. In the steady state ([`BallCells::build_hinted`]) the first sort
//! needs no count: each band gets the room the last call filled plus an eighth. Its scatter
//! asks the cache for each band's write stream eight entries ahead (`prefetch`): with many
//! balls the streams' next lines are not in cache, and the stores would wait for them.
//!
//! **A window of entries.** Once a band's pairs are searched, nothing reads its entries
//! again (the grid's stats and heat map need only the cell starts). So while pairs are
//! searched, `ids`, `lanes` and `codes` hold only a window of at least [`WINDOW`] entries
//! (and room for any two bands in a row): position `p` in cell order is window slot
//! `p − base`, and when the next band would not fit, the band still to be searched moves to
//! the window's front. The window stays in cache between bands and calls, where arrays of
//! all the entries (megabytes at 100,000 balls, more than an L2 cache holds) would have each
//! band's writes fetch their lines from further out. A build that searches no pairs
//! (a ball spans three cells) keeps every entry, for [`BallCells::pairs`].

use super::lattice::{Extent, Lattice, CELL_BITS};
use super::{BallCells, Entry, PAD, WINDOW};
use crate::broad::packed::packed;
use crate::broad::pair_keys::{prefetch, PairKeys};
use crate::geom::Aabb;
use std::ops::Range;

/// Most bands of the first counting sort (see the module docs).
const MAX_BANDS: usize = 256;

/// Where the first sort puts a ball: the lattice of cells, its row stride, the shift from a
/// row to its band, and the id of the first ball.
#[derive(Clone, Copy)]
struct Banding {
    lattice: Lattice,
    stride: usize,
    shift: u32,
    first: usize,
}

/// The first sort's loop ([`BallCells::build_hinted`], [`BallCells::build`]): each ball's
/// entry written at its band's cursor in `band_end` while the cursor is below the band's limit
/// in `limits`, the region and largest side gathered. Returns them with whether every ball
/// spans at most two cells per axis and whether every band had room. A function of its own so
/// that the compiler knows the entries written are not the cursors, the limits or the lattice
/// (with them all behind `self` it reloaded them for every ball).
#[inline(never)]
fn scatter(
    balls: &[Aabb],
    banding: Banding,
    by_band: &mut [Entry],
    band_end: &mut [u32],
    limits: &[u32],
) -> (Extent, bool, bool) {
    let Banding {
        lattice,
        stride,
        shift,
        first,
    } = banding;
    let (mut extent, mut spans_ok, mut fits) = (Extent::default(), true, true);
    // Every band index below is a row of the lattice (clamped to its last row) shifted: at
    // most the last row's band. Checked once here, with every limit within `by_band`, so the
    // loop needs no bounds checks.
    let last_band = (lattice.last.y as usize) >> shift;
    let bands = band_end.len().min(limits.len());
    assert!(last_band < bands && limits.iter().all(|&l| l as usize <= by_band.len()));
    for (k, b) in balls.iter().enumerate() {
        extent.add(b);
        let placed = lattice.place(b, stride);
        spans_ok &= placed.within_two;
        let band = (placed.row >> shift) as usize;
        debug_assert!(band <= last_band);
        // SAFETY: `band ≤ last_band < bands` (checked above).
        let (at, limit) = unsafe {
            (
                band_end.get_unchecked_mut(band),
                *limits.get_unchecked(band),
            )
        };
        if *at < limit {
            // The band's write stream, a few entries ahead (see `prefetch`).
            prefetch(by_band.as_ptr().wrapping_add(*at as usize + 8));
            let entry = Entry {
                id: (first + k) as u32,
                code: placed.code,
                packed: packed(b),
            };
            // SAFETY: `*at < limit ≤ by_band.len()` (every limit checked above).
            unsafe { *by_band.get_unchecked_mut(*at as usize) = entry };
            *at += 1;
        } else {
            fits = false;
        }
    }
    (extent, spans_ok, fits)
}

/// Turns counts into exclusive prefix sums (each bucket's first slot).
fn exclusive_sums(counts: &mut [u32]) {
    let mut sum = 0;
    for c in counts {
        (*c, sum) = (sum, sum + *c);
    }
}

impl BallCells {
    /// log2 of the rows per band: the fewest rows (a power of two) giving at most
    /// [`MAX_BANDS`] bands.
    pub(super) fn band_shift(&self) -> u32 {
        let mut s = 0;
        while (self.dims.1 >> s) >= MAX_BANDS {
            s += 1;
        }
        s
    }

    /// The balls per band; false when a ball spans more than two cells on an axis.
    #[inline(never)]
    pub(super) fn count_bands(&mut self, balls: &[Aabb]) -> bool {
        let shift = self.band_shift();
        let bands = ((self.dims.1 - 1) >> shift) + 1;
        self.band_start.clear();
        self.band_start.resize(bands + 1, 0);
        let counts = &mut self.band_start[..bands];
        let mut spans_ok = true;
        for b in balls {
            let placed = self.lattice.place(b, self.stride);
            spans_ok &= placed.within_two;
            counts[(placed.row >> shift) as usize] += 1;
        }
        spans_ok
    }

    /// First sort: entries made in index order, scattered into one run per band (the counts
    /// leave each band exactly its room, so the scatter never runs out of it).
    pub(super) fn scatter_bands(&mut self, balls: &[Aabb]) {
        exclusive_sums(&mut self.band_start);
        let (_, _, fits) = self.scatter_into_bands(balls);
        debug_assert!(fits, "a band counted too small");
    }

    /// [`scatter`] of `balls` into the room `band_start` lays out (band `b` gets
    /// `band_start[b]..band_start[b + 1]`), each band's cursor from the start of its room.
    pub(super) fn scatter_into_bands(&mut self, balls: &[Aabb]) -> (Extent, bool, bool) {
        let bands = self.band_start.len() - 1;
        self.by_band
            .resize(self.band_start[bands] as usize, Entry::default());
        self.band_end.clear();
        self.band_end.extend_from_slice(&self.band_start[..bands]);
        scatter(
            balls,
            Banding {
                lattice: self.lattice,
                stride: self.stride,
                shift: self.band_shift(),
                first: self.first,
            },
            &mut self.by_band,
            &mut self.band_end,
            &self.band_start[1..],
        )
    }

    /// Second sort: each band's run by cell into `ids`, `lanes` and `codes`, writing the cell
    /// starts. With `keys`, the entries are kept in a window of a few bands (the module docs'
    /// "A window of entries") and each band's pairs are searched once the band after it is
    /// sorted; without, every entry is kept (for [`BallCells::pairs`]).
    #[inline(never)]
    pub(super) fn sort_bands(&mut self, mut keys: Option<&mut PairKeys>) -> u64 {
        let (h, s) = (self.dims.1, self.stride);
        // On several threads the whole sort comes first, then the search.
        let threads = self.search_threads();
        let mut out = match threads {
            1 => keys.as_mut().map(|k| k.writer()),
            _ => None,
        };
        let mut tests = 0;
        let mut rec = self.record.take();
        let shift = self.band_shift();
        let n = self.count;
        let cap = self.window_room(out.is_some());
        self.open_window(cap);
        let mut lo = 0; // output position of the band's first ball
        let mut prev = 0; // the previous band's first ball: its pairs are searched next
        for band in 0..self.band_end.len() {
            let run = self.band_start[band] as usize..self.band_end[band] as usize;
            self.band_counts.push(run.len() as u32);
            if lo + run.len() > self.base + cap {
                self.slide_window(prev..lo);
            }
            let rows = band << shift..((band + 1) << shift).min(h);
            self.sort_band(run.clone(), rows, lo, cap);
            let done = lo; // the balls before this band now have every cell they look at
            lo += run.len();
            if let Some(out) = out.as_mut() {
                tests += self.pairs_in(prev..done, out, rec.as_mut());
            }
            prev = done;
        }
        // The padding row below the last.
        self.start[h * s..].fill(n as u32);
        if let Some(out) = out.as_mut() {
            tests += self.pairs_in(prev..n, out, rec.as_mut());
        }
        self.record = rec;
        drop(out);
        match keys {
            Some(keys) if threads > 1 => self.pairs_on_threads(keys, threads),
            _ => tests,
        }
    }

    /// The entries the window holds: every ball without a pair search; with one, room for any
    /// two bands in a row, and at least [`WINDOW`] (or the tests' `window`).
    fn window_room(&self, searching: bool) -> usize {
        let n = self.count;
        if !searching {
            return n;
        }
        let bands = self.band_end.len();
        let len_of = |b: usize| (self.band_end[b] - self.band_start[b]) as usize;
        let two = (0..bands).map(|b| len_of(b) + if b + 1 < bands { len_of(b + 1) } else { 0 });
        let least = if self.window == 0 {
            WINDOW
        } else {
            self.window
        };
        two.max().unwrap_or(0).max(least).min(n)
    }

    /// Sizes the window's arrays to `cap` entries (and the padding the search reads past its
    /// end), puts its front at position 0, and makes room for every cell start.
    fn open_window(&mut self, cap: usize) {
        let ((_, h), s) = (self.dims, self.stride);
        self.ids.resize(cap + PAD, 0);
        for lane in &mut self.lanes {
            lane.resize(cap + PAD, 0.0);
        }
        self.codes.resize(cap, 0);
        self.base = 0;
        let stored = s * (h + 1);
        self.start.resize(stored + 1, 0);
        self.band_counts.clear();
    }

    /// The window is full: the entries at positions `kept` (the previous band, not yet
    /// searched) move to its front.
    fn slide_window(&mut self, kept: Range<usize>) {
        let (from, to) = (kept.start - self.base, kept.end - self.base);
        self.ids.copy_within(from..to, 0);
        for lane in &mut self.lanes {
            lane.copy_within(from..to, 0);
        }
        self.codes.copy_within(from..to, 0);
        self.base = kept.start;
    }

    /// Sorts one band, the entries `run` of `by_band` lying in lattice rows `rows`, by cell
    /// into the window from position `lo`, and writes those rows' cell starts.
    #[inline(always)]
    fn sort_band(&mut self, run: Range<usize>, rows: Range<usize>, lo: usize, cap: usize) {
        let s = self.stride;
        let cells = &mut self.start[rows.start * s..rows.end * s + 1];
        let entries = &self.by_band[run];
        // An entry's cell within the band: its row is in the band (both come from the
        // same clamped coordinate).
        let cell_base = rows.start * s;
        let local = |e: &Entry| (e.code & CELL_BITS) as usize - cell_base;
        cells.fill(0);
        for e in entries {
            cells[local(e) + 1] += 1;
        }
        cells[0] = lo as u32;
        for k in 0..cells.len() - 1 {
            cells[k + 1] += cells[k];
        }
        let (w0, w1) = (lo - self.base, lo - self.base + entries.len());
        assert!(w1 <= cap && self.codes.len() == cap);
        let [x0, y0, x1, y1] = &mut self.lanes;
        let outs = (&mut self.ids[..cap], &mut self.codes[..cap]);
        let lanes = (
            &mut x0[..cap],
            &mut y0[..cap],
            &mut x1[..cap],
            &mut y1[..cap],
        );
        let base = self.base;
        for e in entries {
            let at = &mut cells[local(e)];
            let k = *at as usize - base;
            *at += 1;
            debug_assert!((w0..w1).contains(&k));
            // SAFETY: `k < w1 ≤ cap`, the length of every array written. Each cell's
            // cursor starts at `lo` plus the band's entries in the cells before it and
            // moves on once per entry of that cell (the count above took each entry's
            // cell from the same code), so the cursors write `lo..lo + entries.len()`,
            // each slot once, that is the window's `w0..w1`.
            unsafe {
                *outs.0.get_unchecked_mut(k) = e.id;
                *outs.1.get_unchecked_mut(k) = e.code;
                *lanes.0.get_unchecked_mut(k) = e.packed[0];
                *lanes.1.get_unchecked_mut(k) = e.packed[1];
                *lanes.2.get_unchecked_mut(k) = e.packed[2];
                *lanes.3.get_unchecked_mut(k) = e.packed[3];
            }
        }
        // Each cursor ended at the next cell's start: shift back.
        let last = cells.len() - 1;
        cells.copy_within(0..last, 1);
        cells[0] = lo as u32;
    }
}
