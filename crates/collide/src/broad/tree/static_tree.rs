//! A static AABB tree: a bounding volume hierarchy over boxes that do not move, built top-down
//! in one go and then only queried.
//!
//! Build. A set of boxes is split in two where the surface-area heuristic (here: half
//! perimeters, in 2D) is cheapest: for each axis the boxes are sorted by centre, every split
//! point `k` is scored `hp(left k boxes) · k + hp(right boxes) · (m − k)` from prefix and
//! suffix unions, and the cheapest split over both axes wins; each half is built the same way
//! down to one box per leaf. Every split leaves at least one box on each side, so the build
//! ends, with `2s − 1` nodes for `s` boxes. The scores weigh a node's chance of being hit by a
//! small query box (its perimeter) by the work below it, so big boxes (a table's walls) end up
//! near the root beside each other instead of bloating every node below them.
//!
//! Cost. Build `O(s² log s)` in the worst case (a sort per axis per node), done once per
//! `statics_version`; its work is bookkeeping, not AABB tests. A query tests each visited
//! node's box once: `O(log s + k)` for a small query box.
//!
//! Invariants (checked by [`StaticTree::validate`]): node 0 is the root; every internal node's
//! box is the union of its two children's, which come after it; every item has exactly one
//! leaf, holding its exact box. Pruning is exact because a node's box is the componentwise
//! min/max of its descendants' boxes: a box overlapping a leaf overlaps every ancestor
//! (`q.min ≤ leaf.max ≤ node.max` and `node.min ≤ leaf.min ≤ q.max`).
//!
//! It is the static half of Box2D's two-tree broad phase (Box2D v3
//! keeps static bodies in their own tree, rebuilt rarely).

use super::dynamic::NULL;
use crate::geom::Aabb;

/// A node: a leaf (`item` set, no children) or an internal node (two children).
#[derive(Clone, Copy, Debug)]
pub struct StaticNode {
    /// Leaf: the item's exact box; internal: the union of the children's boxes.
    pub aabb: Aabb,
    /// Children, both [`NULL`] for a leaf.
    pub children: [u32; 2],
    /// The item a leaf stands for, [`NULL`] for internal nodes.
    pub item: u32,
}

impl StaticNode {
    /// True for a leaf.
    pub(crate) fn is_leaf(&self) -> bool {
        self.children[0] == NULL
    }
}

/// A bounding volume hierarchy built once over fixed boxes.
#[derive(Clone, Debug, Default)]
pub struct StaticTree {
    nodes: Vec<StaticNode>,
    /// Items being built (reordered in place), kept to reuse its storage.
    order: Vec<u32>,
    /// Scratch for prefix half perimeters during the build.
    costs: Vec<f32>,
}

impl StaticTree {
    /// An empty tree.
    pub fn new() -> Self {
        Self::default()
    }

    /// Rebuilds the tree over the items `0..boxes.len()` with boxes `boxes`.
    pub fn build(&mut self, boxes: &[Aabb]) {
        self.nodes.clear();
        self.order.clear();
        self.order.extend(0..boxes.len() as u32);
        if !boxes.is_empty() {
            let mut order = std::mem::take(&mut self.order);
            self.build_node(boxes, &mut order);
            self.order = order;
        }
    }

    /// Builds the subtree over `items` (non-empty), returning its node id.
    fn build_node(&mut self, boxes: &[Aabb], items: &mut [u32]) -> u32 {
        let id = self.nodes.len() as u32;
        let aabb = union_of(boxes, items);
        self.nodes.push(StaticNode {
            aabb,
            children: [NULL; 2],
            item: if items.len() == 1 { items[0] } else { NULL },
        });
        if items.len() > 1 {
            let k = self.sah_split(boxes, items);
            let (left, right) = items.split_at_mut(k);
            let a = self.build_node(boxes, left);
            let b = self.build_node(boxes, right);
            self.nodes[id as usize].children = [a, b];
        }
        id
    }

    /// Reorders `items` (≥ 2) along the cheapest axis and returns the split point `1..len`.
    fn sah_split(&mut self, boxes: &[Aabb], items: &mut [u32]) -> usize {
        let mut best = (f32::INFINITY, 0, items.len() / 2);
        for axis in 0..2 {
            sort_by_centre(boxes, items, axis);
            let (cost, k) = self.cheapest_split(boxes, items);
            if axis == 0 || cost < best.0 {
                best = (cost, axis, k);
            }
        }
        if best.1 != 1 {
            sort_by_centre(boxes, items, best.1);
        }
        best.2
    }

    /// The cheapest split of `items` in their current order, as `(cost, k)`.
    fn cheapest_split(&mut self, boxes: &[Aabb], items: &[u32]) -> (f32, usize) {
        let m = items.len();
        self.costs.clear();
        let mut acc = boxes[items[0] as usize];
        for &i in items {
            acc = acc.merged(&boxes[i as usize]);
            self.costs.push(acc.half_perimeter());
        }
        // `costs[k − 1]` is the left part's half perimeter for a split at k; the right part's
        // is accumulated from the end.
        let (mut best, mut best_k) = (f32::INFINITY, m / 2);
        let mut right = boxes[items[m - 1] as usize];
        for k in (1..m).rev() {
            right = right.merged(&boxes[items[k] as usize]);
            let cost = self.costs[k - 1] * k as f32 + right.half_perimeter() * (m - k) as f32;
            if cost < best {
                (best, best_k) = (cost, k);
            }
        }
        (best, best_k)
    }

    /// Every node, root first (empty when there are no items).
    pub(crate) fn nodes(&self) -> &[StaticNode] {
        &self.nodes
    }

    #[cfg(test)]
    /// Leaves in the tree.
    pub(crate) fn leaves(&self) -> usize {
        self.nodes.len().div_ceil(2)
    }

    /// Height of the root (0 for one leaf or none).
    pub(crate) fn height(&self) -> usize {
        let mut stack = Vec::new();
        let mut h = 0;
        self.for_each_node(&mut stack, |_, depth| h = h.max(depth));
        h
    }

    /// Calls `found(item)` for every leaf whose box overlaps `area`; returns the box tests
    /// done (one per node visited). `stack` is scratch space.
    pub(crate) fn query(
        &self,
        area: &Aabb,
        stack: &mut Vec<u32>,
        mut found: impl FnMut(u32),
    ) -> u64 {
        let mut tests = 0;
        stack.clear();
        if !self.nodes.is_empty() {
            stack.push(0);
        }
        while let Some(id) = stack.pop() {
            let n = &self.nodes[id as usize];
            tests += 1;
            if !n.aabb.overlaps(area) {
                continue;
            }
            if n.is_leaf() {
                found(n.item);
            } else {
                stack.extend_from_slice(&n.children);
            }
        }
        tests
    }

    /// Visits every node with its depth (root 0), parents before children.
    pub(crate) fn for_each_node(
        &self,
        stack: &mut Vec<(u32, usize)>,
        mut f: impl FnMut(&StaticNode, usize),
    ) {
        stack.clear();
        if !self.nodes.is_empty() {
            stack.push((0, 0));
        }
        while let Some((id, depth)) = stack.pop() {
            let n = &self.nodes[id as usize];
            f(n, depth);
            if !n.is_leaf() {
                stack.extend(n.children.map(|c| (c, depth + 1)));
            }
        }
    }

    /// Checks the invariants against the boxes it was built from.
    pub(crate) fn validate(&self, boxes: &[Aabb]) -> Result<(), String> {
        let mut leaf_seen = vec![false; boxes.len()];
        for (id, n) in self.nodes.iter().enumerate() {
            if n.is_leaf() {
                self.check_leaf(id, n, boxes, &mut leaf_seen)?;
            } else {
                self.check_internal(id, n)?;
            }
        }
        match leaf_seen.iter().position(|s| !s) {
            Some(i) => Err(format!("static item {i} has no leaf")),
            None => Ok(()),
        }
    }

    fn check_leaf(
        &self,
        id: usize,
        n: &StaticNode,
        boxes: &[Aabb],
        seen: &mut [bool],
    ) -> Result<(), String> {
        let slot = seen
            .get_mut(n.item as usize)
            .ok_or(format!("static leaf {id}: item {} out of range", n.item))?;
        if std::mem::replace(slot, true) {
            return Err(format!("static item {} has two leaves", n.item));
        }
        let want = boxes[n.item as usize];
        if !same_box(&n.aabb, &want) {
            return Err(format!(
                "static leaf {id}: box differs from item {}",
                n.item
            ));
        }
        Ok(())
    }

    fn check_internal(&self, id: usize, n: &StaticNode) -> Result<(), String> {
        let [a, b] = n.children;
        if a as usize <= id || b as usize <= id || a.max(b) as usize >= self.nodes.len() {
            return Err(format!("static node {id}: bad children {a}, {b}"));
        }
        let union = self.nodes[a as usize]
            .aabb
            .merged(&self.nodes[b as usize].aabb);
        if !same_box(&n.aabb, &union) {
            return Err(format!("static node {id}: box is not its children's union"));
        }
        Ok(())
    }
}

/// Bitwise equality, so NaN coordinates compare equal to themselves.
fn same_box(a: &Aabb, b: &Aabb) -> bool {
    let bits = |v: &Aabb| [v.min.x, v.min.y, v.max.x, v.max.y].map(f32::to_bits);
    bits(a) == bits(b)
}

/// The union of the boxes of `items` (non-empty).
fn union_of(boxes: &[Aabb], items: &[u32]) -> Aabb {
    let first = boxes[items[0] as usize];
    items[1..]
        .iter()
        .fold(first, |acc, &i| acc.merged(&boxes[i as usize]))
}

/// Sorts `items` by their boxes' centres on `axis` (ties by index, so builds repeat exactly).
fn sort_by_centre(boxes: &[Aabb], items: &mut [u32], axis: usize) {
    let key = |i: u32| {
        let b = &boxes[i as usize];
        b.min[axis] + b.max[axis]
    };
    items.sort_unstable_by(|&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn b(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
        Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1))
    }

    fn found(t: &StaticTree, area: &Aabb) -> (Vec<u32>, u64) {
        let mut out = Vec::new();
        let tests = t.query(area, &mut Vec::new(), |i| out.push(i));
        out.sort_unstable();
        (out, tests)
    }

    #[test]
    fn empty_and_single_trees() {
        let mut t = StaticTree::new();
        t.build(&[]);
        t.validate(&[]).unwrap();
        assert_eq!(found(&t, &b(0.0, 0.0, 1.0, 1.0)), (vec![], 0));
        let one = [b(0.0, 0.0, 1.0, 1.0)];
        t.build(&one);
        t.validate(&one).unwrap();
        assert_eq!(found(&t, &b(1.0, 1.0, 2.0, 2.0)), (vec![0], 1));
    }

    #[test]
    fn walls_sit_apart_from_small_boxes() {
        // Four walls around 100 small boxes: the walls end up near the root, so a small
        // query inside tests only a few nodes.
        let mut boxes = vec![
            b(0.0, 0.0, 1000.0, 0.0),
            b(0.0, 1000.0, 1000.0, 1000.0),
            b(0.0, 0.0, 0.0, 1000.0),
            b(1000.0, 0.0, 1000.0, 1000.0),
        ];
        for k in 0..100 {
            let (x, y) = (50.0 + (k % 10) as f32 * 90.0, 50.0 + (k / 10) as f32 * 90.0);
            boxes.push(b(x, y, x + 10.0, y + 10.0));
        }
        let mut t = StaticTree::new();
        t.build(&boxes);
        t.validate(&boxes).unwrap();
        assert_eq!(t.leaves(), boxes.len());
        let (hits, tests) = found(&t, &b(52.0, 52.0, 53.0, 53.0));
        assert_eq!(hits, vec![4]);
        assert!(tests < 40, "{tests} node tests");
        assert!(t.height() <= 12, "height {}", t.height());
    }

    #[test]
    fn query_matches_brute_force() {
        let boxes: Vec<Aabb> = (0..40)
            .map(|k| {
                let x = (k * 37 % 100) as f32;
                let y = (k * 61 % 100) as f32;
                b(x, y, x + (k % 7) as f32 * 4.0, y + (k % 5) as f32 * 6.0)
            })
            .collect();
        let mut t = StaticTree::new();
        t.build(&boxes);
        t.validate(&boxes).unwrap();
        for q in 0..50 {
            let area = b(q as f32 * 2.0, 30.0, q as f32 * 2.0 + 9.0, 45.0);
            let want: Vec<u32> = (0..40)
                .filter(|&i| boxes[i as usize].overlaps(&area))
                .collect();
            assert_eq!(found(&t, &area).0, want);
        }
    }
}
