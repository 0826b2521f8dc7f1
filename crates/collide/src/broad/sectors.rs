//! Sectors with four shifts (Moertel 1994).
//!
//! **Algorithm.** The plane is cut into square sectors of side `s`. Each ball goes into the one
//! sector holding its box's min corner (counting sort), and the balls of each sector are tested
//! against each other by brute force. Two overlapping balls may straddle a sector line, so the
//! whole pass is repeated with the grid shifted by `(0, 0)`, `(0, s/2)`, `(s/2, 0)` and
//! `(s/2, s/2)`. A pair seen in several shifts (two coincident balls: in all four — the article's
//! "reported four times") is reported once: a sighting in shift `k` is dropped when the two
//! balls already shared a sector in an earlier shift (their sector keys are kept per shift),
//! and counted in `repeats_dropped` — one of the article's "trivial ways to sidestep the issue".
//! The box test was still done, and is counted.
//!
//! **Why `s > 2 ×` the largest side `m`.** One axis suffices (the article's hint: "consider
//! the 1-D case"). Take two overlapping balls with `a.min ≤ b.min`; then `b.min ≤ a.max`, so
//! `0 ≤ b.min − a.min ≤ m`. They share a sector of a shift unless one of its lines lies in
//! `(a.min, b.min]`. The lines of the two offsets together are `s/2` apart, so a half-open
//! interval of length `≤ m < s/2` holds at most one of them: at least one offset has no line
//! there. Choosing the good offset on x and the good offset on y picks one of the four
//! shifts, in which the two balls share a sector. With `m ≥ s/2` both offsets can cut the
//! interval and the pair is lost, hence the rule. (Exactly, the argument used is "each
//! ball's box lies inside one sector of at least one offset, per axis"; that is checked with
//! the same rounding as the sectors themselves, and the size raised if it ever fails.)
//!
//! **One sort for four shifts.** The lines of the four grids all lie on the lattice of half
//! sectors (side `s/2`), so every sector of every shift is a 2 × 2 block of half sectors: with
//! `h = floor(x / (s/2))`, the sector of offset 0 is `h >> 1` and that of offset ½ is
//! `(h + 1) >> 1`. The balls are therefore counting-sorted once, into half sectors by min
//! corner, their boxes and half-sector coordinates written beside them in that order; each
//! shift then gathers a sector's balls from its four half sectors (two runs, one per row) and
//! brute-forces them, the same tests as four separate sorts would give, in a quarter of the
//! sorting and without reading boxes by ball index. Whether two balls shared a sector in
//! an earlier shift is decided from the half-sector coordinates beside them, by arithmetic.
//!
//! **The rule, enforced.** If the set size is not above `2m` (balls only; see below), the call
//! uses `ceil(2m) + 2` px instead and [`Sectors::stats`] says so.
//!
//! **Obstacles** (statics and kinematic shapes, often long segments far larger than `s`) cannot
//! follow the rule; they are handled exactly in `grid/obstacles.rs`: entered in every
//! cell they overlap (statics kept between calls), looked up by each ball, each pair reported
//! once.
//!
//! **Cost** (what `aabb_tests` counts): `Σ over the four shifts and every sector of
//! K(K − 1)/2` for `K` balls in the sector — the article's `4 · K(K − 1)/2 = 2K(K − 1)` per
//! sector — plus the obstacle tests. Sorting is O(n + sectors), once.
//!
//! **Probe.** Inside a sector the test of two balls belongs to the one the loop is working for,
//! the earlier in the sector's list (sorted by half sector, then index): the k-th of `K` gets
//! `K − 1 − k`. A sector's heat is its `K(K − 1)/2`; the focus visits every sector of every
//! shift that holds it with another ball (`Sector(shift)`: a lone ball's sector is skipped
//! untested). Obstacle tests as in `grid/obstacles.rs`. Nothing belongs to the structure.
//!
//! **Sector coordinates** use `floor`, so negative and out-of-world coordinates work; the
//! half-sector array covers the world box and the balls (at most `max(MAX_DIM², 16n)` half
//! sectors for `n` balls, so about as many sectors per shift as the `4n` a sector array gets,
//! clamped beyond — monotone and the same for both balls of a pair, so never a lost pair —
//! and growing with `n`, so many balls never pile into clamped border sectors).

use super::grid::cells::{
    cell_coord, cell_of_each, draw_lattice, largest_side, pairs_within_first, probe_within,
    region_of, Buckets, CellRange,
};
use super::grid::obstacles::ObstacleCells;
use super::pair_keys::PairKeys;
use super::rule::{multiples, power_of_two_at_least, NONE_GIVEN};
use super::{BallSizes, BroadInfo, ParamInfo, Place, Places, Probe, RuleValues};
use super::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair, Param, ParamError};
use crate::debug_draw::{DebugDraw, Rgba};
use crate::geom::Aabb;
use std::ops::Range;

/// The four grid offsets, in sectors: `(0, 0)`, `(0, s/2)`, `(s/2, 0)`, `(s/2, s/2)`.
pub(crate) const SHIFTS: [(f64, f64); 4] = [(0.0, 0.0), (0.0, 0.5), (0.5, 0.0), (0.5, 0.5)];

/// Default sector size (px): the article's 64 (Moertel 1994).
pub(crate) const DEFAULT_SIZE: f32 = 64.0;

/// How the working sector size of the last call was chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum SizeChoice {
    /// The set size obeys the rule.
    AsSet,
    /// The set size was not above twice the largest ball side; raised.
    Raised,
    /// A ball straddled sectors by float rounding; the size was doubled.
    Rounding,
}

/// The working sector size: `set` if above `2 × largest`, else `ceil(2 × largest) + 2`.
pub(crate) fn sector_rule(set: f32, largest: f64) -> (f64, SizeChoice) {
    if set as f64 > 2.0 * largest {
        (set as f64, SizeChoice::AsSet)
    } else {
        ((2.0 * largest).ceil() + 2.0, SizeChoice::Raised)
    }
}

/// The working size for set size `set` and this call's balls: the rule of
/// [`sector_rule`], then doubled (at most 8 times) while `fits` says rounding would let a ball
/// straddle more sectors than the method allows. Returns (largest side, working size, why).
pub(crate) fn chosen_size(
    set: f32,
    balls: &[Aabb],
    fits: fn(&[Aabb], f64) -> bool,
) -> (f64, f64, SizeChoice) {
    let largest = largest_side(balls);
    let (mut working, mut choice) = sector_rule(set, largest);
    for _ in 0..8 {
        if fits(balls, working) {
            break;
        }
        working *= 2.0;
        choice = SizeChoice::Rounding;
    }
    (largest, working, choice)
}

/// The "rule" line of the stats panel for a sector size, after a call given `balls` balls.
pub(crate) fn rule_text(
    set: f32,
    working: f64,
    largest: f64,
    choice: SizeChoice,
    balls: usize,
) -> String {
    if balls == 0 {
        return format!("{working} px: {}", super::grid::NO_BALLS);
    }
    match choice {
        SizeChoice::AsSet => format!("{set} > 2 × {largest:.1} px (largest ball side): ok"),
        SizeChoice::Raised => {
            format!("size raised from {set} to {working}: largest ball side {largest:.1} px")
        }
        SizeChoice::Rounding => {
            format!("size raised from {set} to {working}: a ball straddled sectors by rounding")
        }
    }
}

/// The checked sector-size parameter value.
pub(crate) fn checked_size(value: f32) -> Result<f32, ParamError> {
    if !value.is_finite() || value <= 0.0 || value > MAX_SIZE {
        return Err(ParamError::Invalid(format!(
            "sector size must be a positive number of px up to {MAX_SIZE}, not {value}"
        )));
    }
    Ok(value)
}

/// Largest sector size accepted (px).
pub(crate) const MAX_SIZE: f32 = 2048.0;

/// The "sector size" slider at `value`.
pub(crate) fn size_param(value: f32) -> Param {
    let help = "sector side (px); must exceed 2 × the largest ball side, else raised per call";
    SIZE.param(value, help.into())
}

/// The sector size, shared with adjacent sectors (the same grid): more than twice the
/// largest side, "if your objects are 30x30 … 64 would be an excellent choice" (Moertel
/// 1994): the power of two above twice the largest ball.
pub(crate) const SIZE: ParamInfo = ParamInfo {
    name: "sector size",
    unit: "px",
    min: 4.0,
    max: MAX_SIZE,
    integer: true,
    says: "More than twice the largest ball side, or a pair straddling sector lines is \
           lost; a power of two just above it (\"if your objects are 30x30 … 64 would be an \
           excellent choice\")",
    source: "Moertel 1994, Collision Detection – How?",
    rule: sector_size,
};

/// The sector size's rule for the balls `b`.
fn sector_size(b: &BallSizes) -> RuleValues {
    // Strictly above twice the largest side, as a power of two: 30 px objects give 64.
    let base = b.sweep_base();
    let s = power_of_two_at_least(2.0 * base + 1.0, 4.0);
    let of = match b.none_given() {
        true => format!("the largest ball; {NONE_GIVEN}"),
        false => "the largest box".to_string(),
    };
    RuleValues {
        auto: s,
        value: Some(s),
        auto_why: format!(
            "{s} px: the power of two above 2 × {base:.1} px ({of}), {:.1} mean diameters",
            s / b.mean_diameter.max(1e-3)
        ),
        // Strictly above twice the largest ball.
        sweep: multiples(base, &[2.0, 2.5, 3.0, 4.0, 6.0, 8.0], |x| x.floor() + 1.0),
    }
}

/// What sectors with four shifts declare.
pub(crate) const DESCRIPTION: BroadInfo = BroadInfo {
    name: "sectors",
    label: "Sectors (four shifts)",
    colour: [31, 100, 200],
    places: Some(Places {
        word: "sector",
        // The four shifts' sectors overlap: lighter.
        heat_alpha: 0.45,
    }),
    params: &[SIZE],
    create: || Box::new(Sectors::default()),
};

/// Half-sector column (or row) of coordinate `v` for sectors of side `s`: `floor(v / (s/2))`.
/// The sector of offset 0 holding it is `h >> 1`, that of offset ½ is `(h + 1) >> 1` (the
/// lattice shifted by half a sector), both monotone in `v`.
#[inline]
fn half_coord(v: f32, s: f64) -> i64 {
    cell_coord(v, s / 2.0, 0.0)
}

/// True when every box lies inside one sector of offset 0 or of offset ½, on each axis, by
/// the half-sector coordinates the sort uses.
fn fits_one_shift(boxes: &[Aabb], s: f64) -> bool {
    let inside = |lo: f32, hi: f32| {
        let (a, b) = (half_coord(lo, s), half_coord(hi, s));
        // Saturated coordinates (beyond ±2^63 half sectors) are clamped onto the border by
        // the sort anyway; `saturating_add` only keeps this from overflowing.
        a >> 1 == b >> 1 || a.saturating_add(1) >> 1 == b.saturating_add(1) >> 1
    };
    boxes
        .iter()
        .all(|b| inside(b.min.x, b.max.x) && inside(b.min.y, b.max.y))
}

/// A ball's half-sector column and row within the range, each plus the parity of the range's
/// first one, so that `(c + o) >> 1` numbers the sectors of offset `o` (0 or 1, in half
/// sectors) as the absolute coordinates do, up to a constant.
type Halves = [u32; 2];

/// The half-sector offsets `(x, y)` of [`SHIFTS`].
const OFFSETS: [(u32, u32); 4] = [(0, 0), (0, 1), (1, 0), (1, 1)];

/// Whether two balls share a sector of the shift with half-sector offsets `(ox, oy)`.
#[inline(always)]
fn share(a: Halves, b: Halves, ox: u32, oy: u32) -> bool {
    (a[0] + ox) >> 1 == (b[0] + ox) >> 1 && (a[1] + oy) >> 1 == (b[1] + oy) >> 1
}

/// The four-shifts sector broad phase.
#[derive(Clone, Debug)]
pub struct Sectors {
    /// Sector size set by the user (px).
    size: f32,
    /// Size used by the last call (px).
    working: f64,
    /// Largest ball side seen by the last call (px).
    largest: f64,
    /// How `working` was chosen.
    choice: SizeChoice,
    /// The half-sector cells of the last call (side `working / 2`): every sector of every
    /// shift is a 2 × 2 block of them.
    halves: CellRange,
    /// The balls by half-sector, their boxes and half-sector coordinates beside them.
    cells: Buckets,
    boxes: Vec<Aabb>,
    coords: Vec<Halves>,
    /// One sector's balls, boxes and coordinates (scratch, reused).
    block: Vec<u32>,
    block_boxes: Vec<Aabb>,
    block_coords: Vec<Halves>,
    /// Balls of the last call (index range).
    balls: std::ops::Range<usize>,
    obstacles: ObstacleCells,
    /// The pairs' radix sort.
    keys: PairKeys,
}

impl Default for Sectors {
    fn default() -> Self {
        Self {
            size: DEFAULT_SIZE,
            working: DEFAULT_SIZE as f64,
            largest: 0.0,
            choice: SizeChoice::AsSet,
            halves: CellRange::default(),
            cells: Buckets::default(),
            boxes: Vec::new(),
            coords: Vec::new(),
            block: Vec::new(),
            block_boxes: Vec::new(),
            block_coords: Vec::new(),
            balls: 0..0,
            obstacles: ObstacleCells::default(),
            keys: PairKeys::default(),
        }
    }
}

impl Sectors {
    #[cfg(test)]
    /// A sectors broad phase with sector side `size` px (must be positive).
    pub fn new(size: f32) -> Result<Self, ParamError> {
        let size = checked_size(size)?;
        Ok(Self {
            size,
            working: size as f64,
            ..Self::default()
        })
    }

    /// The sector size used by the last call (px), after the rule.
    #[cfg(test)]
    pub(crate) fn working_size(&self) -> f64 {
        self.working
    }

    /// Applies the rule to this call's balls.
    fn choose_size(&mut self, balls: &[Aabb]) {
        (self.largest, self.working, self.choice) = chosen_size(self.size, balls, fits_one_shift);
    }

    /// The parities of the range's first half-sector column and row.
    fn parity(&self) -> Halves {
        let (c, r) = self.halves.origin;
        [(c & 1) as u32, (r & 1) as u32]
    }

    /// Sorts the balls into half-sector cells (one counting sort for all four shifts), their
    /// boxes and coordinates beside them.
    fn sort_balls(&mut self, aabbs: &[Aabb], region: &Aabb) {
        let n = self.balls.len();
        // As much room as a sector range of its own would give each shift: `CELLS_PER_ITEM`
        // sectors per ball, so four times as many half sectors (`4 · n` balls' worth).
        self.halves = CellRange::covering_for(region, self.working / 2.0, (0.0, 0.0), 4 * n);
        self.cells.clear();
        let range = self.halves;
        for b in self.balls.clone() {
            self.cells.push(range.index_of(aabbs[b].min), b);
        }
        let (par, w) = (self.parity(), range.dims.0 as u32);
        // The coordinates from the cell just computed (flat, row-major), not computed again.
        let payload =
            |cell: u32, b: u32| (aabbs[b as usize], [cell % w + par[0], cell / w + par[1]]);
        let out = (&mut self.boxes, &mut self.coords);
        self.cells.sort_with(range.cells(), payload, out);
    }

    /// The half-sector columns (or rows) `first..=last` within `0..dim` of each sector of
    /// offset `o` along an axis whose first half sector has parity `par`.
    fn spans(dim: usize, par: u32, o: u32) -> impl Iterator<Item = (usize, usize)> {
        // A sector starts where `c + par + o` is even (`c` within the range); none in an
        // empty range.
        let lead = ((par + o) & 1) as isize * (dim > 0) as isize;
        (-lead..dim as isize).step_by(2).map(move |c0| {
            let last = (c0 + 1).min(dim as isize - 1) as usize;
            (c0.max(0) as usize, last)
        })
    }

    /// Each sector of shift `k` as where its balls lie among the sorted entries: one run of
    /// half sectors per row (the second empty where the range has one row there). None
    /// before the first call, when the buckets are not sized to the range.
    fn sectors(&self, k: usize) -> impl Iterator<Item = [Range<usize>; 2]> + '_ {
        self.spanned_sectors(k).map(|(_, runs)| runs)
    }

    /// [`Sectors::sectors`] with each sector's half-sector columns and rows,
    /// `(first column, last column, first row, last row)`.
    fn spanned_sectors(&self, k: usize) -> impl Iterator<Item = (Span, [Range<usize>; 2])> + '_ {
        let sorted = self.cells.cells() == self.halves.cells();
        let (w, h) = if sorted { self.halves.dims } else { (0, 0) };
        let par = self.parity();
        let (ox, oy) = OFFSETS[k];
        Self::spans(h, par[1], oy).flat_map(move |(r0, r1)| {
            Self::spans(w, par[0], ox).map(move |(c0, c1)| {
                let run = |row| {
                    let range = &self.halves;
                    self.cells
                        .run_span(range.index(c0, row), range.index(c1, row))
                };
                let runs = [run(r0), if r1 > r0 { run(r1) } else { 0..0 }];
                ((c0, c1, r0, r1), runs)
            })
        })
    }

    /// Brute force in each sector of shift `k`: the balls of its 2 × 2 half-sector cells. A
    /// pair whose balls already shared a sector in an earlier shift is a repeat.
    fn test_shift(
        &mut self,
        k: usize,
        pairs: &mut Vec<Pair>,
        c: &mut BroadCounters,
        mut probe: Option<&mut Probe>,
    ) {
        let (mut block, mut boxes, mut coords) = (
            std::mem::take(&mut self.block),
            std::mem::take(&mut self.block_boxes),
            std::mem::take(&mut self.block_coords),
        );
        for (span, runs) in self.spanned_sectors(k) {
            if runs[0].len() + runs[1].len() < 2 {
                continue;
            }
            block.clear();
            boxes.clear();
            coords.clear();
            for run in runs {
                block.extend_from_slice(&self.cells.items()[run.clone()]);
                boxes.extend_from_slice(&self.boxes[run.clone()]);
                coords.extend_from_slice(&self.coords[run]);
            }
            let first = |a: usize, b: usize| {
                OFFSETS[..k]
                    .iter()
                    .all(|&(ox, oy)| !share(coords[a], coords[b], ox, oy))
            };
            pairs_within_first(&block, &boxes, pairs, c, first);
            if let Some(p) = probe.as_deref_mut() {
                let (c0, c1, r0, r1) = span;
                let h = &self.halves;
                let rect = h.cell_box(c0, r0).merged(&h.cell_box(c1, r1));
                probe_within(&block, p, Place::Sector(k as u8), rect, rect);
            }
        }
        (self.block, self.block_boxes, self.block_coords) = (block, boxes, coords);
    }
}

impl Sectors {
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
        self.balls = input.first_dynamic.min(n)..n;
        let balls = &input.aabbs[self.balls.clone()];
        self.choose_size(balls);
        let region = region_of(&input.world, balls);
        self.sort_balls(input.aabbs, &region);
        for k in 0..SHIFTS.len() {
            self.test_shift(k, pairs, counters, probe.as_deref_mut());
        }
        self.obstacles.update(input, self.working);
        self.obstacles.query(input, pairs, counters, probe);
        counters.repeats_dropped += self.keys.sort_pairs(pairs, input.aabbs.len());
        counters.pairs += pairs.len() as u64;
    }
}

/// A sector's half-sector columns and rows: first and last column, first and last row.
type Span = (usize, usize, usize, usize);

impl BroadPhase for Sectors {
    fn kind(&self) -> BroadKind {
        BroadKind::Sectors
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
        self.cells.validate()?;
        if self.cells.cells() != self.halves.cells() {
            return Err("half-sector buckets and range disagree".into());
        }
        let cells = cell_of_each(&self.cells, self.balls.clone())?;
        let par = self.parity();
        let w = self.halves.dims.0;
        let sorted = self.cells.items().iter().zip(&self.boxes).zip(&self.coords);
        if self.boxes.len() != self.cells.entries() || self.coords.len() != self.cells.entries() {
            return Err("boxes or coordinates beside the half sectors are missing".into());
        }
        for (k, ((&item, b), &h)) in sorted.enumerate() {
            let cell = cells[item as usize - self.balls.start];
            let (col, row) = (cell % w, cell / w);
            if h != [col as u32 + par[0], row as u32 + par[1]]
                || self.halves.index_of(b.min) != cell
            {
                return Err(format!(
                    "entry {k}: ball {item} beside a wrong box or coordinates"
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
        let counts = |k| self.sectors(k).map(|[a, b]| a.len() + b.len());
        let used: usize = (0..SHIFTS.len())
            .map(|k| counts(k).filter(|&c| c > 0).count())
            .sum();
        let most = (0..SHIFTS.len()).filter_map(|k| counts(k).max()).max();
        vec![
            ("sector size", format!("{} px", self.working)),
            (
                "rule",
                rule_text(
                    self.size,
                    self.working,
                    self.largest,
                    self.choice,
                    self.balls.len(),
                ),
            ),
            ("sectors used (4 shifts)", used.to_string()),
            ("max balls per sector", most.unwrap_or(0).to_string()),
            ("obstacle cells", self.obstacles.occupied().to_string()),
            ("static rebuilds", self.obstacles.rebuilds().to_string()),
        ]
    }

    fn debug_draw(&self, draw: &mut dyn DebugDraw) {
        let area = self.halves;
        if area.cells() == 0 {
            return;
        }
        let (c1, r1) = (area.dims.0 - 1, area.dims.1 - 1);
        let extent = area.cell_box(0, 0).merged(&area.cell_box(c1, r1));
        for (k, &shift) in SHIFTS.iter().enumerate() {
            draw_lattice(
                draw,
                &extent,
                self.working,
                shift,
                Rgba::palette(k).with_alpha(0.3),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::brute::brute_pairs;
    use glam::Vec2;

    fn input(aabbs: &[Aabb], first_dynamic: usize) -> BroadInput<'_> {
        BroadInput {
            aabbs,
            first_moving: first_dynamic,
            first_dynamic,
            statics_version: 0,
            world: Aabb::new(Vec2::ZERO, Vec2::splat(512.0)),
        }
    }

    fn run(s: &mut Sectors, inp: &BroadInput) -> (Vec<Pair>, BroadCounters) {
        let (mut pairs, mut c) = (Vec::new(), BroadCounters::default());
        s.find_pairs(inp, &mut pairs, &mut c);
        s.validate().unwrap();
        (pairs, c)
    }

    #[test]
    fn coincident_balls_found_four_times_reported_once() {
        let b = Aabb::around(Vec2::new(300.0, 200.0), 5.0);
        let (pairs, c) = run(&mut Sectors::default(), &input(&[b, b], 0));
        assert_eq!(pairs, vec![(0, 1)]);
        assert_eq!(c.aabb_tests, 4, "one test per shift");
        assert_eq!(c.repeats_dropped, 3);
    }

    #[test]
    fn balls_straddling_lines_at_negative_coordinates_are_found() {
        // Touching across x = −64 (a line of shift 0) and y = −32 (a line of the y shift).
        let a = Aabb::new(Vec2::new(-80.0, -40.0), Vec2::new(-64.0, -24.0));
        let b = Aabb::new(Vec2::new(-64.0, -30.0), Vec2::new(-50.0, -16.0));
        let boxes = [a, b];
        let (pairs, _) = run(&mut Sectors::default(), &input(&boxes, 0));
        assert_eq!(pairs, vec![(0, 1)]);
    }

    #[test]
    fn size_not_above_twice_the_largest_side_is_raised_and_said() {
        let big = Aabb::new(Vec2::ZERO, Vec2::splat(64.0));
        let mut s = Sectors::default();
        run(&mut s, &input(&[big], 0));
        assert_eq!(s.working_size(), 130.0);
        let rule = &s.stats()[1].1;
        assert_eq!(
            rule,
            "size raised from 64 to 130: largest ball side 64.0 px"
        );
        let small = Aabb::new(Vec2::ZERO, Vec2::splat(31.0));
        run(&mut s, &input(&[small], 0));
        assert_eq!(s.working_size(), 64.0);
    }

    #[test]
    fn stats_and_validate_before_any_call() {
        let s = Sectors::default();
        let stats = s.stats();
        let used = stats.iter().find(|(k, _)| *k == "sectors used (4 shifts)");
        assert_eq!(used.map(|(_, v)| v.as_str()), Some("0"));
        s.validate().unwrap();
        let mut rec = crate::debug_draw::Recorder::default();
        s.debug_draw(&mut rec);
    }

    #[test]
    fn set_param_refuses_non_positive_and_non_finite() {
        let mut s = Sectors::default();
        for bad in [0.0, -3.0, f32::NAN, f32::INFINITY] {
            assert!(s.set_param("sector size", bad).is_err(), "{bad}");
        }
        assert!(s.set_param("sector size", 100.0).is_ok());
        assert_eq!(s.params()[0].value, 100.0);
        assert!(s.set_param("cell size", 10.0).is_err());
    }

    #[test]
    fn draws_four_shifted_lattices_in_four_colours() {
        let b = Aabb::around(Vec2::new(300.0, 200.0), 5.0);
        let mut s = Sectors::default();
        run(&mut s, &input(&[b], 0));
        let mut rec = crate::debug_draw::Recorder::default();
        s.debug_draw(&mut rec);
        let mut colours: Vec<usize> = (0..4)
            .filter(|&k| {
                let want = Rgba::palette(k).with_alpha(0.3);
                rec.prims
                    .iter()
                    .any(|p| matches!(p, crate::Prim::Line { color, .. } if *color == want))
            })
            .collect();
        colours.dedup();
        assert_eq!(colours, vec![0, 1, 2, 3]);
    }

    #[test]
    fn long_static_segment_against_small_sectors() {
        let wall = Aabb::new(Vec2::new(-300.0, 100.0), Vec2::new(800.0, 100.0));
        let ball = Aabb::around(Vec2::new(700.0, 95.0), 5.0);
        let boxes = [wall, ball];
        let inp = BroadInput {
            first_moving: 1,
            ..input(&boxes, 1)
        };
        let (pairs, _) = run(&mut Sectors::new(16.0).unwrap(), &inp);
        let mut want = Vec::new();
        brute_pairs(&inp, &mut want);
        assert_eq!(pairs, want);
        assert_eq!(pairs, vec![(0, 1)]);
    }
}
