//! Uniform grid: the modern form of the sector method.
//!
//! **Algorithm.** Square cells of side `c`, at least the largest ball side `m`. Each ball goes
//! into the one cell holding its box's min corner, by two counting sorts (bands of rows, then
//! cells within a band) into flat arrays holding each ball's index, box and cell code in cell
//! order, a window of a few bands at a time (see `ball_cells/`; reused, so a steady-state
//! call allocates nothing). Then each ball is tested against the later balls of its cell and
//! against 4 of its cell's 8 neighbours — `(+1, 0)`, `(−1, +1)`, `(0, +1)`, `(+1, +1)` — so
//! every pair of neighbouring cells is visited exactly once and no pair is ever found twice
//! (`repeats_dropped` stays 0 for balls); of those, only the cells its box reaches into (a
//! ball whose min corner lies in a column or row the box does not reach cannot overlap it).
//! The own cell and its right-hand neighbour are one contiguous run of boxes, the cells below
//! another; the boxes are stored coordinate by coordinate, so four 4-wide compares test four
//! candidates. Pairs are found in cell order and put in index order as `u64` keys, radix
//! sorted on the first index (`pair_keys.rs`).
//!
//! **Steady state.** A call first tries the last call's range and cell size: one pass over
//! the boxes gathers their region and largest side while scattering them into bands (room
//! per band from the last call's counts). If the region and side choose that same range and
//! size, and no band overflowed, the call goes on from there; otherwise it starts again with
//! a pass for the region, one to count and one to scatter. Same result either way.
//!
//! **Exact.** Two overlapping balls with `a.min ≤ b.min` on an axis have `b.min ≤ a.max`, so
//! `col(b.min) − col(a.min) ≤ col(a.max) − col(a.min) ≤ 1` as long as no ball box spans more
//! than two cells per axis, which `c ≥ m` gives; that is re-checked with the cells' own
//! rounding, and `c` doubled if it ever fails. So the two cells are equal or neighbours.
//!
//! **Cell size.** Param "cell size" (px); 0 (the default) is automatic: the smallest power of
//! two ≥ `max(m, 8)` px. A power of two keeps the cell size — and so the cached statics —
//! unchanged while ball sizes vary a little, and makes `x / c` exact. A set size below `m` is
//! raised for the call to that same automatic value, and [`Grid::stats`] says so.
//!
//! **Obstacles** (statics, possibly far larger than a cell, and kinematic shapes) are entered
//! in every cell they overlap, statics once and kept between calls (rebuilt when
//! `statics_version` or the cell size changes); see `obstacles.rs`.
//!
//! **Threads.** From 8,192 balls the pair search and the obstacle query run on the threads
//! it is given ([`BroadPhase::set_threads`]): for the search the whole sort first, then the
//! balls in cell order cut into one run a thread, each searched into keys of its own,
//! appended in order (the key sort puts them in one order); for the obstacles the balls in
//! index order cut likewise, their pairs appended in order. The pairs and the counts are the
//! same on any number of threads; the sorts stay on one.
//!
//! **Probe.** A ball-pair test belongs to the ball whose search made it (the one tested
//! against the later balls of its cell and the forward neighbours), and to its own cell's
//! heat; the focus visits the cells its search read, its tests beside its own cell. Obstacle
//! tests as in `obstacles.rs`. Nothing belongs to the structure. The record is taken in the
//! search loop only when asked; the focus's partners are listed, one per test: the balls of
//! the two runs its search read, then the obstacles of its cells.
//!
//! **Cost** (what `aabb_tests` counts): `Σ K(K − 1)/2` over occupied cells, plus for each ball
//! the balls of the forward neighbours its box reaches into, plus the obstacle tests; sorting
//! is O(n + cells), the pairs O(pairs).
//! The cell array covers the balls' bounding box, at most `max(MAX_DIM², 4n)` cells for `n`
//! balls (clamped beyond, which keeps neighbours neighbours), so uniformly spread balls never
//! pile into border cells however many there are.

use super::pair_keys::PairKeys;
use super::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair, Param, ParamError};
use super::{BroadInfo, Place, Places, Probe};
use crate::debug_draw::{DebugDraw, Prim, Rgba};
use crate::geom::Aabb;
use ball_cells::{BallCells, Extent, MAX_STORED_CELLS};
use cells::CellRange;
use obstacles::ObstacleCells;

mod about;
mod ball_cells;
pub(crate) mod cells;
pub(crate) mod obstacles;

use about::{checked_size, CELL_SIZE};

/// What the uniform grid declares.
pub(crate) const DESCRIPTION: BroadInfo = BroadInfo {
    name: "grid",
    label: "Uniform grid",
    colour: [150, 80, 200],
    places: Some(Places {
        word: "cell",
        heat_alpha: 0.5,
    }),
    params: &[CELL_SIZE],
    create: || Box::new(Grid::default()),
};

/// Why a size was chosen without a ball to fit: the last call was given none (there is none,
/// or every ball sleeps: the world shows a sleeping ball to the broad phase as a static box,
/// which the panel says). Short, so the read-out takes no more lines than with balls.
pub(crate) const NO_BALLS: &str = "no ball was given";

/// Smallest automatic cell size (px).
pub(crate) const MIN_AUTO: f64 = 8.0;

/// Most cells per axis.
const MAX_AXIS: usize = 1 << 23;

/// The automatic cell size for largest ball side `largest`: a power of two ≥ `max(largest, 8)`.
pub(crate) fn auto_cell_size(largest: f64) -> f64 {
    let mut c = MIN_AUTO;
    for _ in 0..64 {
        if c >= largest {
            break;
        }
        c *= 2.0;
    }
    c
}

/// How the working cell size of the last call was chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
enum CellChoice {
    /// Automatic (param 0).
    Auto,
    /// The set size obeys the rule.
    AsSet,
    /// The set size was below the largest ball side; raised.
    Raised,
    /// A ball spanned three cells by float rounding; the size was doubled.
    Rounding,
}

/// The uniform-grid broad phase.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Cell size set by the user (px); 0 is automatic.
    size: f32,
    /// Cell size used by the last call (px).
    working: f64,
    /// Largest ball side seen by the last call (px).
    largest: f64,
    choice: CellChoice,
    /// The cells of the last call.
    range: CellRange,
    /// Balls by cell.
    balls: BallCells,
    /// Pairs of the last call as sortable keys.
    keys: PairKeys,
    /// Ball index range of the last call.
    ball_ids: std::ops::Range<usize>,
    obstacles: ObstacleCells,
    /// Each thread's obstacle pairs and counts of a query on several threads (kept).
    obstacle_parts: Vec<(Vec<Pair>, BroadCounters)>,
    /// Calls whose balls were sorted in one pass with the last call's range.
    one_pass: u64,
}

impl Default for Grid {
    fn default() -> Self {
        Self {
            size: 0.0,
            working: MIN_AUTO,
            largest: 0.0,
            choice: CellChoice::Auto,
            range: CellRange::default(),
            balls: BallCells::default(),
            keys: PairKeys::default(),
            ball_ids: 0..0,
            obstacles: ObstacleCells::default(),
            obstacle_parts: Vec::new(),
            one_pass: 0,
        }
    }
}

impl Grid {
    #[cfg(test)]
    /// A grid with cells of `size` px, or automatic for 0.
    pub fn new(size: f32) -> Result<Self, ParamError> {
        Ok(Self {
            size: checked_size(size)?,
            ..Self::default()
        })
    }

    /// The cell size used by the last call (px).
    #[cfg(test)]
    pub(crate) fn working_size(&self) -> f64 {
        self.working
    }

    /// Applies the rule `c ≥ m` to this call's balls, sorts them into cells (doubling the size
    /// if a ball spans three cells by rounding) and searches their pairs into `self.keys`;
    /// returns the box tests.
    fn sort_balls(&mut self, aabbs: &[Aabb]) -> u64 {
        let first = self.ball_ids.start;
        let balls = &aabbs[self.ball_ids.clone()];
        let n = balls.len();
        // Steady state: the last call's range, in one pass, kept if this call's balls choose
        // it too.
        if self.choice != CellChoice::Rounding {
            let (last, size) = ((self.range, self.working, self.choice), self.size);
            let same = |region: &Aabb, largest| choose(size, region, largest, n) == last;
            let built = self
                .balls
                .build_hinted(&self.range, balls, first, same, &mut self.keys);
            if let Some((_, largest, tests)) = built {
                self.largest = largest;
                self.one_pass += 1;
                return tests;
            }
        }
        let (region, largest) = extent(balls);
        self.largest = largest;
        (self.range, self.working, self.choice) = choose(self.size, &region, largest, n);
        for _ in 0..8 {
            self.keys.clear(self.ball_ids.end);
            if let Some(tests) = self.balls.build(&self.range, balls, first, &mut self.keys) {
                return tests;
            }
            self.working *= 2.0;
            self.choice = CellChoice::Rounding;
            self.range = fitted_range(&region, self.working, n);
        }
        // Only for boxes with NaN or infinite coordinates.
        self.keys.clear(self.ball_ids.end);
        self.balls.pairs(&mut self.keys)
    }

    /// The "rule" line of the stats panel.
    fn rule_text(&self) -> String {
        let (set, work, m) = (self.size, self.working, self.largest);
        if self.ball_ids.is_empty() {
            let size = match self.choice {
                CellChoice::Auto => format!("automatic {work} px, the smallest"),
                _ => format!("{work} px"),
            };
            return format!("{size}: {NO_BALLS}");
        }
        match self.choice {
            CellChoice::Auto => {
                format!("automatic {work} px: power of two ≥ largest ball side {m:.1} px")
            }
            CellChoice::AsSet => format!("{set} ≥ largest ball side {m:.1} px: ok"),
            CellChoice::Raised => {
                format!("cell raised from {set} to {work}: largest ball side {m:.1} px")
            }
            CellChoice::Rounding => {
                format!("cell raised from {set} to {work}: a ball spanned three cells by rounding")
            }
        }
    }
}

/// The box holding every box of `boxes` (the zero box for none), and their largest side
/// (px; each side the f32 difference `max − min`, which may round a hair below the exact
/// side: the rule `c ≥ m` is applied to it, and exactness rests on the cells' own re-check of
/// every ball, not on it).
#[inline(never)]
fn extent(boxes: &[Aabb]) -> (Aabb, f64) {
    if boxes.is_empty() {
        return (Aabb::default(), 0.0);
    }
    let mut e = Extent::default();
    for b in boxes {
        e.add(b);
    }
    e.get()
}

/// The cell range, size and rule for `n` balls covering `region`, the largest side `largest`
/// (px), with the size parameter `size`.
fn choose(size: f32, region: &Aabb, largest: f64, n: usize) -> (CellRange, f64, CellChoice) {
    let auto = auto_cell_size(largest);
    let (working, choice) = match size as f64 {
        0.0 => (auto, CellChoice::Auto),
        s if s >= largest => (s, CellChoice::AsSet),
        _ => (auto, CellChoice::Raised),
    };
    (fitted_range(region, working, n), working, choice)
}

/// The cells of size `working` covering `region` for `n` balls, within the ball cells'
/// limits: they compute in f32, exact for whole numbers below 2^24 (cut cells are clamped onto
/// the border, as beyond any range), and number their cells in 30 bits.
fn fitted_range(region: &Aabb, working: f64, n: usize) -> CellRange {
    let mut range = CellRange::covering_for(region, working, (0.0, 0.0), n);
    let dims = &mut range.dims;
    (dims.0, dims.1) = (dims.0.min(MAX_AXIS), dims.1.min(MAX_AXIS));
    while (dims.0 + 2) * (dims.1 + 1) >= MAX_STORED_CELLS {
        let longer = if dims.0 >= dims.1 {
            &mut dims.0
        } else {
            &mut dims.1
        };
        *longer /= 2;
    }
    range
}

impl Grid {
    /// One call; the obstacle tests go to `probe` when given (the balls' through
    /// `BallCells::record`).
    fn run(
        &mut self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
        probe: Option<&mut Probe>,
    ) {
        pairs.clear();
        let n = input.aabbs.len();
        self.ball_ids = input.first_dynamic.min(n)..n;
        self.keys.clear(n);
        // Room for a pair per ball: enough at the scale benchmark's density (0.74), so that
        // a fresh grid does not double its key buffer seven times on the way to 100,000.
        self.keys.reserve(self.ball_ids.len());
        counters.aabb_tests += self.sort_balls(input.aabbs);
        self.obstacles.update(input, self.working);
        let threads = self.balls.search_threads();
        match probe {
            None if threads > 1 => {
                let parts = &mut self.obstacle_parts;
                (self.obstacles).query_on_threads(input, pairs, counters, threads, parts);
            }
            probe => self.obstacles.query(input, pairs, counters, probe),
        }
        self.keys.extend(pairs);
        counters.repeats_dropped += self.keys.sorted_into_on(pairs, threads);
        counters.pairs += pairs.len() as u64;
    }

    /// Gives each ball the tests its pair search counted (`rec`), to its own cell's heat,
    /// and for the focus the cells searched, its tests beside its own cell.
    fn probe_searched(&self, rec: &ball_cells::Record, probe: &mut Probe) {
        // The focus's partners in the pair search come before its obstacles' (listed by the
        // obstacle query, which ran after the search).
        if probe.focus.is_some() {
            let obstacles = std::mem::take(&mut probe.against);
            probe.against.extend(&rec.against);
            probe.against.extend(obstacles);
        }
        for &(id, code, t) in &rec.searched {
            probe.test(id, t);
            if !probe.want_heat && !probe.is_focus(id) {
                continue;
            }
            let Some((c, r)) = self.balls.own_cell(code) else {
                continue;
            };
            probe.place(Place::Cell, self.range.cell_box(c, r), t);
            if probe.is_focus(id) {
                let cells = self.balls.searched_cells(code);
                for (k, &(c, r)) in cells.iter().enumerate() {
                    let here = if k == 0 { t } else { 0 };
                    probe.visit(id, Place::Cell, self.range.cell_box(c, r), here);
                }
            }
        }
    }
}

impl BroadPhase for Grid {
    fn kind(&self) -> BroadKind {
        BroadKind::Grid
    }

    fn set_threads(&mut self, threads: usize) {
        self.balls.threads = threads;
    }

    fn find_pairs_with(
        &mut self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
        probe: Option<&mut Probe>,
    ) {
        let Some(probe) = probe else {
            return self.run(input, pairs, counters, None);
        };
        let mut rec = self.balls.record.take().unwrap_or_default();
        rec.begin(probe.focus);
        self.balls.record = Some(rec);
        self.run(input, pairs, counters, Some(&mut *probe));
        if let Some(rec) = self.balls.record.take() {
            self.probe_searched(&rec, probe);
        }
    }

    fn validate(&self) -> Result<(), String> {
        if self.choice != CellChoice::Rounding && self.working < self.largest {
            return Err(format!(
                "cell size {} below largest side {}",
                self.working, self.largest
            ));
        }
        self.balls.validate()?;
        if self.balls.dims() != self.range.dims {
            return Err("ball cells and cell range disagree".into());
        }
        self.obstacles.validate()
    }

    fn params(&self) -> Vec<Param> {
        let help = "cell side (px), 0 = automatic; at least the largest ball side, else raised";
        vec![CELL_SIZE.param(self.size, help.into())]
    }

    fn set_param(&mut self, name: &str, value: f32) -> Result<(), ParamError> {
        match name {
            "cell size" => {
                self.size = checked_size(value)?;
                Ok(())
            }
            _ => Err(ParamError::unknown(self.kind(), name)),
        }
    }

    fn stats(&self) -> Vec<(&'static str, String)> {
        vec![
            ("cell size", format!("{} px", self.working)),
            ("rule", self.rule_text()),
            (
                "cells",
                format!("{} × {}", self.range.dims.0, self.range.dims.1),
            ),
            ("cells used", self.balls.occupied().to_string()),
            ("max balls per cell", self.balls.max_per_cell().to_string()),
            ("obstacle cells", self.obstacles.occupied().to_string()),
            ("static rebuilds", self.obstacles.rebuilds().to_string()),
            ("one-pass sorts", self.one_pass.to_string()),
            ("ball filed by", "its box's lower-left corner (dot)".into()),
            (
                "each ball tests",
                "its cell, the right one and the row above, where its box reaches (outlined)"
                    .into(),
            ),
        ]
    }

    /// The cells' lattice, the occupied cells as a heat map; then, for the first [`DRAWN_BALLS`] balls, the cells
    /// the search tests for each (its own outlined brighter), the box the grid saw and the
    /// corner it was filed by (a dot at the box's min corner, joined to the box's centre).
    fn debug_draw(&self, draw: &mut dyn DebugDraw) {
        self.draw_lattice(draw);
        self.draw_heat_map(draw);
        let first = self.ball_ids.start as u32;
        let drawn = self
            .balls
            .searched()
            .filter(|b| b.id - first < DRAWN_BALLS as u32);
        for ball in drawn {
            self.draw_searched(&ball, draw);
        }
    }
}

/// Balls whose searched cells the overlay draws (the first by index): enough to read, few
/// enough to draw in software rendering.
pub(crate) const DRAWN_BALLS: usize = 400;

impl Grid {
    /// One ball's searched cells and the corner it was filed by.
    fn draw_searched(&self, ball: &ball_cells::searched::SearchedBall, draw: &mut dyn DebugDraw) {
        let (own, tested) = (Rgba(1.0, 0.85, 0.2, 0.9), Rgba(0.35, 0.8, 1.0, 0.45));
        for (k, &(c, r)) in ball.cells.iter().enumerate().rev() {
            draw.draw(Prim::Rect {
                aabb: self.range.cell_box(c, r),
                fill: None,
                stroke: Some(if k == 0 { own } else { tested }),
            });
        }
        // The box the grid saw (grown by the pair cache when it is on), its centre joined
        // to the corner it was filed by, and a dot there.
        draw.draw(Prim::Rect {
            aabb: ball.aabb,
            fill: None,
            stroke: Some(own.with_alpha(0.6)),
        });
        draw.draw(Prim::Line {
            a: ball.aabb.centre(),
            b: ball.filed_by,
            color: own.with_alpha(0.7),
        });
        let dot = (ball.aabb.size().min_element() * 0.06).max(0.4);
        draw.draw(Prim::Rect {
            aabb: Aabb::new(ball.filed_by - dot, ball.filed_by + dot),
            fill: Some(own),
            stroke: None,
        });
    }

    /// The lattice of the balls' and the obstacles' cells, faint: the places the probe gives
    /// heat to.
    fn draw_lattice(&self, draw: &mut dyn DebugDraw) {
        let extent = |r: &CellRange| {
            let (w, h) = r.dims;
            (w * h > 0).then(|| r.cell_box(0, 0).merged(&r.cell_box(w - 1, h - 1)))
        };
        let both = [&self.range, self.obstacles.lattice()].map(extent);
        if let Some(area) = both.into_iter().flatten().reduce(|a, b| a.merged(&b)) {
            let faint = Rgba::palette(6).with_alpha(0.12);
            cells::draw_lattice(draw, &area, self.working, (0.0, 0.0), faint);
        }
    }

    /// The occupied cells, coloured by how many balls each holds.
    fn draw_heat_map(&self, draw: &mut dyn DebugDraw) {
        let most = self.balls.max_per_cell().max(1) as f32;
        let (w, h) = self.range.dims;
        for r in 0..h {
            for c in 0..w {
                let k = self.balls.cell_len(c, r);
                if k > 0 {
                    let fill = Some(Rgba::heat(k as f32 / most).with_alpha(0.3));
                    draw.draw(Prim::Rect {
                        aabb: self.range.cell_box(c, r),
                        fill,
                        stroke: None,
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::debug_draw::Recorder;
    use glam::Vec2;

    fn input(aabbs: &[Aabb], first_dynamic: usize, version: u64) -> BroadInput<'_> {
        BroadInput {
            aabbs,
            first_moving: first_dynamic,
            first_dynamic,
            statics_version: version,
            world: Aabb::new(Vec2::ZERO, Vec2::splat(512.0)),
        }
    }

    fn run(g: &mut Grid, inp: &BroadInput) -> (Vec<Pair>, BroadCounters) {
        let (mut pairs, mut c) = (Vec::new(), BroadCounters::default());
        g.find_pairs(inp, &mut pairs, &mut c);
        g.validate().unwrap();
        (pairs, c)
    }

    #[test]
    fn automatic_size_is_a_power_of_two_at_least_the_largest_side() {
        assert_eq!(auto_cell_size(0.0), 8.0);
        assert_eq!(auto_cell_size(20.0), 32.0);
        assert_eq!(auto_cell_size(32.0), 32.0);
        assert_eq!(auto_cell_size(33.0), 64.0);
    }

    #[test]
    fn coincident_balls_found_once_without_repeats() {
        let b = Aabb::around(Vec2::new(300.0, 200.0), 5.0);
        let (pairs, c) = run(&mut Grid::default(), &input(&[b, b], 0, 0));
        assert_eq!(pairs, vec![(0, 1)]);
        assert_eq!((c.aabb_tests, c.repeats_dropped), (1, 0));
    }

    #[test]
    fn diagonal_neighbours_at_negative_coordinates() {
        // Touching at the corner (−32, −32); with 8 px cells `b` is one column right of and one
        // row below `a`: a diagonal neighbour, at negative coordinates.
        let a = Aabb::new(Vec2::new(-40.0, -32.0), Vec2::new(-32.0, -24.0));
        let b = Aabb::new(Vec2::new(-32.0, -40.0), Vec2::new(-24.0, -32.0));
        let (pairs, _) = run(&mut Grid::new(8.0).unwrap(), &input(&[a, b], 0, 0));
        assert_eq!(pairs, vec![(0, 1)]);
    }

    #[test]
    fn small_set_size_is_raised_and_said() {
        let big = Aabb::new(Vec2::ZERO, Vec2::splat(50.0));
        let mut g = Grid::new(8.0).unwrap();
        run(&mut g, &input(&[big], 0, 0));
        assert_eq!(g.working_size(), 64.0);
        assert_eq!(
            g.stats()[1].1,
            "cell raised from 8 to 64: largest ball side 50.0 px"
        );
        assert!(g.set_param("cell size", -1.0).is_err());
        assert!(g.set_param("cell size", f32::NAN).is_err());
        assert!(g.set_param("cell size", 0.0).is_ok());
    }

    #[test]
    fn static_much_larger_than_a_cell_kept_between_calls() {
        let wall = Aabb::new(Vec2::new(-400.0, 100.0), Vec2::new(900.0, 104.0));
        let mut boxes = vec![wall, Aabb::around(Vec2::new(850.0, 100.0), 3.0)];
        let mut g = Grid::default();
        assert_eq!(run(&mut g, &input(&boxes, 1, 1)).0, vec![(0, 1)]);
        boxes[1] = Aabb::around(Vec2::new(-350.0, 98.0), 3.0);
        assert_eq!(run(&mut g, &input(&boxes, 1, 1)).0, vec![(0, 1)]);
        let rebuilds = |g: &Grid| g.stats()[6].1.clone();
        assert_eq!(rebuilds(&g), "1");
        boxes[0].min.y = 200.0;
        boxes[0].max.y = 200.0;
        assert!(run(&mut g, &input(&boxes, 1, 2)).0.is_empty());
        assert_eq!(rebuilds(&g), "2");
    }

    #[test]
    fn one_pass_sort_falls_back_when_a_band_overflows_or_the_range_changes() {
        use crate::broad::brute::brute_pairs;
        // Two fixed corner balls keep the region (so the range) the same while the others move.
        let corner = |p: f32| Aabb::around(Vec2::splat(p), 5.0);
        let spread = |k: usize| {
            let (x, y) = ((k * 37 % 101) as f32, (k * 53 % 97) as f32);
            Aabb::around(Vec2::new(20.0 + 9.5 * x, 20.0 + 9.5 * y), 6.0)
        };
        let mut boxes: Vec<Aabb> = (0..2000).map(spread).collect();
        boxes[0] = corner(0.0);
        boxes[1] = corner(1000.0);
        let mut g = Grid::default();
        let one_pass = |g: &Grid| g.stats()[7].1.clone();
        let check = |g: &mut Grid, boxes: &[Aabb]| {
            let inp = input(boxes, 0, 0);
            let mut want = Vec::new();
            brute_pairs(&inp, &mut want);
            assert_eq!(run(g, &inp).0, want);
        };
        check(&mut g, &boxes);
        assert_eq!(one_pass(&g), "0", "a fresh grid counts first");
        check(&mut g, &boxes);
        assert_eq!(one_pass(&g), "1", "the same balls again: one pass");
        // Everything but the corners into one row: its band overflows its room.
        for (k, b) in boxes.iter_mut().enumerate().skip(2) {
            *b = Aabb::around(Vec2::new(20.0 + (k % 960) as f32, 500.0), 6.0);
        }
        check(&mut g, &boxes);
        assert_eq!(one_pass(&g), "1");
        check(&mut g, &boxes);
        assert_eq!(one_pass(&g), "2", "the new counts fit");
        // A wider region: another range.
        boxes[1] = corner(3000.0);
        check(&mut g, &boxes);
        assert_eq!(one_pass(&g), "2");
        // A larger ball: another cell size.
        boxes[5] = Aabb::around(Vec2::new(400.0, 300.0), 40.0);
        check(&mut g, &boxes);
        check(&mut g, &boxes);
        assert_eq!(one_pass(&g), "3");
        assert_eq!(g.working_size(), 128.0);
    }

    #[test]
    fn the_pair_search_on_several_threads_finds_the_same_pairs_and_counts() {
        // Above the threshold, with some obstacles, twice each (the second call takes the
        // one-pass sort), on 1, 2, 3 and 7 threads.
        let mut boxes = scattered(3, 60.0, 2000.0, 9);
        boxes.extend(scattered(20_000, 6.0, 2000.0, 4));
        let inp = input(&boxes, 3, 1);
        let mut one = Grid::default();
        let first = run(&mut one, &inp);
        assert!(first.0.len() > 1000);
        assert_eq!(run(&mut one, &inp), first);
        for threads in [2, 3, 7] {
            let mut g = Grid::default();
            g.set_threads(threads);
            assert_eq!(run(&mut g, &inp), first, "{threads} threads");
            assert_eq!(run(&mut g, &inp), first, "{threads} threads, one pass");
            assert_eq!(g.one_pass, 1);
        }
    }

    /// `n` seeded balls of sides up to `side` px over a square of `extent` px.
    fn scattered(n: usize, side: f32, extent: f32, seed: u64) -> Vec<Aabb> {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let p = Vec2::new(rng.gen_range(0.0..extent), rng.gen_range(0.0..extent));
                Aabb::around(p, rng.gen_range(0.5..side * 0.5))
            })
            .collect()
    }

    /// The balls of the last build, by index.
    fn searched_by_id(g: &Grid) -> Vec<ball_cells::searched::SearchedBall> {
        let mut all: Vec<_> = g.balls.searched().collect();
        all.sort_by_key(|b| b.id);
        all
    }

    /// The box tests a search of exactly `searched`'s cells makes: each ball against the
    /// later balls of its own cell and every ball of its other cells.
    fn tests_in_cells(searched: &[ball_cells::searched::SearchedBall]) -> u64 {
        let mut in_cell = std::collections::HashMap::<(usize, usize), Vec<u32>>::new();
        for b in searched {
            in_cell.entry(b.cells[0]).or_default().push(b.id);
        }
        let balls_in = |c: &(usize, usize)| in_cell.get(c).map_or(&[][..], |v| &v[..]);
        let per_ball = |b: &ball_cells::searched::SearchedBall| {
            let later = balls_in(&b.cells[0]).iter().filter(|&&k| k > b.id).count();
            later
                + b.cells[1..]
                    .iter()
                    .map(|c| balls_in(c).len())
                    .sum::<usize>()
        };
        searched.iter().map(|b| per_ball(b) as u64).sum()
    }

    #[test]
    fn the_drawn_cells_of_each_ball_are_the_cells_its_search_tested_at_every_cell_size() {
        // Automatic, set sizes from the largest side up, and one below it (raised).
        for size in [
            0.0, 4.0, 14.0, 16.0, 20.0, 32.0, 50.0, 64.0, 100.0, 128.0, 300.0,
        ] {
            for (n, extent, seed) in [(300, 512.0, 1), (300, 300.0, 2), (6000, 2500.0, 3)] {
                let boxes = scattered(n, 14.0, extent, seed);
                let mut g = Grid::new(size).unwrap();
                // The first call builds afresh, the second in one pass (steady state).
                for _ in 0..2 {
                    let (pairs, c) = run(&mut g, &input(&boxes, 0, 0));
                    let searched = searched_by_id(&g);
                    let at = format!("size {size}, {n} balls");
                    assert_eq!(searched.len(), n, "{at}");
                    for b in &searched {
                        let own = g.range.cell_box(b.cells[0].0, b.cells[0].1);
                        assert_eq!(b.filed_by, boxes[b.id as usize].min, "{at}");
                        assert!(own.expanded(1e-3).contains(b.filed_by), "{at}: {b:?}");
                    }
                    // Every pair found joins a ball to one filed in a cell the other tested.
                    for &(i, j) in &pairs {
                        let (a, b) = (&searched[i as usize], &searched[j as usize]);
                        let met = a.cells.contains(&b.cells[0]) || b.cells.contains(&a.cells[0]);
                        assert!(met, "{at}: pair {i} {j}: {a:?} {b:?}");
                    }
                    // The candidates in the drawn cells are the box tests the search counted.
                    assert_eq!(tests_in_cells(&searched), c.aabb_tests, "{at}");
                }
            }
        }
    }

    #[test]
    fn the_overlay_outlines_each_balls_searched_cells_and_marks_its_corner() {
        // A ball of side 10 at (40, 40)–(50, 50) with 16 px cells: filed in the cell of
        // (40, 40), (32, 32)–(48, 48), its box reaching the next column and row. Balls far
        // below left and above right make the cells around it part of the grid.
        let b = Aabb::new(Vec2::new(40.0, 40.0), Vec2::new(50.0, 50.0));
        let low = Aabb::new(Vec2::new(1.0, 1.0), Vec2::new(5.0, 5.0));
        let far = Aabb::around(Vec2::new(300.0, 300.0), 5.0);
        let mut g = Grid::new(16.0).unwrap();
        run(&mut g, &input(&[b, low, far], 0, 0));
        let ball = searched_by_id(&g).remove(0);
        assert_eq!(ball.cells.len(), 5, "own, right, and three above: {ball:?}");
        let own = g.range.cell_box(ball.cells[0].0, ball.cells[0].1);
        assert_eq!(own, Aabb::new(Vec2::new(32.0, 32.0), Vec2::new(48.0, 48.0)));
        let boxes: Vec<Aabb> = ball
            .cells
            .iter()
            .map(|&(c, r)| g.range.cell_box(c, r))
            .collect();
        let above = |dx: f32| Aabb::new(Vec2::new(32.0 + dx, 48.0), Vec2::new(48.0 + dx, 64.0));
        assert_eq!(
            boxes[1..].to_vec(),
            vec![
                Aabb::new(Vec2::new(48.0, 32.0), Vec2::new(64.0, 48.0)),
                above(-16.0),
                above(0.0),
                above(16.0)
            ]
        );
        let mut rec = Recorder::default();
        g.debug_draw(&mut rec);
        let outlined = |a: &Aabb| {
            rec.prims
                .iter()
                .any(|p| matches!(p, Prim::Rect { aabb, stroke: Some(_), .. } if aabb == a))
        };
        assert!(boxes.iter().all(outlined));
        let corner = rec.prims.iter().any(|p| {
            matches!(p, Prim::Rect { aabb, fill: Some(_), stroke: None } if aabb.contains(b.min) && aabb.size().x < 4.0)
        });
        assert!(corner, "a dot at the corner it was filed by");
    }

    #[test]
    fn heat_map_draws_occupied_cells() {
        let b = Aabb::around(Vec2::new(300.0, 200.0), 5.0);
        let far = Aabb::around(Vec2::new(100.0, 100.0), 5.0);
        let mut g = Grid::default();
        run(&mut g, &input(&[b, b, far], 0, 0));
        let mut rec = Recorder::default();
        g.debug_draw(&mut rec);
        let heat = rec.prims.iter().filter(|p| {
            matches!(p, Prim::Rect { fill: Some(_), stroke: None, aabb } if aabb.size().x > 4.0)
        });
        assert_eq!(heat.count(), 2);
    }
}
