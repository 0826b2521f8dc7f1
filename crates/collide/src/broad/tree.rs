//! AABB tree broad phase: a [`DynamicTree`] kept across calls, refit incrementally.
//!
//! Algorithm. Every shape has a leaf, indexed by its position in [`BroadInput::aabbs`].
//! Statics are inserted once with their exact box and rebuilt only when `statics_version` (or
//! the static count) changes. Kinematic shapes and balls get a *fat* box, their box grown by
//! `margin` px; each call a moving leaf whose box is still inside its fat box costs nothing
//! more, and one that left it is removed and reinserted with a new fat box. When the number of
//! shapes changes, leaves are removed or added at the end (balls are added or removed there);
//! a leaf whose index now names another ball simply moves far and is reinserted.
//!
//! Pairs. Each ball `j` queries the tree with its tight box and keeps the leaves `i < j`
//! whose tight box overlaps. Every wanted pair `(i, j)` has `j` a ball, so it is found from
//! `j` exactly once: kinematic shapes never need to query, nothing repeats, and leaves with
//! `i ≥ j` are skipped by index before any box test.
//!
//! Counting. AABB tests are: one per internal node tested during a query, one per leaf tested
//! (its tight box), and one per moving leaf per call for the "still inside its fat box?" check.
//! Choosing where to insert compares box perimeters, not overlaps: that work is reported as
//! the separate "insert steps" statistic, not as AABB tests.
//!
//! Cost. `O(m)` refit checks for `m` moving shapes, `O(log n)` per reinsertion, and per ball a
//! query of `O(log n + k)` node visits when boxes are small; degenerate inputs (everything at
//! one point) make every query visit every node, `Θ(n²)` as brute force. Invariants are those
//! of [`DynamicTree`] plus: one leaf per shape, `leaf_of[i]` holds item `i`, statics unfattened.
//! Seed: none of the seed documents; the method is Box2D's dynamic tree (Erin Catto, 2009).

mod dynamic;

pub use dynamic::DynamicTree;

use super::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair, Param};
use crate::debug_draw::{DebugDraw, Prim, Rgba};

/// Default fattening margin (px).
pub const DEFAULT_MARGIN: f32 = 6.0;
/// Slider maximum of the margin (px).
const MAX_MARGIN: f32 = 64.0;

/// Read-outs of the last call.
#[derive(Clone, Copy, Debug, Default)]
struct TreeStats {
    reinserts: u64,
    rebuilt: bool,
    refit_tests: u64,
    query_tests: u64,
    insert_steps: u64,
}

/// Dynamic AABB tree broad phase.
#[derive(Debug)]
pub struct AabbTree {
    margin: f32,
    tree: DynamicTree,
    /// Leaf node of each shape index.
    leaf_of: Vec<u32>,
    statics_version: Option<u64>,
    first_moving: usize,
    stack: Vec<u32>,
    stats: TreeStats,
}

impl Default for AabbTree {
    fn default() -> Self {
        Self::with_margin(DEFAULT_MARGIN)
    }
}

impl AabbTree {
    /// An instance fattening moving boxes by `margin` px (≥ 0).
    pub fn with_margin(margin: f32) -> Self {
        Self {
            margin: margin.max(0.0),
            tree: DynamicTree::new(),
            leaf_of: Vec::new(),
            statics_version: None,
            first_moving: 0,
            stack: Vec::new(),
            stats: TreeStats::default(),
        }
    }

    /// Rebuilds on a statics change; removes or adds leaves at the end when the count changed.
    fn sync_layout(&mut self, input: &BroadInput) {
        let n = input.aabbs.len();
        let fm = input.first_moving.min(n);
        if self.statics_version != Some(input.statics_version) || self.first_moving != fm {
            self.tree.clear();
            self.leaf_of.clear();
            self.statics_version = Some(input.statics_version);
            self.first_moving = fm;
            self.stats.rebuilt = true;
        }
        while self.leaf_of.len() > n {
            let leaf = self.leaf_of.pop().expect("non-empty");
            self.tree.remove(leaf);
        }
        for i in self.leaf_of.len()..n {
            let b = input.aabbs[i];
            let fat = if i < fm { b } else { b.expanded(self.margin) };
            self.leaf_of.push(self.tree.insert(i as u32, b, fat));
        }
    }

    /// Updates every moving leaf's box, reinserting those that left their fat box.
    fn refit_moving(&mut self, input: &BroadInput) {
        for i in self.first_moving..input.aabbs.len() {
            self.stats.refit_tests += 1;
            let leaf = self.leaf_of[i];
            if self.tree.move_leaf(leaf, input.aabbs[i], self.margin) {
                self.stats.reinserts += 1;
            }
        }
    }

    /// Queries the tree with each ball's tight box, keeping leaves of lower index.
    fn query_balls(&mut self, input: &BroadInput, pairs: &mut Vec<Pair>) {
        for j in input.first_dynamic..input.aabbs.len() {
            let j = j as u32;
            self.stats.query_tests += self.tree.query(
                &input.aabbs[j as usize],
                &mut self.stack,
                |i| i >= j,
                |i| pairs.push((i, j)),
            );
        }
    }
}

impl BroadPhase for AabbTree {
    fn kind(&self) -> BroadKind {
        BroadKind::Tree
    }

    fn find_pairs(
        &mut self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
    ) {
        pairs.clear();
        self.stats = TreeStats::default();
        self.sync_layout(input);
        self.refit_moving(input);
        self.query_balls(input, pairs);
        pairs.sort_unstable();
        self.stats.insert_steps = self.tree.take_steps();
        counters.aabb_tests += self.stats.refit_tests + self.stats.query_tests;
        counters.pairs += pairs.len() as u64;
    }

    fn validate(&self) -> Result<(), String> {
        let leaves = self.tree.validate()?;
        if leaves != self.leaf_of.len() {
            return Err(format!("{leaves} leaves for {} shapes", self.leaf_of.len()));
        }
        for (i, &leaf) in self.leaf_of.iter().enumerate() {
            let n = self.tree.node(leaf);
            if !n.is_leaf() || n.item != i as u32 {
                return Err(format!("shape {i}: node {leaf} is not its leaf"));
            }
            if i < self.first_moving && n.fat != n.tight {
                return Err(format!("static {i} is fattened"));
            }
        }
        Ok(())
    }

    fn params(&self) -> Vec<Param> {
        vec![Param {
            name: "margin",
            value: self.margin,
            min: 0.0,
            max: MAX_MARGIN,
            integer: false,
            help: "Fat-box margin (px, ≥ 0): larger means fewer reinserts, looser nodes".into(),
        }]
    }

    fn set_param(&mut self, name: &str, value: f32) -> Result<(), String> {
        if name != "margin" {
            return Err(format!("{} has no parameter {name:?}", self.kind().label()));
        }
        if !(0.0..=MAX_MARGIN).contains(&value) {
            return Err(format!("margin must be in 0..={MAX_MARGIN} px"));
        }
        self.margin = value;
        Ok(())
    }

    fn stats(&self) -> Vec<(&'static str, String)> {
        let s = &self.stats;
        vec![
            ("nodes", self.tree.len().to_string()),
            ("leaves", self.leaf_of.len().to_string()),
            ("height", self.tree.height().to_string()),
            ("reinserts", s.reinserts.to_string()),
            (
                "statics rebuilt",
                if s.rebuilt { "yes" } else { "no" }.to_string(),
            ),
            ("query box tests", s.query_tests.to_string()),
            ("fat-box checks", s.refit_tests.to_string()),
            ("insert steps", s.insert_steps.to_string()),
        ]
    }

    fn debug_draw(&self, draw: &mut dyn DebugDraw) {
        let mut stack = Vec::new();
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
    use crate::broad::brute::brute_pairs;
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
        assert_eq!(t.leaf_of.len(), 30);
    }

    #[test]
    fn kinematic_shapes_do_not_query() {
        // Two kinematic boxes overlapping each other and no ball: no tests beyond the refit.
        let b = boxes(2, 0.0);
        let mut t = AabbTree::default();
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
        assert_eq!(rec.prims.len(), t.tree.len());
    }
}
