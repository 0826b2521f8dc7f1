//! Narrow phase: one function per shape pair, each returning the contact (if any) of a ball
//! with one other shape. A miss is `None`.
//!
//! Convention: `normal` is a unit vector pointing from the other shape towards the ball (the
//! direction to push the ball out), `point` is the contact point on the other shape, and
//! `depth >= 0` is how far the ball must move along `normal` to just touch. A contact exists
//! only when the distance is strictly less than the radius (touching exactly is a miss).
//! No function ever returns a non-finite value, whatever its input (zero lengths, zero radii,
//! coincident centres).

mod arc;
mod ball;
mod circle;
mod gate;
mod point;
mod segment;

pub use arc::contact_ball_arc;
pub use ball::contact_ball_ball;
pub use circle::contact_ball_circle;
pub use gate::contact_ball_gate;
pub use point::contact_ball_point;
pub use segment::contact_ball_segment;

use crate::geom::Geometry;
use glam::Vec2;

/// A contact between a ball and another shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Contact point on the other shape (px).
    pub point: Vec2,
    /// Unit normal from the other shape towards the ball.
    pub normal: Vec2,
    /// Penetration depth (px), at least 0.
    pub depth: f32,
}

/// The contact of a ball (centre `c`, radius `r`, velocity `v` relative to the shape, px/s)
/// with an obstacle's geometry. The velocity matters only for gates.
pub fn contact_ball_shape(c: Vec2, r: f32, v: Vec2, geom: &Geometry) -> Option<Contact> {
    match *geom {
        Geometry::Point { p } => contact_ball_point(c, r, p),
        Geometry::Segment { a, b } => contact_ball_segment(c, r, a, b),
        Geometry::Circle { c: cc, r: cr } => contact_ball_circle(c, r, cc, cr),
        Geometry::Arc {
            c: ac,
            r: ar,
            start,
            end,
        } => contact_ball_arc(c, r, ac, ar, start, end),
        Geometry::Gate {
            a,
            b,
            normal,
            threshold,
        } => contact_ball_gate(c, r, v, a, b, normal, threshold),
    }
}

/// Unit vector of `d`, or `fallback` when `d` is zero or not finite (keeps NaN out).
#[inline]
pub(crate) fn normalized_or(d: Vec2, fallback: Vec2) -> Vec2 {
    let len_sq = d.length_squared();
    if len_sq > f32::MIN_POSITIVE && len_sq.is_finite() {
        d / len_sq.sqrt()
    } else {
        fallback
    }
}
