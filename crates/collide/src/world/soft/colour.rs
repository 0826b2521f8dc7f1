//! The order the lanes are solved in: the plan.
//!
//! Sequential: every contact in the order of its pair, one range, as the soft step has
//! always solved them.

use std::ops::Range;

/// What a range of lanes holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Any contacts, solved one after another (the overflow, or the sequential plan).
    Mixed,
}

/// A run of lanes the solver visits as one.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct LaneRange {
    pub(super) kind: Kind,
    pub(super) lanes: Range<usize>,
}

/// The contacts in solve order (`u32::MAX` for a padding lane) and the ranges they form.
#[derive(Clone, Debug, Default)]
pub(super) struct Plan {
    pub(super) order: Vec<u32>,
    pub(super) ranges: Vec<LaneRange>,
}

impl Plan {
    /// Every one of `n` contacts in pair order, one mixed range.
    pub(super) fn sequential(&mut self, n: usize) {
        self.order.clear();
        self.order.extend(0..n as u32);
        self.ranges.clear();
        self.ranges.push(LaneRange {
            kind: Kind::Mixed,
            lanes: 0..n,
        });
    }
}
