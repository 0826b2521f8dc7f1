//! What every broad phase shares: the [`BroadPhase`] trait, what it reads
//! ([`BroadInput`]), what it returns ([`Pair`]s and [`BroadCounters`]) and its tunable
//! parameters ([`Param`], [`ParamError`]); and the menu of algorithms, [`BroadKind`].

use super::probe::Probe;
use crate::debug_draw::DebugDraw;
use crate::geom::Aabb;

/// A candidate pair `(i, j)`, `i < j`, indices into [`BroadInput::aabbs`].
pub type Pair = (u32, u32);

/// What a broad phase sees each collision iteration.
#[derive(Clone, Copy, Debug)]
pub struct BroadInput<'a> {
    /// Boxes of all shapes in the index layout described in the module docs.
    pub aabbs: &'a [Aabb],
    /// First kinematic shape; everything before it is static.
    pub first_moving: usize,
    /// First ball; everything before it is an obstacle.
    pub first_dynamic: usize,
    /// Changes whenever the static boxes (or their count) change: a structure that keeps
    /// statics between calls rebuilds them when this differs from what it saw last.
    pub statics_version: u64,
    /// The play area (px). Shapes may lie partly or wholly outside it.
    pub world: Aabb,
}

impl BroadInput<'_> {
    /// True when the pair `(i, j)` (`i < j`) is one the broad phase must report, given that
    /// the boxes overlap: `j` is a ball.
    #[inline(always)]
    pub(crate) fn wanted(&self, _i: usize, j: usize) -> bool {
        j >= self.first_dynamic
    }
}

/// Work done by one call of [`BroadPhase::find_pairs`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BroadCounters {
    /// Box overlap tests, including the structure's own (node tests, neighbour tests).
    pub aabb_tests: u64,
    /// Pairs reported (after removing repeats).
    pub pairs: u64,
    /// Pairs found more than once and dropped (multi-leaf or multi-shift repeats).
    pub repeats_dropped: u64,
}

impl std::ops::AddAssign for BroadCounters {
    fn add_assign(&mut self, o: Self) {
        self.aabb_tests += o.aabb_tests;
        self.pairs += o.pairs;
        self.repeats_dropped += o.repeats_dropped;
    }
}

/// A tunable number of an algorithm, shown as a slider in the app.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Key passed to [`BroadPhase::set_param`].
    pub name: &'static str,
    /// Current value.
    pub value: f32,
    /// Slider minimum.
    pub min: f32,
    /// Slider maximum.
    pub max: f32,
    /// Whole numbers only.
    pub integer: bool,
    /// One line on what it does and its rule (shown beside the slider).
    pub help: String,
}

/// A broad-phase algorithm.
///
/// ```
/// use collide::{Aabb, BroadCounters, BroadInput, BroadKind, Vec2};
/// // One static wall box, then three balls; the first two balls overlap.
/// let aabbs = [
///     Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(100.0, 2.0)),
///     Aabb::around(Vec2::new(10.0, 5.0), 4.0),
///     Aabb::around(Vec2::new(15.0, 5.0), 4.0),
///     Aabb::around(Vec2::new(60.0, 50.0), 4.0),
/// ];
/// let input = BroadInput {
///     aabbs: &aabbs,
///     first_moving: 1,
///     first_dynamic: 1,
///     statics_version: 1,
///     world: Aabb::new(Vec2::ZERO, Vec2::splat(100.0)),
/// };
/// for kind in BroadKind::ALL {
///     let mut broad = kind.create();
///     let (mut pairs, mut work) = (Vec::new(), BroadCounters::default());
///     broad.find_pairs(&input, &mut pairs, &mut work);
///     // Every algorithm: the wall with both low balls, and the two balls; sorted, each once.
///     assert_eq!(pairs, [(0, 1), (0, 2), (1, 2)], "{}", kind.name());
/// }
/// ```
pub trait BroadPhase: Send {
    /// Which algorithm this is.
    fn kind(&self) -> BroadKind;
    /// The one call every algorithm writes: clears `pairs` and fills it with the wanted
    /// overlapping pairs, sorted, each once; adds the work done to `counters`. With `probe`
    /// (emptied for this call by [`BroadPhase::find_pairs_probed`]), also gives every AABB
    /// test counted to the box the algorithm was working for, or to the structure (see
    /// [`Probe`]); the pairs and counters are the same either way.
    fn find_pairs_with(
        &mut self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
        probe: Option<&mut Probe>,
    );
    /// Lets the calls that follow use up to `threads` threads: the same pairs and counters
    /// on any number. Most broad phases run on one and ignore it; the grid searches its
    /// pairs on several.
    fn set_threads(&mut self, _threads: usize) {}
    /// [`BroadPhase::find_pairs_with`] without a record.
    fn find_pairs(
        &mut self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
    ) {
        self.find_pairs_with(input, pairs, counters, None);
    }
    /// [`BroadPhase::find_pairs`], the same pairs and counters, with a per-ball record of the
    /// work in `probe` (emptied first): every AABB test counted is given to the box the
    /// algorithm was working for, or to the structure (see [`Probe`]).
    fn find_pairs_probed(
        &mut self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
        probe: &mut Probe,
    ) {
        probe.begin(input.aabbs.len());
        self.find_pairs_with(input, pairs, counters, Some(&mut *probe));
        probe.finish(pairs);
    }
    /// Checks the structure's invariants as left by the last `find_pairs`.
    fn validate(&self) -> Result<(), String>;
    /// The algorithm's parameters.
    fn params(&self) -> Vec<Param> {
        Vec::new()
    }
    /// Sets a parameter; a value that breaks the algorithm's rule is refused with the reason.
    fn set_param(&mut self, name: &str, _value: f32) -> Result<(), ParamError> {
        Err(ParamError::unknown(self.kind(), name))
    }
    /// Read-outs of the structure for the panel, as (label, value).
    fn stats(&self) -> Vec<(&'static str, String)> {
        Vec::new()
    }
    /// Draws the structure as left by the last `find_pairs`.
    fn debug_draw(&self, _draw: &mut dyn DebugDraw) {}
}

/// Why a broad phase refused a parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamError {
    /// The algorithm has no parameter of that name.
    Unknown {
        /// The algorithm's label ([`BroadKind::label`]).
        phase: &'static str,
        /// The name asked for.
        name: String,
    },
    /// The value breaks the parameter's rule, which the message states.
    Invalid(String),
}

impl ParamError {
    /// `name` is not a parameter of `kind`.
    pub(crate) fn unknown(kind: BroadKind, name: &str) -> Self {
        ParamError::Unknown {
            phase: kind.label(),
            name: name.to_string(),
        }
    }
}

impl std::fmt::Display for ParamError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParamError::Unknown { phase, name } => write!(f, "{phase} has no parameter {name:?}"),
            ParamError::Invalid(rule) => f.write_str(rule),
        }
    }
}

impl std::error::Error for ParamError {}

/// The algorithms, for menus and the command line. What each says about itself (name,
/// label, colour, parameters) is its declaration, [`BroadKind::describe`]; the list of
/// them is [`BroadKind::ALL`] (`broad/mod.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BroadKind {
    /// Every ball against every shape.
    Brute,
    /// The original toy's array quadtree.
    Quadtree,
    /// Sectors with four shifts (1994).
    Sectors,
    /// One sector grid, each sector with its eight neighbours (the 1994 post's comparison).
    Adjacent,
    /// Uniform grid: own cell and half the neighbours, statics kept between calls.
    Grid,
    /// Recursive dimensional clustering: split on x, y, x … where intervals leave gaps.
    Rdc,
    /// Sweep and prune on one axis with a persistent insertion-sorted order.
    Sap,
    /// A dynamic AABB tree of fattened boxes, refit incrementally.
    Tree,
}
