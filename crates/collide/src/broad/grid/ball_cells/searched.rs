//! The cells the pair search tests for one ball, from its cell code: what the search reads
//! (`search.rs`) and what the overlay draws ([`BallCells::searched`]), from one function, so
//! the picture cannot drift from the search.
//!
//! A ball is filed in the cell of its box's min corner (lower left, y up), so the cell sits
//! below and left of the ball: the box reaches at most one column right and one row up
//! (`c ≥ m`). The search tests its own cell, the cell to its right if the box reaches that
//! column, and, if the box reaches the row above, that row's cells from the left neighbour's
//! column to its own (to the right neighbour's too if it reaches that column). Cells left of
//! and below it test it in their own searches.

use super::lattice::{CELL_BITS, REACHES_DOWN, REACHES_RIGHT};
use super::BallCells;
use crate::geom::Aabb;
use glam::Vec2;
use std::ops::Range;

/// The stored cells the search reads for cell code `code` (row stride `stride`, the cell
/// clamped to `last_cell`): its own cell and the right-hand one if reached (one run of
/// stored cells), and the row above from the left neighbour on if reached (another; empty
/// when not). Ends exclusive.
#[inline(always)]
pub(super) fn searched_runs(
    code: u32,
    stride: usize,
    last_cell: usize,
) -> (Range<usize>, Range<usize>) {
    let cell = ((code & CELL_BITS) as usize).min(last_cell);
    let dx = (code & REACHES_RIGHT != 0) as usize;
    let dy = (code & REACHES_DOWN != 0) as usize;
    let above_left = cell + stride - 1;
    (cell..cell + 1 + dx, above_left..above_left + dy * (2 + dx))
}

/// One ball as the last build filed and searched it.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchedBall {
    /// Its index in the broad phase's input.
    pub id: u32,
    /// Its box as the grid saw it (px).
    pub aabb: Aabb,
    /// The point it was filed by: the box's min corner (px).
    pub filed_by: Vec2,
    /// The real cells `(column, row)` its search tests, its own first.
    pub cells: Vec<(usize, usize)>,
}

impl BallCells {
    /// Every ball of the last build (in band order): its box, the corner it was filed by and
    /// the cells the pair search tests for it, taken from the cell code the search read
    /// ([`searched_runs`]). Padding cells (outside the range, always empty) are left out.
    pub(crate) fn searched(&self) -> impl Iterator<Item = SearchedBall> + '_ {
        let bands = self.band_end.len().min(self.band_start.len());
        let runs = (0..bands).map(|b| self.band_start[b] as usize..self.band_end[b] as usize);
        runs.flat_map(|run| self.by_band[run].iter())
            .map(|e| self.searched_ball(e.id, e.code, e.packed))
    }

    /// The real cells `(column, row)` the search tests for a ball of cell code `code`, its
    /// own first.
    pub(crate) fn searched_cells(&self, code: u32) -> Vec<(usize, usize)> {
        let (w, h) = self.dims;
        let last_cell = (h * self.stride).saturating_sub(2);
        let (own, above) = searched_runs(code, self.stride, last_cell);
        let real = |k: usize| {
            let (c, r) = (k % self.stride, k / self.stride);
            (c >= 1 && c <= w && r < h).then(|| (c - 1, r))
        };
        own.chain(above).filter_map(real).collect()
    }

    /// The real cell `(column, row)` a ball of cell code `code` is filed in, if real (the
    /// first of [`BallCells::searched_cells`], without listing the others).
    pub fn own_cell(&self, code: u32) -> Option<(usize, usize)> {
        let (w, h) = self.dims;
        let last_cell = (h * self.stride).saturating_sub(2);
        let k = searched_runs(code, self.stride, last_cell).0.start;
        let (c, r) = (k % self.stride, k / self.stride);
        (c >= 1 && c <= w && r < h).then(|| (c - 1, r))
    }

    fn searched_ball(&self, id: u32, code: u32, p: [f32; 4]) -> SearchedBall {
        let aabb = Aabb::new(Vec2::new(p[0], p[1]), Vec2::new(p[2], p[3]));
        SearchedBall {
            id,
            aabb,
            filed_by: aabb.min,
            cells: self.searched_cells(code),
        }
    }
}
