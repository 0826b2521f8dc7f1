//! Filling the play area with many balls at once (the app's "Fill" / `--fill N`).
//!
//! Algorithm: lay a grid of square cells of side `c = 2.1 · r_max` over the play area, keep
//! the cells whose covering disc (radius `c/√2`) touches no obstacle (narrow-phase test with
//! a zero velocity, after a box early-out), nothing a kinematic shape sweeps (the ring about
//! its pivot it turns through; a disc but for segments and points) and no existing
//! ball's box, keep the largest 4-connected region of them (the field, not a pocket sealed
//! by walls), shuffle them with the world's seeded generator and put one ball in each of the
//! first `n`, jittered inside its cell. Balls so placed never overlap each other or an
//! obstacle. When fewer than `n` cells are free, the cells (and the radii) shrink by
//! `√(free / n)` until `n` fit, so asking for 100,000 balls gives 100,000 small ones. A play
//! area so large that cells of `2.1 · r_max` would number more than `MAX_CELLS` gets cells
//! just large enough to number fewer, each ball of full size somewhere inside its cell. When
//! fewer than `n` balls are placed, [`Filled::short`] says why ([`Shortfall`]).
//!
//! Cost: `O(cells · shapes)` box tests plus `O(n)`; run once per fill, never in a step.
//! Deterministic: the same world, seed history and arguments give the same balls.

use super::filled::{Filled, Shortfall};
use super::narrow_stage::disc_touches;
use super::{Ball, World};
use crate::geom::angle;
use crate::geom::{Aabb, Geometry, Motion, Shape};
use crate::narrow::closest_on_segment;
use glam::Vec2;
use rand::Rng;
use std::f32::consts::TAU;

/// Space between neighbouring balls' cells, as a factor on the diameter.
const CELL_GAP: f32 = 1.05;
/// Times the cells may shrink to fit `n` balls.
const MAX_SHRINKS: usize = 12;
/// Most cells laid over the play area (bounds memory for tiny radii).
const MAX_CELLS: usize = 4_000_000;
/// Factor on the side of the cells of a play area too large for full-size ones, so that
/// rounding never leaves them more than [`MAX_CELLS`].
const COARSE_MARGIN: f64 = 1.01;

/// The grid of cells the balls go in.
struct Cells {
    origin: Vec2,
    side: f32,
    cols: usize,
    rows: usize,
}

impl Cells {
    /// How many cells of `side` (px) the play area holds, computed in f64 so that no size
    /// overflows (a non-finite size gives infinity or NaN, never a count that fits).
    fn count(bounds: Aabb, side: f32) -> f64 {
        let size = bounds.size().as_dvec2() / side as f64;
        size.x.floor().max(0.0) * size.y.floor().max(0.0)
    }

    /// Whether a grid of `side` (px) is small enough to lay: at most [`MAX_CELLS`] cells.
    fn fits(bounds: Aabb, side: f32) -> bool {
        Cells::count(bounds, side) <= MAX_CELLS as f64
    }

    /// The grid of cells of `side` (px) over `bounds`; call only where [`Cells::fits`].
    fn new(bounds: Aabb, side: f32) -> Self {
        let size = bounds.size();
        let cols = (size.x / side).floor().max(0.0) as usize;
        let rows = (size.y / side).floor().max(0.0) as usize;
        // Centre the grid in the play area.
        let used = Vec2::new(cols as f32, rows as f32) * side;
        Self {
            origin: bounds.min + (size - used) * 0.5,
            side,
            cols,
            rows,
        }
    }

    fn len(&self) -> usize {
        self.cols * self.rows
    }

    fn centre(&self, k: usize) -> Vec2 {
        let (i, j) = (k % self.cols, k / self.cols);
        self.origin + (Vec2::new(i as f32, j as f32) + 0.5) * self.side
    }

    /// The up to 4 edge neighbours of cell `k`.
    fn neighbours(&self, k: usize) -> impl Iterator<Item = usize> {
        let (i, j, cols, rows) = (k % self.cols, k / self.cols, self.cols, self.rows);
        [
            (i > 0).then(|| k - 1),
            (i + 1 < cols).then(|| k + 1),
            (j > 0).then(|| k - cols),
            (j + 1 < rows).then(|| k + cols),
        ]
        .into_iter()
        .flatten()
    }

    /// Sets every cell that `b` overlaps to `value`.
    fn mark(&self, b: &Aabb, cells: &mut [bool], value: bool) {
        let lo = ((b.min - self.origin) / self.side).floor();
        let hi = ((b.max - self.origin) / self.side).floor();
        let (i0, i1) = (lo.x.max(0.0) as usize, hi.x.min(self.cols as f32 - 1.0));
        let (j0, j1) = (lo.y.max(0.0) as usize, hi.y.min(self.rows as f32 - 1.0));
        if i1 < 0.0 || j1 < 0.0 {
            return;
        }
        for j in j0..=j1 as usize {
            for i in i0..=i1 as usize {
                cells[j * self.cols + i] = value;
            }
        }
    }
}

/// True when a disc at `p` of radius `r` touches the shape now or, for a kinematic shape,
/// anywhere it can turn to: the ring about its pivot between the nearest and the farthest
/// the shape comes (for a segment or a point, with its guard points; for other shapes the
/// ring's hole is not worked out, and the whole disc is kept clear).
fn blocks(s: &Shape, p: Vec2, r: f32) -> bool {
    if let Motion::Kinematic { pivot, .. } = s.motion {
        // The farthest corner of the shape's box from the pivot bounds its reach.
        let b = s.aabb();
        let reach = [
            b.min,
            b.max,
            Vec2::new(b.min.x, b.max.y),
            Vec2::new(b.max.x, b.min.y),
        ]
        .iter()
        .map(|c| (*c - pivot).length_squared())
        .fold(0.0, f32::max)
        .sqrt();
        let d2 = (p - pivot).length_squared();
        let nearest = match s.geom {
            Geometry::Segment { a, b } => closest_on_segment(pivot, a, b),
            Geometry::Point { p: at } => at,
            _ => pivot,
        };
        let hole = (nearest - pivot).length() - r;
        // A turning wall that keeps clear of its pivot (a drum's side) sweeps a ring, and
        // what lies inside the ring stays inside the walls.
        return d2 < (reach + r) * (reach + r) && !(hole > 0.0 && d2 < hole * hole);
    }
    // Early-out on the box grown by r, then the exact test.
    s.aabb().expanded(r).contains(p) && disc_touches(p, r, &s.geom)
}

impl World {
    /// Adds up to `n` balls at random, non-overlapping places in the play area, clear of the
    /// obstacles (and of the sweep of kinematic ones) and of the balls already there. Radii are
    /// uniform in `radius` (px; shrunk when `n` would not fit otherwise), velocities point in
    /// a random direction with a speed uniform in `0..=speed` (px/s), colours are random. All
    /// randomness comes from the world's seeded generator. Fewer than `n` are added only when
    /// the play area is too small even for the smallest cells. Call [`World::clear`] first for
    /// a fresh field. Not counted as launches.
    pub fn fill_random(&mut self, n: u32, radius: (f32, f32), speed: f32) -> Filled {
        let (lo, hi) = sane_radii(radius);
        let speed = if speed.is_finite() {
            speed.max(0.0)
        } else {
            0.0
        };
        let (cells, free) = self.free_cells(n as usize, hi);
        let scale = ((cells.side / CELL_GAP * 0.5) / hi).min(1.0);
        let placed = (n as usize).min(free.len());
        let short = (placed < n as usize).then(|| shortfall(&cells, placed, hi * scale));
        let mut free = free;
        for k in 0..placed {
            // Partial Fisher–Yates: cell k is a uniform pick among the cells not yet used. Drawn
            // as a u32: a usize range is sampled with 64 bits on the desktop and 32 in a
            // browser, which would give the two different fills.
            let pick = self.rng.gen_range(k as u32..free.len() as u32) as usize;
            free.swap(k, pick);
            let r = self.rng.gen_range(lo..=hi) * scale;
            let slack = (cells.side * 0.5 - r).max(0.0);
            let jitter = Vec2::new(
                self.rng.gen_range(-slack..=slack),
                self.rng.gen_range(-slack..=slack),
            );
            let vel =
                angle::from_angle(self.rng.gen_range(0.0..TAU)) * self.rng.gen_range(0.0..=speed);
            let color = self.rng.gen::<u32>();
            let e = self.settings.ball_elasticity;
            self.balls
                .push(Ball::new(cells.centre(free[k]) + jitter, vel, r, e, color));
        }
        let filled = Filled {
            balls: placed as u32,
            max_radius: hi * scale,
            short,
        };
        self.last_fill = Some(filled);
        filled
    }

    /// The cell grid and its free cells, shrinking the cells until `n` fit (or the cells
    /// would be too many).
    fn free_cells(&self, n: usize, r_max: f32) -> (Cells, Vec<usize>) {
        let mut side = first_side(self.bounds, r_max);
        let mut best = (Cells::new(self.bounds, side), Vec::new());
        for _ in 0..MAX_SHRINKS {
            if !Cells::fits(self.bounds, side) {
                break;
            }
            let cells = Cells::new(self.bounds, side);
            let free = self.cells_clear(&cells);
            let enough = free.len() >= n;
            let ratio = free.len().max(1) as f32 / n.max(1) as f32;
            best = (cells, free);
            if enough {
                break;
            }
            // Area per ball scales with side²; aim slightly below to fit in one more try.
            side *= ratio.sqrt().clamp(0.2, 0.99) * 0.98;
        }
        best
    }

    /// The cells of the largest 4-connected region of cells clear of obstacles and balls, in
    /// index order.
    fn cells_clear(&self, cells: &Cells) -> Vec<usize> {
        let mut open = vec![true; cells.len()];
        for b in &self.balls {
            cells.mark(&b.aabb(), &mut open, false);
        }
        let cover = cells.side * std::f32::consts::FRAC_1_SQRT_2;
        for (k, o) in open.iter_mut().enumerate() {
            *o = *o
                && !self
                    .shapes
                    .iter()
                    .any(|s| blocks(s, cells.centre(k), cover));
        }
        largest_region(cells, &open)
    }
}

/// The side of the first grid tried (px): cells of `2.1 · r_max`, or, where those would be
/// more than [`MAX_CELLS`], cells just large enough to be fewer (`side² · MAX_CELLS` a little
/// over the area). A play area whose size is not finite gets a side that lays no cell.
fn first_side(bounds: Aabb, r_max: f32) -> f32 {
    let fine = 2.0 * r_max * CELL_GAP;
    if Cells::fits(bounds, fine) {
        return fine;
    }
    let size = bounds.size().as_dvec2();
    ((size.x * size.y / MAX_CELLS as f64).sqrt() * COARSE_MARGIN) as f32
}

/// Why a fill of the grid `cells` placed only `placed` balls of radius up to `radius` (px).
fn shortfall(cells: &Cells, placed: usize, radius: f32) -> Shortfall {
    if cells.len() == 0 {
        Shortfall::TooSmall { radius }
    } else if placed == 0 {
        Shortfall::Covered { radius }
    } else {
        Shortfall::Crowded {
            room: placed as u32,
            radius,
        }
    }
}

/// The open cells of the largest 4-connected region, in index order: the table's field, not
/// a pocket sealed by walls (inside a closed arc, outside the outer wall, a separate lane).
fn largest_region(cells: &Cells, open: &[bool]) -> Vec<usize> {
    let mut label = vec![u32::MAX; open.len()];
    let (mut best, mut best_size, mut stack) = (u32::MAX, 0usize, Vec::new());
    for start in 0..open.len() {
        if !open[start] || label[start] != u32::MAX {
            continue;
        }
        let id = start as u32;
        let mut size = 0;
        label[start] = id;
        stack.push(start);
        while let Some(k) = stack.pop() {
            size += 1;
            for m in cells.neighbours(k) {
                if open[m] && label[m] == u32::MAX {
                    label[m] = id;
                    stack.push(m);
                }
            }
        }
        if size > best_size {
            (best, best_size) = (id, size);
        }
    }
    if best_size == 0 {
        // No cell is open: `best` is still the mark of an unlabelled cell, which every closed
        // cell carries, so filtering on it would hand back the blocked cells.
        return Vec::new();
    }
    (0..open.len()).filter(|&k| label[k] == best).collect()
}

/// `(lo, hi)` finite, positive and ordered.
fn sane_radii(radius: (f32, f32)) -> (f32, f32) {
    let (a, b) = radius;
    let fix = |r: f32| {
        if r.is_finite() {
            r.clamp(0.05, 1.0e4)
        } else {
            1.0
        }
    };
    let (a, b) = (fix(a), fix(b));
    (a.min(b), a.max(b))
}
