//! Scene files: a serde description of a table (RON), validated and built into a
//! [`World`](crate::World).
//!
//! Angles in scene files are in degrees; the library works in radians. Every segment and arc
//! end gets a guard point (one per distinct position, moving with its shape), so a ball
//! hitting an end bounces off the end. Errors name the file, line, column and field.
//!
//! A `Group` is one object made of several shapes, built into one obstacle whose members the
//! world keeps; its members get their own guard points and move with the group.

mod build;
mod builtin;
mod check;
mod desc;
mod extras;
mod file;
mod kind;
mod locate;
mod text;
mod validate;
mod write;

pub use builtin::{builtin, not_built_in, BUILTIN};
pub use desc::{check_motion, MotionDesc, ScoreDesc, ShapeDesc, ShapeKind};
pub use extras::{BallDesc, FillDesc, PocketDesc, RainDesc, SettingsDesc};
pub(crate) use file::MAX_SHAPES;
pub use file::{LaunchDesc, PinballDesc, Scene, SceneError};
pub use kind::FileKind;
