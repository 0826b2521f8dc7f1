//! Balls counting-sorted into the cells of one lattice by their box's min corner, their boxes
//! copied beside them in cell order (structure of arrays), for the uniform grid.
//!
//! **Layout.** Cells are row-major; `start[c]..start[c + 1]` are cell `c`'s entries in one
//! flat array, each entry the ball's cell, index and box (packed as
//! `[min x, min y, −max x, −max y]`), 24 bytes. Within a cell the balls keep index order. Because a row's cells are contiguous, cell `c` and
//! its right-hand neighbour form one run, and the three cells below `c` (`c − 1`, `c`, `c + 1`
//! of the next row) another: each ball scans two contiguous runs of entries, no gather through
//! indices.
//!
//! **One compare per test.** Closed boxes `a`, `b` overlap iff `b.min ≤ a.max` and
//! `a.min ≤ b.max`, i.e. `−b.max ≤ −a.min`: so with `b` packed as above and `a` as the query
//! `[max x, max y, −min x, −min y]`, the test is `packed(b) ≤ query(a)` on all four lanes, one
//! 4-lane compare. Negation is exact, and `−0.0 = 0.0` in comparisons, so this is the same
//! test as [`Aabb::overlaps`].
//!
//! **Cell of a coordinate.** `col(x) = clamp(trunc((x − x0) · (1 / size)), 0, w − 1)` in f32,
//! `x0` the left edge of the range. Each step is monotone in `x`, so `col` is: that is all the
//! grid's exactness argument needs, provided the same function also checks that no ball spans
//! more than two cells per axis ([`BallCells::build`] does both in one pass).
//!
//! **Sorting**, in two counting sorts that each stay in cache: first by row (one counter per
//! row; the entries, made while streaming over the boxes, are scattered into one run per row),
//! then each row by column (one counter per column, the row's entries moved within a few
//! kilobytes), which also yields the cell starts. Both are stable, so a cell's balls stay in
//! index order. A one-level counting sort needs one counter per cell, and with a million cells
//! its random increments and scattered writes missed the cache on every ball, as did gathering
//! the boxes into cell order through sorted indices afterwards (each was the profile's largest
//! item in turn).
//!
//! **Cost.** O(n + cells). All arrays are kept, so a steady-state call
//! allocates nothing.

use super::grid_cells::CellRange;
use super::pair_keys::PairKeys;
use crate::geom::Aabb;
use glam::Vec4;

/// Balls by cell, boxes in cell order.
#[derive(Clone, Debug, Default)]
pub(crate) struct BallCells {
    /// Columns and rows.
    dims: (usize, usize),
    /// The cell functions of the last build, x and y.
    axes: [Axis; 2],
    /// Index of the first ball and number of balls of the last build.
    first: usize,
    count: usize,
    /// `start[c]..start[c + 1]` is cell `c`; length cells + 1.
    start: Vec<u32>,
    /// The balls in cell order.
    entries: Vec<Entry>,
    /// The balls in row order (the first sort's output).
    by_row: Vec<Entry>,
    /// Start of each row in `by_row`, then its write cursor; length rows + 1.
    row_start: Vec<u32>,
}

/// One ball in a cell (20 bytes: its cell is recomputed from its box when needed, which is
/// cheaper than moving four more bytes per ball through both sorts).
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    id: u32,
    /// `[min x, min y, −max x, −max y]`.
    packed: [f32; 4],
}

/// `b` packed for storage: `[min x, min y, −max x, −max y]`.
#[inline(always)]
fn packed(b: &Aabb) -> [f32; 4] {
    [b.min.x, b.min.y, -b.max.x, -b.max.y]
}

/// The query form of a packed box: `[max x, max y, −min x, −min y]`; a stored box `p` overlaps
/// it iff `p ≤ query` on every lane.
#[inline(always)]
fn query(p: Vec4) -> Vec4 {
    -Vec4::new(p.z, p.w, p.x, p.y)
}

/// The f32 cell function of one axis: `clamp(trunc((v − origin) · inv), 0, last)`.
#[derive(Clone, Copy, Debug, Default)]
struct Axis {
    origin: f32,
    inv: f32,
    last: u32,
}

impl Axis {
    #[inline(always)]
    fn cell(&self, v: f32) -> u32 {
        // `as` saturates (NaN to 0), so this is total and monotone.
        (((v - self.origin) * self.inv).max(0.0) as u32).min(self.last)
    }
}

impl BallCells {
    /// Sorts `balls` (boxes of ball indices `first..`) into the cells of `range`. Returns false
    /// when some ball spans more than two cells on an axis (the cells are filled all the same).
    pub fn build(&mut self, range: &CellRange, balls: &[Aabb], first: usize) -> bool {
        let origin = range.cell_box(0, 0).min;
        let inv = (1.0 / range.size) as f32;
        let [ax, ay] = [(origin.x, range.dims.0), (origin.y, range.dims.1)].map(|(o, dim)| Axis {
            origin: o,
            inv,
            last: dim as u32 - 1,
        });
        (self.dims, self.axes, self.first, self.count) = (range.dims, [ax, ay], first, balls.len());
        let spans_ok = self.count_rows(balls);
        self.scatter_rows(balls);
        self.sort_rows();
        spans_ok
    }

    /// The balls per row; false when a ball spans more than two cells on an axis.
    fn count_rows(&mut self, balls: &[Aabb]) -> bool {
        let [ax, ay] = self.axes;
        self.row_start.clear();
        self.row_start.resize(self.dims.1 + 1, 0);
        let mut spans_ok = true;
        for b in balls {
            let (c0, c1) = (ax.cell(b.min.x), ax.cell(b.max.x));
            let (r0, r1) = (ay.cell(b.min.y), ay.cell(b.max.y));
            spans_ok &= c1.wrapping_sub(c0) <= 1 && r1.wrapping_sub(r0) <= 1;
            self.row_start[r0 as usize + 1] += 1;
        }
        spans_ok
    }

    /// First sort: entries made in index order, scattered into one run per row.
    fn scatter_rows(&mut self, balls: &[Aabb]) {
        let ay = self.axes[1];
        for r in 0..self.dims.1 {
            self.row_start[r + 1] += self.row_start[r];
        }
        self.by_row.resize(balls.len(), Entry::default());
        for (k, b) in balls.iter().enumerate() {
            let at = &mut self.row_start[ay.cell(b.min.y) as usize];
            let id = (self.first + k) as u32;
            self.by_row[*at as usize] = Entry {
                id,
                packed: packed(b),
            };
            *at += 1;
        }
        // Each row's cursor ended at the next row's start: shift back.
        self.row_start.copy_within(0..self.dims.1, 1);
        self.row_start[0] = 0;
    }

    /// Second sort: each row's run by column into `entries`, writing the cell starts.
    fn sort_rows(&mut self) {
        let ((w, h), ax) = (self.dims, self.axes[0]);
        self.entries.resize(self.by_row.len(), Entry::default());
        self.start.clear();
        self.start.resize(w * h + 1, 0);
        for r in 0..h {
            let (lo, hi) = (self.row_start[r] as usize, self.row_start[r + 1] as usize);
            let row = &mut self.start[r * w..(r + 1) * w + 1];
            row.fill(0);
            for e in &self.by_row[lo..hi] {
                row[ax.cell(e.packed[0]) as usize + 1] += 1;
            }
            row[0] = lo as u32;
            for c in 0..w {
                row[c + 1] += row[c];
            }
            for e in &self.by_row[lo..hi] {
                let at = &mut row[ax.cell(e.packed[0]) as usize];
                self.entries[*at as usize] = *e;
                *at += 1;
            }
            // Each cursor ended at the next cell's start: shift back.
            row.copy_within(0..w, 1);
            row[0] = lo as u32;
        }
        self.start[w * h] = self.entries.len() as u32;
    }

    /// Every ball against the later balls of its own cell, the cell to its right and the
    /// three cells below (the forward half of the 8 neighbours: each pair of neighbouring
    /// cells is visited once). Overlapping pairs go to `keys`; returns the box tests.
    pub fn pairs(&self, keys: &mut PairKeys) -> u64 {
        let (w, h) = self.dims;
        let mut tests = 0;
        for r in 0..h {
            for c in 0..w {
                let cell = r * w + c;
                let (s0, s1) = (self.start[cell] as usize, self.start[cell + 1] as usize);
                if s0 == s1 {
                    continue;
                }
                // Own cell and the right-hand one: one run.
                let right_end = self.start[r * w + (c + 1).min(w - 1) + 1] as usize;
                // The three cells below: one run of the next row.
                let below = if r + 1 < h {
                    let row = (r + 1) * w;
                    let lo = self.start[row + c.saturating_sub(1)] as usize;
                    lo..self.start[row + (c + 1).min(w - 1) + 1] as usize
                } else {
                    0..0
                };
                for a in s0..s1 {
                    tests += self.scan(a, a + 1..right_end, keys);
                    tests += self.scan(a, below.clone(), keys);
                }
            }
        }
        tests
    }

    /// Entry `a` against entries `run`; returns the tests (the run's length).
    #[inline(always)]
    fn scan(&self, a: usize, run: std::ops::Range<usize>, keys: &mut PairKeys) -> u64 {
        let (q, id) = (
            query(Vec4::from_array(self.entries[a].packed)),
            self.entries[a].id,
        );
        let tests = run.len() as u64;
        for e in &self.entries[run] {
            // Closed intervals: touching boxes overlap (see the module docs).
            if Vec4::from_array(e.packed).cmple(q).all() {
                keys.push(id, e.id);
            }
        }
        tests
    }

    /// The entries of cell `c`.
    fn cell_entries(&self, c: usize) -> &[Entry] {
        &self.entries[self.start[c] as usize..self.start[c + 1] as usize]
    }

    /// Number of balls in cell `c`.
    pub fn cell_len(&self, c: usize) -> usize {
        self.cell_entries(c).len()
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.start.len().saturating_sub(1)
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

    /// Checks that the balls of the last build each sit exactly once, with their packed box,
    /// in the cell of its min corner, in index order within a cell.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.count;
        if self.start.last().map_or(0, |&s| s as usize) != n || self.entries.len() != n {
            return Err("ball cells: sizes differ from the balls".into());
        }
        if self.start.windows(2).any(|w| w[0] > w[1]) {
            return Err("ball cells: starts not ascending".into());
        }
        let mut seen = vec![false; n];
        let [ax, ay] = self.axes;
        for c in 0..self.cells() {
            let list = self.cell_entries(c);
            if list.windows(2).any(|w| w[0].id >= w[1].id) {
                return Err(format!("ball cells: cell {c} not in index order"));
            }
            for e in list {
                let [x0, y0, nx1, ny1] = e.packed;
                let home = ay.cell(y0) * self.dims.0 as u32 + ax.cell(x0);
                let id = e.id as usize;
                let slot = id.checked_sub(self.first).and_then(|i| seen.get_mut(i));
                match slot {
                    Some(s) if !*s && home == c as u32 && x0 <= -nx1 && y0 <= -ny1 => *s = true,
                    _ => {
                        return Err(format!(
                            "ball {id} misplaced, repeated or not a box in cell {c}"
                        ))
                    }
                }
            }
        }
        Ok(())
    }
}
