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
//! **Cost.** O(n + cells). All arrays are kept, so a steady-state call allocates nothing.
//!
//! The parts: `lattice.rs` the cell of a coordinate and a box's cell code, `sort.rs` the two
//! counting sorts and the window of entries, `search.rs` the pair search (SSE2, on one thread
//! or several) and `avx2.rs`
//! its AVX2 step, `searched.rs` the cells the search tests for a ball (read by the search and
//! drawn by the overlay).

use super::cells::CellRange;
use crate::broad::pair_keys::PairKeys;
use crate::geom::Aabb;
use glam::Vec4;
use lattice::{cell_code, Axis, Lattice, CELL_BITS};

#[cfg(target_arch = "x86_64")]
mod avx2;
mod lanes;
mod lattice;
mod search;
pub(crate) mod searched;
mod sort;

pub(crate) use lattice::{Extent, MAX_STORED_CELLS};

/// Entries the second sort's window holds at least (see [`BallCells::sort_bands`]).
const WINDOW: usize = 4096;

/// Padding entries of `ids` and `lanes` past the last ball (never in a cell), so that no
/// block reads past their end: the AVX2 search's blocks read up to 8 entries from a start
/// before the end.
const PAD: usize = 8;

/// One ball as the pair search counted it: its index, its cell code and its box tests.
pub(crate) type Searched = (u32, u32, u64);

/// What a probed pair search records: every ball's [`Searched`], and the balls the focus
/// (a ball index) was tested against, one per test.
#[derive(Clone, Debug, Default)]
pub(crate) struct Record {
    /// Each ball as searched, in search order.
    pub searched: Vec<Searched>,
    /// The ball whose partners are listed.
    pub focus: Option<u32>,
    /// The balls of the focus's two runs: one per test it made.
    pub against: Vec<u32>,
}

impl Record {
    /// Empties the record for a search with `focus`.
    pub fn begin(&mut self, focus: Option<u32>) {
        self.searched.clear();
        self.against.clear();
        self.focus = focus;
    }
}

/// Balls by cell, boxes in cell order.
#[derive(Clone, Debug, Default)]
pub(crate) struct BallCells {
    /// When `Some`, the pair search records each ball's tests there ([`Record`]); the caller
    /// empties it.
    pub record: Option<Record>,
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
    /// Threads the pair search may use (see [`BallCells::pairs_on_threads`]).
    pub threads: usize,
    /// Each thread's keys and box tests of a search on several threads (kept, so a steady
    /// state allocates nothing).
    parts: Vec<(PairKeys, u64)>,
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
    pub(crate) fn build_hinted(
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

    /// The entries of real cell `(c, r)`.
    fn cell_range(&self, c: usize, r: usize) -> std::ops::Range<usize> {
        let k = r * self.stride + c + 1;
        self.start[k] as usize..self.start[k + 1] as usize
    }

    /// Number of balls in real cell `(c, r)`.
    pub(crate) fn cell_len(&self, c: usize, r: usize) -> usize {
        self.cell_range(c, r).len()
    }

    /// Whether `ids`, `lanes` and `codes` hold every entry of the last build (it searched no
    /// pairs, or its window had room for all).
    fn holds_all(&self) -> bool {
        self.base == 0 && self.codes.len() == self.count
    }

    /// Real columns and rows.
    pub(crate) fn dims(&self) -> (usize, usize) {
        self.dims
    }

    /// Cells holding at least one ball.
    pub(crate) fn occupied(&self) -> usize {
        self.start.windows(2).filter(|w| w[1] > w[0]).count()
    }

    /// Most balls in one cell.
    pub(crate) fn max_per_cell(&self) -> usize {
        let most = self.start.windows(2).map(|w| w[1] - w[0]).max();
        most.unwrap_or(0) as usize
    }

    /// Checks that the balls of the last build each sit exactly once, with their stored box,
    /// in the cell of its min corner, in index order within a cell, and that the padding
    /// cells are empty; of a build that kept only a window of the entries (see
    /// [`BallCells::sort_bands`]), the balls in that window.
    pub(crate) fn validate(&self) -> Result<(), String> {
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
mod tests;
