//! Geometry: axis-aligned boxes and the shapes balls collide with.

mod aabb;
mod shape;

pub use aabb::Aabb;
pub use shape::{Geometry, Motion, Shape};
