//! The world: obstacles, balls, the broad phase, and the fixed step.
//!
//! One [`World::step`] is one motion iteration of `1 / (60 · motion_iterations)` s:
//! launch a queued ball if the lane is clear, turn kinematic shapes, apply gravity and move the
//! balls (semi-implicit Euler), then `collision_iterations` times: box every shape, ask the
//! broad phase for candidate pairs (sorted), and for each pair run the narrow phase and the
//! response in that order (`world/push_out.rs`, or the soft contacts of `world/soft.rs`). The
//! scene's rules act at fixed moments of the step (`crate::rules`, through
//! `world/rules.rs`). Everything depends only on the scene, the seed and the settings.
//!
//! With a tunnelling mode other than [`Tunnelling::Off`](crate::Tunnelling::Off) the collision
//! iterations are swept instead (see `world/sweep.rs`): the broad phase boxes each ball's path
//! this step, each ball answers its earliest impact at the moment it happens and goes on for
//! the rest of the step, and iterations stop once no path changed. Shape groups are tested
//! hull first (`world/groups.rs`).

mod body;
mod cache;
mod contacts;
mod counters;
mod edit;
mod fill;
mod groups;
mod meter;
mod pairs;
mod push_out;
mod rules;
mod settings;
mod settle;
mod sleep;
mod sleepers;
mod soft;
mod state;
mod step;
mod sweep;

pub use crate::geom::{Ball, MAX_SPEED};
pub use crate::response::{Hit, HitWith, HIT_SPEED};
pub use contacts::KeptImpulse;
pub use counters::{Counters, OverlapMeter, Tally};
pub use fill::Filled;
pub use settings::{Settings, SleepSettings, SoftSettings, Solver};
pub use state::{RngState, StateError, WorldState};
pub use step::{Launcher, SweptImpact, World};
