//! The original toy's array quadtree (Parberry, Collision Math Toy, section 5.4): a full
//! 4-ary tree kept in one array, its leaves a uniform grid over the world box, every shape
//! listed in each leaf its box overlaps, and candidate pairs tested only inside leaves.
//!
//! # Layout
//! Node `i` has children `4i+1 ..= 4i+4` and parent `⌊(i−1)/4⌋`. Child `k` of a node is its
//! quadrant taking the upper half in x when `k & 1` and the upper half in y when `k & 2`. With
//! `L` levels counting the root there are `(4^L − 1)/3` nodes and `4^(L−1)` leaves, the last
//! `4^(L−1)` entries; the first leaf is `(nodes − 1)/4` (the node count of `L − 1` levels). The
//! root box is the world box.
//!
//! # Algorithm
//! Each box is clamped into the world box first ([`Aabb::clamped`] is monotone, so boxes that
//! overlap still overlap, and a shape partly or wholly outside the world lands in border leaves:
//! no pair is lost). It is inserted by descending from the root into every child whose box it
//! overlaps. Statics are inserted once per `(statics_version, count, levels, world)`; kinematic
//! shapes and balls on every call. Leaf lists are flat: `(leaf, shape)` entries counting-sorted
//! into one range per leaf, each range ascending by shape index, so kinematic shapes come
//! before balls. In each leaf every ball is tested (real, unclamped boxes) against the statics
//! and the earlier moving shapes there; the unwanted kinds (static–kinematic,
//! kinematic–kinematic, static–static) are never tested.
//!
//! A pair whose boxes span several leaves is found in each. It is reported only by the leaf
//! that owns `p`, the min corner of the intersection of the two clamped boxes; ownership
//! follows the descent rule "`p >= mid` takes the upper half", so exactly one leaf owns a point,
//! and that leaf holds both shapes (both clamped boxes contain `p`). The other finds are
//! counted as `repeats_dropped`. No sort-and-dedup is needed, only a sort.
//!
//! # Cost
//! Insertion: one AABB test per node box tested, `1 + 4(L − 1)` for a box inside one leaf,
//! counted in `aabb_tests` with the leaf pair tests. With `n` shapes over `m` non-empty leaves
//! holding at most `k` each, a call costs `O(n log N + m k²)` (section 5.4.5). Memory is
//! `O(nodes + entries)`; once the vectors have grown, a call allocates nothing.
//!
//! # Probe
//! A node test of an insertion belongs to the shape inserted (a ball, or a kinematic shape
//! inserted every call); the statics' insertion, done again only when they change, is the
//! structure's. A leaf test belongs to the ball being tested against the statics and earlier
//! shapes of the leaf. For the focus the nodes its insertion tested (`Node`, one test each)
//! and each leaf it was tested in (`Leaf`, its tests there) are visited; each leaf's heat is
//! its pair tests (insertions are the balls', not a leaf's).
//!
//! # Invariants (checked by [`BroadPhase::validate`])
//! The node count matches the formula; each node's four children tile it exactly; every shape
//! (statics in the static lists, kinematic shapes and balls in the moving lists) appears exactly
//! in the leaves its clamped box overlaps, once each, lists ascending.

use super::pair_keys::PairKeys;
use super::{BallSizes, BroadInfo, ParamInfo, Place, Places, Probe, RuleValues};
use super::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair, Param, ParamError};
use crate::debug_draw::{DebugDraw, Prim, Rgba};
use crate::geom::Aabb;
use glam::Vec2;

/// Fewest levels: the root alone, one leaf.
pub(crate) const MIN_LEVELS: u32 = 1;
/// Most levels: a 16 × 16 leaf grid.
pub(crate) const MAX_LEVELS: u32 = 5;
/// Most levels the automatic setting (parameter 0) picks: a 512 × 512 leaf grid.
pub(crate) const MAX_AUTO_LEVELS: u32 = 10;
/// Levels at start, as in the original: a 4 × 4 leaf grid.
pub(crate) const DEFAULT_LEVELS: u32 = 3;
/// Leaf outline colour, the original's magenta.
pub(crate) const LEAF_COLOR: Rgba = Rgba(1.0, 0.0, 1.0, 1.0);
/// Alpha of the leaf heat fill, low so shapes stay visible underneath.
const FILL_ALPHA: f32 = 0.25;

/// Nodes in a full quadtree of `levels` levels counting the root: `(4^L − 1)/3`.
pub(crate) const fn node_count(levels: u32) -> usize {
    ((1usize << (2 * levels)) - 1) / 3
}

/// Leaves of a quadtree of `levels` levels (`levels >= 1`): `4^(L−1)`.
pub const fn leaf_count(levels: u32) -> usize {
    1usize << (2 * (levels - 1))
}

/// Leaves along one side of the leaf grid: `2^(L−1)`.
pub(crate) const fn grid_side(levels: u32) -> usize {
    1usize << (levels - 1)
}

/// Array index of the first of node `i`'s four children (the others follow it).
pub(crate) const fn first_child(i: usize) -> usize {
    4 * i + 1
}

/// Array index of the parent of node `i` (`i > 0`): `⌊(i − 1)/4⌋`.
pub(crate) const fn parent(i: usize) -> usize {
    (i - 1) / 4
}

/// Quadrant `k` of `b` split at `mid`: upper half in x when `k & 1`, in y when `k & 2`.
pub(crate) fn quadrant(b: &Aabb, mid: Vec2, k: usize) -> Aabb {
    let (x0, x1) = if k & 1 == 0 {
        (b.min.x, mid.x)
    } else {
        (mid.x, b.max.x)
    };
    let (y0, y1) = if k & 2 == 0 {
        (b.min.y, mid.y)
    } else {
        (mid.y, b.max.y)
    };
    Aabb {
        min: Vec2::new(x0, y0),
        max: Vec2::new(x1, y1),
    }
}

/// Shape indices per leaf, flat: leaf `l` holds `items[start[l]..start[l + 1]]`, and
/// `boxes` beside them holds each listed shape's box, so a leaf's tests read its boxes in
/// sequence rather than looking each up by shape index (at 100k balls the boxes are 1.6 MB,
/// and lookups in leaf order missed the cache).
#[derive(Debug, Default)]
struct LeafLists {
    start: Vec<u32>,
    items: Vec<u32>,
    boxes: Vec<Aabb>,
}

impl LeafLists {
    /// The shapes listed in leaf `l`.
    fn leaf(&self, l: usize) -> &[u32] {
        &self.items[self.start[l] as usize..self.start[l + 1] as usize]
    }

    /// The boxes of the shapes listed in leaf `l`, in the same order.
    fn leaf_boxes(&self, l: usize) -> &[Aabb] {
        &self.boxes[self.start[l] as usize..self.start[l + 1] as usize]
    }

    /// Every leaf empty.
    fn clear(&mut self, leaves: usize) {
        self.start.clear();
        self.start.resize(leaves + 1, 0);
        self.items.clear();
        self.boxes.clear();
    }

    /// Counting sort of `(leaf, shape)` entries into leaf ranges, stable, so shapes entered
    /// in ascending order stay ascending in each leaf; each shape's box is taken from
    /// `aabbs`.
    fn fill(&mut self, entries: &[(u32, u32)], leaves: usize, aabbs: &[Aabb]) {
        self.clear(leaves);
        for &(leaf, _) in entries {
            self.start[leaf as usize] += 1;
        }
        // Inclusive prefix sums: start[l] = end of leaf l's range.
        for l in 1..leaves {
            self.start[l] += self.start[l - 1];
        }
        self.start[leaves] = entries.len() as u32;
        self.items.resize(entries.len(), 0);
        self.boxes.resize(entries.len(), Aabb::default());
        // Filling backwards moves each start[l] down to the beginning of its range.
        for &(leaf, shape) in entries.iter().rev() {
            self.start[leaf as usize] -= 1;
            let at = self.start[leaf as usize] as usize;
            self.items[at] = shape;
            self.boxes[at] = aabbs[shape as usize];
        }
    }
}

/// Inserts `b` below node `node` of box `nb`, in a tree of `count` nodes: records
/// `(leaf, shape)` for every leaf it overlaps; returns the node boxes tested (one AABB test
/// each). A child's box is computed from its parent's as [`QuadTree::reset`] stores it
/// ([`quadrant`] about the centre), so it is the stored box bit for bit, without reading the
/// node array (1.4 MB at 100k balls, where reading it missed the cache at every level).
fn descend(
    count: usize,
    node: usize,
    nb: &Aabb,
    b: &Aabb,
    shape: u32,
    out: &mut Vec<(u32, u32)>,
    seen: &mut impl FnMut(&Aabb),
) -> u64 {
    seen(nb);
    if !nb.overlaps(b) {
        return 1;
    }
    let child = first_child(node);
    if child >= count {
        let first_leaf = (count - 1) / 4;
        out.push(((node - first_leaf) as u32, shape));
        return 1;
    }
    let mid = nb.centre();
    1 + (0..4)
        .map(|k| {
            descend(
                count,
                child + k,
                &quadrant(nb, mid, k),
                b,
                shape,
                out,
                &mut *seen,
            )
        })
        .sum::<u64>()
}

/// The one leaf owning point `p` (inside the root box `root`) in a tree of `count` nodes:
/// descend taking the upper half whenever `p >= mid`, the boxes computed as in [`descend`].
/// Comparisons only; no AABB test.
fn owner_leaf(count: usize, root: &Aabb, p: Vec2) -> usize {
    let (mut i, mut nb) = (0, *root);
    while first_child(i) < count {
        let mid = nb.centre(); // child 0 is [min, mid]
        let k = (p.x >= mid.x) as usize + 2 * (p.y >= mid.y) as usize;
        nb = quadrant(&nb, mid, k);
        i = first_child(i) + k;
    }
    i - (count - 1) / 4
}

/// Levels the automatic setting picks for `n` shapes inserted per call: the fewest whose
/// leaves number at least `n / 2`, so leaves hold about one to two shapes whatever `n`
/// (between 1 and [`MAX_AUTO_LEVELS`]). With the leaf count growing with `n` the leaf pair
/// tests stay `O(n)` in all, and a call costs `O(n log n)` (the descent), where fixed levels
/// grow as `n²` once the leaves fill.
pub(crate) fn auto_levels(n: usize) -> u32 {
    let mut levels = MIN_LEVELS;
    while levels < MAX_AUTO_LEVELS && leaf_count(levels) < n / 2 {
        levels += 1;
    }
    levels
}

/// The levels: leaves about a ball across; the course's 60 × 44 px leaves for balls of
/// 42 px hold at most four balls (Parberry, Collision Math Toy, §5.4.5).
const LEVELS: ParamInfo = ParamInfo {
    name: "levels",
    unit: "levels",
    min: 0.0,
    max: MAX_LEVELS as f32,
    integer: true,
    says: "Leaves about a ball across: the course's 60 x 44 px leaves for balls of 42 px \
           hold at most four balls each; deeper, every ball pays more node tests on its way \
           down",
    source: "Parberry, Collision Math Toy, §5.4.5",
    rule: levels_rule,
};

/// What the quadtree declares.
pub(crate) const DESCRIPTION: BroadInfo = BroadInfo {
    name: "quadtree",
    label: "Quadtree",
    colour: [30, 150, 60],
    places: Some(Places {
        word: "leaf",
        heat_alpha: 0.5,
    }),
    params: &[LEVELS],
    create: || Box::new(QuadTree::default()),
};

/// The deepest quadtree over `world` whose leaves are at least `d` px on their shorter side
/// (1 at least, 12 at most).
pub(crate) fn levels_for_leaf(world: &Aabb, d: f32) -> u32 {
    let side = world.size().min_element();
    let mut levels = 1;
    while levels < 12 && side / (1u32 << levels) as f32 >= d {
        levels += 1;
    }
    levels
}

/// The levels' rule for the balls `b`: leaves a mean diameter across, as deep as the slider
/// goes; automatic where the balls want more and are many.
fn levels_rule(b: &BallSizes) -> RuleValues {
    let want = levels_for_leaf(&b.world, b.mean_diameter.max(1e-3));
    let leaf = b.world.size() / (1u32 << (want - 1)) as f32;
    let (auto, note) = if want <= MAX_LEVELS {
        (want as f32, String::new())
    } else if auto_levels(b.given) > MAX_LEVELS {
        (0.0, "; deeper than the slider: automatic".to_string())
    } else {
        (MAX_LEVELS as f32, "; the slider stops at 5".to_string())
    };
    RuleValues {
        auto,
        value: Some(want as f32),
        auto_why: format!(
            "{want} levels: {:.0} x {:.0} px leaves for a mean diameter of {:.1} px{note}",
            leaf.x, leaf.y, b.mean_diameter
        ),
        sweep: (1..=MAX_LEVELS).map(|l| l as f32).collect(),
    }
}

/// The original toy's array quadtree.
#[derive(Debug)]
pub struct QuadTree {
    /// Levels of the tree as built (the automatic choice of the last call when `auto`).
    levels: u32,
    /// Levels chosen from the shape count each call ([`auto_levels`]); parameter 0.
    auto: bool,
    /// Node boxes, root (the world box) first.
    nodes: Vec<Aabb>,
    /// `(statics_version, first_moving)` the static lists were built for; `None` = rebuild.
    statics_key: Option<(u64, usize)>,
    /// Shapes of the last call.
    len: usize,
    /// Layout of the last call.
    first_moving: usize,
    first_dynamic: usize,
    statics: LeafLists,
    moving: LeafLists,
    /// Scratch `(leaf, shape)` entries for the counting sort.
    entries: Vec<(u32, u32)>,
    /// The pairs' radix sort.
    keys: PairKeys,
}

impl Default for QuadTree {
    fn default() -> Self {
        Self::with_levels(DEFAULT_LEVELS)
    }
}

impl QuadTree {
    /// An empty quadtree of `levels` levels counting the root.
    ///
    /// # Panics
    /// When `levels` is outside `MIN_LEVELS..=MAX_LEVELS`.
    pub fn with_levels(levels: u32) -> Self {
        assert!(
            (MIN_LEVELS..=MAX_LEVELS).contains(&levels),
            "levels {levels}"
        );
        let mut tree = QuadTree {
            levels,
            auto: false,
            nodes: Vec::new(),
            statics_key: None,
            len: 0,
            first_moving: 0,
            first_dynamic: 0,
            statics: LeafLists::default(),
            moving: LeafLists::default(),
            entries: Vec::new(),
            keys: PairKeys::default(),
        };
        tree.reset(Aabb::default());
        tree
    }

    #[cfg(test)]
    /// Levels counting the root.
    pub(crate) fn levels(&self) -> u32 {
        self.levels
    }

    /// Box of leaf `l`, numbered in array order (leaf `l` is node `first leaf + l`).
    pub fn leaf_box(&self, l: usize) -> Aabb {
        self.nodes[self.first_leaf() + l]
    }

    fn first_leaf(&self) -> usize {
        (self.nodes.len() - 1) / 4
    }

    fn leaves(&self) -> usize {
        leaf_count(self.levels)
    }

    /// Shapes (static and moving) listed in leaf `l`.
    fn leaf_len(&self, l: usize) -> usize {
        self.statics.leaf(l).len() + self.moving.leaf(l).len()
    }

    /// Empties the tree and rebuilds the node boxes over `world`.
    fn reset(&mut self, world: Aabb) {
        self.nodes.clear();
        self.nodes.resize(node_count(self.levels), world);
        for i in 0..self.first_leaf() {
            let b = self.nodes[i];
            for k in 0..4 {
                self.nodes[first_child(i) + k] = quadrant(&b, b.centre(), k);
            }
        }
        self.statics_key = None;
        self.len = 0;
        self.first_moving = 0;
        self.first_dynamic = 0;
        self.statics.clear(self.leaves());
        self.moving.clear(self.leaves());
    }

    /// Rebuilds what the input invalidated: nodes on a new world box, statics on a new
    /// statics version or count. Returns the statics' insertion tests.
    fn prepare(&mut self, input: &BroadInput) -> u64 {
        if self.nodes[0] != input.world {
            self.reset(input.world);
        }
        self.len = input.aabbs.len();
        self.first_moving = input.first_moving;
        self.first_dynamic = input.first_dynamic;
        let key = (input.statics_version, input.first_moving);
        if self.statics_key == Some(key) {
            return 0;
        }
        let tests = self.insert(input, 0..input.first_moving, None);
        self.statics
            .fill(&self.entries, leaf_count(self.levels), input.aabbs);
        self.statics_key = Some(key);
        tests
    }

    /// Clamps and inserts shapes `range` into `self.entries` (cleared first); returns the
    /// node tests done, each shape's also given to it in `probe`, with the nodes tested for
    /// the focus.
    fn insert(
        &mut self,
        input: &BroadInput,
        range: std::ops::Range<usize>,
        mut probe: Option<&mut Probe>,
    ) -> u64 {
        self.entries.clear();
        let mut tests = 0;
        for i in range {
            let c = input.aabbs[i].clamped(&input.world);
            let (count, root, out) = (self.nodes.len(), &self.nodes[0], &mut self.entries);
            let (id, t) = (i as u32, &mut tests);
            match probe.as_deref_mut() {
                None => *t += descend(count, 0, root, &c, id, out, &mut |_| {}),
                Some(p) => {
                    let mut nodes = Vec::new();
                    let focus = p.is_focus(id);
                    let mut seen = |nb: &Aabb| {
                        if focus {
                            nodes.push(*nb);
                        }
                    };
                    let n = descend(count, 0, root, &c, id, out, &mut seen);
                    *t += n;
                    p.test(id, n);
                    for nb in nodes {
                        p.visit(id, Place::Node, nb, 1);
                    }
                }
            }
        }
        tests
    }

    /// Tests every wanted candidate in every leaf; pushes the pairs each leaf owns.
    fn collect_pairs(
        &self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
        mut probe: Option<&mut Probe>,
    ) {
        let (count, root) = (self.nodes.len(), &self.nodes[0]);
        let mut tests = 0;
        for leaf in 0..self.leaves() {
            let (statics, static_boxes) = (self.statics.leaf(leaf), self.statics.leaf_boxes(leaf));
            let (moving, moving_boxes) = (self.moving.leaf(leaf), self.moving.leaf_boxes(leaf));
            let first_ball = moving.partition_point(|&i| (i as usize) < input.first_dynamic);
            let leaf_start = tests;
            for bi in first_ball..moving.len() {
                let ball_start = tests;
                let (b, bb) = (moving[bi], &moving_boxes[bi]);
                // Its min corner clamped as `insert` clamps boxes, once for all its candidates.
                let b_min = bb.clamped(&input.world).min;
                // Statics and earlier moving shapes all have smaller indices than ball b.
                let earlier = statics.iter().zip(static_boxes);
                let earlier = earlier.chain(moving[..bi].iter().zip(&moving_boxes[..bi]));
                for (&a, ab) in earlier {
                    tests += 1;
                    if !ab.overlaps(bb) {
                        continue;
                    }
                    // The min corner of the clamped boxes' intersection.
                    let p = ab.clamped(&input.world).min.max(b_min);
                    if owner_leaf(count, root, p) == leaf {
                        pairs.push((a, b));
                    } else {
                        counters.repeats_dropped += 1;
                    }
                }
                if let Some(p) = probe.as_deref_mut() {
                    let t = tests - ball_start;
                    p.test(b, t);
                    p.visit(b, Place::Leaf, self.leaf_box(leaf), t);
                    if p.is_focus(b) {
                        p.against.extend(statics.iter().chain(&moving[..bi]));
                    }
                }
            }
            if let Some(p) = probe.as_deref_mut() {
                p.place(Place::Leaf, self.leaf_box(leaf), tests - leaf_start);
            }
        }
        counters.aabb_tests += tests;
    }

    /// Node count and exact tiling of every node by its four children.
    fn check_nodes(&self) -> Result<(), String> {
        if self.nodes.len() != node_count(self.levels) {
            return Err(format!(
                "{} nodes for {} levels, expected {}",
                self.nodes.len(),
                self.levels,
                node_count(self.levels)
            ));
        }
        for i in 0..self.first_leaf() {
            let b = &self.nodes[i];
            let mid = self.nodes[first_child(i)].max;
            if !b.contains(mid) {
                return Err(format!("node {i}: split point {mid} outside {b:?}"));
            }
            for k in 0..4 {
                let c = first_child(i) + k;
                if parent(c) != i || self.nodes[c] != quadrant(b, mid, k) {
                    return Err(format!("node {i}: child {c} is not quadrant {k}"));
                }
            }
        }
        Ok(())
    }

    /// Every shape in `range` listed exactly in the leaves its clamped box overlaps, with the
    /// same box in each (the box it was inserted with, clamped here as `insert` clamps it).
    fn check_lists(&self, lists: &LeafLists, range: std::ops::Range<usize>) -> Result<(), String> {
        let leaves = self.leaves();
        if lists.start.len() != leaves + 1
            || lists.start[leaves] as usize != lists.items.len()
            || lists.boxes.len() != lists.items.len()
        {
            return Err("leaf ranges do not cover the item list".into());
        }
        let root = self.nodes[0];
        let mut seen = vec![0usize; self.len];
        let mut listed: Vec<Option<Aabb>> = vec![None; self.len];
        for l in 0..leaves {
            let items = lists.leaf(l);
            if items.windows(2).any(|w| w[0] >= w[1]) {
                return Err(format!("leaf {l}: list not strictly ascending"));
            }
            for (&i, b) in items.iter().zip(lists.leaf_boxes(l)) {
                let i = i as usize;
                let c = b.clamped(&root);
                if !range.contains(&i) || !c.overlaps(&self.leaf_box(l)) {
                    return Err(format!("leaf {l}: shape {i} should not be listed"));
                }
                if *listed[i].get_or_insert(*b) != *b {
                    return Err(format!("leaf {l}: shape {i} listed with another box"));
                }
                seen[i] += 1;
            }
        }
        for i in range {
            let Some(c) = listed[i].map(|b| b.clamped(&root)) else {
                return Err(format!("shape {i}: in no leaf"));
            };
            if !root.encloses(&c) {
                return Err(format!("shape {i}: clamped box outside the root"));
            }
            let want = (0..leaves)
                .filter(|&l| c.overlaps(&self.leaf_box(l)))
                .count();
            if seen[i] != want {
                return Err(format!("shape {i}: in {} leaves, overlaps {want}", seen[i]));
            }
        }
        Ok(())
    }
}

impl QuadTree {
    /// One call, recording the work per shape in `probe` when given.
    fn run(
        &mut self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
        mut probe: Option<&mut Probe>,
    ) {
        debug_assert!(input.first_moving <= input.first_dynamic);
        debug_assert!(input.first_dynamic <= input.aabbs.len());
        pairs.clear();
        if self.auto {
            let want = auto_levels(input.aabbs.len() - input.first_moving);
            if want != self.levels {
                self.levels = want;
                self.reset(input.world);
            }
        }
        let rebuild = self.prepare(input);
        counters.aabb_tests += rebuild;
        if let Some(p) = probe.as_deref_mut() {
            p.structure(rebuild);
        }
        let moving = input.first_moving..input.aabbs.len();
        counters.aabb_tests += self.insert(input, moving, probe.as_deref_mut());
        self.moving.fill(&self.entries, self.leaves(), input.aabbs);
        self.collect_pairs(input, pairs, counters, probe);
        self.keys.sort_pairs(pairs, input.aabbs.len());
        debug_assert!(
            pairs.windows(2).all(|w| w[0] < w[1]),
            "owner rule repeated a pair"
        );
        counters.pairs += pairs.len() as u64;
    }
}

impl BroadPhase for QuadTree {
    fn kind(&self) -> BroadKind {
        BroadKind::Quadtree
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
        self.check_nodes()?;
        self.check_lists(&self.statics, 0..self.first_moving.min(self.len))?;
        self.check_lists(&self.moving, self.first_moving..self.len)
    }

    fn params(&self) -> Vec<Param> {
        let side = grid_side(self.levels);
        let auto = if self.auto {
            " chosen automatically"
        } else {
            ""
        };
        let help = format!(
            "Levels counting the root: L levels give a 2^(L-1) square leaf grid (now {side} x \
             {side} leaves{auto}); 0 = automatic, leaves about half the moving shapes"
        );
        vec![LEVELS.param(if self.auto { 0.0 } else { self.levels as f32 }, help)]
    }

    fn set_param(&mut self, name: &str, value: f32) -> Result<(), ParamError> {
        if name != "levels" {
            return Err(ParamError::unknown(self.kind(), name));
        }
        let range = MIN_LEVELS as f32..=MAX_LEVELS as f32;
        if value == 0.0 {
            self.auto = true;
            return Ok(()); // levels chosen at the next call
        }
        if !range.contains(&value) || value.fract() != 0.0 {
            return Err(ParamError::Invalid(format!(
                "levels must be 0 (automatic) or a whole number from {MIN_LEVELS} to \
                 {MAX_LEVELS} (counting the root), not {value}"
            )));
        }
        (self.levels, self.auto) = (value as u32, false);
        self.reset(self.nodes[0]);
        Ok(())
    }

    fn stats(&self) -> Vec<(&'static str, String)> {
        let size = self.leaf_box(0).size();
        let counts = (0..self.leaves()).map(|l| self.leaf_len(l));
        vec![
            ("nodes", self.nodes.len().to_string()),
            ("leaves", self.leaves().to_string()),
            ("leaf area", format!("{:.0} x {:.0}", size.x, size.y)),
            (
                "max shapes per leaf",
                counts.clone().max().unwrap_or(0).to_string(),
            ),
            (
                "non-empty leaves",
                counts.filter(|&c| c > 0).count().to_string(),
            ),
        ]
    }

    fn debug_draw(&self, draw: &mut dyn DebugDraw) {
        let most = (0..self.leaves())
            .map(|l| self.leaf_len(l))
            .max()
            .unwrap_or(0);
        for l in 0..self.leaves() {
            let aabb = self.leaf_box(l);
            let count = self.leaf_len(l);
            let fill = (count > 0).then(|| Rgba::heat(count as f32 / most as f32));
            draw.draw(Prim::Rect {
                aabb,
                fill: fill.map(|c| c.with_alpha(FILL_ALPHA)),
                stroke: Some(LEAF_COLOR),
            });
            if count > 0 {
                draw.draw(Prim::Text {
                    at: aabb.centre(),
                    text: count.to_string(),
                    color: LEAF_COLOR,
                });
            }
        }
    }
}

#[cfg(test)]
mod tests;
