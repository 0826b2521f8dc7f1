//! Balls counting-sorted into the cells of one lattice by their box's min corner, ids, boxes
//! and cell codes stored in cell order (structure of arrays), and their pairs searched, for
//! the uniform grid.
//!
//! **Layout.** Cells are row-major with one empty column on each side and one empty row
//! below the last: a real cell `(c, r)` is stored cell `r · (w + 2) + c + 1`, and
//! `start[k]..start[k + 1]` are stored cell `k`'s entries in flat arrays: `ids`, the four
//! `lanes` of the boxes (each box stored as `[min x, min y, max x, max y]`, each of the
//! four in its own array) and `codes` (the stored cell and whether the box reaches into the
//! next column and row, [`cell_code`]). Within a cell the balls keep index order. Because a
//! row's cells are contiguous, an entry's own cell and its right-hand neighbour form one
//! run, and the three cells below it (`k + s − 1 ..= k + s + 1`, `s` the row stride)
//! another; the padding makes both runs valid for every real cell with no clamping (the
//! padding cells are empty).
//!
//! **Four tests per compare.** The boxes are stored as `[min x, min y, max x, max y]`,
//! one coordinate per array, so that one 4-wide compare per coordinate tests four candidates
//! against a query (see `packed.rs`). The compares are SSE2 intrinsics (all of x86-64; plain
//! compares elsewhere), not glam's `Vec4`: a crate depending on this one may turn on glam's
//! `scalar-math` feature (the app's window library does), and Cargo then builds glam that
//! way for this crate too, and its scalar compares make the pair search slower than the
//! intrinsics do.
//!
//! **Cell of a coordinate.** `col(x) = trunc(clamp((x − x0) · (1 / size), 0, w − 1))` in f32,
//! `x0` the left edge of the range, both axes in one 4-lane operation on a box's corners.
//! Each step is monotone in `x`, so `col` is: that is all the grid's exactness argument
//! needs, provided the same function also checks that no ball spans more than two cells per
//! axis (the first pass over the boxes does both).
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
//! **Pairs**, each ball against the later balls of its cell and the cells its box reaches
//! into among the forward half of the neighbours, searched band by band as soon as the next
//! band is sorted (while both are in cache), branch-light: each ball's runs come from its cell
//! code (no loop over cells skipping the empty ones, a branch taken on four cells in ten at the
//! benchmark's density), and the runs are tested a fixed number of candidates at a time with
//! the lanes past the run masked, giving a mask of hits. Keys are written branch-free: every
//! candidate's key goes to the end of the key buffer and the end moves past it only on a
//! hit, so whether a pair overlaps (true about three times in ten, unpredictably) is never a
//! branch (a branch per hit would be mispredicted about once per ball).
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
//!
//! **Cost.** O(n + cells). All arrays are kept, so a steady-state call allocates nothing.

use super::grid_cells::CellRange;
use super::packed::{hits4, packed, query_of};
use super::pair_keys::{grow_keys, prefetch, KeyWriter, PairKeys};
use crate::geom::Aabb;
use glam::{Vec2, Vec4, Vec4Swizzles};

#[cfg(target_arch = "x86_64")]
mod avx2;

/// A run of entries in cell order.
type Run = std::ops::Range<usize>;

/// Entries the second sort's window holds at least (see [`BallCells::sort_bands`]).
const WINDOW: usize = 4096;

/// Most bands of the first counting sort (see the module docs).
const MAX_BANDS: usize = 256;
/// Candidates tested per block of the pair search (SSE2).
const LANES: usize = 4;
/// Padding entries of `ids` and `lanes` past the last ball (never in a cell), so that no
/// block reads past their end: the AVX2 search's blocks read up to 8 entries from a start
/// before the end.
const PAD: usize = 8;

/// Balls by cell, boxes in cell order.
#[derive(Clone, Debug, Default)]
pub(crate) struct BallCells {
    /// Real columns and rows.
    dims: (usize, usize),
    /// Stored cells per row: columns + 2.
    stride: usize,
    /// The cell functions of the last build, x and y, and both at once.
    axes: [Axis; 2],
    lattice: Lattice,
    /// Index of the first ball and number of balls of the last build.
    first: usize,
    count: usize,
    /// `start[k]..start[k + 1]` is stored cell `k`; length `stride · (rows + 1) + 1`.
    start: Vec<u32>,
    /// Ball indices in cell order.
    ids: Vec<u32>,
    /// The boxes in cell order, lane by lane: min x, min y, max x, max y.
    lanes: [Vec<f32>; 4],
    /// Cell codes in cell order (see [`cell_code`]).
    codes: Vec<u32>,
    /// Position in cell order of the first entry that `ids`, `lanes` and `codes` hold (see
    /// [`BallCells::sort_bands`]).
    base: usize,
    /// Entries the window holds at least; 0 for [`WINDOW`] (tests set less).
    window: usize,
    /// The balls in band order (the first sort's output).
    by_band: Vec<Entry>,
    /// Start of each band's run in `by_band`; length bands + 1 (the last is the end).
    band_start: Vec<u32>,
    /// End of each band's run in `by_band` (its write cursor while scattering).
    band_end: Vec<u32>,
    /// Balls per band of the last build: room for each band in the next build's single pass
    /// ([`BallCells::build_hinted`]).
    band_counts: Vec<u32>,
}

/// One ball on its way into cell order.
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    id: u32,
    /// Its cell code ([`cell_code`], stored cell counted from the first).
    code: u32,
    /// `[min x, min y, max x, max y]`.
    packed: [f32; 4],
}

/// The f32 cell function of one axis: `trunc(clamp((v − origin) · inv, 0, last))`.
#[derive(Clone, Copy, Debug, Default)]
struct Axis {
    origin: f32,
    inv: f32,
    /// The last column (row) as an f32 no greater than it.
    last: f32,
}

impl Axis {
    fn new(origin: f32, inv: f32, cells: usize) -> Self {
        let mut last = (cells - 1) as f32;
        if last as usize > cells - 1 {
            last = f32::from_bits(last.to_bits() - 1); // rounded up: one step down
        }
        Self { origin, inv, last }
    }

    /// `v` in cells from the origin, clamped to `[0, last]` (a NaN fails `t > 0` and becomes
    /// 0): monotone in `v`.
    #[inline(always)]
    fn t(&self, v: f32) -> f32 {
        let t = (v - self.origin) * self.inv;
        let t = if t > 0.0 { t } else { 0.0 };
        if t < self.last {
            t
        } else {
            self.last
        }
    }

    /// The cell of `v`: `t(v)` truncated (in range, so `as` never saturates).
    #[inline(always)]
    fn cell(&self, v: f32) -> u32 {
        self.t(v) as u32
    }
}

/// Both axes' cell functions at once on a box's corners `[min x, min y, max x, max y]`: the
/// same operations lane by lane as [`Axis::t`] (`maxps`/`minps` pick as its compares do), so
/// the same results.
#[derive(Clone, Copy, Debug, Default)]
struct Lattice {
    origin: Vec4,
    inv: Vec4,
    last: Vec4,
}

impl Lattice {
    fn new(ax: Axis, ay: Axis) -> Self {
        Self {
            origin: Vec4::new(ax.origin, ay.origin, ax.origin, ay.origin),
            inv: Vec4::new(ax.inv, ay.inv, ax.inv, ay.inv),
            last: Vec4::new(ax.last, ay.last, ax.last, ay.last),
        }
    }

    /// `[t(min x), t(min y), t(max x), t(max y)]`.
    #[inline(always)]
    fn t4(&self, corners: Vec4) -> Vec4 {
        // `max` keeps the right operand where the left is NaN, like `t > 0 ? t : 0`.
        ((corners - self.origin) * self.inv)
            .max(Vec4::ZERO)
            .min(self.last)
    }

    /// [`Lattice::cells`] of box `b`.
    #[inline(always)]
    #[cfg_attr(target_arch = "x86_64", allow(dead_code))] // `place` does it there (and tests)
    fn box_cells(&self, b: &Aabb) -> [i32; 4] {
        self.cells(Vec4::new(b.min.x, b.min.y, b.max.x, b.max.y))
    }

    /// The cells of a box's corners `[min x, min y, max x, max y]`: its [`Lattice::t4`]
    /// coordinates truncated, `[col(min x), row(min y), col(max x), row(max y)]`. They lie in
    /// `0..2^24`, so the truncation is exact; all four in one instruction on x86-64 (where
    /// `as` would check each lane's range and NaN with branches).
    #[inline(always)]
    fn cells(&self, corners: Vec4) -> [i32; 4] {
        let t = self.t4(corners);
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{__m128i, _mm_cvttps_epi32, _mm_loadu_ps};
            let t = t.to_array();
            // SAFETY: SSE2 is part of x86-64; `t` is four readable floats. The conversion
            // truncates each lane (a lane out of range, none here, would become `i32::MIN`,
            // nothing undefined), and any 16 bytes are four valid `i32`.
            unsafe {
                let i = _mm_cvttps_epi32(_mm_loadu_ps(t.as_ptr()));
                std::mem::transmute::<__m128i, [i32; 4]>(i)
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        t.to_array().map(|v| v as i32)
    }
}

/// What the first sort needs of a box: its cell code ([`cell_code`]), its row (for its band),
/// and whether it spans at most two cells per axis ([`within_two`]).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Placed {
    code: u32,
    row: u32,
    within_two: bool,
}

impl Lattice {
    /// [`Placed`] of box `b` in a lattice of row stride `stride`: the same as
    /// [`Lattice::box_cells`] then [`cell_code`] and [`within_two`], with the spans' tests
    /// done on all four lanes at once on x86-64 (SSE2: one subtract and two compares where the
    /// lanes were taken out one by one).
    #[inline(always)]
    fn place(&self, b: &Aabb, stride: usize) -> Placed {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::*;
            let t = self
                .t4(Vec4::new(b.min.x, b.min.y, b.max.x, b.max.y))
                .to_array();
            // SAFETY: SSE2 is part of x86-64; `t` is four readable floats in `0..2^24`, so the
            // truncation is exact (as in `cells`).
            unsafe {
                let k = _mm_cvttps_epi32(_mm_loadu_ps(t.as_ptr()));
                // Lanes 0 and 1: columns and rows spanned past the first, `[c1 − c0, r1 − r0]`.
                let d = _mm_sub_epi32(_mm_shuffle_epi32::<0b11_10_11_10>(k), k);
                let lanes = |m: __m128i| _mm_movemask_ps(_mm_castsi128_ps(m)) as u32 & 3;
                let far = lanes(_mm_cmpgt_epi32(d, _mm_set1_epi32(1)));
                let reach = lanes(_mm_cmpgt_epi32(d, _mm_setzero_si128()));
                let c0 = _mm_cvtsi128_si32(k) as u32 as usize;
                let r0 = _mm_cvtsi128_si32(_mm_shuffle_epi32::<0b01>(k)) as u32;
                Placed {
                    code: (r0 as usize * stride + c0 + 1) as u32 | reach << 30,
                    row: r0,
                    within_two: far == 0,
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let spans = self.box_cells(b);
            Placed {
                code: cell_code(spans, stride),
                row: spans[1] as u32,
                within_two: within_two(spans),
            }
        }
    }
}

/// Whether a box whose corners lie in the cells `k` (as [`Lattice::cells`] gives) spans at
/// most two cells on each axis. Signed: a box whose max lies before its min (a NaN corner
/// clamped to 0) spans none.
#[inline(always)]
#[cfg_attr(target_arch = "x86_64", allow(dead_code))] // `place` does it there (and tests)
fn within_two(k: [i32; 4]) -> bool {
    (k[2] - k[0] <= 1) & (k[3] - k[1] <= 1)
}

/// Bit of a cell code: the box reaches into the next column.
const REACHES_RIGHT: u32 = 1 << 30;
/// Bit of a cell code: the box reaches into the next row.
const REACHES_DOWN: u32 = 1 << 31;
/// The stored cell of a cell code.
const CELL_BITS: u32 = REACHES_RIGHT - 1;
/// Most stored cells, so a stored cell fits [`CELL_BITS`].
pub(crate) const MAX_STORED_CELLS: usize = 1 << 30;

/// The cell code of a box whose corners lie in the cells `k` (as [`Lattice::cells`] gives),
/// its cell `(c, r)` stored at `r · stride + c + 1`: the stored cell, with
/// [`REACHES_RIGHT`] when the box's max lies in a later column and [`REACHES_DOWN`] in a
/// later row. No box reaches further ([`within_two`]).
#[inline(always)]
fn cell_code(k: [i32; 4], stride: usize) -> u32 {
    let (c, r) = (k[0] as usize, k[1] as usize);
    let right = (k[2] > k[0]) as u32;
    let down = (k[3] > k[1]) as u32;
    (r * stride + c + 1) as u32 | right << 30 | down << 31
}

/// The box holding some boxes and their largest side, gathered one box at a time.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Extent {
    /// Min corner and negated max corner.
    lo: Vec4,
    /// Lanes x and y: the least of `min x − max x` and of `min y − max y` (the negated
    /// largest width and height), each rounded to f32 as the subtraction gives it.
    sides: Vec4,
}

impl Default for Extent {
    fn default() -> Self {
        Self {
            lo: Vec4::splat(f32::INFINITY),
            sides: Vec4::ZERO,
        }
    }
}

impl Extent {
    /// Adds `b`. Min corners and negated max corners in one 4-lane min, the new box first, so
    /// a NaN coordinate leaves the running value (as `f32::min` does); from +∞, so a NaN never
    /// enters it. The box's negated sides (`min + (−max)`, which rounds exactly as `max − min`
    /// does, negated) in one 4-lane add and min, the same way.
    #[inline(always)]
    pub fn add(&mut self, b: &Aabb) {
        let v = Vec4::new(b.min.x, b.min.y, -b.max.x, -b.max.y);
        self.lo = v.min(self.lo);
        self.sides = (v + v.zwxy()).min(self.sides);
    }

    /// The box and the largest side (px, the f32 difference `max − min`), of at least one box
    /// added.
    pub fn get(&self) -> (Aabb, f64) {
        let lo = self.lo;
        let largest = (-self.sides.x).max(-self.sides.y) as f64;
        (
            Aabb::new(Vec2::new(lo.x, lo.y), Vec2::new(-lo.z, -lo.w)),
            largest,
        )
    }
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
    (lattice, stride, shift, first): (Lattice, usize, u32, usize),
    by_band: &mut [Entry],
    band_end: &mut [u32],
    limits: &[u32],
) -> (Extent, bool, bool) {
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

/// The boxes in cell order lane by lane, and their ids, each with `PAD` entries of padding.
struct Lanes<'a> {
    x0: &'a [f32],
    y0: &'a [f32],
    x1: &'a [f32],
    y1: &'a [f32],
    ids: &'a [u32],
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
    unsafe fn scan(
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

impl BallCells {
    /// Sorts `balls` (boxes of ball indices `first..`) into the cells of `range`, and searches
    /// their pairs ([`BallCells::pairs`]) band by band as the sort finishes each, while the
    /// band is in cache: the pairs go to `keys` (appended), the box tests are returned. `None`
    /// (cells filled all the same, no pairs searched) when some ball spans more than two cells
    /// on an axis.
    pub fn build(
        &mut self,
        range: &CellRange,
        balls: &[Aabb],
        first: usize,
        keys: &mut PairKeys,
    ) -> Option<u64> {
        self.set_range(range, balls.len(), first);
        let spans_ok = self.count_bands(balls);
        self.scatter_bands(balls);
        let tests = self.sort_bands(spans_ok.then_some(keys));
        spans_ok.then_some(tests)
    }

    /// [`BallCells::build`] in one pass over the boxes instead of three (extent, count,
    /// scatter), for a range expected to be the last build's: each band gets the room the
    /// last build filled plus an eighth, and the balls are scattered straight away while the
    /// region of their boxes and their largest side (px, as [`super::grid`] computes them) are
    /// gathered. If `accept` takes them (they choose this same range), sorts and searches the
    /// pairs as [`BallCells::build`] does and returns them with the box tests. `None` —
    /// nothing usable built — when `accept` refuses, there is no last build of this range and
    /// ball count, a band overflows its room, or a ball spans more than two cells: the caller
    /// then builds afresh.
    pub fn build_hinted(
        &mut self,
        range: &CellRange,
        balls: &[Aabb],
        first: usize,
        accept: impl FnOnce(&Aabb, f64) -> bool,
        keys: &mut PairKeys,
    ) -> Option<(Aabb, f64, u64)> {
        let same = range.dims == self.dims && balls.len() == self.count;
        if !same || balls.is_empty() || self.band_counts.is_empty() {
            return None;
        }
        self.set_range(range, balls.len(), first);
        self.band_start.clear();
        self.band_start.push(0);
        for &c in &self.band_counts {
            let room = c + c / 8 + 8;
            self.band_start.push(self.band_start.last().unwrap() + room);
        }
        let (extent, spans_ok, fits) = self.scatter_into_bands(balls);
        let (region, largest) = extent.get();
        if !(fits && spans_ok && accept(&region, largest)) {
            self.band_counts.clear();
            return None;
        }
        let tests = self.sort_bands(Some(keys));
        Some((region, largest, tests))
    }

    /// Takes `range` for a build of `count` balls from index `first`.
    fn set_range(&mut self, range: &CellRange, count: usize, first: usize) {
        let origin = range.cell_box(0, 0).min;
        let inv = (1.0 / range.size) as f32;
        let ax = Axis::new(origin.x, inv, range.dims.0);
        let ay = Axis::new(origin.y, inv, range.dims.1);
        (self.dims, self.axes, self.first, self.count) = (range.dims, [ax, ay], first, count);
        self.lattice = Lattice::new(ax, ay);
        self.stride = range.dims.0 + 2;
    }

    /// log2 of the rows per band: the fewest rows (a power of two) giving at most
    /// [`MAX_BANDS`] bands.
    fn band_shift(&self) -> u32 {
        let mut s = 0;
        while (self.dims.1 >> s) >= MAX_BANDS {
            s += 1;
        }
        s
    }

    /// The balls per band; false when a ball spans more than two cells on an axis.
    #[inline(never)]
    fn count_bands(&mut self, balls: &[Aabb]) -> bool {
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
    fn scatter_bands(&mut self, balls: &[Aabb]) {
        exclusive_sums(&mut self.band_start);
        let (_, _, fits) = self.scatter_into_bands(balls);
        debug_assert!(fits, "a band counted too small");
    }

    /// [`scatter`] of `balls` into the room `band_start` lays out (band `b` gets
    /// `band_start[b]..band_start[b + 1]`), each band's cursor from the start of its room.
    fn scatter_into_bands(&mut self, balls: &[Aabb]) -> (Extent, bool, bool) {
        let bands = self.band_start.len() - 1;
        self.by_band
            .resize(self.band_start[bands] as usize, Entry::default());
        self.band_end.clear();
        self.band_end.extend_from_slice(&self.band_start[..bands]);
        scatter(
            balls,
            (self.lattice, self.stride, self.band_shift(), self.first),
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
    fn sort_bands(&mut self, mut keys: Option<&mut PairKeys>) -> u64 {
        let ((_, h), s) = (self.dims, self.stride);
        let mut out = keys.as_mut().map(|k| k.writer());
        let mut tests = 0;
        let shift = self.band_shift();
        let n = self.count;
        let bands = self.band_end.len();
        let len_of = |b: usize| (self.band_end[b] - self.band_start[b]) as usize;
        // Room for any two bands in a row.
        let two = (0..bands).map(|b| len_of(b) + if b + 1 < bands { len_of(b + 1) } else { 0 });
        let cap = if out.is_some() {
            let least = if self.window == 0 {
                WINDOW
            } else {
                self.window
            };
            two.max().unwrap_or(0).max(least).min(n)
        } else {
            n
        };
        self.ids.resize(cap + PAD, 0);
        for lane in &mut self.lanes {
            lane.resize(cap + PAD, 0.0);
        }
        self.codes.resize(cap, 0);
        self.base = 0;
        let stored = s * (h + 1);
        self.start.resize(stored + 1, 0);
        self.band_counts.clear();
        let mut lo = 0; // output position of the band's first ball
        let mut prev = 0; // the previous band's first ball: its pairs are searched next
        for band in 0..bands {
            let run = self.band_start[band] as usize..self.band_end[band] as usize;
            self.band_counts.push(run.len() as u32);
            if lo + run.len() > self.base + cap {
                // The window is full: the previous band (not yet searched) moves to its front.
                let (from, to) = (prev - self.base, lo - self.base);
                self.ids.copy_within(from..to, 0);
                for lane in &mut self.lanes {
                    lane.copy_within(from..to, 0);
                }
                self.codes.copy_within(from..to, 0);
                self.base = prev;
            }
            let r0 = band << shift;
            let r1 = ((band + 1) << shift).min(h);
            let cells = &mut self.start[r0 * s..r1 * s + 1];
            cells.fill(0);
            let entries = &self.by_band[run];
            // An entry's cell within the band: its row is in the band (both come from the
            // same clamped coordinate).
            let cell_base = r0 * s;
            let local = |e: &Entry| (e.code & CELL_BITS) as usize - cell_base;
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
            let done = lo; // the balls before this band now have every cell they look at
            lo += entries.len();
            if let Some(out) = out.as_mut() {
                tests += self.pairs_in(prev..done, out);
            }
            prev = done;
        }
        // The padding row below the last.
        self.start[h * s..].fill(n as u32);
        if let Some(out) = out.as_mut() {
            tests += self.pairs_in(prev..n, out);
        }
        tests
    }

    /// Every ball against the later balls of its own cell, the cell to its right and the
    /// three cells below (the forward half of the 8 neighbours: each pair of neighbouring
    /// cells is visited once). Overlapping pairs go to `keys`; returns the box tests.
    pub fn pairs(&self, keys: &mut PairKeys) -> u64 {
        assert!(self.holds_all(), "pairs searched after a windowed build");
        self.pairs_in(0..self.count, &mut keys.writer())
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
    fn pairs_in(&self, balls: std::ops::Range<usize>, out: &mut KeyWriter) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if avx2::enabled() {
            // SAFETY: the CPU has AVX2, POPCNT and BMI2 (checked by `enabled`).
            return unsafe { self.pairs_in_avx2(balls, out) };
        }
        self.pairs_in_sse2(balls, out)
    }

    /// [`BallCells::pairs_in`] with [`Lanes::scan`] on each run.
    fn pairs_in_sse2(&self, balls: std::ops::Range<usize>, out: &mut KeyWriter) -> u64 {
        // SAFETY: `search` gives runs ordered and ending at most at `n`, with `PAD ≥ LANES`
        // entries past `n`, and room in `buf` for every candidate's key and two blocks more.
        self.search(balls, out, |lanes, q, id, own, below, buf, len| unsafe {
            let len = lanes.scan(q, id, own.start, own.end, buf, len);
            lanes.scan(q, id, below.start, below.end, buf, len)
        })
    }

    /// [`BallCells::pairs_in`] with [`avx2::scan_runs`].
    ///
    /// # Safety
    /// The CPU has AVX2, POPCNT and BMI2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,popcnt,bmi2")]
    unsafe fn pairs_in_avx2(&self, balls: std::ops::Range<usize>, out: &mut KeyWriter) -> u64 {
        // SAFETY: as in `pairs_in_sse2`, with `PAD = 8` entries past `n` and room for 8 keys
        // past the candidates'; the caller vouches for the CPU.
        self.search(balls, out, |lanes, q, id, own, below, buf, len| unsafe {
            avx2::scan_runs(lanes, q, id, own, below, buf, len)
        })
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
            let cell = ((code & CELL_BITS) as usize).min(last_cell);
            let dx = (code & REACHES_RIGHT != 0) as usize;
            let dy = (code & REACHES_DOWN != 0) as usize;
            let below_left = cell + s - 1;
            // SAFETY: `cell + 2 ≤ below_left + 3 ≤ last_cell + s + 2 < start.len()` (above).
            let (own_end, b0, b1) = unsafe {
                (
                    *start.get_unchecked(cell + 1 + dx) as usize,
                    *start.get_unchecked(below_left) as usize,
                    *start.get_unchecked(below_left + dy * (2 + dx)) as usize,
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

    /// The entries of real cell `(c, r)`.
    fn cell_range(&self, c: usize, r: usize) -> std::ops::Range<usize> {
        let k = r * self.stride + c + 1;
        self.start[k] as usize..self.start[k + 1] as usize
    }

    /// Number of balls in real cell `(c, r)`.
    pub fn cell_len(&self, c: usize, r: usize) -> usize {
        self.cell_range(c, r).len()
    }

    /// Whether `ids`, `lanes` and `codes` hold every entry of the last build (it searched no
    /// pairs, or its window had room for all).
    fn holds_all(&self) -> bool {
        self.base == 0 && self.codes.len() == self.count
    }

    /// Real columns and rows.
    pub fn dims(&self) -> (usize, usize) {
        self.dims
    }

    /// Cells holding at least one ball.
    pub fn occupied(&self) -> usize {
        self.start.windows(2).filter(|w| w[1] > w[0]).count()
    }

    /// Most balls in one cell.
    pub fn max_per_cell(&self) -> usize {
        let most = self.start.windows(2).map(|w| w[1] - w[0]).max();
        most.unwrap_or(0) as usize
    }

    /// Checks that the balls of the last build each sit exactly once, with their stored box,
    /// in the cell of its min corner, in index order within a cell, and that the padding
    /// cells are empty; of a build that kept only a window of the entries (see
    /// [`BallCells::sort_bands`]), the balls in that window.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.count;
        let (w, h) = self.dims;
        let s = self.stride;
        if self.start.is_empty() && n == 0 {
            return Ok(()); // never built
        }
        if self.start.len() != s * (h + 1) + 1 || s != w + 2 {
            return Err("ball cells: cell array does not match the dimensions".into());
        }
        if self.start.first() != Some(&0)
            || self.start.last().map_or(0, |&x| x as usize) != n
            || self.codes.len() > n
            || self.ids.len() != self.codes.len() + PAD
            || self
                .lanes
                .iter()
                .any(|lane| lane.len() != self.codes.len() + PAD)
            || self.base + self.codes.len() < n
        {
            return Err("ball cells: sizes differ from the balls".into());
        }
        if self.start.windows(2).any(|w| w[0] > w[1]) {
            return Err("ball cells: starts not ascending".into());
        }
        let padding = |k: usize| k / s == h || k.is_multiple_of(s) || k % s == w + 1;
        if let Some(k) = (0..s * (h + 1)).find(|&k| padding(k) && self.start[k + 1] > self.start[k])
        {
            return Err(format!("ball cells: padding cell {k} not empty"));
        }
        let mut seen = vec![false; n];
        let [ax, ay] = self.axes;
        for r in 0..h {
            for c in 0..w {
                // The cell's entries in the window, as window slots.
                let list = self.cell_range(c, r);
                let list =
                    list.start.max(self.base) - self.base..list.end.max(self.base) - self.base;
                if self.ids[list.clone()].windows(2).any(|w| w[0] >= w[1]) {
                    return Err(format!("ball cells: cell ({c}, {r}) not in index order"));
                }
                for k in list {
                    let packed = self.lanes.each_ref().map(|lane| lane[k]);
                    let code = cell_code(self.lattice.cells(Vec4::from_array(packed)), s);
                    if self.codes[k] != code || (code & CELL_BITS) as usize != r * s + c + 1 {
                        return Err(format!("ball cells: entry {k} has a wrong cell code"));
                    }
                    let (id, [x0, y0, x1, y1]) = (self.ids[k] as usize, packed);
                    let home = (ax.cell(x0) as usize, ay.cell(y0) as usize);
                    let slot = id.checked_sub(self.first).and_then(|i| seen.get_mut(i));
                    match slot {
                        Some(s) if !*s && home == (c, r) && x0 <= x1 && y0 <= y1 => *s = true,
                        _ => {
                            return Err(format!(
                                "ball {id} misplaced, repeated or not a box in cell ({c}, {r})"
                            ))
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// Balls of sides up to 30 px, two coincident, some on cell borders.
    fn boxes(n: usize, seed: u64) -> Vec<Aabb> {
        let mut rng = StdRng::seed_from_u64(seed);
        let side = (n as f32).sqrt() * 20.0;
        let mut out: Vec<Aabb> = (0..n)
            .map(|_| {
                let p = Vec2::new(rng.gen_range(0.0..side), rng.gen_range(0.0..side));
                let p = if rng.gen_bool(0.1) {
                    (p / 32.0).round() * 32.0
                } else {
                    p
                };
                Aabb::around(p, rng.gen_range(0.0..15.0))
            })
            .collect();
        out[n / 2] = out[n / 3];
        out
    }

    /// The keys of a search, each as `(min, max)`, sorted.
    fn keys_of(
        cells: &BallCells,
        search: impl Fn(&BallCells, &mut KeyWriter) -> u64,
    ) -> (Vec<u64>, u64) {
        let mut keys = PairKeys::default();
        keys.clear(cells.count);
        let tests = search(cells, &mut keys.writer());
        let mut pairs = Vec::new();
        keys.sorted_into(&mut pairs);
        (
            pairs
                .iter()
                .map(|&(i, j)| (i as u64) << 32 | j as u64)
                .collect(),
            tests,
        )
    }

    #[test]
    fn place_agrees_with_the_cells_one_by_one() {
        let range = CellRange::covering_for(
            &Aabb::new(Vec2::splat(-100.0), Vec2::splat(900.0)),
            32.0,
            (0.0, 0.0),
            1000,
        );
        let mut cells = BallCells::default();
        cells.set_range(&range, 0, 0);
        let (lattice, stride) = (cells.lattice, cells.stride);
        let mut rng = StdRng::seed_from_u64(9);
        let mut boxes: Vec<Aabb> = (0..5000)
            .map(|_| {
                let p = Vec2::new(rng.gen_range(-300.0..1200.0), rng.gen_range(-300.0..1200.0));
                Aabb::around(p, rng.gen_range(0.0..70.0))
            })
            .collect();
        boxes.push(Aabb {
            min: Vec2::new(f32::NAN, 5.0),
            max: Vec2::new(40.0, f32::NAN),
        });
        boxes.push(Aabb::around(Vec2::splat(31.999), 0.0));
        for b in &boxes {
            let spans = lattice.box_cells(b);
            let want = Placed {
                code: cell_code(spans, stride),
                row: spans[1] as u32,
                within_two: within_two(spans),
            };
            assert_eq!(lattice.place(b, stride), want, "{b:?}");
        }
    }

    /// Bands of very different sizes: most balls in a strip a few rows high, the rest spread
    /// thinly, so the window moves at uneven bands and some bands far outgrow the least window.
    #[test]
    fn windowed_builds_find_every_pair_with_uneven_bands() {
        let n = 3000;
        let mut rng = StdRng::seed_from_u64(9);
        let side = 4000.0;
        let balls: Vec<Aabb> = (0..n)
            .map(|k| {
                let x = rng.gen_range(0.0..side);
                let y = if k % 5 < 3 {
                    rng.gen_range(1000.0..1100.0)
                } else {
                    rng.gen_range(0.0..side)
                };
                Aabb::around(Vec2::new(x, y), rng.gen_range(0.0..15.0))
            })
            .collect();
        let (cells, _) = windowed_builds_agree_with_brute_force(&balls, &[1, 16, 200, n]);
        assert!(cells.max_per_cell() > 3, "the strip is dense");
    }

    /// Builds `balls` with each least window of `windows`, checking the cells and that the
    /// pairs are brute force's; returns the cells of the last build and those pairs.
    fn windowed_builds_agree_with_brute_force(
        balls: &[Aabb],
        windows: &[usize],
    ) -> (BallCells, Vec<(u32, u32)>) {
        let n = balls.len();
        let mut want = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if balls[i].overlaps(&balls[j]) {
                    want.push((i as u32, j as u32));
                }
            }
        }
        let mut region = Extent::default();
        balls.iter().for_each(|b| region.add(b));
        let range = CellRange::covering_for(&region.get().0, 32.0, (0.0, 0.0), n);
        let mut cells = BallCells::default();
        let mut keys = PairKeys::default();
        for &window in windows {
            cells.window = window;
            keys.clear(n);
            assert!(cells.build(&range, balls, 0, &mut keys).is_some());
            cells.validate().unwrap();
            let mut got = Vec::new();
            keys.sorted_into(&mut got);
            assert_eq!(got, want, "n = {n}, window {window}");
        }
        (cells, want)
    }

    #[test]
    fn both_searches_find_the_same_pairs_as_brute_force() {
        for (n, seed) in [(1, 1), (7, 2), (300, 3), (5000, 4)] {
            let balls = boxes(n, seed);
            // Windows of every size: from two bands' room to all.
            let (mut cells, pairs) =
                windowed_builds_agree_with_brute_force(&balls, &[1, 64, 1000, n]);
            let want: Vec<u64> = pairs
                .iter()
                .map(|&(i, j)| (i as u64) << 32 | j as u64)
                .collect();
            // Every entry kept, each search over all balls at once.
            cells.sort_bands(None);
            cells.validate().unwrap();
            let all = 0..cells.count;
            let sse2 = keys_of(&cells, |c, out| c.pairs_in_sse2(all.clone(), out));
            assert_eq!(sse2.0, want, "SSE2, n = {n}");
            #[cfg(target_arch = "x86_64")]
            if avx2::enabled() {
                // SAFETY: `enabled` checked the CPU.
                let avx = keys_of(&cells, |c, out| unsafe {
                    c.pairs_in_avx2(all.clone(), out)
                });
                assert_eq!(avx, sse2, "AVX2, n = {n}");
            }
        }
    }
}
