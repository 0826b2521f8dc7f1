//! Obstacle cells: statics and kinematic shapes against balls, for the grid broad phases.
//!
//! The grid rules (sector size > 2 × largest side, cell size ≥ largest side) are rules about
//! balls. Obstacles — long segments, big arcs, rotating arms — cannot follow them, so all three
//! grid algorithms handle them the same way, apart from the balls:
//!
//! - every obstacle is entered in **every** cell its box overlaps, so its size does not matter;
//!   statics once, kept between calls and rebuilt only when `statics_version`, their count or
//!   the cell size changes; kinematic shapes again on every call (they turn);
//! - each ball visits the cells its own box overlaps and box-tests the obstacles listed there;
//! - a pair met in several shared cells is reported only from the cell holding the corner
//!   `max(a.min, b.min)` of the two boxes' intersection. That corner lies inside both boxes,
//!   and cell coordinates and the clamp are monotone, so its cell is one of the cells both
//!   boxes were entered in: every overlapping pair is reported exactly once. The other
//!   sightings are counted as AABB tests and as `repeats_dropped`.
//!
//! Probe: a test belongs to the ball looking up the cell; each cell's heat is the tests made
//! in it; the focus visits every cell its box overlaps (`ObstacleCell`).
//!
//! Lattice: unshifted, the caller's cell size, covering the world box and every static box (at
//! most `MAX_DIM` cells per axis; kinematic shapes and balls outside are clamped onto the
//! border, which loses nothing, see [`super::cells`]). Its cell function ([`Flat`]) is single
//! precision and clamps before it converts: `(v − low edge) × cells per px`, clamped to the
//! range, truncated. Like the shared one it is monotone, which is all the once-only argument
//! above needs, and it costs a subtraction, a multiplication, two compares and a conversion
//! where the shared one (the balls' lattices') divides in double precision, floors and clamps
//! in 64-bit integers; every ball looks up its box's four edges in it at every call.
//!
//! Cost per call: kinematic entries (cells covered) + per ball, the obstacles listed in the ≤ 4
//! cells its box overlaps (when its side is at most the cell size). Statics cost their entries
//! only when rebuilt.

use super::cells::{region_of, Buckets, CellRange};
use crate::broad::{BroadCounters, BroadInput, Pair, Place, Probe};
use crate::geom::Aabb;
use crate::workers;

/// Obstacles entered in every cell they overlap; balls look them up.
#[derive(Clone, Debug, Default)]
pub(crate) struct ObstacleCells {
    /// The lattice of both lists.
    range: CellRange,
    /// Its cell function.
    flat: Flat,
    /// Static shapes, kept between calls.
    statics: Buckets,
    /// Kinematic shapes, rebuilt every call.
    kinematic: Buckets,
    /// `(statics_version, cell size bits, static count)` the statics were built for.
    built_for: Option<(u64, u64, usize)>,
    /// How many times the statics were rebuilt.
    rebuilds: u64,
}

impl ObstacleCells {
    /// Brings both lists up to date for `input` with cells of `size` px.
    pub(crate) fn update(&mut self, input: &BroadInput, size: f64) {
        let n = input.aabbs.len();
        let statics = input.first_moving.min(n);
        if input.first_dynamic.min(n) == 0 {
            // No obstacles at all: no lattice either (a fresh one is built when they come).
            self.set_lattice(CellRange::default());
            self.built_for = None;
            for list in [&mut self.statics, &mut self.kinematic] {
                list.clear();
                list.sort(0);
            }
            return;
        }
        let key = (input.statics_version, size.to_bits(), statics);
        if self.built_for != Some(key) {
            self.set_lattice(CellRange::covering(
                &region_of(&input.world, &input.aabbs[..statics]),
                size,
                (0.0, 0.0),
            ));
            enter_all(&self.flat, &mut self.statics, input.aabbs, 0..statics);
            self.built_for = Some(key);
            self.rebuilds += 1;
        }
        let moving = statics..input.first_dynamic.clamp(statics, n);
        enter_all(&self.flat, &mut self.kinematic, input.aabbs, moving);
    }

    /// Makes `range` the lattice, with its cell function.
    fn set_lattice(&mut self, range: CellRange) {
        self.flat = Flat::of(&range);
        self.range = range;
    }

    /// Appends every overlapping (obstacle, ball) pair, each once; counts the tests.
    /// With `probe`, each ball's tests are given to it, cell by cell (see `query_ball`).
    pub(crate) fn query(
        &self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
        mut probe: Option<&mut Probe>,
    ) {
        if self.statics.entries() + self.kinematic.entries() == 0 {
            return;
        }
        for ball in input.first_dynamic..input.aabbs.len() {
            self.query_ball(input.aabbs, ball, pairs, counters, probe.as_deref_mut());
        }
    }

    /// [`ObstacleCells::query`] without a probe on `threads` threads: the balls cut into
    /// runs (a few a thread), each run's pairs and counts into `parts` (kept by the caller), then
    /// appended in order: the same pairs in the same order, and the same counts, as one
    /// thread gives.
    pub(crate) fn query_on_threads(
        &self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
        threads: usize,
        parts: &mut Vec<(Vec<Pair>, BroadCounters)>,
    ) {
        if threads <= 1 || self.statics.entries() + self.kinematic.entries() == 0 {
            return self.query(input, pairs, counters, None);
        }
        let cuts = workers::parts(threads);
        parts.resize_with(cuts, Default::default);
        let balls = input.first_dynamic.min(input.aabbs.len())..input.aabbs.len();
        let n = balls.len();
        workers::each(threads, &mut parts[..cuts], |t, (found, c)| {
            found.clear();
            *c = BroadCounters::default();
            let run = balls.start + t * n / cuts..balls.start + (t + 1) * n / cuts;
            for ball in run {
                self.query_ball(input.aabbs, ball, found, c, None);
            }
        });
        for (found, c) in &parts[..cuts] {
            pairs.extend_from_slice(found);
            counters.aabb_tests += c.aabb_tests;
            counters.repeats_dropped += c.repeats_dropped;
        }
    }

    /// The obstacles met by one ball, from the cells its box overlaps.
    fn query_ball(
        &self,
        aabbs: &[Aabb],
        ball: usize,
        pairs: &mut Vec<Pair>,
        c: &mut BroadCounters,
        mut probe: Option<&mut Probe>,
    ) {
        let b = &aabbs[ball];
        let (c0, c1, r0, r1) = self.flat.box_cells(b);
        for row in r0..=r1 {
            // A row's cells are one run of each list: most balls fly where no obstacle is,
            // and two reads a list tell that for the whole row.
            let (first, last) = (self.flat.index(c0, row), self.flat.index(c1, row));
            let empty = self.statics.run_span(first, last).is_empty()
                && self.kinematic.run_span(first, last).is_empty();
            if empty && probe.is_none() {
                continue;
            }
            for col in c0..=c1 {
                let cell = self.flat.index(col, row);
                if let Some(p) = probe.as_deref_mut() {
                    self.probe_cell(p, ball as u32, cell, col, row);
                }
                for list in [self.statics.cell(cell), self.kinematic.cell(cell)] {
                    for &o in list {
                        c.aabb_tests += 1;
                        let a = &aabbs[o as usize];
                        if !a.overlaps(b) {
                            continue;
                        }
                        // Report only from the cell of the intersection's min corner.
                        if self.flat.index_of(a.min.max(b.min)) == cell {
                            pairs.push((o, ball as u32));
                        } else {
                            c.repeats_dropped += 1;
                        }
                    }
                }
            }
        }
    }

    /// Gives the tests ball `ball` makes in cell `cell` at `(col, row)` (one per obstacle
    /// listed there, as `query_ball` counts them) to it, to the cell's heat, and for the focus
    /// the cell and the obstacles.
    fn probe_cell(&self, p: &mut Probe, ball: u32, cell: usize, col: usize, row: usize) {
        let lists = [self.statics.cell(cell), self.kinematic.cell(cell)];
        let t = (lists[0].len() + lists[1].len()) as u64;
        let rect = self.range.cell_box(col, row);
        p.test(ball, t);
        p.visit(ball, Place::ObstacleCell, rect, t);
        p.place(Place::ObstacleCell, rect, t);
        if p.is_focus(ball) {
            p.against.extend(lists.iter().flat_map(|l| l.iter()));
        }
    }

    /// Cells holding at least one obstacle (static or kinematic).
    pub(crate) fn occupied(&self) -> usize {
        (0..self.statics.cells())
            .filter(|&c| !self.statics.cell(c).is_empty() || !self.kinematic.cell(c).is_empty())
            .count()
    }

    /// The lattice of both lists.
    pub(crate) fn lattice(&self) -> &CellRange {
        &self.range
    }

    /// How many times the static list was (re)built.
    pub(crate) fn rebuilds(&self) -> u64 {
        self.rebuilds
    }

    /// Checks both lists.
    pub(crate) fn validate(&self) -> Result<(), String> {
        self.statics
            .validate()
            .map_err(|e| format!("static cells: {e}"))?;
        self.kinematic
            .validate()
            .map_err(|e| format!("kinematic cells: {e}"))?;
        let cells = self.range.cells();
        if self.built_for.is_some()
            && (self.statics.cells() != cells || self.kinematic.cells() != cells)
        {
            return Err("obstacle lists and lattice disagree on the cell count".into());
        }
        Ok(())
    }
}

/// Enters each box of `ids` in every cell of `lattice` it overlaps, then sorts the buckets.
fn enter_all(lattice: &Flat, buckets: &mut Buckets, aabbs: &[Aabb], ids: std::ops::Range<usize>) {
    buckets.clear();
    for id in ids {
        let (c0, c1, r0, r1) = lattice.box_cells(&aabbs[id]);
        for row in r0..=r1 {
            for col in c0..=c1 {
                buckets.push(lattice.index(col, row), id);
            }
        }
    }
    buckets.sort(lattice.cells());
}

/// The obstacle lattice's cell function (see the module notes): a coordinate's column is
/// `(x − x0) · inv` clamped to `0 ..= last.0` and truncated, its row likewise.
#[derive(Clone, Copy, Debug, Default)]
struct Flat {
    /// The low edges of the first column and row (px).
    x0: f32,
    y0: f32,
    /// Cells per px.
    inv: f32,
    /// The last column and row.
    last: (f32, f32),
    /// Columns.
    cols: usize,
    /// Columns × rows.
    cells: usize,
}

impl Flat {
    /// The cell function of unshifted lattice `range`.
    fn of(range: &CellRange) -> Self {
        let (cols, rows) = range.dims;
        let edge = |origin: i64| (origin as f64 * range.size) as f32;
        let inv = (1.0 / range.size) as f32;
        Self {
            x0: edge(range.origin.0),
            y0: edge(range.origin.1),
            inv: if inv.is_finite() && inv > 0.0 {
                inv
            } else {
                0.0
            },
            last: (cols.saturating_sub(1) as f32, rows.saturating_sub(1) as f32),
            cols,
            cells: cols * rows,
        }
    }

    /// Cell coordinate of `v` on an axis starting at `low`, at most `last`.
    #[inline(always)]
    fn coord(&self, v: f32, low: f32, last: f32) -> usize {
        // `max` takes a NaN to 0; infinities clamp to the ends.
        let k = ((v - low) * self.inv).max(0.0).min(last);
        // SAFETY: `k` lies in `0 ..= last`, and `last` (a count of cells) is far below
        // `i32::MAX`, so the truncation is in range.
        (unsafe { k.to_int_unchecked::<i32>() }) as usize
    }

    /// Columns and rows `(c0, c1, r0, r1)` (inclusive) that box `b` overlaps.
    #[inline(always)]
    fn box_cells(&self, b: &Aabb) -> (usize, usize, usize, usize) {
        (
            self.coord(b.min.x, self.x0, self.last.0),
            self.coord(b.max.x, self.x0, self.last.0),
            self.coord(b.min.y, self.y0, self.last.1),
            self.coord(b.max.y, self.y0, self.last.1),
        )
    }

    /// Flat index of column `c`, row `r`.
    #[inline(always)]
    fn index(&self, c: usize, r: usize) -> usize {
        r * self.cols + c
    }

    /// Flat index of the cell holding point `p`.
    #[inline(always)]
    fn index_of(&self, p: glam::Vec2) -> usize {
        let c = self.coord(p.x, self.x0, self.last.0);
        self.index(c, self.coord(p.y, self.y0, self.last.1))
    }

    /// Columns × rows.
    fn cells(&self) -> usize {
        self.cells
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn input(aabbs: &[Aabb], first_moving: usize, first_dynamic: usize, v: u64) -> BroadInput<'_> {
        BroadInput {
            aabbs,
            first_moving,
            first_dynamic,
            statics_version: v,
            world: Aabb::new(Vec2::ZERO, Vec2::splat(256.0)),
        }
    }

    #[test]
    fn long_static_met_once_by_a_ball_spanning_four_cells() {
        let wall = Aabb::new(Vec2::new(-500.0, 60.0), Vec2::new(900.0, 70.0));
        let ball = Aabb::new(Vec2::new(60.0, 60.0), Vec2::new(70.0, 70.0));
        let boxes = [wall, ball];
        let inp = input(&boxes, 1, 1, 0);
        let mut oc = ObstacleCells::default();
        oc.update(&inp, 64.0);
        let (mut pairs, mut c) = (Vec::new(), BroadCounters::default());
        oc.query(&inp, &mut pairs, &mut c, None);
        assert_eq!(pairs, vec![(0, 1)]);
        assert_eq!(c.repeats_dropped, 3, "met in 4 cells, reported from one");
        oc.validate().unwrap();
    }

    #[test]
    fn the_cell_function_is_monotone_and_clamped_whatever_the_coordinate() {
        let range = CellRange::covering(
            &Aabb::new(Vec2::new(-37.5, 10.25), Vec2::new(900.0, 700.0)),
            10.3,
            (0.0, 0.0),
        );
        let flat = Flat::of(&range);
        let mut xs: Vec<f32> = (-2000..12000).map(|k| k as f32 * 0.0973).collect();
        xs.extend([
            f32::MIN,
            -1e30,
            1e30,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ]);
        xs.sort_by(f32::total_cmp);
        let cols: Vec<usize> = xs
            .iter()
            .map(|&x| flat.coord(x, flat.x0, flat.last.0))
            .collect();
        assert!(cols.windows(2).all(|w| w[0] <= w[1]), "monotone");
        assert_eq!(cols[0], 0);
        assert_eq!(*cols.last().unwrap(), range.dims.0 - 1);
        assert_eq!(
            flat.coord(f32::NAN, flat.x0, flat.last.0),
            0,
            "NaN clamps to 0"
        );
    }

    #[test]
    fn every_overlapping_pair_is_met_once_even_on_cell_edges() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        // Corners on the lattice's edges (multiples of the cell size) and between them.
        let corner = |rng: &mut rand_chacha::ChaCha8Rng| {
            let v = |rng: &mut rand_chacha::ChaCha8Rng| match rng.gen_range(0..3) {
                0 => rng.gen_range(-3..40) as f32 * 7.7,
                _ => rng.gen_range(-30.0..300.0),
            };
            Vec2::new(v(rng), v(rng))
        };
        let mut boxes = Vec::new();
        for k in 0..400 {
            let a = corner(&mut rng);
            let side = if k < 40 { 60.0 } else { 9.0 };
            let b = a + Vec2::new(rng.gen_range(0.0..side), rng.gen_range(0.0..side));
            boxes.push(Aabb::new(a, b));
        }
        let (statics, shapes) = (30, 40);
        let inp = input(&boxes, statics, shapes, 1);
        let mut oc = ObstacleCells::default();
        oc.update(&inp, 7.7);
        let (mut pairs, mut c) = (Vec::new(), BroadCounters::default());
        oc.query(&inp, &mut pairs, &mut c, None);
        let mut want = Vec::new();
        for ball in shapes..boxes.len() {
            for o in 0..shapes {
                if boxes[o].overlaps(&boxes[ball]) {
                    want.push((o as u32, ball as u32));
                }
            }
        }
        pairs.sort_unstable();
        want.sort_unstable();
        assert!(want.len() > 100);
        assert_eq!(pairs, want);
    }

    #[test]
    fn statics_rebuilt_only_when_version_or_size_changes() {
        let boxes = [Aabb::new(Vec2::ZERO, Vec2::splat(10.0))];
        let mut oc = ObstacleCells::default();
        oc.update(&input(&boxes, 1, 1, 7), 32.0);
        oc.update(&input(&boxes, 1, 1, 7), 32.0);
        assert_eq!(oc.rebuilds(), 1);
        oc.update(&input(&boxes, 1, 1, 8), 32.0);
        oc.update(&input(&boxes, 1, 1, 8), 64.0);
        assert_eq!(oc.rebuilds(), 3);
    }
}
