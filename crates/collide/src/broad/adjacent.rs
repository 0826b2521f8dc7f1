//! Adjacent sectors: the alternative the four-shifts article (Moertel 1994) analyses and
//! rejects, implemented as analysed so the two can be compared on the same balls.
//!
//! **Algorithm.** One grid of square sectors of side `s` (no shift). Each ball goes into the
//! sector holding its box's min corner (counting sort). Then for **every** sector `S` of the
//! grid, the balls of the 3 × 3 block of sectors around `S` are gathered — `L` of them — and
//! tested all against all, `L(L − 1)/2` box tests, exactly the article's cost model
//! (`L = 9K` on average: `(81K² − 9K)/2` per sector against the four shifts' `2K(K − 1)`).
//!
//! **Exact.** Two overlapping balls have min corners at most `m` (largest side) apart per axis,
//! so with `s ≥ m` their sectors are the same or adjacent (checked with the sectors' own
//! rounding), and the block around either holds both. This method needs only `s ≥ m`, but it
//! applies the four-shifts rule `s > 2m` (raised per call the same way, see
//! [`super::sectors`]) so both run on identical grids.
//!
//! **Counted.** `aabb_tests` is `Σ L(L − 1)/2` over all sectors of the grid (the world box and
//! the balls, at most `max(MAX_DIM², 4n)` sectors for `n` balls), plus the obstacle tests. A pair is met in every
//! block holding both balls — 9 blocks for two balls in one interior sector, 4 or 6 across a
//! sector line — and reported once, from the first block (row-major) that holds both; the
//! extra sightings are `repeats_dropped`. That repetition
//! is the article's point: its cost is what makes adjacent sectors ~20 times dearer.
//!
//! **Obstacles** (statics and kinematic shapes) are handled as in the other grid methods, in
//! `grid/obstacles.rs`.
//!
//! **Probe.** Inside a block the test of two balls belongs to the one the loop is working
//! for, the earlier in the block's list: the k-th of `L` gets `L − 1 − k`. A block's heat is its
//! `L(L − 1)/2`, given to the sector the block is around (`Block`, at that sector's box: the
//! blocks overlap, their centres tile the grid); the focus visits every block holding it (at
//! the 3 × 3 sectors' box). Obstacle tests as in `grid/obstacles.rs`. Nothing belongs to the
//! structure.

use super::grid::cells::{
    cell_of_each, draw_lattice, pairs_within_first, probe_within, region_of, within_two_cells,
    Buckets, CellRange,
};
use super::grid::obstacles::ObstacleCells;
use super::pair_keys::PairKeys;
use super::sectors::{checked_size, chosen_size, rule_text, size_param, SizeChoice};
use super::sectors::{DEFAULT_SIZE, SIZE};
use super::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair, Param, ParamError};
use super::{BroadInfo, Place, Places, Probe};
use crate::debug_draw::{DebugDraw, Prim, Rgba};
use crate::geom::Aabb;

/// The adjacent-sectors broad phase.
#[derive(Clone, Debug)]
pub struct Adjacent {
    /// Sector size set by the user (px).
    size: f32,
    /// Size used by the last call (px).
    working: f64,
    /// Largest ball side seen by the last call (px).
    largest: f64,
    /// How `working` was chosen.
    choice: SizeChoice,
    /// The grid of the last call.
    range: CellRange,
    /// Balls by sector.
    balls: Buckets,
    /// Ball index range of the last call.
    ball_ids: std::ops::Range<usize>,
    /// Sector column of each ball, by ball index − first ball.
    cols: Vec<u32>,
    /// Sector row of each ball, by ball index − first ball.
    rows: Vec<u32>,
    /// The balls of one 3 × 3 block (scratch, reused).
    block: Vec<u32>,
    /// The balls' boxes in sector order (beside `balls`' items), and those of `block`.
    boxes: Vec<Aabb>,
    block_boxes: Vec<Aabb>,
    obstacles: ObstacleCells,
    /// The pairs' radix sort.
    keys: PairKeys,
}

/// What adjacent sectors declare: the sector size and its rule are the four shifts'.
pub(crate) const DESCRIPTION: BroadInfo = BroadInfo {
    name: "adjacent",
    label: "Adjacent sectors",
    colour: [120, 170, 240],
    places: Some(Places {
        word: "sector",
        heat_alpha: 0.5,
    }),
    params: &[SIZE],
    create: || Box::new(Adjacent::default()),
};

impl Default for Adjacent {
    fn default() -> Self {
        Self {
            size: DEFAULT_SIZE,
            working: DEFAULT_SIZE as f64,
            largest: 0.0,
            choice: SizeChoice::AsSet,
            range: CellRange::default(),
            balls: Buckets::default(),
            ball_ids: 0..0,
            cols: Vec::new(),
            rows: Vec::new(),
            block: Vec::new(),
            boxes: Vec::new(),
            block_boxes: Vec::new(),
            obstacles: ObstacleCells::default(),
            keys: PairKeys::default(),
        }
    }
}

impl Adjacent {
    /// The sector size used by the last call (px), after the rule.
    #[cfg(test)]
    pub(crate) fn working_size(&self) -> f64 {
        self.working
    }

    /// Applies the four-shifts rule, then makes sure no ball spans three sectors.
    fn choose_size(&mut self, balls: &[Aabb]) {
        (self.largest, self.working, self.choice) = chosen_size(self.size, balls, within_two_cells);
    }

    /// Sorts the balls into sectors by min corner, keeping each ball's column and row.
    fn sort_balls(&mut self, aabbs: &[Aabb]) {
        self.cols.clear();
        self.rows.clear();
        self.balls.clear();
        for b in self.ball_ids.clone() {
            let (col, row) = (
                self.range.col(aabbs[b].min.x),
                self.range.row(aabbs[b].min.y),
            );
            self.cols.push(col as u32);
            self.rows.push(row as u32);
            self.balls.push(self.range.index(col, row), b);
        }
        let out = (&mut self.boxes, &mut Vec::new());
        self.balls
            .sort_with(self.range.cells(), |_, b| (aabbs[b as usize], ()), out);
    }

    /// Gathers the balls of the 3 × 3 block around sector `(c, r)` into `self.block`: three
    /// runs of three cells, each contiguous in the row-major bucket array.
    fn gather_block(&mut self, c: usize, r: usize) {
        self.block.clear();
        self.block_boxes.clear();
        let (w, h) = self.range.dims;
        let (c0, c1) = (c.saturating_sub(1), (c + 1).min(w - 1));
        for row in r.saturating_sub(1)..=(r + 1).min(h - 1) {
            let (first, last) = (self.range.index(c0, row), self.range.index(c1, row));
            let span = self.balls.run_span(first, last);
            self.block
                .extend_from_slice(&self.balls.items()[span.clone()]);
            self.block_boxes.extend_from_slice(&self.boxes[span]);
        }
    }

    /// The 3 × 3 block of sectors around sector `(c, r)`, cut at the grid's edges (px).
    fn block_box(&self, c: usize, r: usize) -> Aabb {
        let (w, h) = self.range.dims;
        let (c0, c1) = (c.saturating_sub(1), (c + 1).min(w - 1));
        let (r0, r1) = (r.saturating_sub(1), (r + 1).min(h - 1));
        let g = &self.range;
        g.cell_box(c0, r0).merged(&g.cell_box(c1, r1))
    }

    /// Every sector with its eight neighbours: `Σ L(L − 1)/2` tests. A pair is kept only in the
    /// first block (row-major) holding both balls, the one centred at
    /// `(max col − 1, max row − 1)` (clamped at 0); the other sightings are repeats.
    fn test_blocks(
        &mut self,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
        mut probe: Option<&mut Probe>,
    ) {
        let (w, h) = self.range.dims;
        let f = self.ball_ids.start as u32;
        for r in 0..h {
            for c in 0..w {
                self.gather_block(c, r);
                let (cols, rows) = (&self.cols, &self.rows);
                let block = &self.block;
                let first = |k: usize, l: usize| {
                    let (i, j) = ((block[k] - f) as usize, (block[l] - f) as usize);
                    let fc = cols[i].max(cols[j]).saturating_sub(1) as usize;
                    let fr = rows[i].max(rows[j]).saturating_sub(1) as usize;
                    (fc, fr) == (c, r)
                };
                pairs_within_first(&self.block, &self.block_boxes, pairs, counters, first);
                if let Some(p) = probe.as_deref_mut() {
                    let (rect, heat_at) = (self.block_box(c, r), self.range.cell_box(c, r));
                    probe_within(&self.block, p, Place::Block, rect, heat_at);
                }
            }
        }
    }
}

impl Adjacent {
    /// One call, recording the work per ball in `probe` when given.
    fn run(
        &mut self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
        mut probe: Option<&mut Probe>,
    ) {
        pairs.clear();
        let n = input.aabbs.len();
        self.ball_ids = input.first_dynamic.min(n)..n;
        let balls = &input.aabbs[self.ball_ids.clone()];
        self.choose_size(balls);
        let region = region_of(&input.world, balls);
        self.range = CellRange::covering_for(&region, self.working, (0.0, 0.0), balls.len());
        self.sort_balls(input.aabbs);
        self.test_blocks(pairs, counters, probe.as_deref_mut());
        self.obstacles.update(input, self.working);
        self.obstacles.query(input, pairs, counters, probe);
        counters.repeats_dropped += self.keys.sort_pairs(pairs, input.aabbs.len());
        counters.pairs += pairs.len() as u64;
    }
}

impl BroadPhase for Adjacent {
    fn kind(&self) -> BroadKind {
        BroadKind::Adjacent
    }

    fn find_pairs_with(
        &mut self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
        probe: Option<&mut Probe>,
    ) {
        self.run(input, pairs, counters, probe);
    }

    fn validate(&self) -> Result<(), String> {
        if self.choice != SizeChoice::Rounding && self.working <= 2.0 * self.largest {
            return Err(format!(
                "sector size {} not above 2 × {}",
                self.working, self.largest
            ));
        }
        self.balls.validate()?;
        if self.balls.cells() != self.range.cells() {
            return Err("buckets and sector range disagree".into());
        }
        let cells = cell_of_each(&self.balls, self.ball_ids.clone())?;
        for (k, &c) in cells.iter().enumerate() {
            if c != self
                .range
                .index(self.cols[k] as usize, self.rows[k] as usize)
            {
                return Err(format!(
                    "ball {} outside its sector",
                    self.ball_ids.start + k
                ));
            }
        }
        self.obstacles.validate()
    }

    fn params(&self) -> Vec<Param> {
        vec![size_param(self.size)]
    }

    fn set_param(&mut self, name: &str, value: f32) -> Result<(), ParamError> {
        match name {
            "sector size" => {
                self.size = checked_size(value)?;
                Ok(())
            }
            _ => Err(ParamError::unknown(self.kind(), name)),
        }
    }

    fn stats(&self) -> Vec<(&'static str, String)> {
        vec![
            ("sector size", format!("{} px", self.working)),
            (
                "rule",
                rule_text(
                    self.size,
                    self.working,
                    self.largest,
                    self.choice,
                    self.ball_ids.len(),
                ),
            ),
            ("sectors used", self.balls.occupied().to_string()),
            (
                "max balls per sector",
                self.balls.max_per_cell().to_string(),
            ),
            ("obstacle cells", self.obstacles.occupied().to_string()),
            ("static rebuilds", self.obstacles.rebuilds().to_string()),
        ]
    }

    fn debug_draw(&self, draw: &mut dyn DebugDraw) {
        let (w, h) = self.range.dims;
        if w * h == 0 {
            return;
        }
        let shade = Some(Rgba::palette(1).with_alpha(0.2));
        for r in 0..h {
            for c in 0..w {
                if !self.balls.cell(self.range.index(c, r)).is_empty() {
                    let aabb = self.range.cell_box(c, r);
                    draw.draw(Prim::Rect {
                        aabb,
                        fill: shade,
                        stroke: None,
                    });
                }
            }
        }
        let extent = self
            .range
            .cell_box(0, 0)
            .merged(&self.range.cell_box(w - 1, h - 1));
        draw_lattice(
            draw,
            &extent,
            self.working,
            (0.0, 0.0),
            Rgba::palette(6).with_alpha(0.3),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn input(aabbs: &[Aabb]) -> BroadInput<'_> {
        BroadInput {
            aabbs,
            first_moving: 0,
            first_dynamic: 0,
            statics_version: 0,
            world: Aabb::new(Vec2::ZERO, Vec2::splat(512.0)),
        }
    }

    fn run(a: &mut Adjacent, inp: &BroadInput) -> (Vec<Pair>, BroadCounters) {
        let (mut pairs, mut c) = (Vec::new(), BroadCounters::default());
        a.find_pairs(inp, &mut pairs, &mut c);
        a.validate().unwrap();
        (pairs, c)
    }

    #[test]
    fn coincident_balls_in_an_interior_sector_found_nine_times() {
        let b = Aabb::around(Vec2::new(300.0, 200.0), 5.0);
        let (pairs, c) = run(&mut Adjacent::default(), &input(&[b, b]));
        assert_eq!(pairs, vec![(0, 1)]);
        assert_eq!(
            c.aabb_tests, 9,
            "L = 2 in each of the 9 blocks holding the sector"
        );
        assert_eq!(c.repeats_dropped, 8);
    }

    #[test]
    fn counts_l_times_l_minus_one_over_two_per_block() {
        // Three balls in one interior sector, one more two sectors to the right.
        let a = Aabb::around(Vec2::new(300.0, 200.0), 2.0);
        let far = Aabb::around(Vec2::new(300.0 + 128.0, 200.0), 2.0);
        let (_, c) = run(&mut Adjacent::default(), &input(&[a, a, a, far]));
        // Sector (4, 3) holds the three; `far` is in (6, 3). Blocks centred in columns 3..=5
        // (rows 2..=4) hold the three: 9 blocks × 3 tests; blocks centred in column 5 also
        // hold `far`: 3 blocks × (6 − 3) more; blocks in columns 6..=7 hold `far` alone.
        assert_eq!(c.aabb_tests, 9 * 3 + 3 * 3);
    }

    #[test]
    fn negative_coordinates_across_a_sector_corner() {
        let a = Aabb::new(Vec2::new(-70.0, -70.0), Vec2::new(-64.0, -64.0));
        let b = Aabb::new(Vec2::new(-64.0, -64.0), Vec2::new(-60.0, -60.0));
        let (pairs, _) = run(&mut Adjacent::default(), &input(&[a, b]));
        assert_eq!(pairs, vec![(0, 1)]);
    }

    #[test]
    fn same_rule_as_four_shifts() {
        let big = Aabb::new(Vec2::ZERO, Vec2::splat(64.0));
        let mut a = Adjacent::default();
        run(&mut a, &input(&[big]));
        assert_eq!(a.working_size(), 130.0);
        assert!(a.set_param("sector size", 0.0).is_err());
    }
}
