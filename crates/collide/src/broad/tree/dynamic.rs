//! The dynamic AABB tree itself: a binary tree whose leaves hold one item's *fat* box (its
//! tight box grown by a margin) and whose internal nodes hold the union of their children.
//!
//! Insertion walks down from the root choosing, at each internal node, between making the new
//! leaf a sibling of that node and descending into the child whose box grows least, by the
//! perimeter (surface-area) heuristic: the tree's cost is the sum of its internal nodes'
//! perimeters, so the walk stops where the new parent plus the growth of the ancestors is
//! cheapest. On the way back up every node is rebalanced by rotations (AVL-style: when one
//! child is 2 or more levels taller, it takes its parent's place and hands its shorter child to
//! the old parent; children are unordered, so single rotations suffice; the demoted node is
//! rebalanced the same way, which matters when a leaf was paired with a tall subtree), so the
//! children's heights never differ by more than one and the height stays `O(log n)`. Removal
//! splices the leaf's sibling into the parent's place and rebalances up.
//!
//! Cost: insert and remove `O(log n)` node visits (plus the rotations on the path); a query
//! visits the nodes whose boxes overlap the query box, `O(log n + k)` when boxes are small.
//!
//! Invariants (checked by [`DynamicTree::validate`]): parent and child links agree; each
//! internal node's box encloses both children's and its height is one more than the taller
//! child's, the two children's heights differing by at most one; every leaf's fat box encloses its tight box; freed nodes are unreachable. Nodes
//! live in one `Vec` with a free list, so a steady state allocates nothing. The method is the
//! one of Box2D's `b2DynamicTree` (Erin Catto) and Bullet's `btDbvt`.

use super::super::radix::RadixScratch;
use crate::geom::Aabb;

/// No node.
pub(crate) const NULL: u32 = u32::MAX;

/// A tree node: a leaf (no children, `item` set) or an internal node (two children).
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Leaf: the fattened box; internal: the union of the children's boxes.
    pub fat: Aabb,
    /// Leaf: the item's exact box; internal: unused (equal to `fat`).
    pub tight: Aabb,
    /// Parent node, or [`NULL`] at the root (and on the free list).
    pub parent: u32,
    /// Children, both [`NULL`] for a leaf.
    pub children: [u32; 2],
    /// 0 for a leaf, else one more than the taller child.
    pub height: u32,
    /// The item a leaf stands for, [`NULL`] for internal nodes.
    pub item: u32,
}

impl Node {
    /// A leaf for `item`, not yet in the tree.
    fn leaf(item: u32, tight: Aabb, fat: Aabb) -> Self {
        debug_assert!(fat.encloses(&tight));
        Node {
            fat,
            tight,
            parent: NULL,
            children: [NULL; 2],
            height: 0,
            item,
        }
    }

    /// True for a leaf.
    pub(crate) fn is_leaf(&self) -> bool {
        self.children[0] == NULL
    }
}

/// A dynamic AABB tree.
#[derive(Clone, Debug, Default)]
pub struct DynamicTree {
    nodes: Vec<Node>,
    free: Vec<u32>,
    root: u32,
    /// Internal nodes visited while choosing where to insert, since [`DynamicTree::take_steps`].
    steps: u64,
}

impl DynamicTree {
    /// An empty tree.
    pub fn new() -> Self {
        Self {
            root: NULL,
            ..Self::default()
        }
    }

    /// Removes every node, keeping the storage.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.free.clear();
        self.root = NULL;
    }

    /// The node with id `id`.
    pub(crate) fn node(&self, id: u32) -> &Node {
        &self.nodes[id as usize]
    }

    /// Nodes in use.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len() - self.free.len()
    }

    #[cfg(test)]
    /// True when the tree has no node.
    pub(crate) fn is_empty(&self) -> bool {
        self.root == NULL
    }

    /// The root node, if any.
    pub(crate) fn root(&self) -> Option<u32> {
        (self.root != NULL).then_some(self.root)
    }

    /// Height of the root (0 for one leaf or none).
    pub(crate) fn height(&self) -> u32 {
        if self.root == NULL {
            0
        } else {
            self.node(self.root).height
        }
    }

    /// Returns and zeroes the count of insertion steps (bookkeeping, not box tests).
    pub(crate) fn take_steps(&mut self) -> u64 {
        std::mem::take(&mut self.steps)
    }

    /// Adds a leaf for `item` and returns its id.
    pub(crate) fn insert(&mut self, item: u32, tight: Aabb, fat: Aabb) -> u32 {
        let leaf = self.alloc(Node::leaf(item, tight, fat));
        self.attach(leaf);
        leaf
    }

    /// Replaces the tree with one leaf per `(item, tight, fat)` of `leaves`, built at once:
    /// the leaves are put in Morton (Z) order of their box centres by one radix sort
    /// (`morton_order`), and each range of that order is split at its middle, so the two
    /// halves differ by at most one leaf (the tree is balanced as the invariants require) and
    /// each half is a compact patch of space. Nodes are stored depth first, so a subtree is one
    /// contiguous block. `O(n)` for the sort and `O(n)` for the nodes, against `n` insertions
    /// that each walk and rebalance a growing tree. Writes the leaf ids, in `leaves` order, to
    /// `ids`.
    pub fn build(&mut self, leaves: &[(u32, Aabb, Aabb)], ids: &mut Vec<u32>) {
        self.clear();
        ids.clear();
        ids.resize(leaves.len(), NULL);
        if !leaves.is_empty() {
            let order = morton_order(leaves);
            // The leaves gathered into that order first, in one loop whose reads do not wait
            // on each other, so the recursion reads them in sequence: read there in Morton
            // order, they would miss the cache one by one with many leaves.
            let sorted: Vec<_> = order.iter().map(|&k| leaves[k as usize]).collect();
            self.root = self.built(&sorted, &order, ids);
        }
    }

    /// Builds the subtree over `sorted` (non-empty; `sorted[p]` is the leaf at position
    /// `order[p]` of the caller's list, whose id goes to `ids[order[p]]`) in depth-first
    /// order; returns its root.
    fn built(&mut self, sorted: &[(u32, Aabb, Aabb)], order: &[u32], ids: &mut [u32]) -> u32 {
        if let ([(item, tight, fat)], [k]) = (sorted, order) {
            let id = self.alloc(Node::leaf(*item, *tight, *fat));
            ids[*k as usize] = id;
            return id;
        }
        let parent = self.alloc(Node {
            fat: Aabb::default(),
            tight: Aabb::default(),
            parent: NULL,
            children: [NULL; 2],
            height: 0,
            item: NULL,
        });
        let half = order.len() / 2;
        let ((left, right), (lo, ro)) = (sorted.split_at(half), order.split_at(half));
        let children = [self.built(left, lo, ids), self.built(right, ro, ids)];
        self.nodes[parent as usize].children = children;
        for c in children {
            self.nodes[c as usize].parent = parent;
        }
        self.refit(parent);
        parent
    }

    /// Removes a leaf and frees it.
    pub(crate) fn remove(&mut self, leaf: u32) {
        self.detach(leaf);
        self.free.push(leaf);
    }

    /// Sets a leaf's tight box; when it leaves the fat box, refattens it by `margin` (px) and
    /// reinserts the leaf (same id). Returns true when it was reinserted.
    pub(crate) fn move_leaf(&mut self, leaf: u32, tight: Aabb, margin: f32) -> bool {
        let node = &mut self.nodes[leaf as usize];
        node.tight = tight;
        if node.fat.encloses(&tight) {
            return false;
        }
        node.fat = tight.expanded(margin);
        self.detach(leaf);
        self.attach(leaf);
        true
    }

    #[cfg(test)]
    /// Calls `found(item)` for every leaf whose tight box overlaps `area`, skipping leaves for
    /// which `skip(item)` holds without testing them. Internal nodes are tested by their box.
    /// Returns the box tests done. `stack` is scratch space.
    pub(crate) fn query(
        &self,
        area: &Aabb,
        stack: &mut Vec<u32>,
        skip: impl Fn(u32) -> bool,
        mut found: impl FnMut(u32),
    ) -> u64 {
        let mut tests = 0;
        stack.clear();
        if self.root != NULL {
            stack.push(self.root);
        }
        while let Some(id) = stack.pop() {
            let n = self.node(id);
            if n.is_leaf() {
                if skip(n.item) {
                    continue;
                }
                tests += 1;
                // A leaf's fat box encloses its tight box: testing the tight one alone decides.
                if n.tight.overlaps(area) {
                    found(n.item);
                }
            } else {
                tests += 1;
                if n.fat.overlaps(area) {
                    stack.extend_from_slice(&n.children);
                }
            }
        }
        tests
    }

    /// Visits every node with its depth (root 0), parents before children.
    pub(crate) fn for_each_node(
        &self,
        stack: &mut Vec<(u32, usize)>,
        mut f: impl FnMut(&Node, usize),
    ) {
        stack.clear();
        if self.root != NULL {
            stack.push((self.root, 0));
        }
        while let Some((id, depth)) = stack.pop() {
            let n = self.node(id);
            f(n, depth);
            if !n.is_leaf() {
                stack.extend(n.children.map(|c| (c, depth + 1)));
            }
        }
    }

    fn alloc(&mut self, node: Node) -> u32 {
        match self.free.pop() {
            Some(id) => {
                self.nodes[id as usize] = node;
                id
            }
            None => {
                self.nodes.push(node);
                (self.nodes.len() - 1) as u32
            }
        }
    }

    /// Links an unlinked leaf into the tree beside the best sibling, then rebalances.
    fn attach(&mut self, leaf: u32) {
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let fat = self.node(leaf).fat;
        let sibling = self.best_sibling(&fat);
        let old_parent = self.node(sibling).parent;
        let parent = self.alloc(Node {
            fat: fat.merged(&self.node(sibling).fat),
            tight: fat,
            parent: old_parent,
            children: [sibling, leaf],
            height: 0,
            item: NULL,
        });
        self.nodes[sibling as usize].parent = parent;
        self.nodes[leaf as usize].parent = parent;
        self.replace_child(old_parent, sibling, parent);
        self.rebalance_up(parent);
    }

    /// The node to pair a new leaf with, by the perimeter heuristic.
    fn best_sibling(&mut self, fat: &Aabb) -> u32 {
        let mut at = self.root;
        while !self.node(at).is_leaf() {
            self.steps += 1;
            let n = self.node(at);
            let merged = n.fat.merged(fat).half_perimeter();
            // Pairing here adds a parent of perimeter `merged`; going down instead grows this
            // node by `merged − own` and then costs at least the child's own growth.
            let growth = merged - n.fat.half_perimeter();
            let [c0, c1] = n.children.map(|c| growth + self.descend_cost(c, fat));
            if merged <= c0 && merged <= c1 {
                break;
            }
            at = n.children[usize::from(c1 < c0)];
        }
        at
    }

    /// Lower bound of the cost below `child`: a new parent beside a leaf, or its growth.
    fn descend_cost(&self, child: u32, fat: &Aabb) -> f32 {
        let c = self.node(child);
        let merged = c.fat.merged(fat).half_perimeter();
        if c.is_leaf() {
            merged
        } else {
            merged - c.fat.half_perimeter()
        }
    }

    /// Unlinks a leaf (keeping its node): its sibling takes the parent's place.
    fn detach(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.node(leaf).parent;
        let grand = self.node(parent).parent;
        let [a, b] = self.node(parent).children;
        let sibling = if a == leaf { b } else { a };
        self.nodes[sibling as usize].parent = grand;
        self.replace_child(grand, parent, sibling);
        self.nodes[parent as usize].parent = NULL;
        self.free.push(parent);
        self.nodes[leaf as usize].parent = NULL;
        if grand != NULL {
            self.rebalance_up(grand);
        }
    }

    /// Points `parent`'s link to `old` at `new` (or the root, when `parent` is [`NULL`]).
    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        if parent == NULL {
            self.root = new;
            return;
        }
        let p = &mut self.nodes[parent as usize];
        let slot = usize::from(p.children[1] == old);
        debug_assert_eq!(p.children[slot], old);
        p.children[slot] = new;
    }

    /// Rebalances and refits every node from `id` up to the root.
    fn rebalance_up(&mut self, mut id: u32) {
        while id != NULL {
            id = self.balanced(id);
            self.refit(id);
            id = self.node(id).parent;
        }
    }

    /// Rebalances the subtree at `a` (whose children are balanced) so that its children's
    /// heights differ by at most one; returns the node now in its place.
    fn balanced(&mut self, a: u32) -> u32 {
        self.refit(a);
        let [b, c] = self.node(a).children;
        let diff = self.node(c).height as i64 - self.node(b).height as i64;
        if diff.abs() <= 1 {
            return a;
        }
        let up = if diff > 0 { c } else { b };
        self.rotate_up(a, up);
        // `a` now holds its old short child and `up`'s shorter child, and may still lean by
        // more than one level (a leaf paired high up by the heuristic): fix it the same way,
        // one level lower each time. Its height ends within one of `up`'s taller child.
        self.balanced(a);
        self.refit(up);
        up
    }

    /// Lifts `up` (a child of `a`, internal) into `a`'s place: `a` becomes its child and
    /// takes `up`'s shorter child, `up` keeps the taller one. Boxes are refit by the caller.
    fn rotate_up(&mut self, a: u32, up: u32) {
        let [f, g] = self.node(up).children;
        let (tall, short) = if self.node(f).height >= self.node(g).height {
            (f, g)
        } else {
            (g, f)
        };
        let grand = self.node(a).parent;
        self.replace_child(grand, a, up);
        self.nodes[up as usize].parent = grand;
        self.replace_child(a, up, short);
        self.nodes[short as usize].parent = a;
        self.nodes[up as usize].children = [a, tall];
        self.nodes[a as usize].parent = up;
    }

    /// Recomputes an internal node's box and height from its children.
    fn refit(&mut self, id: u32) {
        let [b, c] = self.node(id).children;
        let (nb, nc) = (*self.node(b), *self.node(c));
        let fat = nb.fat.merged(&nc.fat);
        let n = &mut self.nodes[id as usize];
        n.fat = fat;
        n.tight = fat;
        n.height = 1 + nb.height.max(nc.height);
    }

    /// Checks every invariant; returns the number of leaves reachable from the root.
    pub(crate) fn validate(&self) -> Result<usize, String> {
        let mut seen = vec![false; self.nodes.len()];
        for &f in &self.free {
            if std::mem::replace(&mut seen[f as usize], true) {
                return Err(format!("node {f} freed twice"));
            }
        }
        if self.root != NULL && self.node(self.root).parent != NULL {
            return Err("root has a parent".into());
        }
        let (mut leaves, mut stack) = (0, vec![self.root]);
        while let Some(id) = stack.pop() {
            if id == NULL {
                continue;
            }
            if std::mem::replace(&mut seen[id as usize], true) {
                return Err(format!("node {id} reached twice or freed"));
            }
            leaves += usize::from(self.check_node(id)?);
            stack.extend(self.node(id).children);
        }
        match seen.iter().position(|s| !s) {
            Some(id) => Err(format!("node {id} neither reachable nor free")),
            None => Ok(leaves),
        }
    }

    /// Checks one node against its children; returns true for a leaf.
    fn check_node(&self, id: u32) -> Result<bool, String> {
        let n = self.node(id);
        if n.is_leaf() {
            if n.height != 0 || n.children[1] != NULL || n.item == NULL {
                return Err(format!("leaf {id} malformed"));
            }
            if !n.fat.encloses(&n.tight) {
                return Err(format!("leaf {id}: fat box does not enclose the tight box"));
            }
            return Ok(true);
        }
        let mut height = 0;
        for c in n.children {
            let child = self
                .nodes
                .get(c as usize)
                .ok_or(format!("node {id}: bad child"))?;
            if child.parent != id {
                return Err(format!("node {c}: parent link is not {id}"));
            }
            if !n.fat.encloses(&child.fat) {
                return Err(format!("node {id} does not enclose child {c}"));
            }
            height = height.max(child.height + 1);
        }
        if n.height != height {
            return Err(format!("node {id}: height {} should be {height}", n.height));
        }
        let [b, c] = n.children.map(|c| self.node(c).height);
        if b.abs_diff(c) > 1 {
            return Err(format!(
                "node {id}: children's heights {b} and {c} differ by > 1"
            ));
        }
        Ok(false)
    }
}

/// Positions of `leaves` sorted by the Morton code of their fat boxes' centres: each centre
/// quantised to 16 bits per axis over the centres' bounding box (a zero or non-finite extent
/// maps to 0; `as` saturates and takes NaN to 0, so any input gives some order), the bits of
/// x and y interleaved, and the codes radix sorted (stable: equal codes keep input order).
fn morton_order(leaves: &[(u32, Aabb, Aabb)]) -> Vec<u32> {
    let centre = |l: &(u32, Aabb, Aabb)| l.2.centre();
    let (mut lo, mut hi) = (centre(&leaves[0]), centre(&leaves[0]));
    for l in leaves {
        (lo, hi) = (lo.min(centre(l)), hi.max(centre(l)));
    }
    let per_px = |e: f32| if e > 0.0 { 65535.0 / e } else { 0.0 };
    let scale = glam::Vec2::new(per_px(hi.x - lo.x), per_px(hi.y - lo.y));
    let quantised = |v: f32| (v as u32).min(0xffff) as u64;
    let mut keys: Vec<u64> = (0u64..)
        .zip(leaves)
        .map(|(k, l)| {
            let q = (centre(l) - lo) * scale;
            let code = spread_bits(quantised(q.x)) | spread_bits(quantised(q.y)) << 1;
            code << 32 | k
        })
        .collect();
    RadixScratch::default().sort(&mut keys, |&k| k, 32, 64);
    keys.iter().map(|&k| k as u32).collect()
}

/// The 16 low bits of `v` moved to the even bit positions 0, 2, …, 30.
fn spread_bits(v: u64) -> u64 {
    let mut v = v & 0xffff;
    v = (v | v << 8) & 0x00ff_00ff;
    v = (v | v << 4) & 0x0f0f_0f0f;
    v = (v | v << 2) & 0x3333_3333;
    (v | v << 1) & 0x5555_5555
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn point(x: f32, y: f32) -> Aabb {
        Aabb::around(Vec2::new(x, y), 0.0)
    }

    #[test]
    fn spread_bits_interleaves() {
        assert_eq!(spread_bits(0b1011), 0b100_0101);
        assert_eq!(spread_bits(0xffff), 0x5555_5555);
        assert_eq!(spread_bits(0x1_0000), 0);
    }

    #[test]
    fn bulk_build_of_non_finite_and_coincident_boxes_is_valid() {
        let b = Aabb::new(
            Vec2::new(f32::NEG_INFINITY, 0.0),
            Vec2::new(f32::INFINITY, 1.0),
        );
        let leaves: Vec<_> = (0..9u32).map(|i| (i, b, b)).collect();
        let (mut tree, mut ids) = (DynamicTree::new(), Vec::new());
        tree.build(&leaves, &mut ids);
        assert_eq!(tree.validate(), Ok(9));
    }

    #[test]
    fn bulk_build_is_balanced_holds_every_leaf_and_finds_what_brute_force_finds() {
        let boxes: Vec<Aabb> = (0..1000u32)
            .map(|i| {
                let (x, y) = ((i * 7919 % 997) as f32, (i * 104_729 % 991) as f32);
                Aabb::around(Vec2::new(x, y), 4.0 + (i % 5) as f32)
            })
            .chain([point(5.0, 5.0); 3]) // coincident leaves too
            .collect();
        let leaves: Vec<_> = (0u32..)
            .zip(&boxes)
            .map(|(i, b)| (i, *b, b.expanded(2.0)))
            .collect();
        let (mut tree, mut ids) = (DynamicTree::new(), Vec::new());
        tree.build(&leaves, &mut ids);
        assert_eq!(tree.validate(), Ok(boxes.len()));
        assert_eq!(tree.height(), 10); // ⌈log2 1003⌉
        for (k, &id) in ids.iter().enumerate() {
            assert_eq!(tree.node(id).item, k as u32);
        }
        let area = Aabb::new(Vec2::new(100.0, 200.0), Vec2::new(180.0, 260.0));
        let mut got = Vec::new();
        tree.query(&area, &mut Vec::new(), |_| false, |i| got.push(i));
        got.sort_unstable();
        let want: Vec<u32> = (0u32..)
            .zip(&boxes)
            .filter(|(_, b)| b.overlaps(&area))
            .map(|(i, _)| i)
            .collect();
        assert!(!want.is_empty());
        assert_eq!(got, want);
        // Built trees take insertions and removals like any other.
        tree.remove(ids[0]);
        tree.insert(7, point(1.0, 1.0), point(1.0, 1.0));
        assert_eq!(tree.validate(), Ok(boxes.len()));
        tree.build(&[], &mut ids);
        assert!(tree.is_empty() && ids.is_empty());
    }

    #[test]
    fn sorted_line_of_inserts_stays_shallow() {
        let mut t = DynamicTree::new();
        for k in 0..1024 {
            let b = point(k as f32, 0.0);
            t.insert(k, b, b);
        }
        assert_eq!(t.validate().unwrap(), 1024);
        assert!(
            t.height() <= 14,
            "height {} (AVL bound 1.44·log2 n)",
            t.height()
        );
    }

    #[test]
    fn coincident_points_stay_shallow() {
        let mut t = DynamicTree::new();
        for k in 0..1024 {
            t.insert(k, point(3.0, 3.0), point(3.0, 3.0));
        }
        assert_eq!(t.validate().unwrap(), 1024);
        assert!(
            t.height() <= 14,
            "height {} (AVL bound 1.44·log2 n)",
            t.height()
        );
    }

    #[test]
    fn removal_keeps_links_and_frees_nodes() {
        let mut t = DynamicTree::new();
        let ids: Vec<u32> = (0..50)
            .map(|k| t.insert(k, point(k as f32, 1.0), point(k as f32, 1.0)))
            .collect();
        for &id in ids.iter().step_by(2) {
            t.remove(id);
        }
        assert_eq!(t.validate().unwrap(), 25);
        assert_eq!(t.len(), 49);
        for &id in ids.iter().skip(1).step_by(2) {
            t.remove(id);
        }
        assert!(t.is_empty());
        assert_eq!(t.validate().unwrap(), 0);
    }

    #[test]
    fn moving_inside_the_fat_box_does_not_reinsert() {
        let mut t = DynamicTree::new();
        let b = point(0.0, 0.0);
        let id = t.insert(0, b, b.expanded(2.0));
        t.insert(1, point(9.0, 9.0), point(9.0, 9.0));
        assert!(!t.move_leaf(id, point(1.0, 1.0), 2.0));
        assert!(t.move_leaf(id, point(3.0, 0.0), 2.0));
        assert_eq!(t.node(id).fat, point(3.0, 0.0).expanded(2.0));
        t.validate().unwrap();
    }

    #[test]
    fn query_tests_tight_boxes_at_leaves() {
        let mut t = DynamicTree::new();
        t.insert(0, point(0.0, 0.0), point(0.0, 0.0).expanded(5.0));
        t.insert(1, point(20.0, 0.0), point(20.0, 0.0));
        let mut found = Vec::new();
        let tests = t.query(
            &point(3.0, 0.0),
            &mut Vec::new(),
            |_| false,
            |i| found.push(i),
        );
        assert!(found.is_empty(), "inside leaf 0's fat box only");
        assert_eq!(tests, 3, "the root and both leaves");
        let tests = t.query(
            &point(20.0, 0.0),
            &mut Vec::new(),
            |i| i == 0,
            |i| found.push(i),
        );
        assert_eq!(found, vec![1]);
        assert_eq!(tests, 2, "root and leaf 1; leaf 0 skipped untested");
    }
}
