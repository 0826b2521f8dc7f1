//! What a step hands its stages: the step's inputs and outputs ([`StepContext`]: the length
//! of the step, a snapshot of the settings, the step's number, the tally of its work and the
//! hits it records) and the world as a stage may touch it ([`Frame`]: the obstacles to read,
//! the balls to move). Stages take these as arguments; none holds the world itself.

use super::settings::Settings;
use super::Tally;
use crate::geom::{Aabb, Group, Shape};
use crate::response::{kept, Hit, Struck};

/// The inputs and outputs of one step.
pub(super) struct StepContext {
    /// Length of the step (s).
    pub(super) dt: f32,
    /// The settings as the step began.
    pub(super) settings: Settings,
    /// The world's step count before this step (the hits' step).
    pub(super) step: u64,
    /// The work of this step.
    pub(super) tally: Tally,
    /// The hits recorded since the last drain, this step's from `first_hit` on (once the
    /// collisions are over, `World::measure_rebounds`).
    pub(super) hits: Vec<Hit>,
    pub(super) first_hit: usize,
    /// This step's hits during the collisions, their balls by place.
    pub(super) struck: Vec<Struck>,
    /// The world's clock (ns), for the profile; `None` leaves it at zero.
    pub(super) clock: Option<fn() -> u64>,
}

impl StepContext {
    /// The context of a step of `dt` seconds, numbered `step`, after the hits kept so far.
    pub(super) fn new(dt: f32, settings: Settings, step: u64, hits: Vec<Hit>) -> Self {
        Self {
            dt,
            settings,
            step,
            tally: Tally::default(),
            first_hit: hits.len(),
            hits,
            struck: Vec::new(),
            clock: None,
        }
    }

    /// The clock now (ns), or 0 without one.
    pub(super) fn now(&self) -> u64 {
        self.clock.map_or(0, |c| c())
    }

    /// Nanoseconds since `t0` (a [`StepContext::now`]), and the clock now.
    pub(super) fn lap(&self, t0: u64) -> (u64, u64) {
        let t = self.now();
        (t.saturating_sub(t0), t)
    }

    /// Keeps `hit` when it is fast enough to show and the hits have room (see [`kept`]).
    pub(super) fn record(&mut self, hit: Struck) {
        if kept(hit.speed, self.hits.len() + self.struck.len()) {
            self.struck.push(hit);
        }
    }

    /// Collision iterations to run (1 to 64).
    pub(super) fn iterations(&self) -> u32 {
        self.settings.collision_iterations.clamp(1, 64)
    }
}

/// The world's generator: ChaCha12, the algorithm of rand 0.8's `StdRng` (same stream for a
/// seed), named directly so its position can be saved and restored (`world/state.rs`).
pub(super) type WorldRng = rand_chacha::ChaCha12Rng;

/// How one broad-phase call runs: through the pair cache or not, the step's length (the
/// cache's margins), and the settings that govern it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Query {
    pub(super) cached: bool,
    pub(super) dt: f32,
    pub(super) pair_cache: bool,
    pub(super) verify: bool,
    /// The simulated second the step is in (the probe's heat sums by it).
    pub(super) second: u64,
    /// Threads the broad phase may use (`Settings::threads`).
    pub(super) threads: usize,
    /// The world's clock, which times the broad phase.
    pub(super) clock: Option<fn() -> u64>,
}

/// The world as a stage sees it during a step: obstacles to read, balls to move.
pub(super) struct Frame<'a> {
    pub(super) shapes: &'a [Shape],
    pub(super) groups: &'a [Group],
    /// Index of the first kinematic shape.
    pub(super) first_moving: usize,
    /// The play area (px).
    pub(super) bounds: Aabb,
    pub(super) balls: &'a mut super::BallSet,
}

impl StepContext {
    /// How a broad-phase call of this step runs, through the pair cache if `cached`.
    pub(super) fn query(&self, cached: bool) -> Query {
        Query {
            cached,
            dt: self.dt,
            pair_cache: self.settings.pair_cache,
            verify: self.settings.verify,
            second: self.step / (60 * self.settings.motion_iterations.clamp(1, 64)) as u64,
            threads: self.settings.threads,
            clock: self.clock,
        }
    }
}

/// The [`Frame`] of world `$w`: its obstacles to read, its balls to move (a macro, so the
/// borrows stay apart from the world's other fields).
macro_rules! frame {
    ($w:expr) => {
        $crate::world::context::Frame {
            shapes: &$w.shapes,
            groups: &$w.groups,
            first_moving: $w.first_moving,
            bounds: $w.bounds,
            balls: &mut $w.balls,
        }
    };
}
pub(super) use frame;

/// The balls and moving obstacles a saved frame in progress is read against.
#[derive(Clone, Copy)]
pub(super) struct FrameOf<'a> {
    pub(super) balls: &'a crate::balls::BallSet,
    pub(super) moving: &'a [crate::geom::Shape],
    pub(super) n_shapes: usize,
}
