//! # collide — the headless core of the Collision Math Toy
//!
//! Shapes (point, segment, circle, arc, gate, rectangles, groups in hulls, ball), narrow-phase
//! contact and swept tests, broad-phase algorithms behind one trait, collision response, the
//! tunnelling modes, a scene's rules and a fixed-step [`World`].
//!
//! The library never draws, reads input or the screen, and keeps all randomness in a seeded
//! generator: the same scene, seed and inputs give the same state, bit for bit.
//!
//! ```
//! use collide::prelude::*;
//! let scene = Scene::builtin("table").expect("a built-in scene");
//! let mut world = scene.build(1); // the seed of the world's random numbers
//! world.set_broad_phase(BroadKind::Grid); // any broad phase: same pairs, same run
//! world.launch(5); // queued; they enter up the lane one at a time
//! for _ in 0..2 * world.steps_per_second() {
//!     world.step(); // two simulated seconds
//! }
//! assert_eq!(world.balls().len(), 5);
//! assert!(world.all_finite());
//! ```
//!
//! Where things are: [`geom`] (boxes, shapes, the ball, hulls, guard points), [`narrow`] (one
//! file per shape pair: `contact_ball_*`, `toi_ball_*`), [`broad`] (the [`BroadPhase`] trait
//! and eight algorithms), [`world`] (the [`World`] and its step, the solvers, sleep, the pair
//! cache, the balls' ids), [`rules`] (strings, friction, pockets, rain, pinball), [`scene`]
//! (the RON scene format, the built-in scenes, the editor's edits), [`record`] (record and
//! replay), [`tunnel`]; the response, the [`Stepper`], the [`Energy`] meter and the
//! [`DebugDraw`] hook are private modules whose items are at the root. [`prelude`] brings in
//! what a program that builds and runs a world needs.
//!
//! The test harness (the promises as checks, the source documents' experiments, seeded
//! tunnelling shots and broad-phase scenarios) is the sibling crate `collide-lab`, and the
//! scene editor's edits are the sibling crate `collide-edit`, and the record-and-replay
//! tape is `collide-replay`, all built on this crate's public interface.
#![warn(missing_docs)]

mod balls;
pub mod broad;
mod debug_draw;
mod energy;
pub mod geom;
pub mod narrow;
pub mod record;
mod response;
pub mod rules;
pub mod scene;
mod stepper;
mod summary;
pub mod tunnel;
mod workers;
pub mod world;

/// What a program that loads a scene, runs a world and reads it back needs:
/// `use collide::prelude::*;`.
pub mod prelude {
    pub use crate::{
        Ball, BallId, BroadKind, Input, Scene, Settings, Solver, Stepper, Tunnelling, Vec2, World,
    };
}

pub use broad::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair, ParamError};
pub use debug_draw::{DebugDraw, Prim, Rgba};
pub use energy::Energy;
pub use geom::{Aabb, Ball, Control, Geometry, Motion, Shape};
pub use glam::Vec2;
pub use narrow::Contact;
pub use record::{Input, InputError, Recording, SaveError, SavedState};
pub use rules::PlayState;
pub use scene::{Scene, SceneError};
pub use stepper::Stepper;
pub use summary::summary;
pub use tunnel::Tunnelling;
pub use world::{
    BallId, Counters, OverlapMeter, Settings, SleepSettings, SoftSettings, Solver, StaleBall,
    StateError, World, WorldState,
};
