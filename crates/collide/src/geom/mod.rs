//! Geometry: axis-aligned boxes, the ball, the shapes balls collide with, rectangles, hulls
//! and groups.

mod aabb;
pub mod angle;
mod ball;
mod control;
mod group;
mod guard;
mod hull;
mod outline;
mod rect;
mod shape;

pub use aabb::Aabb;
pub(crate) use ball::clamp_speed;
pub use ball::Ball;
pub use control::Control;
pub use group::Group;
pub(crate) use guard::add_guard_points;
pub use hull::{Hull, HullKind};
pub use outline::Outline;
pub use rect::oriented_rect_corners;
pub(crate) use rect::{oriented_rect_aabb, unrotated};
pub(crate) use shape::arc_is_closed;
pub use shape::{Geometry, Motion, Shape};
