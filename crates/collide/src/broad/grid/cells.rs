//! Cell coordinates, a bounded cell range, counting sort into cells, and brute force inside a
//! cell: the parts shared by the grid broad phases (sectors, adjacent sectors, uniform grid and
//! their obstacle cells).
//!
//! **Cell coordinates.** A lattice of square cells of side `size` px, shifted by `(sx, sy)`
//! cells (0 or ½), puts `x` in column `floor(x / size + sx)`. It is computed in f64 from the
//! f32 coordinate and is monotone in `x` (`x ≤ y` ⇒ `col(x) ≤ col(y)`): the exactness arguments
//! of every algorithm rest on that alone. Negative and out-of-world coordinates need nothing
//! special: `floor`, not truncation toward zero.
//!
//! **Bounded range.** [`CellRange`] is a rectangle of cells covering some region, at most
//! [`MAX_DIM`] cells per axis. A coordinate outside it is clamped onto the border row or
//! column. Clamping is monotone and never pulls two cells further apart, so two boxes in the
//! same (or adjacent) cells stay in the same (or adjacent) cells: clamping can only add
//! candidates, which are box-tested, and never loses a pair.
//!
//! **Counting sort.** [`Buckets`] takes `(cell, item)` entries and sorts them into flat arrays:
//! `items[start[c]..start[c + 1]]` are the items of cell `c`, in push order. Cost
//! O(entries + cells); all vectors are reused, so a steady-state call allocates nothing.
//!
//! Source: the sector arrays of the "sectors with four shifts" article (Moertel 1994), with
//! its linked lists replaced by a counting sort.

use crate::broad::{BroadCounters, Pair, Place, Probe};
use crate::debug_draw::{DebugDraw, Prim, Rgba};
use crate::geom::Aabb;
use glam::Vec2;

/// Most cells per axis of a [`CellRange`] made for few items (at most `MAX_DIM²` cells);
/// beyond it outside cells are clamped onto the border.
pub(crate) const MAX_DIM: usize = 256;
/// Cells per item a [`CellRange`] may grow to beyond `MAX_DIM²`, so the cell array stays
/// O(items) and many items never pile into clamped border cells.
pub(crate) const CELLS_PER_ITEM: usize = 4;

/// Column (or row) of coordinate `v` for cells of side `size` px shifted by `shift` cells.
#[inline]
pub(crate) fn cell_coord(v: f32, size: f64, shift: f64) -> i64 {
    // `as` saturates at the i64 limits and maps NaN to 0, so this never panics.
    floor_i64(v as f64 / size + shift)
}

/// `q.floor() as i64`, bit for bit, without the libm call `floor` is on x86-64 without SSE4.1:
/// truncation (`as`, saturating, NaN → 0) rounds a negative non-integer up, so step down one.
#[inline(always)]
fn floor_i64(q: f64) -> i64 {
    let t = q as i64;
    if (t as f64) > q {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// A bounded rectangle of cells of one lattice (size and shift).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct CellRange {
    /// Cell side (px).
    pub size: f64,
    /// Shift of the lattice in cells, x and y (0 or ½).
    pub shift: (f64, f64),
    /// Lattice coordinates of the first column and row.
    pub origin: (i64, i64),
    /// Columns and rows.
    pub dims: (usize, usize),
}

impl CellRange {
    /// The cells covering `region`, at most [`MAX_DIM`]² cells in all.
    pub(crate) fn covering(region: &Aabb, size: f64, shift: (f64, f64)) -> Self {
        Self::covering_for(region, size, shift, 0)
    }

    /// The cells covering `region`, at most `max(MAX_DIM², CELLS_PER_ITEM · items)` cells in
    /// all: room enough that `items` spread evenly over the region average at most a few per
    /// cell, whatever their number. A region needing more is cut at its max side (the longer
    /// axis first) and the rest clamped onto the border.
    pub(crate) fn covering_for(region: &Aabb, size: f64, shift: (f64, f64), items: usize) -> Self {
        let cap = (MAX_DIM * MAX_DIM).max(CELLS_PER_ITEM.saturating_mul(items));
        let x0 = cell_coord(region.min.x, size, shift.0);
        let y0 = cell_coord(region.min.y, size, shift.1);
        let x1 = cell_coord(region.max.x, size, shift.0);
        let y1 = cell_coord(region.max.y, size, shift.1);
        Self {
            size,
            shift,
            origin: (x0, y0),
            dims: fitted(span(x0, x1, cap), span(y0, y1, cap), cap),
        }
    }

    /// Number of cells.
    pub(crate) fn cells(&self) -> usize {
        self.dims.0 * self.dims.1
    }

    /// Column of `x`, clamped into the range.
    #[inline]
    pub(crate) fn col(&self, x: f32) -> usize {
        clamp_into(
            cell_coord(x, self.size, self.shift.0),
            self.origin.0,
            self.dims.0,
        )
    }

    /// Row of `y`, clamped into the range.
    #[inline]
    pub(crate) fn row(&self, y: f32) -> usize {
        clamp_into(
            cell_coord(y, self.size, self.shift.1),
            self.origin.1,
            self.dims.1,
        )
    }

    /// Flat index of column `c`, row `r`.
    #[inline]
    pub fn index(&self, c: usize, r: usize) -> usize {
        r * self.dims.0 + c
    }

    /// Flat index of the cell holding point `p` (clamped).
    #[inline]
    pub(crate) fn index_of(&self, p: Vec2) -> usize {
        self.index(self.col(p.x), self.row(p.y))
    }

    /// The box of cell `(c, r)` in world pixels (the unclamped lattice cell).
    pub(crate) fn cell_box(&self, c: usize, r: usize) -> Aabb {
        // col(x) = k  ⇔  k ≤ x / size + shift < k + 1  ⇔  x ∈ [(k − shift)·size, (k + 1 − shift)·size).
        let kx = (self.origin.0 + c as i64) as f64 - self.shift.0;
        let ky = (self.origin.1 + r as i64) as f64 - self.shift.1;
        let min = Vec2::new((kx * self.size) as f32, (ky * self.size) as f32);
        Aabb::new(min, min + Vec2::splat(self.size as f32))
    }
}

/// Number of cells from `lo` to `hi` inclusive, between 1 and `cap`.
fn span(lo: i64, hi: i64, cap: usize) -> usize {
    hi.saturating_sub(lo).clamp(0, cap as i64 - 1) as usize + 1
}

/// `(w, h)` cut down until `w · h ≤ cap`: the longer side first, down to the shorter, then
/// both to `⌊√cap⌋`.
fn fitted(w: usize, h: usize, cap: usize) -> (usize, usize) {
    if w.saturating_mul(h) <= cap {
        return (w, h);
    }
    let side = (cap as f64).sqrt() as usize;
    let short = w.min(h).min(side).max(1);
    let long = (cap / short).max(1);
    if w <= h {
        (short, long.min(h))
    } else {
        (long.min(w), short)
    }
}

/// `k - origin` clamped into `0..dim`.
#[inline]
fn clamp_into(k: i64, origin: i64, dim: usize) -> usize {
    k.saturating_sub(origin).clamp(0, dim as i64 - 1) as usize
}

/// Counting sort of `(cell, item)` entries into flat per-cell lists.
#[derive(Clone, Debug, Default)]
pub(crate) struct Buckets {
    /// Cell of each entry, in push order (structure of arrays with `entry_item`).
    entry_cell: Vec<u32>,
    /// Item of each entry, in push order.
    entry_item: Vec<u32>,
    /// `items[start[c]..start[c + 1]]` is cell `c`; `start.len()` is cells + 1.
    start: Vec<u32>,
    /// Write position per cell while sorting.
    cursor: Vec<u32>,
    /// Items grouped by cell.
    items: Vec<u32>,
}

impl Buckets {
    /// Forgets all entries (keeps the memory).
    pub fn clear(&mut self) {
        self.entry_cell.clear();
        self.entry_item.clear();
    }

    /// Adds `item` to cell `cell` (takes effect at the next [`Buckets::sort`]).
    #[inline]
    pub(crate) fn push(&mut self, cell: usize, item: usize) {
        self.entry_cell.push(cell as u32);
        self.entry_item.push(item as u32);
    }

    /// [`Buckets::sort`], also writing the two parts of `payload(cell, item)` of every entry
    /// into `out` (resized), in the items' order: reading what the payload needs in push order
    /// (by ball index, say) and writing it scattered, rather than gathering it later in cell
    /// order.
    pub(crate) fn sort_with<A: Copy + Default, B: Copy + Default>(
        &mut self,
        cells: usize,
        payload: impl Fn(u32, u32) -> (A, B),
        out: (&mut Vec<A>, &mut Vec<B>),
    ) {
        self.count(cells);
        let n = self.entry_item.len();
        let (a, b) = out;
        a.clear();
        a.resize(n, A::default());
        b.clear();
        b.resize(n, B::default());
        for (&c, &item) in self.entry_cell.iter().zip(&self.entry_item) {
            let at = &mut self.cursor[c as usize];
            let k = *at as usize;
            self.items[k] = item;
            (a[k], b[k]) = payload(c, item);
            *at += 1;
        }
    }

    /// Groups the entries by cell, `cells` cells in all, keeping push order within a cell.
    pub(crate) fn sort(&mut self, cells: usize) {
        self.count(cells);
        for (&c, &item) in self.entry_cell.iter().zip(&self.entry_item) {
            let at = &mut self.cursor[c as usize];
            self.items[*at as usize] = item;
            *at += 1;
        }
    }

    /// The starts of the cells, the cursors at them, and room for the items.
    fn count(&mut self, cells: usize) {
        self.start.clear();
        self.start.resize(cells + 1, 0);
        for &c in &self.entry_cell {
            self.start[c as usize + 1] += 1;
        }
        for c in 0..cells {
            self.start[c + 1] += self.start[c];
        }
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.start[..cells]);
        self.items.clear();
        self.items.resize(self.entry_item.len(), 0);
    }

    /// The items of cell `c`.
    #[inline]
    pub(crate) fn cell(&self, c: usize) -> &[u32] {
        &self.items[self.start[c] as usize..self.start[c + 1] as usize]
    }

    /// All items, in cell order (as of the last sort).
    pub(crate) fn items(&self) -> &[u32] {
        &self.items
    }

    /// Where the items of cells `first..=last` lie among all items ([`Buckets::items`]):
    /// contiguous, for cells `first..=last` of one row, say.
    #[inline]
    pub(crate) fn run_span(&self, first: usize, last: usize) -> std::ops::Range<usize> {
        self.start[first] as usize..self.start[last + 1] as usize
    }

    /// Number of cells sorted into.
    pub(crate) fn cells(&self) -> usize {
        self.start.len().saturating_sub(1)
    }

    /// Number of entries.
    pub(crate) fn entries(&self) -> usize {
        self.items.len()
    }

    /// Cells holding at least one item.
    pub(crate) fn occupied(&self) -> usize {
        self.start.windows(2).filter(|w| w[1] > w[0]).count()
    }

    /// Most items in one cell.
    pub(crate) fn max_per_cell(&self) -> usize {
        let most = self.start.windows(2).map(|w| w[1] - w[0]).max();
        most.unwrap_or(0) as usize
    }

    /// Checks that the lists hold exactly the pushed entries, by cell, in push order.
    pub(crate) fn validate(&self) -> Result<(), String> {
        let cells = self.cells();
        if self.start.first().copied().unwrap_or(0) != 0
            || self.start.windows(2).any(|w| w[0] > w[1])
        {
            return Err("bucket starts not ascending from 0".into());
        }
        if self.start.last().map_or(0, |&s| s as usize) != self.entry_item.len()
            || self.items.len() != self.entry_item.len()
        {
            return Err("bucket sizes differ from the entries pushed".into());
        }
        let mut at: Vec<u32> = self.start[..cells].to_vec();
        for (&c, &item) in self.entry_cell.iter().zip(&self.entry_item) {
            let slot = at.get_mut(c as usize).ok_or("entry cell out of range")?;
            if self.items[*slot as usize] != item {
                return Err(format!(
                    "item {item} not where counting sort puts it in cell {c}"
                ));
            }
            *slot += 1;
        }
        Ok(())
    }
}

/// Checks that every item of `ids` sits in exactly one cell of `b` (and nothing else does);
/// returns the cell of each, indexed by item − `ids.start`.
pub(crate) fn cell_of_each(b: &Buckets, ids: std::ops::Range<usize>) -> Result<Vec<usize>, String> {
    let mut cell_of = vec![usize::MAX; ids.len()];
    for c in 0..b.cells() {
        for &item in b.cell(c) {
            let k = (item as usize)
                .checked_sub(ids.start)
                .filter(|&k| k < ids.len());
            let slot = k
                .map(|k| &mut cell_of[k])
                .ok_or(format!("item {item} is not a ball"))?;
            if *slot != usize::MAX {
                return Err(format!("ball {item} in two cells"));
            }
            *slot = c;
        }
    }
    match cell_of.iter().position(|&c| c == usize::MAX) {
        Some(k) => Err(format!("ball {} in no cell", ids.start + k)),
        None => Ok(cell_of),
    }
}

/// Brute force inside one list (`len (len − 1) / 2` tests), `boxes[k]` the box of `list[k]`,
/// adding the tests to `counters`, but keeping an overlapping pair of `list[k]` and `list[l]`
/// (`k < l`) only when `first(k, l)` says this is where it is seen first; the others are
/// counted in `repeats_dropped`.
pub(crate) fn pairs_within_first(
    list: &[u32],
    boxes: &[Aabb],
    pairs: &mut Vec<Pair>,
    counters: &mut BroadCounters,
    first: impl Fn(usize, usize) -> bool,
) {
    debug_assert_eq!(list.len(), boxes.len());
    for (k, (&i, a)) in list.iter().zip(boxes).enumerate() {
        for (l, (&j, b)) in (k + 1..).zip(list[k + 1..].iter().zip(&boxes[k + 1..])) {
            if !a.overlaps(b) {
                continue;
            }
            let (lo, hi) = (i.min(j), i.max(j));
            if first(k, l) {
                pairs.push((lo, hi));
            } else {
                counters.repeats_dropped += 1;
            }
        }
    }
    let n = list.len() as u64;
    counters.aabb_tests += n * n.saturating_sub(1) / 2;
}

/// Gives the tests of [`pairs_within_first`] over `list` to the probe: each box the tests
/// against the boxes after it in the list (the loop's outer box), `n(n − 1)/2` in all, made in
/// `place` at `rect` (what the focus visited), their heat given to the place at `heat_at`
/// (the rectangle the structure draws for it).
pub(crate) fn probe_within(
    list: &[u32],
    probe: &mut Probe,
    place: Place,
    rect: Aabb,
    heat_at: Aabb,
) {
    let n = list.len() as u64;
    for (k, &i) in list.iter().enumerate() {
        let t = n - 1 - k as u64;
        probe.test(i, t);
        probe.visit(i, place, rect, t);
        if probe.is_focus(i) {
            probe.against.extend(&list[k + 1..]);
        }
    }
    probe.place(place, heat_at, n * n.saturating_sub(1) / 2);
}

/// The largest side (px) of any box in `boxes`, computed in f64 so the f32 subtraction cannot
/// round it down; 0 for none.
pub(crate) fn largest_side(boxes: &[Aabb]) -> f64 {
    let side = |b: &Aabb| {
        let w = b.max.x as f64 - b.min.x as f64;
        let h = b.max.y as f64 - b.min.y as f64;
        w.max(h)
    };
    boxes.iter().map(side).fold(0.0, f64::max)
}

/// The box holding `world` and every box of `boxes`.
pub(crate) fn region_of(world: &Aabb, boxes: &[Aabb]) -> Aabb {
    boxes.iter().fold(*world, |r, b| r.merged(b))
}

/// True when no box of `boxes` spans more than two cells per axis in the unshifted lattice of
/// side `size`: then two overlapping boxes have their min corners in the same or adjacent
/// cells (`a.min ≤ b.min ≤ a.max` on an axis ⇒ `col(b.min) − col(a.min) ≤ col(a.max) −
/// col(a.min) ≤ 1`). Checked with the same rounding as the cells themselves.
pub(crate) fn within_two_cells(boxes: &[Aabb], size: f64) -> bool {
    boxes.iter().all(|b| {
        cell_coord(b.max.x, size, 0.0) - cell_coord(b.min.x, size, 0.0) <= 1
            && cell_coord(b.max.y, size, 0.0) - cell_coord(b.min.y, size, 0.0) <= 1
    })
}

/// Draws the lines of a lattice (side `size` px, shift in cells) across `area`, at most
/// [`MAX_DIM`] lines per direction.
pub(crate) fn draw_lattice(
    draw: &mut dyn DebugDraw,
    area: &Aabb,
    size: f64,
    shift: (f64, f64),
    color: Rgba,
) {
    // Lines sit where v / size + shift is a whole number: v = (k − shift)·size.
    let lines = |lo: f32, hi: f32, sh: f64| {
        let first = (lo as f64 / size + sh).ceil() as i64;
        let last = (hi as f64 / size + sh).floor() as i64;
        (first..=last)
            .take(MAX_DIM)
            .map(move |k| ((k as f64 - sh) * size) as f32)
    };
    for x in lines(area.min.x, area.max.x, shift.0) {
        let (a, b) = (Vec2::new(x, area.min.y), Vec2::new(x, area.max.y));
        draw.draw(Prim::Line { a, b, color });
    }
    for y in lines(area.min.y, area.max.y, shift.1) {
        let (a, b) = (Vec2::new(area.min.x, y), Vec2::new(area.max.x, y));
        draw.draw(Prim::Line { a, b, color });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_i64_is_floor_as_i64_everywhere() {
        let odd = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            -1.5,
            2.999_999,
            -2.000_001,
            4.5e15,
            -4.5e15,
            9.3e18,
            -9.3e18,
            1e300,
            -1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            i64::MIN as f64,
            i64::MAX as f64,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
        ];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let random = (0..100_000).map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x as i64 as f64) * 1e-12
        });
        for q in odd.into_iter().chain(random) {
            assert_eq!(floor_i64(q), q.floor() as i64, "{q}");
        }
    }

    #[test]
    fn negative_coordinates_floor_not_truncate() {
        assert_eq!(cell_coord(-0.5, 64.0, 0.0), -1);
        assert_eq!(cell_coord(-64.0, 64.0, 0.0), -1);
        assert_eq!(cell_coord(-64.5, 64.0, 0.0), -2);
        assert_eq!(cell_coord(0.0, 64.0, 0.0), 0);
        assert_eq!(
            cell_coord(-32.0, 64.0, 0.5),
            0,
            "shifted lattice: line at −32"
        );
        assert_eq!(cell_coord(-32.5, 64.0, 0.5), -1);
    }

    #[test]
    fn range_clamps_outside_points_to_the_border() {
        let region = Aabb::new(Vec2::new(-100.0, -100.0), Vec2::new(100.0, 100.0));
        let r = CellRange::covering(&region, 64.0, (0.0, 0.0));
        assert_eq!(r.origin, (-2, -2));
        assert_eq!(r.dims, (4, 4));
        assert_eq!(r.col(-1000.0), 0);
        assert_eq!(r.col(-65.0), 0);
        assert_eq!(r.col(-1.0), 1);
        assert_eq!(r.col(1e9), 3);
        assert_eq!(r.row(f32::NEG_INFINITY), 0);
    }

    #[test]
    fn range_is_capped() {
        let region = Aabb::new(Vec2::splat(-1e6), Vec2::splat(1e6));
        let r = CellRange::covering(&region, 1.0, (0.0, 0.0));
        assert_eq!(r.dims, (MAX_DIM, MAX_DIM));
    }

    #[test]
    fn range_grows_with_the_items_up_to_four_cells_each() {
        let region = Aabb::new(Vec2::ZERO, Vec2::splat(32.0 * 1000.0 - 1.0));
        let r = CellRange::covering_for(&region, 32.0, (0.0, 0.0), 1_000_000);
        assert_eq!(r.dims, (1000, 1000), "one million items: no clamping");
        let r = CellRange::covering_for(&region, 32.0, (0.0, 0.0), 100_000);
        assert!(r.cells() <= 400_000 && r.dims.0 == r.dims.1, "{:?}", r.dims);
        let line = Aabb::new(Vec2::ZERO, Vec2::new(1e7, 10.0));
        let r = CellRange::covering_for(&line, 1.0, (0.0, 0.0), 10);
        assert_eq!(r.dims, (MAX_DIM * MAX_DIM / 11, 11), "the long side is cut");
    }

    #[test]
    fn cell_box_holds_its_points() {
        let r = CellRange::covering(&Aabb::new(Vec2::splat(-50.0), Vec2::ZERO), 20.0, (0.5, 0.0));
        let b = r.cell_box(0, 0);
        assert_eq!(r.col(b.min.x), 0);
        assert_eq!(r.col(b.max.x - 0.01), 0);
        assert_eq!(r.row(b.min.y), 0);
    }

    #[test]
    fn counting_sort_groups_by_cell_in_push_order() {
        let mut b = Buckets::default();
        for (c, item) in [(2, 10), (0, 11), (2, 12), (1, 13), (2, 14)] {
            b.push(c, item);
        }
        b.sort(4);
        assert_eq!(b.cell(0), &[11]);
        assert_eq!(b.cell(1), &[13]);
        assert_eq!(b.cell(2), &[10, 12, 14]);
        assert!(b.cell(3).is_empty());
        assert_eq!((b.occupied(), b.max_per_cell()), (3, 3));
        b.validate().unwrap();
    }

    #[test]
    fn cell_of_each_finds_missing_and_doubled_balls() {
        let mut b = Buckets::default();
        b.push(1, 5);
        b.push(0, 6);
        b.sort(2);
        assert_eq!(cell_of_each(&b, 5..7).unwrap(), vec![1, 0]);
        assert!(cell_of_each(&b, 5..8).unwrap_err().contains("no cell"));
        b.push(1, 6);
        b.sort(2);
        assert!(cell_of_each(&b, 5..7).unwrap_err().contains("two cells"));
        assert!(cell_of_each(&b, 6..7).unwrap_err().contains("not a ball"));
    }

    #[test]
    fn within_two_cells_uses_the_cell_rounding() {
        let b = Aabb::new(Vec2::new(-64.0, 0.0), Vec2::new(0.0, 10.0));
        assert!(
            within_two_cells(&[b], 64.0),
            "[−64, 0] spans columns −1 and 0"
        );
        let wide = Aabb::new(Vec2::new(-64.0, 0.0), Vec2::new(64.0, 10.0));
        assert!(!within_two_cells(&[wide], 64.0));
    }
}
