//! The dynamic tree's copy for the pairs' self-traversal, with its lowest subtrees as
//! *buckets*: every subtree of height at most 2 (at most four leaves) becomes one node whose
//! leaves' tight boxes sit side by side, packed coordinate by coordinate (`packed.rs`), so two
//! buckets are tested against each other four candidates per compare instead of node pair by
//! node pair.
//!
//! Why. The traversal pops node pairs from a stack and reads both nodes; with many balls the
//! copy (two nodes per ball) no longer fits in the L2 cache, and the traversal's time grows
//! faster than the ball count. With buckets the copy holds about a third as many nodes, the
//! traversal stops three levels higher, and each bucket's boxes are read in one go.
//!
//! Layout. Nodes are in depth-first preorder from the root at slot 0 (a traversal going down
//! reads memory forward; a subtree's nodes lie together). An internal node holds the fat box
//! of its tree node and its two children's slots; a bucket holds the union of its leaves'
//! tight boxes (tighter than the tree node's fat box, and still enclosing every leaf) and
//! [`BUCKET`] with its first entry and count. A bucket has four entries; the unused ones are
//! NaN boxes, which overlap nothing.
//!
//! Exactness: each node's box encloses the tight boxes of every leaf below it, so two
//! overlapping tight boxes make every pair of their ancestors overlap; within and between
//! buckets every pair of entries is tested.

use super::dynamic::{DynamicTree, NULL};
use crate::broad::packed::{hits4, packed, query_of};
use crate::broad::{Pair, Place, Probe};
use crate::geom::Aabb;

/// Tag in `kids[0]` of a bucket.
const BUCKET: u32 = NULL - 1;
/// Entries per bucket.
const WIDTH: usize = 4;

/// A node of the copy: the box it is tested by and its children, or `[BUCKET, first entry
/// + count − 1]` for a bucket (its first entry a multiple of 4).
#[derive(Clone, Copy, Debug, Default)]
pub struct Slot {
    pub b: Aabb,
    pub kids: [u32; 2],
}

impl Slot {
    /// True for a bucket.
    #[inline(always)]
    pub(crate) fn is_bucket(&self) -> bool {
        self.kids[0] == BUCKET
    }

    /// A bucket's first entry and its number of leaves.
    #[inline(always)]
    fn entries(&self) -> (usize, usize) {
        let k = self.kids[1] as usize;
        (k & !(WIDTH - 1), (k & (WIDTH - 1)) + 1)
    }
}

/// The traversal copy: nodes, and the buckets' entries lane by lane with their items.
#[derive(Clone, Debug, Default)]
pub struct Buckets {
    nodes: Vec<Slot>,
    lanes: [Vec<f32>; 4],
    items: Vec<u32>,
}

impl Buckets {
    /// Copies the tree under `root`; `stack` is scratch.
    pub(crate) fn copy(&mut self, tree: &DynamicTree, root: u32, stack: &mut Vec<(u32, u32)>) {
        self.nodes.clear();
        self.items.clear();
        self.lanes.iter_mut().for_each(Vec::clear);
        stack.clear();
        // (node id, slot of the kid field to fill: parent slot * 2 + which, or NULL)
        stack.push((root, NULL));
        let mut leaves = [0u32; WIDTH];
        while let Some((id, link)) = stack.pop() {
            let slot = self.nodes.len() as u32;
            if link != NULL {
                self.nodes[(link / 2) as usize].kids[(link % 2) as usize] = slot;
            }
            let n = tree.node(id);
            if n.height > 2 {
                self.nodes.push(Slot {
                    b: n.fat,
                    kids: [NULL; 2],
                });
                stack.push((n.children[1], slot * 2 + 1));
                stack.push((n.children[0], slot * 2));
                continue;
            }
            // A subtree of height ≤ 2: its at most four leaves, in order.
            let mut count = 0;
            let mut todo = [id; WIDTH];
            let mut open = 1;
            while open > 0 {
                open -= 1;
                let m = tree.node(todo[open]);
                if m.is_leaf() {
                    leaves[count] = todo[open];
                    count += 1;
                } else {
                    todo[open] = m.children[1];
                    todo[open + 1] = m.children[0];
                    open += 2;
                }
            }
            let first = self.items.len();
            let mut union = tree.node(leaves[0]).tight;
            for k in 0..WIDTH {
                let (item, p) = match leaves[..count].get(k) {
                    Some(&leaf) => {
                        let m = tree.node(leaf);
                        union = union.merged(&m.tight);
                        (m.item, packed(&m.tight))
                    }
                    None => (NULL, [f32::NAN; 4]),
                };
                self.items.push(item);
                for (lane, v) in self.lanes.iter_mut().zip(p) {
                    lane.push(v);
                }
            }
            self.nodes.push(Slot {
                b: union,
                kids: [BUCKET, (first + count - 1) as u32],
            });
        }
    }

    /// The stored boxes of every bucket's entries, lane by lane.
    fn lanes(&self) -> [&[f32]; 4] {
        [
            &self.lanes[0],
            &self.lanes[1],
            &self.lanes[2],
            &self.lanes[3],
        ]
    }

    /// The stored box of entry `e`.
    fn packed(&self, e: usize) -> [f32; 4] {
        [
            self.lanes[0][e],
            self.lanes[1][e],
            self.lanes[2][e],
            self.lanes[3][e],
        ]
    }

    /// Pairs between the leaves of bucket `a` and those of bucket `b` (the same bucket when
    /// `same`: then each leaf against the later ones), pushed as `(min, max)` when at least
    /// one item is `≥ fd` (a ball; `kinematic` says whether any leaf is below `fd`); returns
    /// the leaf pairs tested (those with a ball).
    #[inline(always)]
    fn pairs_with(
        &self,
        a: &Slot,
        b: &Slot,
        fd: u32,
        kinematic: bool,
        same: bool,
        pairs: &mut Vec<Pair>,
    ) -> u64 {
        let ((ea, ca), (eb, cb)) = (a.entries(), b.entries());
        for e in ea..ea + ca {
            let i = self.items[e];
            // Within one bucket, each entry against the later ones only.
            let later = if same { !0u32 << (e - ea + 1) } else { !0 };
            // SAFETY: a bucket has four entries.
            let mut hits = unsafe { hits4(self.lanes(), eb, query_of(self.packed(e))) } & later;
            while hits != 0 {
                let j = self.items[eb + hits.trailing_zeros() as usize];
                hits &= hits - 1;
                if !kinematic || i.max(j) >= fd {
                    pairs.push((i.min(j), i.max(j)));
                }
            }
        }
        let all = if same { ca * (ca - 1) / 2 } else { ca * cb } as u64;
        if !kinematic {
            return all;
        }
        // Less the pairs of two kinematic leaves (never wanted, not counted).
        let below =
            |e0: usize, c: usize| self.items[e0..e0 + c].iter().filter(|&&i| i < fd).count();
        let (ka, kb) = (below(ea, ca), below(eb, cb));
        all - if same {
            ka * ka.saturating_sub(1) / 2
        } else {
            ka * kb
        } as u64
    }

    /// Moving–ball pairs by one self-traversal from the root (slot 0): each node pair whose
    /// boxes overlap is opened by splitting the larger internal node, each node's two
    /// children are paired with each other once, and two buckets test their leaves. Every
    /// unordered leaf pair is reached at most once. Returns the box tests: one per node pair
    /// tested and one per leaf pair with a ball tested. Items below `fd` are kinematic shapes
    /// (`kinematic` says whether there are any): their pairs with each other are not wanted.
    /// `stack` is scratch.
    ///
    /// With `probe`, each leaf pair's test is given to the outer leaf of the bucket loop (see
    /// [`Buckets::probe_pairs_with`]) and each node pair's to the structure.
    pub(crate) fn self_pairs(
        &self,
        fd: u32,
        kinematic: bool,
        stack: &mut Vec<(u32, u32)>,
        pairs: &mut Vec<Pair>,
        mut probe: Option<&mut Probe>,
    ) -> u64 {
        let nodes = &self.nodes;
        let (mut tests, mut leaf_tests) = (0, 0);
        stack.clear();
        if !nodes.is_empty() {
            stack.push((0, 0));
        }
        while let Some((a, b)) = stack.pop() {
            let (na, nb) = (&nodes[a as usize], &nodes[b as usize]);
            if a == b {
                if na.is_bucket() {
                    let t = self.pairs_with(na, na, fd, kinematic, true, pairs);
                    (tests, leaf_tests) = (tests + t, leaf_tests + t);
                    if let Some(p) = probe.as_deref_mut() {
                        self.probe_pairs_with(na, na, fd, true, p);
                    }
                } else {
                    let [c, d] = na.kids;
                    stack.extend([(c, c), (d, d), (c, d)]);
                }
                continue;
            }
            tests += 1;
            if !na.b.overlaps(&nb.b) {
                continue;
            }
            match (na.is_bucket(), nb.is_bucket()) {
                (true, true) => {
                    let t = self.pairs_with(na, nb, fd, kinematic, false, pairs);
                    (tests, leaf_tests) = (tests + t, leaf_tests + t);
                    if let Some(p) = probe.as_deref_mut() {
                        self.probe_pairs_with(na, nb, fd, false, p);
                    }
                }
                (false, true) => stack.extend(na.kids.map(|c| (c, b))),
                (true, false) => stack.extend(nb.kids.map(|c| (a, c))),
                (false, false) => {
                    if na.b.half_perimeter() >= nb.b.half_perimeter() {
                        stack.extend(na.kids.map(|c| (c, b)));
                    } else {
                        stack.extend(nb.kids.map(|c| (a, c)));
                    }
                }
            }
        }
        if let Some(p) = probe {
            p.structure(tests - leaf_tests);
        }
        tests
    }

    /// Gives the leaf-pair tests of [`Buckets::pairs_with`] to the probe: each leaf of `a` the
    /// tests against the leaves of `b` (the later ones when `same`) where one of the two is a
    /// ball (`≥ fd`), which is what `pairs_with` counts; the focus visits bucket `b`.
    fn probe_pairs_with(&self, a: &Slot, b: &Slot, fd: u32, same: bool, p: &mut Probe) {
        let ((ea, ca), (eb, cb)) = (a.entries(), b.entries());
        for e in ea..ea + ca {
            let i = self.items[e];
            let from = if same { e + 1 } else { eb };
            let others = &self.items[from..eb + cb];
            let wanted = |&&j: &&u32| i >= fd || j >= fd;
            let t = others.iter().filter(wanted).count() as u64;
            p.test(i, t);
            if p.is_focus(i) {
                p.visit(i, Place::Node, b.b, t);
                p.against.extend(others.iter().filter(wanted));
            }
        }
    }
}
