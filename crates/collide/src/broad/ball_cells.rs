//! Balls counting-sorted into the cells of one lattice by their box's min corner, their boxes
//! copied beside them in cell order (structure of arrays), for the uniform grid.
//!
//! **Layout.** Cells are row-major; `start[c]..start[c + 1]` are cell `c`'s entries in the flat
//! arrays `ids` (ball index) and `boxes` (its box, packed as `[min x, min y, −max x, −max y]`).
//! Within a cell the balls keep index order. Because a row's cells are contiguous, cell `c` and
//! its right-hand neighbour form one run, and the three cells below `c` (`c − 1`, `c`, `c + 1`
//! of the next row) another: each ball scans two contiguous runs of boxes, no gather through
//! indices, and reads the ids only for the pairs it reports.
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
//! **Cost.** Two passes over the balls (cell keys and counts; scatter of ids and boxes), one
//! prefix sum over the cells. All arrays are kept, so a steady-state call allocates nothing.

use super::grid_cells::CellRange;
use super::pair_keys::PairKeys;
use crate::geom::Aabb;
use glam::Vec4;

/// Balls by cell, boxes in cell order.
#[derive(Clone, Debug, Default)]
pub(crate) struct BallCells {
    /// Columns and rows.
    dims: (usize, usize),
    /// `start[c]..start[c + 1]` is cell `c`; length cells + 1.
    start: Vec<u32>,
    /// Cell of each ball, by ball index − first ball.
    cell_of: Vec<u32>,
    /// Ball index of each entry, in cell order.
    ids: Vec<u32>,
    /// Box of each entry, in cell order, packed as `[min x, min y, −max x, −max y]`.
    boxes: Vec<Vec4>,
}

/// `b` packed for storage: `[min x, min y, −max x, −max y]`.
#[inline(always)]
fn packed(b: &Aabb) -> Vec4 {
    Vec4::new(b.min.x, b.min.y, -b.max.x, -b.max.y)
}

/// The query form of a packed box: `[max x, max y, −min x, −min y]`; a stored box `p` overlaps
/// it iff `p ≤ query` on every lane.
#[inline(always)]
fn query(p: Vec4) -> Vec4 {
    -Vec4::new(p.z, p.w, p.x, p.y)
}

/// The f32 cell function of one axis: `clamp(trunc((v − origin) · inv), 0, last)`.
#[derive(Clone, Copy, Debug)]
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
        let cells = range.cells();
        self.dims = range.dims;
        let origin = range.cell_box(0, 0).min;
        let inv = (1.0 / range.size) as f32;
        let ax = Axis { origin: origin.x, inv, last: range.dims.0 as u32 - 1 };
        let ay = Axis { origin: origin.y, inv, last: range.dims.1 as u32 - 1 };
        self.start.clear();
        self.start.resize(cells + 1, 0);
        self.cell_of.resize(balls.len(), 0);
        let w = range.dims.0 as u32;
        let mut spans_ok = true;
        for (b, cell_of) in balls.iter().zip(&mut self.cell_of) {
            let (c0, c1) = (ax.cell(b.min.x), ax.cell(b.max.x));
            let (r0, r1) = (ay.cell(b.min.y), ay.cell(b.max.y));
            spans_ok &= c1.wrapping_sub(c0) <= 1 && r1.wrapping_sub(r0) <= 1;
            *cell_of = r0 * w + c0;
            self.start[*cell_of as usize + 1] += 1;
        }
        for c in 0..cells {
            self.start[c + 1] += self.start[c];
        }
        self.scatter(balls, first);
        spans_ok
    }

    /// Places every ball at its cell's next free slot (the prefix sums in `start[c]` serve as
    /// cursors and end as the next cell's start, so they are shifted back after).
    fn scatter(&mut self, balls: &[Aabb], first: usize) {
        let n = balls.len();
        self.boxes.resize(n, Vec4::ZERO);
        self.ids.resize(n, 0);
        for (k, (b, &cell)) in balls.iter().zip(&self.cell_of).enumerate() {
            let at = self.start[cell as usize] as usize;
            self.start[cell as usize] += 1;
            self.ids[at] = (first + k) as u32;
            self.boxes[at] = packed(b);
        }
        // start[c] now holds the end of cell c, the start of c + 1.
        let cells = self.start.len() - 1;
        self.start.copy_within(0..cells, 1);
        self.start[0] = 0;
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
        let q = query(self.boxes[a]);
        let tests = run.len() as u64;
        let lo = run.start;
        for (k, p) in self.boxes[run].iter().enumerate() {
            // Closed intervals: touching boxes overlap (see the module docs).
            if p.cmple(q).all() {
                keys.push(self.ids[a], self.ids[lo + k]);
            }
        }
        tests
    }

    /// The ball indices of cell `c`.
    pub fn cell(&self, c: usize) -> &[u32] {
        &self.ids[self.start[c] as usize..self.start[c + 1] as usize]
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

    /// Checks that the balls `first..first + n` each sit exactly once in the cell of their
    /// key, in index order within a cell, each packed box a box (`min ≤ max`, or NaN).
    pub fn validate(&self, first: usize) -> Result<(), String> {
        let n = self.cell_of.len();
        if self.start.last().map_or(0, |&s| s as usize) != n || self.ids.len() != n {
            return Err("ball cells: sizes differ from the balls".into());
        }
        if self.start.windows(2).any(|w| w[0] > w[1]) {
            return Err("ball cells: starts not ascending".into());
        }
        if self.boxes.len() != n || self.boxes.iter().any(|p| p.x > -p.z || p.y > -p.w) {
            return Err("ball cells: a packed box is not a box".into());
        }
        for c in 0..self.cells() {
            let ids = self.cell(c);
            if ids.windows(2).any(|w| w[0] >= w[1]) {
                return Err(format!("ball cells: cell {c} not in index order"));
            }
            for &id in ids {
                let k = (id as usize).checked_sub(first).filter(|&k| k < n);
                if k.map(|k| self.cell_of[k]) != Some(c as u32) {
                    return Err(format!("ball {id} misplaced in cell {c}"));
                }
            }
        }
        Ok(())
    }
}
