//! AABB tree broad phase with two trees, as Box2D does: a [`StaticTree`] over the statics,
//! built once per `statics_version`, and a [`DynamicTree`] over kinematic shapes and balls,
//! kept across calls and refit incrementally.
//!
//! Why two. The table's outer walls are long segments whose boxes span the whole table; in one
//! shared tree they bloat every internal node above them, so a ball's query opens most of the
//! tree. Apart, the walls sit near the static root (the SAH build puts them there) and the
//! moving tree's nodes stay as small as the balls' clusters.
//!
//! Algorithm. The static tree is built top-down by the surface-area heuristic from the exact
//! static boxes whenever `statics_version` or the static count changes. Every kinematic shape
//! and ball has a leaf in the dynamic tree holding a *fat* box, its box grown by `margin` px;
//! each call a leaf whose box is still inside its fat box costs nothing more, and one that left
//! it is removed and reinserted with a new fat box. When the number of shapes changes, leaves
//! are removed or added at the end (balls are added or removed there); a leaf whose index now
//! names another shape simply moves far and is reinserted. A fresh set (the first call, or a
//! new layout) is built at once from its Morton order ([`DynamicTree::build`], `O(n)`)
//! rather than inserted leaf by leaf, which costs far more with many balls (every insertion
//! walks the tree and misses the cache).
//!
//! Pairs. Every wanted pair has a ball `j`, so there are two kinds:
//! - moving–ball pairs come from one simultaneous self-traversal of the dynamic tree: each
//!   node pair `(a, b)` whose boxes overlap is opened by splitting the larger internal node,
//!   each node's two children are paired with each other once, and the tight boxes decide
//!   between leaves. It runs on a copy of the tree whose subtrees of at most four leaves are
//!   buckets tested four leaves per compare (`buckets.rs`: fewer nodes to visit, read in
//!   order). Every unordered leaf pair is reached at most once (along the unique
//!   path of splits to it), so nothing repeats; a leaf pair with no ball is not counted;
//! - static–ball pairs come from one simultaneous traversal of the dynamic tree against the
//!   static tree, opened the same way; a kinematic leaf is skipped untested.
//!
//! Exactness: a node's box encloses the tight boxes of every leaf below it, so two overlapping
//! tight boxes make every pair of their ancestors overlap, and no pruning loses a pair.
//!
//! Counting. AABB tests are: one per node pair tested in either traversal (internal nodes by
//! their fat box, buckets by their leaves' union, leaves by their tight box), one per leaf
//! pair within or between buckets, and one per moving leaf per call for the "still
//! inside its fat box?" check (none on a call that built the leaves afresh: they hold its
//! boxes). Building the static tree and choosing where to insert a moving leaf compare
//! perimeters, not overlaps: insertion work is reported as the "insert steps" statistic, not
//! as AABB tests.
//!
//! Probe. The "still inside?" check belongs to its shape; a leaf-pair test inside or between
//! buckets to the leaf of the outer loop (the one tested against the other bucket's leaves),
//! which visits that bucket (`Node`) when it is the focus; a static-traversal test of a ball
//! leaf to that ball, which visits the static node; every test of two internal nodes (or an
//! internal dynamic node against the static tree) to the structure. The heat is per box, not
//! per place: node boxes change every call.
//!
//! Cost. `O(m)` refit checks for `m` moving shapes, `O(log n)` per reinsertion, and the
//! traversals visit `O(n + k)` node pairs when boxes are small and spread (each ball's few
//! neighbours, its static walls); degenerate inputs (everything at one point) visit every
//! pair, `Θ(n²)` as brute force. Invariants are those of [`DynamicTree`] and [`StaticTree`]
//! plus: one dynamic leaf per moving shape, `leaf_of[i − first_moving]` holds item `i`, one
//! static leaf per static with its exact box.
//! Source: the method is Box2D's dynamic tree (Catto, Box2D, since 2009; two trees since v3)
//! and Bullet's `btDbvt` tree–tree collision.

mod buckets;
mod dynamic;
mod static_tree;

pub use dynamic::DynamicTree;
pub use static_tree::StaticTree;

use super::pair_keys::PairKeys;
use super::probe::held_during;
use super::{BallSizes, BroadInfo, ParamInfo, Place, Probe, RuleValues};
use super::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair, Param, ParamError};
use crate::debug_draw::{DebugDraw, Prim, Rgba};
use crate::geom::Aabb;
use buckets::Buckets;
use dynamic::Node;
use static_tree::StaticNode;

/// Default fattening margin (px).
pub(crate) const DEFAULT_MARGIN: f32 = 6.0;
/// Slider maximum of the margin (px).
const MAX_MARGIN: f32 = 64.0;

/// Read-outs of the last call.
#[derive(Clone, Copy, Debug, Default)]
struct TreeStats {
    reinserts: u64,
    rebuilt: bool,
    refit_tests: u64,
    self_tests: u64,
    static_tests: u64,
    insert_steps: u64,
}

/// The margin: Box2D 2.x grows a box by 0.1 m all round (`b2_aabbExtension`, for bodies of
/// about a metre) and by twice the step's displacement ahead (`b2_aabbMultiplier`) (Catto,
/// Box2D): here a tenth of a diameter plus twice a step's motion.
const MARGIN: ParamInfo = ParamInfo {
    name: "margin",
    unit: "px",
    min: 0.0,
    max: MAX_MARGIN,
    integer: false,
    says: "A fat box a little larger than the ball: a tenth of its size plus twice its motion \
           in one step, so that a moving ball is reinserted only every few steps; larger \
           margins loosen every node above it",
    source: "Catto, Box2D 2.x: b2_aabbExtension 0.1 m for bodies of about 1 m, \
             b2_aabbMultiplier 2 × the step's displacement",
    rule: margin_rule,
};

/// What the AABB tree declares: no fixed places.
pub(crate) const DESCRIPTION: BroadInfo = BroadInfo {
    name: "tree",
    label: "AABB tree",
    colour: [110, 80, 40],
    places: None,
    params: &[MARGIN],
    create: || Box::new(AabbTree::default()),
};

/// The margin's rule for the balls `b` (half pixels, within the slider's 0..=64).
fn margin_rule(b: &BallSizes) -> RuleValues {
    let m = 0.1 * b.mean_diameter + 2.0 * b.mean_step;
    let auto = ((m * 2.0).round() / 2.0).clamp(0.0, MAX_MARGIN);
    RuleValues {
        auto,
        value: Some(auto),
        auto_why: format!(
            "{auto} px: 0.1 × {:.1} px + 2 × {:.2} px a step",
            b.mean_diameter, b.mean_step
        ),
        sweep: [0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0].to_vec(),
    }
}

/// Two-tree AABB tree broad phase.
#[derive(Debug)]
pub struct AabbTree {
    margin: f32,
    tree: DynamicTree,
    statics: StaticTree,
    /// The static boxes the static tree was built from (for `validate`).
    static_boxes: Vec<Aabb>,
    /// Leaf node of each moving shape, indexed by shape index − `first_moving`.
    leaf_of: Vec<u32>,
    statics_version: Option<u64>,
    first_moving: usize,
    first_dynamic: usize,
    stack: Vec<(u32, u32)>,
    /// The dynamic tree's copy for the self-traversal.
    buckets: Buckets,
    /// The pairs' radix sort.
    keys: PairKeys,
    /// The record of a probed call, held here during it.
    probe: Option<Probe>,
    stats: TreeStats,
}

impl Default for AabbTree {
    fn default() -> Self {
        Self::with_margin(DEFAULT_MARGIN)
    }
}

impl AabbTree {
    /// An instance fattening moving boxes by `margin` px (≥ 0).
    pub(crate) fn with_margin(margin: f32) -> Self {
        Self {
            margin: margin.max(0.0),
            tree: DynamicTree::new(),
            statics: StaticTree::new(),
            static_boxes: Vec::new(),
            leaf_of: Vec::new(),
            statics_version: None,
            first_moving: 0,
            first_dynamic: 0,
            stack: Vec::new(),
            buckets: Buckets::default(),
            keys: PairKeys::default(),
            probe: None,
            stats: TreeStats::default(),
        }
    }

    /// Rebuilds the static tree on a statics change (and empties the dynamic tree when the
    /// moving shapes' indices shifted); removes or adds moving leaves at the end. True when
    /// the moving leaves were all built afresh from this call's boxes (nothing to refit).
    fn sync_layout(&mut self, input: &BroadInput) -> bool {
        let n = input.aabbs.len();
        let fm = input.first_moving.min(n);
        if self.first_moving != fm {
            self.tree.clear();
            self.leaf_of.clear();
        }
        if self.statics_version != Some(input.statics_version) || self.first_moving != fm {
            self.static_boxes.clear();
            self.static_boxes.extend_from_slice(&input.aabbs[..fm]);
            self.statics.build(&self.static_boxes);
            self.statics_version = Some(input.statics_version);
            self.first_moving = fm;
            self.stats.rebuilt = true;
        }
        self.first_dynamic = input.first_dynamic.clamp(fm, n);
        while fm + self.leaf_of.len() > n {
            let leaf = self.leaf_of.pop().expect("non-empty");
            self.tree.remove(leaf);
        }
        let fattened = |i: usize| {
            let b = input.aabbs[i];
            (i as u32, b, b.expanded(self.margin))
        };
        if self.leaf_of.is_empty() {
            // A fresh set (first call, new layout): one bulk build instead of n insertions.
            let leaves: Vec<_> = (fm..n).map(fattened).collect();
            self.tree.build(&leaves, &mut self.leaf_of);
            return true;
        }
        for i in fm + self.leaf_of.len()..n {
            let (item, tight, fat) = fattened(i);
            self.leaf_of.push(self.tree.insert(item, tight, fat));
        }
        false
    }

    /// Updates every moving leaf's box, reinserting those that left their fat box.
    fn refit_moving(&mut self, input: &BroadInput) {
        for (k, &leaf) in self.leaf_of.iter().enumerate() {
            self.stats.refit_tests += 1;
            if let Some(p) = self.probe.as_mut() {
                p.test((self.first_moving + k) as u32, 1);
            }
            let b = input.aabbs[self.first_moving + k];
            if self.tree.move_leaf(leaf, b, self.margin) {
                self.stats.reinserts += 1;
            }
        }
    }

    /// Moving–ball pairs by one self-traversal of the dynamic tree, over its copy with the
    /// lowest subtrees as buckets ([`Buckets`]).
    fn self_pairs(&mut self, pairs: &mut Vec<Pair>) {
        let Some(root) = self.tree.root() else {
            return;
        };
        self.buckets.copy(&self.tree, root, &mut self.stack);
        let fd = self.first_dynamic as u32;
        let kinematic = self.first_moving < self.first_dynamic;
        let probe = self.probe.as_mut();
        self.stats.self_tests =
            (self.buckets).self_pairs(fd, kinematic, &mut self.stack, pairs, probe);
    }

    /// Static–ball pairs by one traversal of the dynamic tree against the static tree.
    fn static_pairs(&mut self, pairs: &mut Vec<Pair>) {
        let (Some(root), false) = (self.tree.root(), self.statics.nodes().is_empty()) else {
            return;
        };
        let fd = self.first_dynamic as u32;
        let snodes = self.statics.nodes();
        let mut tests = 0;
        self.stack.clear();
        self.stack.push((root, 0));
        while let Some((a, s)) = self.stack.pop() {
            let (na, ns) = (self.tree.node(a), &snodes[s as usize]);
            if na.is_leaf() && na.item < fd {
                continue; // a kinematic shape: pairs with statics are never wanted
            }
            tests += 1;
            if let Some(p) = self.probe.as_mut() {
                probe_static_test(p, na, ns);
            }
            if !dyn_box(na).overlaps(&ns.aabb) {
                continue;
            }
            match (na.is_leaf(), ns.is_leaf()) {
                (true, true) => pairs.push((ns.item, na.item)),
                (true, false) => self.stack.extend(ns.children.map(|c| (a, c))),
                (false, true) => self.stack.extend(na.children.map(|c| (c, s))),
                (false, false) => {
                    if na.fat.half_perimeter() >= ns.aabb.half_perimeter() {
                        self.stack.extend(na.children.map(|c| (c, s)));
                    } else {
                        self.stack.extend(ns.children.map(|c| (a, c)));
                    }
                }
            }
        }
        self.stats.static_tests = tests;
    }

    /// One call; a probed call's record is held in `self.probe` meanwhile.
    fn run(&mut self, input: &BroadInput, pairs: &mut Vec<Pair>, counters: &mut BroadCounters) {
        pairs.clear();
        self.stats = TreeStats::default();
        // A leaf just built holds this call's box: checking it against its fat box would
        // only read every leaf again, in index order (at random in the tree's memory).
        if !self.sync_layout(input) {
            self.refit_moving(input);
        }
        self.self_pairs(pairs);
        self.static_pairs(pairs);
        self.keys.sort_pairs(pairs, input.aabbs.len());
        self.stats.insert_steps = self.tree.take_steps();
        let s = &self.stats;
        counters.aabb_tests += s.refit_tests + s.self_tests + s.static_tests;
        counters.pairs += pairs.len() as u64;
    }
}

/// Gives one test of the static traversal to the probe: a ball leaf's, or the structure's
/// for an internal node; the focus visits the static node (`Node`).
fn probe_static_test(p: &mut Probe, na: &Node, ns: &StaticNode) {
    if !na.is_leaf() {
        p.structure(1);
        return;
    }
    p.test(na.item, 1);
    if p.is_focus(na.item) {
        p.visit(na.item, Place::Node, ns.aabb, 1);
        if ns.is_leaf() {
            p.against.push(ns.item);
        }
    }
}

/// The box a dynamic node is tested by: a leaf's tight box, an internal node's union.
fn dyn_box(n: &Node) -> &Aabb {
    if n.is_leaf() {
        &n.tight
    } else {
        &n.fat
    }
}

/// Outline colour of a static-tree node: the depth colour, darkened, so the two trees differ.
fn static_colour(n: &StaticNode, depth: usize) -> Rgba {
    let c = Rgba::palette(depth);
    let alpha = if n.is_leaf() { 0.3 } else { 0.55 };
    Rgba(c.0 * 0.5, c.1 * 0.5, c.2 * 0.5, alpha)
}

impl BroadPhase for AabbTree {
    fn kind(&self) -> BroadKind {
        BroadKind::Tree
    }

    fn find_pairs_with(
        &mut self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
        probe: Option<&mut Probe>,
    ) {
        held_during(
            self,
            probe,
            |s| &mut s.probe,
            |s| s.run(input, pairs, counters),
        );
    }

    fn validate(&self) -> Result<(), String> {
        self.statics.validate(&self.static_boxes)?;
        if self.static_boxes.len() != self.first_moving {
            return Err("static tree built for another static count".into());
        }
        let leaves = self.tree.validate()?;
        if leaves != self.leaf_of.len() {
            return Err(format!(
                "{leaves} leaves for {} moving shapes",
                self.leaf_of.len()
            ));
        }
        for (k, &leaf) in self.leaf_of.iter().enumerate() {
            let i = self.first_moving + k;
            let n = self.tree.node(leaf);
            if !n.is_leaf() || n.item != i as u32 {
                return Err(format!("shape {i}: node {leaf} is not its leaf"));
            }
        }
        Ok(())
    }

    fn params(&self) -> Vec<Param> {
        let help = "Fat-box margin (px, ≥ 0): larger means fewer reinserts, looser nodes";
        vec![MARGIN.param(self.margin, help.into())]
    }

    fn set_param(&mut self, name: &str, value: f32) -> Result<(), ParamError> {
        if name != "margin" {
            return Err(ParamError::unknown(self.kind(), name));
        }
        if !(0.0..=MAX_MARGIN).contains(&value) {
            return Err(ParamError::Invalid(format!(
                "margin must be in 0..={MAX_MARGIN} px"
            )));
        }
        self.margin = value;
        Ok(())
    }

    fn stats(&self) -> Vec<(&'static str, String)> {
        let s = &self.stats;
        vec![
            ("moving nodes", self.tree.len().to_string()),
            ("moving leaves", self.leaf_of.len().to_string()),
            ("moving height", self.tree.height().to_string()),
            ("static nodes", self.statics.nodes().len().to_string()),
            ("static height", self.statics.height().to_string()),
            ("reinserts", s.reinserts.to_string()),
            (
                "statics rebuilt",
                if s.rebuilt { "yes" } else { "no" }.to_string(),
            ),
            ("moving × moving tests", s.self_tests.to_string()),
            ("moving × static tests", s.static_tests.to_string()),
            ("fat-box checks", s.refit_tests.to_string()),
            ("insert steps", s.insert_steps.to_string()),
        ]
    }

    /// Static tree: darkened depth colours, a faint fill on internal nodes; moving tree: bright
    /// depth colours, leaves fainter than internal nodes.
    fn debug_draw(&self, draw: &mut dyn DebugDraw) {
        let mut stack = Vec::new();
        self.statics.for_each_node(&mut stack, |n, depth| {
            let stroke = static_colour(n, depth);
            let fill = (!n.is_leaf()).then(|| stroke.with_alpha(0.04));
            draw.draw(Prim::Rect {
                aabb: n.aabb,
                fill,
                stroke: Some(stroke),
            });
        });
        self.tree.for_each_node(&mut stack, |n, depth| {
            let alpha = if n.is_leaf() { 0.45 } else { 0.9 };
            draw.draw(Prim::Rect {
                aabb: n.fat,
                fill: None,
                stroke: Some(Rgba::palette(depth).with_alpha(alpha)),
            });
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::brute_pairs;
    use crate::debug_draw::Recorder;
    use crate::geom::Aabb;
    use glam::Vec2;

    fn input(aabbs: &[Aabb], first_moving: usize, first_dynamic: usize, v: u64) -> BroadInput<'_> {
        BroadInput {
            aabbs,
            first_moving,
            first_dynamic,
            statics_version: v,
            world: Aabb::new(Vec2::ZERO, Vec2::splat(100.0)),
        }
    }

    fn check(t: &mut AabbTree, inp: &BroadInput) -> BroadCounters {
        let (mut pairs, mut c) = (Vec::new(), BroadCounters::default());
        t.find_pairs(inp, &mut pairs, &mut c);
        t.validate().unwrap();
        let mut expect = Vec::new();
        brute_pairs(inp, &mut expect);
        assert_eq!(pairs, expect);
        c
    }

    fn boxes(n: usize, x0: f32) -> Vec<Aabb> {
        (0..n)
            .map(|k| Aabb::around(Vec2::new(x0 + k as f32 * 3.0, 10.0), 2.0))
            .collect()
    }

    #[test]
    fn small_moves_stay_in_fat_boxes() {
        let mut b = boxes(10, 0.0);
        let mut t = AabbTree::with_margin(2.0);
        check(&mut t, &input(&b, 2, 4, 1));
        assert!(t.stats.rebuilt);
        for x in &mut b[2..] {
            *x = Aabb::new(x.min + Vec2::splat(1.0), x.max + Vec2::splat(1.0));
        }
        check(&mut t, &input(&b, 2, 4, 1));
        assert_eq!(t.stats.reinserts, 0);
        assert!(!t.stats.rebuilt);
    }

    #[test]
    fn big_moves_reinsert_and_versions_rebuild() {
        let mut b = boxes(10, 0.0);
        let mut t = AabbTree::default();
        check(&mut t, &input(&b, 2, 4, 1));
        b[5] = Aabb::around(Vec2::new(80.0, 80.0), 1.0);
        check(&mut t, &input(&b, 2, 4, 1));
        assert_eq!(t.stats.reinserts, 1);
        b[0] = Aabb::around(Vec2::new(80.0, 80.0), 1.0);
        check(&mut t, &input(&b, 2, 4, 2));
        assert!(t.stats.rebuilt);
    }

    #[test]
    fn ball_count_changes_at_the_end() {
        let b = boxes(30, 0.0);
        let mut t = AabbTree::default();
        check(&mut t, &input(&b, 3, 5, 1));
        check(&mut t, &input(&b[..12], 3, 5, 1));
        assert!(!t.stats.rebuilt);
        check(&mut t, &input(&b[..4], 3, 5, 1));
        check(&mut t, &input(&b, 3, 5, 1));
        assert_eq!(t.leaf_of.len(), 27, "one leaf per moving shape");
    }

    #[test]
    fn kinematic_shapes_do_not_query() {
        // Two kinematic boxes overlapping each other and no ball: no tests beyond the refit
        // (and none at all on the first call, which builds the leaves from these boxes).
        let b = boxes(2, 0.0);
        let mut t = AabbTree::default();
        let c = check(&mut t, &input(&b, 0, 2, 1));
        assert_eq!(c.aabb_tests, 0, "built afresh: no fat-box checks, no query");
        let c = check(&mut t, &input(&b, 0, 2, 1));
        assert_eq!(c.aabb_tests, 2, "two fat-box checks, no query");
    }

    #[test]
    fn margin_param_and_drawing() {
        let mut t = AabbTree::default();
        assert!(t.set_param("margin", -1.0).is_err());
        assert!(t.set_param("size", 1.0).is_err());
        t.set_param("margin", 0.0).unwrap();
        let b = boxes(5, 0.0);
        check(&mut t, &input(&b, 1, 1, 1));
        let mut rec = Recorder::default();
        t.debug_draw(&mut rec);
        assert_eq!(rec.prims.len(), t.tree.len() + t.statics.nodes().len());
    }

    /// A few balls and kinematic boxes spread over the world, after `statics`.
    fn with_statics(statics: &[Aabb]) -> (Vec<Aabb>, usize, usize) {
        let mut b = statics.to_vec();
        let fm = b.len();
        b.extend(boxes(3, 20.0));
        let fd = b.len();
        b.extend((0..20).map(|k| Aabb::around(Vec2::new(5.0 * k as f32, 4.0 * k as f32), 3.0)));
        (b, fm, fd)
    }

    #[test]
    fn statics_far_larger_than_the_world_pair_with_every_ball() {
        let huge = [
            Aabb::around(Vec2::splat(50.0), 1e6),
            Aabb::new(Vec2::new(-1e6, 40.0), Vec2::new(1e6, 41.0)),
        ];
        let (b, fm, fd) = with_statics(&huge);
        let mut t = AabbTree::default();
        check(&mut t, &input(&b, fm, fd, 1));
        check(&mut t, &input(&b, fm, fd, 1));
        assert!(!t.stats.rebuilt);
    }

    #[test]
    fn statics_outside_the_world_cost_one_test() {
        // Two statics far outside, apart from every moving shape: the root pair misses.
        let outside = [
            Aabb::around(Vec2::new(-500.0, -500.0), 5.0),
            Aabb::around(Vec2::new(-400.0, -520.0), 5.0),
        ];
        let (b, fm, fd) = with_statics(&outside);
        let mut t = AabbTree::default();
        check(&mut t, &input(&b, fm, fd, 1));
        assert_eq!(t.stats.static_tests, 1);
    }

    #[test]
    fn no_statics_and_only_statics() {
        let (b, fm, fd) = with_statics(&[]);
        let mut t = AabbTree::default();
        check(&mut t, &input(&b, fm, fd, 1));
        assert_eq!(t.stats.static_tests, 0);
        let only = boxes(6, 0.0);
        let c = check(&mut t, &input(&only, 6, 6, 2));
        assert_eq!(c.aabb_tests, 0, "no moving shape: nothing to test");
        assert_eq!(t.statics.leaves(), 6);
        assert_eq!(t.tree.len(), 0);
    }
}
