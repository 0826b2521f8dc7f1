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
mod info;
pub(crate) mod packed;
mod pair_keys;
mod phase;
mod probe;
mod quadtree;
mod radix;
mod rdc;
mod rule;
mod sap;
mod sectors;
mod tree;

pub use brute::brute_pairs;
pub use info::{BroadInfo, ParamInfo, Places};
pub use phase::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair, Param, ParamError};
pub use probe::{brute_force_share, brute_force_tests, Heat, Place, Probe, Share, Visit};
pub use rule::{BallSizes, Rule, RuleValues};

// The list of kinds: every algorithm's declaration, read by every algorithm
// (`BroadPhase::kind`) and by whatever names, colours or sizes one.
impl BroadKind {
    /// Every algorithm, in menu order.
    pub const ALL: &'static [BroadKind] = &[
        BroadKind::Brute,
        BroadKind::Quadtree,
        BroadKind::Sectors,
        BroadKind::Adjacent,
        BroadKind::Grid,
        BroadKind::Rdc,
        BroadKind::Sap,
        BroadKind::Tree,
    ];

    /// What the algorithm declares about itself, in its own file.
    pub fn describe(self) -> &'static BroadInfo {
        match self {
            BroadKind::Brute => &brute::DESCRIPTION,
            BroadKind::Quadtree => &quadtree::DESCRIPTION,
            BroadKind::Sectors => &sectors::DESCRIPTION,
            BroadKind::Adjacent => &adjacent::DESCRIPTION,
            BroadKind::Grid => &grid::DESCRIPTION,
            BroadKind::Rdc => &rdc::DESCRIPTION,
            BroadKind::Sap => &sap::DESCRIPTION,
            BroadKind::Tree => &tree::DESCRIPTION,
        }
    }

    /// A new instance with default parameters.
    pub fn create(self) -> Box<dyn BroadPhase> {
        (self.describe().create)()
    }

    /// Command-line name (also the name in files).
    pub fn name(self) -> &'static str {
        self.describe().name
    }

    /// Menu label.
    pub fn label(self) -> &'static str {
        self.describe().label
    }

    /// Looks up a command-line name.
    pub fn from_name(name: &str) -> Option<BroadKind> {
        Self::ALL.iter().copied().find(|k| k.name() == name)
    }

    /// The rule of thumb of the parameter `param` for the balls `b`; `None` for a parameter
    /// this algorithm does not have.
    pub fn rule(self, param: &str, b: &BallSizes) -> Option<Rule> {
        let info = self.describe().params.iter().find(|p| p.name == param);
        info.map(|p| p.rule(b))
    }
}
