//! Recursive dimensional clustering (RDC), after Steve Rabin (Rabin 2001, *Game Programming
//! Gems 2*) as retold in "Collision detection with Recursive Dimensional Clustering"
//! (polygonal.de).
//!
//! Algorithm. A group (at first, every box) is projected on one axis: each box gives an *open*
//! boundary at its min and a *close* boundary at its max. The boundaries are sorted and swept
//! with a counter (+1 on open, −1 on close); wherever the counter returns to zero the group is
//! cut, because no interval spans the cut. Each part is then split again on the other axis,
//! x → y → x …, until a group holds at most `threshold` boxes or stops splitting. Inside a
//! final group every wanted pair is tested by brute force.
//!
//! Stopping rule. A part produced by a cut on axis `a` is one connected run of intervals on
//! `a`, so splitting it on `a` again would give it back whole. Hence a part that does not split
//! on the other axis is final at once ("did not split on this axis and not on the other
//! either"). Only the very first group has not been tried on either axis: when it does not
//! split on x it is tried on y before giving up.
//!
//! Touching boxes. Boxes are closed (see [`Aabb::overlaps`]), so two boxes that share an edge
//! overlap. The retelling's "snap" demo shows the trap: if the close of `a` is sorted before the
//! open of `b` at the same coordinate, the counter drops to zero between them and the touching
//! pair is cut apart and lost. We sort *opens before closes at equal coordinates*, so touching
//! intervals stay in one group and the brute-force pass then decides (its "negative
//! threshold" alternative, done exactly in the sort key instead of with an epsilon). The key
//! is `pos + 0.0`, which turns −0.0 into +0.0 so `total_cmp` does not order two equal
//! coordinates apart.
//!
//! Groups holding no ball are dropped: no pair among obstacles is ever wanted.
//!
//! Statics. Only the moving shapes (kinematic shapes and balls) are clustered. A static box
//! that spans the table (an outer wall) would keep the open count above zero across the
//! whole sweep and glue everything into one group; worse, every static sits in some group
//! and costs a test against each of its balls. So statics are kept apart, in a
//! [`StaticTree`] built once per `statics_version` (Rabin 2001, as retold: "great for static
//! objects since you can precompute the groups and use them as bounding boxes"). For each
//! final group the union `G` of its balls' boxes is queried against the static tree, and
//! each static found is tested against each of the group's balls (with one ball, `G` is that
//! ball's box and the tree's leaf test already decided the pair). Exact: if static `S`
//! overlaps ball box `B` in group box `G`, then `S.min ≤ B.max ≤ G.max` and
//! `G.min ≤ B.min ≤ S.max` componentwise (`G` is the componentwise min/max of its balls'
//! boxes), so `S` overlaps `G` and the query finds it; the tree prunes by the same argument
//! one level up. Nothing in it needs `min ≤ max`, so inverted boxes are safe.
//! Every group holds each ball once, so each static–ball pair is reported at most once.
//!
//! Cost. One pass over a group of `m` boxes sorts `2m` boundaries, `O(m log m)`; a level of
//! the recursion costs `O(n log n)` in total. Evenly spread, separated boxes need few levels:
//! about `O(n log n)` overall plus the small brute-force groups. The worst case is a chain that
//! peels one box per pass: `O(n² log n)` sorting, then brute force anyway. The sort work is
//! kept apart as a statistic (comparisons, boundaries); it is not counted as AABB tests. The
//! AABB tests are the box pairs tested inside final groups (one per wanted candidate pair),
//! the static-tree nodes tested by group boxes, and the static–ball tests inside groups.
//! Building the static tree is bookkeeping, done once per statics version, and not counted.
//!
//! Probe. Inside a final group the test of two shapes belongs to the one the brute-force loop
//! is working for (the earlier in the group's order); a static found by the group's query is
//! a test for each of the group's balls; the query's own tests through the static tree belong
//! to the ball when the group has one ball (its box is the query) and to the structure
//! otherwise. The focus visits its final group (`Cluster`); a group's heat is all its tests.
//!
//! Invariants. Groups partition the boxes, so a pair is found at most once (no repeats). The
//! per-call buffers are kept between calls, and the recursion runs on an explicit stack, so a
//! steady state allocates nothing.

use super::pair_keys::PairKeys;
use super::probe::held_during;
use super::tree::StaticTree;
use super::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair, Param, ParamError};
use super::{BroadInfo, ParamInfo, Place, Probe, RuleValues};
use crate::debug_draw::{DebugDraw, Prim, Rgba};
use crate::geom::Aabb;

/// Default largest group left to brute force.
pub(crate) const DEFAULT_THRESHOLD: usize = 8;
/// Slider maximum of the threshold.
const MAX_THRESHOLD: usize = 128;

/// One end of a box's interval on the axis being split.
#[derive(Clone, Copy, Debug)]
struct Boundary {
    /// Coordinate (px), −0.0 normalised to +0.0.
    pos: f32,
    /// Close (max) rather than open (min); `false < true` sorts opens first at ties.
    close: bool,
    /// Box index.
    item: u32,
}

/// A group waiting to be split: the range `start..end` of `items`.
#[derive(Clone, Copy, Debug)]
struct Work {
    start: usize,
    end: usize,
    /// 0 = x, 1 = y.
    axis: usize,
    depth: usize,
    /// True when splitting on the other axis is known to give the group back whole.
    other_axis_whole: bool,
}

/// What became of a recorded group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    /// Split further (drawn as a thin grey outline).
    Split,
    /// Brute-forced (drawn in a palette colour).
    Final,
    /// Dropped: no ball in it.
    NoBall,
}

/// A group as left by the last call, for drawing.
#[derive(Clone, Copy, Debug)]
struct Group {
    aabb: Aabb,
    depth: usize,
    fate: Fate,
}

/// Read-outs of the last call.
#[derive(Clone, Copy, Debug, Default)]
struct RdcStats {
    finals: usize,
    largest: usize,
    depth: usize,
    dropped: usize,
    comparisons: u64,
    boundaries: u64,
    /// Static-tree nodes tested by group boxes.
    static_tree_tests: u64,
    /// Static boxes tested against a group's balls.
    static_ball_tests: u64,
}

/// The threshold: groups of about 5 to 10 objects left to brute force (Rabin 2001, as
/// retold by the polygonal labs blog).
const THRESHOLD: ParamInfo = ParamInfo {
    name: "threshold",
    unit: "balls",
    min: 1.0,
    max: MAX_THRESHOLD as f32,
    integer: true,
    says: "Stop splitting at groups of about 5 to 10 balls: lower splits deeper (more \
           sorting), higher leaves larger groups to brute force",
    source: "Rabin 2001, Recursive Dimensional Clustering (as retold by polygonal labs)",
    rule: |_| RuleValues {
        auto: 8.0,
        value: Some(8.0),
        auto_why: "8 balls, the middle of the range".into(),
        sweep: [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0].to_vec(),
    },
};

/// What recursive dimensional clustering declares: no fixed places.
pub(crate) const DESCRIPTION: BroadInfo = BroadInfo {
    name: "rdc",
    label: "Recursive dimensional clustering",
    colour: [230, 140, 20],
    places: None,
    params: &[THRESHOLD],
    create: || Box::new(Rdc::default()),
};

/// Recursive dimensional clustering broad phase.
#[derive(Debug)]
pub struct Rdc {
    threshold: usize,
    items: Vec<u32>,
    scratch: Vec<u32>,
    cuts: Vec<usize>,
    bounds: Vec<Boundary>,
    stack: Vec<Work>,
    groups: Vec<Group>,
    stats: RdcStats,
    /// The statics, built from `static_boxes` for `statics_version`.
    statics: StaticTree,
    static_boxes: Vec<Aabb>,
    statics_version: Option<u64>,
    /// Statics found by some group box in the last call (drawn).
    static_hit: Vec<bool>,
    /// Scratch: statics found by one group box, and the query stack.
    found: Vec<u32>,
    query_stack: Vec<u32>,
    /// Shape count of the last call: `items` holds `first_moving..len`.
    len: usize,
    /// The pairs' radix sort.
    keys: PairKeys,
    /// The record of a probed call, held here during it.
    probe: Option<Probe>,
}

impl Default for Rdc {
    fn default() -> Self {
        Self::with_threshold(DEFAULT_THRESHOLD)
    }
}

impl Rdc {
    /// An instance that stops splitting at groups of at most `threshold` boxes (≥ 1).
    pub(crate) fn with_threshold(threshold: usize) -> Self {
        Self {
            threshold: threshold.max(1),
            items: Vec::new(),
            scratch: Vec::new(),
            cuts: Vec::new(),
            bounds: Vec::new(),
            stack: Vec::new(),
            groups: Vec::new(),
            stats: RdcStats::default(),
            statics: StaticTree::new(),
            static_boxes: Vec::new(),
            statics_version: None,
            static_hit: Vec::new(),
            found: Vec::new(),
            query_stack: Vec::new(),
            len: 0,
            keys: PairKeys::default(),
            probe: None,
        }
    }

    /// Rebuilds the static tree when the statics changed.
    fn sync_statics(&mut self, input: &BroadInput) {
        let fm = input.first_moving.min(input.aabbs.len());
        if self.statics_version == Some(input.statics_version) && self.static_boxes.len() == fm {
            return;
        }
        self.static_boxes.clear();
        self.static_boxes.extend_from_slice(&input.aabbs[..fm]);
        self.statics.build(&self.static_boxes);
        self.statics_version = Some(input.statics_version);
    }

    /// Starts a call: every moving box in one group, to be split on x first.
    fn reset(&mut self, input: &BroadInput) {
        self.sync_statics(input);
        let n = input.aabbs.len();
        let fm = self.static_boxes.len();
        self.len = n;
        self.items.clear();
        self.items.extend(fm as u32..n as u32);
        self.groups.clear();
        self.stack.clear();
        self.stats = RdcStats::default();
        self.static_hit.clear();
        self.static_hit.resize(fm, false);
        if input.first_dynamic < n {
            self.stack.push(Work {
                start: 0,
                end: n - fm,
                axis: 0,
                depth: 0,
                other_axis_whole: false,
            });
        }
    }

    /// Handles one group: brute force if small, else split it and push the parts.
    fn process(&mut self, input: &BroadInput, w: Work, pairs: &mut Vec<Pair>) -> u64 {
        self.stats.depth = self.stats.depth.max(w.depth);
        if w.end - w.start <= self.threshold {
            return self.finish(input, w, pairs);
        }
        let parts = self.split(input, w);
        if parts == 1 {
            if w.other_axis_whole {
                return self.finish(input, w, pairs);
            }
            self.stack.push(Work {
                axis: 1 - w.axis,
                depth: w.depth + 1,
                other_axis_whole: true,
                ..w
            });
            return 0;
        }
        self.record(input, w, Fate::Split);
        self.push_parts(input, w);
        0
    }

    /// Pushes the parts found by [`Rdc::split`] (ends in `cuts`), dropping those without a ball.
    fn push_parts(&mut self, input: &BroadInput, w: Work) {
        let mut start = w.start;
        for k in 0..self.cuts.len() {
            let end = w.start + self.cuts[k];
            let part = Work {
                start,
                end,
                axis: 1 - w.axis,
                depth: w.depth + 1,
                other_axis_whole: true,
            };
            if self.items[start..end]
                .iter()
                .any(|&i| i as usize >= input.first_dynamic)
            {
                self.stack.push(part);
            } else {
                self.stats.dropped += 1;
                self.record(input, part, Fate::NoBall);
            }
            start = end;
        }
    }

    /// Sorts the group's boundaries on `w.axis`, reorders `items[w.start..w.end]` part by
    /// part, leaves each part's end (relative to `w.start`) in `cuts`, returns the part count.
    fn split(&mut self, input: &BroadInput, w: Work) -> usize {
        self.fill_boundaries(input, w);
        let mut comparisons = 0u64;
        self.bounds.sort_unstable_by(|a, b| {
            comparisons += 1;
            a.pos.total_cmp(&b.pos).then(a.close.cmp(&b.close))
        });
        self.stats.comparisons += comparisons;
        self.scratch.clear();
        self.cuts.clear();
        let mut open = 0usize;
        for b in &self.bounds {
            if b.close {
                open -= 1;
                if open == 0 {
                    self.cuts.push(self.scratch.len());
                }
            } else {
                open += 1;
                self.scratch.push(b.item);
            }
        }
        self.items[w.start..w.end].copy_from_slice(&self.scratch);
        self.cuts.len()
    }

    /// Fills `bounds` with the open and close boundaries of the group on `w.axis`.
    fn fill_boundaries(&mut self, input: &BroadInput, w: Work) {
        self.bounds.clear();
        for &item in &self.items[w.start..w.end] {
            let b = &input.aabbs[item as usize];
            // `+ 0.0` maps −0.0 to +0.0 (round to nearest), so total_cmp sees them equal.
            let (lo, mut hi) = (b.min[w.axis] + 0.0, b.max[w.axis] + 0.0);
            if matches!(
                lo.partial_cmp(&hi),
                None | Some(std::cmp::Ordering::Greater)
            ) {
                // An inverted (or NaN) box: only a box spanning [max, min] can overlap it, and
                // that box also spans `lo`; a point there keeps the counter from going negative.
                hi = lo;
            }
            self.bounds.push(Boundary {
                pos: lo,
                close: false,
                item,
            });
            self.bounds.push(Boundary {
                pos: hi,
                close: true,
                item,
            });
        }
        self.stats.boundaries += self.bounds.len() as u64;
    }

    /// Brute force inside a final group, then its balls against the statics; returns the
    /// AABB tests done.
    fn finish(&mut self, input: &BroadInput, w: Work, pairs: &mut Vec<Pair>) -> u64 {
        self.stats.finals += 1;
        self.stats.largest = self.stats.largest.max(w.end - w.start);
        self.record(input, w, Fate::Final);
        let mut probe = self.probe.take();
        let moving = self.moving_pairs(input, w, pairs, probe.as_mut());
        let statics = self.static_pairs(input, w, pairs, probe.as_mut());
        if let Some(p) = probe.as_mut() {
            let cluster = self.groups.last().map_or_else(Aabb::default, |g| g.aabb);
            p.place(Place::Cluster, cluster, moving + statics);
        }
        self.probe = probe;
        moving + statics
    }

    /// Every wanted pair among the group's moving shapes, by brute force; each test given
    /// to the shape of the outer loop in `probe`.
    fn moving_pairs(
        &self,
        input: &BroadInput,
        w: Work,
        pairs: &mut Vec<Pair>,
        mut probe: Option<&mut Probe>,
    ) -> u64 {
        let group = &self.items[w.start..w.end];
        let mut tests = 0;
        for (k, &a) in group.iter().enumerate() {
            let before = tests;
            for &b in &group[k + 1..] {
                let (i, j) = (a.min(b), a.max(b));
                if !input.wanted(i as usize, j as usize) {
                    continue;
                }
                tests += 1;
                if input.aabbs[i as usize].overlaps(&input.aabbs[j as usize]) {
                    pairs.push((i, j));
                }
            }
            if let Some(p) = probe.as_deref_mut() {
                p.test(a, tests - before);
                if p.is_focus(a) {
                    let wanted = |&&b: &&u32| input.wanted(a.min(b) as usize, a.max(b) as usize);
                    p.against.extend(group[k + 1..].iter().filter(wanted));
                }
                let cluster = self.groups.last().map_or_else(Aabb::default, |g| g.aabb);
                p.visit(a, Place::Cluster, cluster, tests - before);
            }
        }
        tests
    }

    /// Queries the static tree with the union of the group's ball boxes, then tests each
    /// static found against each of the group's balls (see "Statics" in the module docs).
    /// In `probe` the tree's tests are the ball's for a group of one, else the structure's (the
    /// group's query); each static found is a test for each of the group's balls.
    fn static_pairs(
        &mut self,
        input: &BroadInput,
        w: Work,
        pairs: &mut Vec<Pair>,
        probe: Option<&mut Probe>,
    ) -> u64 {
        let fd = input.first_dynamic as u32;
        let mut balls = self.items[w.start..w.end].iter().filter(|&&i| i >= fd);
        let Some(&first) = balls.next() else {
            return 0;
        };
        let (mut area, mut count) = (input.aabbs[first as usize], 1);
        for &b in balls {
            area = area.merged(&input.aabbs[b as usize]);
            count += 1;
        }
        self.found.clear();
        let found = &mut self.found;
        let tree_tests = self
            .statics
            .query(&area, &mut self.query_stack, |s| found.push(s));
        self.stats.static_tree_tests += tree_tests;
        let ball_tests = self.test_found_statics(input, w, first, count, pairs);
        self.stats.static_ball_tests += ball_tests;
        if let Some(p) = probe {
            self.probe_statics(input, w, first, count, tree_tests, p);
        }
        tree_tests + ball_tests
    }

    /// Gives a final group's static tests to its balls and the structure (see
    /// [`Rdc::static_pairs`]).
    fn probe_statics(
        &self,
        input: &BroadInput,
        w: Work,
        first: u32,
        count: usize,
        tree_tests: u64,
        p: &mut Probe,
    ) {
        let cluster = self.groups.last().map_or_else(Aabb::default, |g| g.aabb);
        if count == 1 {
            p.test(first, tree_tests);
            p.visit(first, Place::Cluster, cluster, tree_tests);
            if p.is_focus(first) {
                p.against.extend(&self.found);
            }
            return;
        }
        p.structure(tree_tests);
        let fd = input.first_dynamic as u32;
        let found = self.found.len() as u64;
        for &b in self.items[w.start..w.end].iter().filter(|&&i| i >= fd) {
            p.test(b, found);
            p.visit(b, Place::Cluster, cluster, found);
            if p.is_focus(b) {
                p.against.extend(&self.found);
            }
        }
    }

    /// Pairs the statics in `found` with the group's balls; returns the tests done. With one
    /// ball (`first`) the group box was its own box: the tree's leaf test already decided.
    fn test_found_statics(
        &mut self,
        input: &BroadInput,
        w: Work,
        first: u32,
        balls: usize,
        pairs: &mut Vec<Pair>,
    ) -> u64 {
        let fd = input.first_dynamic as u32;
        let mut tests = 0;
        for &s in &self.found {
            self.static_hit[s as usize] = true;
            if balls == 1 {
                pairs.push((s, first));
                continue;
            }
            for &b in self.items[w.start..w.end].iter().filter(|&&i| i >= fd) {
                tests += 1;
                if input.aabbs[s as usize].overlaps(&input.aabbs[b as usize]) {
                    pairs.push((s, b));
                }
            }
        }
        tests
    }

    /// Keeps the group's box for drawing.
    fn record(&mut self, input: &BroadInput, w: Work, fate: Fate) {
        let group = &self.items[w.start..w.end];
        let first = input.aabbs[group[0] as usize];
        let aabb = group[1..]
            .iter()
            .fold(first, |acc, &i| acc.merged(&input.aabbs[i as usize]));
        self.groups.push(Group {
            aabb,
            depth: w.depth,
            fate,
        });
    }

    /// One call; a probed call's record is held in `self.probe` meanwhile.
    fn run(&mut self, input: &BroadInput, pairs: &mut Vec<Pair>, counters: &mut BroadCounters) {
        pairs.clear();
        self.reset(input);
        let mut tests = 0;
        while let Some(w) = self.stack.pop() {
            tests += self.process(input, w, pairs);
        }
        self.keys.sort_pairs(pairs, input.aabbs.len());
        counters.aabb_tests += tests;
        counters.pairs += pairs.len() as u64;
    }
}

impl BroadPhase for Rdc {
    fn kind(&self) -> BroadKind {
        BroadKind::Rdc
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
        let fm = self.static_boxes.len();
        if fm + self.items.len() != self.len.max(fm) {
            return Err(format!(
                "{} moving items for {} shapes and {fm} statics",
                self.items.len(),
                self.len
            ));
        }
        let mut seen = vec![false; self.items.len()];
        for &i in &self.items {
            let slot = (i as usize)
                .checked_sub(fm)
                .and_then(|k| seen.get_mut(k))
                .ok_or_else(|| format!("item {i} out of range"))?;
            if std::mem::replace(slot, true) {
                return Err(format!("item {i} appears twice"));
            }
        }
        if !self.stack.is_empty() {
            return Err("work left on the stack".into());
        }
        if self.stats.largest > self.items.len() {
            return Err("largest group bigger than the input".into());
        }
        Ok(())
    }

    fn params(&self) -> Vec<Param> {
        let help = "Largest group left to brute force (≥ 1); lower splits deeper";
        vec![THRESHOLD.param(self.threshold as f32, help.into())]
    }

    fn set_param(&mut self, name: &str, value: f32) -> Result<(), ParamError> {
        if name != "threshold" {
            return Err(ParamError::unknown(self.kind(), name));
        }
        if !(1.0..=MAX_THRESHOLD as f32).contains(&value) || value.fract() != 0.0 {
            return Err(ParamError::Invalid(format!(
                "threshold must be a whole number in 1..={MAX_THRESHOLD}"
            )));
        }
        self.threshold = value as usize;
        Ok(())
    }

    fn stats(&self) -> Vec<(&'static str, String)> {
        let s = &self.stats;
        vec![
            ("groups", s.finals.to_string()),
            ("largest group", s.largest.to_string()),
            ("depth reached", s.depth.to_string()),
            ("groups without a ball", s.dropped.to_string()),
            ("boundaries sorted", s.boundaries.to_string()),
            ("sort comparisons", s.comparisons.to_string()),
            ("static tree nodes", self.statics.nodes().len().to_string()),
            (
                "statics near a group",
                self.static_hit.iter().filter(|&&h| h).count().to_string(),
            ),
            ("static tree tests", s.static_tree_tests.to_string()),
            ("static × ball tests", s.static_ball_tests.to_string()),
        ]
    }

    /// Intermediate groups in grey, final groups filled in palette colours, groups without a
    /// ball faint; statics found by a group's box outlined in white.
    fn debug_draw(&self, draw: &mut dyn DebugDraw) {
        for (s, _) in self.static_hit.iter().enumerate().filter(|(_, &h)| h) {
            draw.draw(Prim::Rect {
                aabb: self.static_boxes[s],
                fill: None,
                stroke: Some(Rgba(1.0, 1.0, 1.0, 0.5)),
            });
        }
        let mut colour = 0;
        for g in &self.groups {
            let prim = match g.fate {
                Fate::Split => Prim::Rect {
                    aabb: g.aabb,
                    fill: None,
                    stroke: Some(Rgba(0.6, 0.6, 0.6, 0.6 / (1.0 + g.depth as f32 * 0.3))),
                },
                Fate::NoBall => Prim::Rect {
                    aabb: g.aabb,
                    fill: None,
                    stroke: Some(Rgba(0.4, 0.4, 0.4, 0.35)),
                },
                Fate::Final => {
                    colour += 1;
                    let c = Rgba::palette(colour);
                    Prim::Rect {
                        aabb: g.aabb,
                        fill: Some(c.with_alpha(0.12)),
                        stroke: Some(c),
                    }
                }
            };
            draw.draw(prim);
        }
    }
}

#[cfg(test)]
mod tests;
