//! The world: obstacles, balls, the broad phase, and the fixed step.
//!
//! One [`World::step`] is one motion iteration of `1 / (60 · motion_iterations)` s, and
//! `step()` (`world/step.rs`) is the list of its stages, in order; every stage is called from
//! there only and owns its state in its own file. Launch a queued ball if the lane is clear
//! (`launch.rs`), turn kinematic shapes, box the obstacles once (they move only before this
//! point), wake the sleepers a moving shape reaches (`sleep.rs`), then one of two solvers:
//!
//! - the push-out (`push_out.rs`): gravity and semi-implicit Euler, then
//!   `collision_iterations` times: box the balls and ask the broad phase for candidate pairs
//!   (`pairs.rs`), and answer each pair in order with the narrow phase and the response; then
//!   the walls' last word (discrete) or the settling of overlaps (swept modes, `settle.rs`);
//! - the soft contacts (`soft/`): gravity, one broad-phase call with speculative boxes, and
//!   the solver's passes.
//!
//! Then the rebound speeds of the step's hits, the scene's rules at their moment
//! (`crate::rules`, through `rules.rs`, also at fixed moments before), sleep (`sleep.rs`) and
//! the counters; at the end of each frame the touching contacts (the contact list's frame's
//! end, `narrow_stage.rs`, over the pairs `pairs.rs` finds) and the overlap meter that reads
//! them (`meter.rs`). The step's inputs and outputs travel in a
//! `StepContext` (`context.rs`). Everything depends only on the scene, the seed and the
//! settings.
//!
//! With a tunnelling mode other than [`Tunnelling::Off`](crate::Tunnelling::Off) the collision
//! iterations are swept instead (see `world/sweep.rs`): the broad phase boxes each ball's path
//! this step, each ball answers its earliest impact at the moment it happens and goes on for
//! the rest of the step, and iterations stop once no path changed. Shape groups are tested
//! hull first, in the narrow phase (`narrow/group.rs`).

mod access;
mod body;
mod cache;
mod contacts;
mod context;
mod counters;
mod edit;
mod fill;
mod filled;
mod groups;
mod islands;
mod launch;
mod meter;
mod narrow_stage;
mod pairs;
mod probing;
mod profile;
mod push_out;
mod rules;
mod saved;
mod settings;
mod settle;
mod sleep;
mod sleeper_pairs;
mod soft;
mod state;
mod step;
mod sweep;

pub(crate) use crate::balls::BallSet;
pub use crate::balls::{BallId, SavedIds, StaleBall};
pub use crate::geom::Ball;
pub use crate::response::{ContactWith, Hit, HitWith};
pub use contacts::{ConstraintColour, KeptImpulse, SavedContact, SavedFrame, SolverContact};
pub use counters::{Counters, OverlapMeter, StageNanos, Tally};
pub use filled::{Filled, Shortfall};
pub use islands::Island;
pub use launch::Launcher;
pub use narrow_stage::{FrameEndContacts, PairContact};
pub use probing::{FocusRecord, ProbeAsk, ProbeRecord};
pub use profile::{Spread, StageThreads, StageTime, SLOTS};
pub use saved::{SavedBall, SavedShape};
pub use settings::{Settings, SleepSettings, SoftSettings, Solver, PARALLEL_FROM};
pub use soft::{soft_kernel, soft_kernels_agree, KernelCheck};
pub use state::{RngState, StateError, WorldState};
pub use step::World;
pub use sweep::SweptImpact;
