//! Broad phase: find every pair of shapes whose boxes overlap, cheaply.
//!
//! Every algorithm implements [`BroadPhase`] and must return exactly the pair set of
//! [`brute::BruteForce`]: each pair `(i, j)` once, `i < j`, the boxes overlapping (closed
//! intervals, so touching counts, see [`Aabb::overlaps`](crate::geom::Aabb::overlaps)), and `j` a dynamic shape (ball). The
//! list comes out sorted, so narrow phase and response see pairs in the same order whatever
//! produced them, and switching algorithm never changes the simulation.
//!
//! Index layout of [`BroadInput::aabbs`]: statics `[0, first_moving)`, kinematic shapes
//! `[first_moving, first_dynamic)`, balls `[first_dynamic, len)`. Pairs among non-dynamic
//! shapes are never wanted.

mod adjacent;
mod brute;
mod grid;
mod packed;
mod pair_keys;
mod phase;
mod probe;
mod quadtree;
mod radix;
mod rdc;
mod sap;
mod sectors;
mod tree;

pub use brute::brute_pairs;
pub use phase::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair, Param, ParamError};
pub use probe::{brute_force_share, brute_force_tests, Heat, Place, Probe, Share, Visit};

// The menu of algorithms is read by every algorithm (`BroadPhase::kind`); making one is here,
// beside the algorithms.
impl BroadKind {
    /// A new instance with default parameters.
    pub fn create(self) -> Box<dyn BroadPhase> {
        match self {
            BroadKind::Brute => Box::new(brute::BruteForce),
            BroadKind::Quadtree => Box::new(quadtree::QuadTree::default()),
            BroadKind::Sectors => Box::new(sectors::Sectors::default()),
            BroadKind::Adjacent => Box::new(adjacent::Adjacent::default()),
            BroadKind::Grid => Box::new(grid::Grid::default()),
            BroadKind::Rdc => Box::new(rdc::Rdc::default()),
            BroadKind::Sap => Box::new(sap::Sap::default()),
            BroadKind::Tree => Box::new(tree::AabbTree::default()),
        }
    }
}
