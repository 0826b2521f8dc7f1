//! Narrow phase: one function per shape pair, each returning the contact (if any) of a ball
//! with one other shape. A miss is `None`.
//!
//! Convention: `normal` is a unit vector pointing from the other shape towards the ball (the
//! direction to push the ball out), `point` is the contact point on the other shape, and
//! `depth >= 0` is how far the ball must move along `normal` to just touch. A contact exists
//! only when the distance is strictly less than the radius (touching exactly is a miss).
//! No function ever returns a non-finite value, whatever its input (zero lengths, zero radii,
//! coincident centres).
//!
//! Swept tests (`toi_*`, one file each) take the ball's move `d` (px) over the step and return
//! the first [`Impact`]: the fraction `t ∈ [0, 1]` of the move and the contact at that moment
//! (depth 0, or the overlap when the ball starts in contact and moves in). They are exact, in
//! closed form; `search.rs` holds the generic linear and binary searches the tunnelling notes
//! compare them with. Their quadratics are solved in f64 without cancellation (see
//! `crossing.rs`), and
//! `checks::narrow` holds every test to an exact reference: no hit/miss disagreement beyond
//! `1e-4 · max(1, r)` px for a ball starting free, every impact within 0.01 px along the normal.
//!
//! Conventions where the answer is arbitrary:
//! - Coincident centres (ball on a point, on a circle's or another ball's centre): the contact
//!   normal is +y, and the swept test reports nothing (no direction to be pushed along).
//! - A centre exactly on a segment: the contact normal is the segment's left perpendicular
//!   (`(b − a).perp()`); the swept test counts it on the side it comes from.
//! - A centre inside a rectangle equally near two faces: the first of −x, +x, −y, +y wins.
//! - A centre at an arc's centre: the normal points at the middle of the sweep.
//! - A ball starting inside a guard point (or any point, circle or ball) and moving closer
//!   hits at `t = 0` with its overlap as depth; moving away (or standing still) it never hits.
//! - Touching exactly is a miss for the contact test, and the swept test then finds the
//!   impact at `t = 0` if the ball moves in; an arc asks which side of its ring the ball is on
//!   once, as its contact test does, so the two never disagree.
//! - An arc whose extent is a whole turn within rounding (`geom::arc_is_closed`) is
//!   a circle: no ends, no guard points, no seam.

use crate::geom::angle;

mod arc;
mod ball;
mod circle;
mod contact;
mod crossing;
mod gate;
mod group;
mod point;
mod rect;
pub(crate) mod search;
mod segment;
mod toi_ball_arc;
mod toi_ball_ball;
mod toi_ball_circle;
mod toi_ball_point;
mod toi_ball_rect;
mod toi_ball_segment;

pub(crate) use arc::angle_in_arc;
pub(crate) use arc::contact_ball_arc;
pub use ball::contact_ball_ball;
pub(crate) use circle::contact_ball_circle;
pub(crate) use contact::closest_on_segment;
pub(crate) use contact::normalized_or;
pub use contact::{Contact, Impact};
pub(crate) use gate::contact_ball_gate;
pub use group::GroupTests;
pub use group::{contact_ball_group, impact_ball_group};
pub(crate) use group::{impact_ball_obstacle, parts_of};
pub(crate) use point::contact_ball_point;
pub(crate) use rect::{contact_ball_oriented_rect, contact_ball_rect};
pub use search::binary_min_move;
pub(crate) use segment::contact_ball_segment;
pub(crate) use segment::{contact_ball_segment_fine, keep_side};
pub(crate) use toi_ball_arc::toi_ball_arc;
pub use toi_ball_ball::toi_ball_ball;
pub(crate) use toi_ball_circle::toi_ball_circle;
pub(crate) use toi_ball_point::toi_ball_point;
pub(crate) use toi_ball_rect::{toi_ball_oriented_rect, toi_ball_rect};
pub(crate) use toi_ball_segment::toi_ball_segment;

use crate::geom::{Geometry, Group, Shape};
use glam::Vec2;

/// [`contact_ball_shape`] with flat faces (segments, gates) measured in f64 where a long face
/// would round the distance (see [`contact_ball_segment_fine`]); the soft contacts' test.
pub(crate) fn contact_ball_shape_fine(
    c: Vec2,
    r: f32,
    v: Vec2,
    geom: &Geometry,
) -> Option<Contact> {
    let contact = contact_ball_shape(c, r, v, geom)?;
    match *geom {
        Geometry::Segment { a, b } | Geometry::Gate { a, b, .. } => {
            contact_ball_segment_fine(c, r, a, b).or(Some(contact))
        }
        _ => Some(contact),
    }
}

/// The contact of a ball (centre `c`, radius `r`, velocity `v` relative to the shape, px/s)
/// with an obstacle's geometry. The velocity matters only for gates. A group is a miss here:
/// its members live in the world; [`contact_ball_obstacle`] tests them after the hull.
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
        Geometry::Rect { min, max } => contact_ball_rect(c, r, min, max),
        Geometry::OrientedRect { c: rc, half, angle } => {
            contact_ball_oriented_rect(c, r, rc, half, angle)
        }
        Geometry::Group { .. } => None,
    }
}

/// The exact first impact of a ball (centre `c`, radius `r`) moving by `d` (px) with an
/// obstacle, `v` being the ball's velocity relative to it (px/s; it matters only for gates,
/// which let fast balls through). A group is a miss here, as in [`contact_ball_shape`].
pub fn toi_ball_shape(c: Vec2, r: f32, d: Vec2, v: Vec2, geom: &Geometry) -> Option<Impact> {
    match *geom {
        Geometry::Point { p } => toi_ball_point(c, r, d, p),
        Geometry::Segment { a, b } => toi_ball_segment(c, r, d, a, b),
        Geometry::Circle { c: cc, r: cr } => toi_ball_circle(c, r, d, cc, cr),
        Geometry::Arc {
            c: ac,
            r: ar,
            start,
            end,
        } => toi_ball_arc(c, r, d, ac, ar, start, end),
        Geometry::Gate {
            a,
            b,
            normal,
            threshold,
        } => {
            // Early out: fast enough against the normal to pass the gate.
            if -v.dot(normal) > threshold {
                return None;
            }
            toi_ball_segment(c, r, d, a, b)
        }
        Geometry::Rect { min, max } => toi_ball_rect(c, r, d, min, max),
        Geometry::OrientedRect { c: rc, half, angle } => {
            toi_ball_oriented_rect(c, r, d, rc, half, angle)
        }
        Geometry::Group { .. } => None,
    }
}

/// True when the circle (`m`, `big_r`) may touch the obstacle: exact for points, segments,
/// circles and rectangles (ends and corners included), the whole ring for an arc, the hull for
/// a group, and false for a gate the ball passes (velocity `v` relative to it). The binary
/// search's envelope test: it never says no to a circle that overlaps.
pub(crate) fn envelope_overlaps(m: Vec2, big_r: f32, v: Vec2, geom: &Geometry) -> bool {
    let big_r = big_r.max(0.0);
    let within = |q: Vec2| (m - q).length_squared() <= big_r * big_r;
    match *geom {
        Geometry::Point { p } => within(p),
        Geometry::Segment { a, b } => within(closest_on_segment(m, a, b)),
        Geometry::Circle { c, r } => (m - c).length() <= big_r + r.max(0.0),
        // The arc's whole ring: |dist − ar| ≤ R.
        Geometry::Arc { c, r, .. } => ((m - c).length() - r.max(0.0)).abs() <= big_r,
        Geometry::Gate {
            a,
            b,
            normal,
            threshold,
        } => -v.dot(normal) <= threshold && within(closest_on_segment(m, a, b)),
        Geometry::Rect { min, max } => within(m.clamp(min, max)),
        Geometry::OrientedRect { c, half, angle } => {
            let local = crate::geom::unrotated(angle::from_angle(angle), m - c);
            (local - local.clamp(-half.abs(), half.abs())).length_squared() <= big_r * big_r
        }
        Geometry::Group { hull, .. } => hull.overlaps_circle(m, big_r),
    }
}

/// The contact of a ball (centre `c`, radius `r`, velocity `v` relative to the obstacle) with
/// obstacle `shape`, a group answered by its deepest member (see [`contact_ball_group`]), and
/// the elasticity of what it touches.
pub(crate) fn contact_ball_obstacle(
    ball: (Vec2, f32, Vec2),
    shape: &Shape,
    groups: &[Group],
    tests: &mut GroupTests,
) -> Option<(Contact, f32)> {
    contact_ball_obstacle_by(ball, shape, groups, tests, contact_ball_shape)
}

/// [`contact_ball_obstacle`] with flat faces measured in f64 ([`contact_ball_shape_fine`]):
/// the soft contacts' test.
pub(crate) fn contact_ball_obstacle_fine(
    ball: (Vec2, f32, Vec2),
    shape: &Shape,
    groups: &[Group],
    tests: &mut GroupTests,
) -> Option<(Contact, f32)> {
    contact_ball_obstacle_by(ball, shape, groups, tests, contact_ball_shape_fine)
}

/// A narrow-phase test of a ball (centre, radius, velocity) against one geometry.
type ContactTest = fn(Vec2, f32, Vec2, &Geometry) -> Option<Contact>;

fn contact_ball_obstacle_by(
    ball: (Vec2, f32, Vec2),
    shape: &Shape,
    groups: &[Group],
    tests: &mut GroupTests,
    test: ContactTest,
) -> Option<(Contact, f32)> {
    let (c, r, v) = ball;
    match shape.geom {
        Geometry::Group { hull, .. } => {
            let contact = |g: &Geometry| test(c, r, v, g);
            contact_ball_group(c, r, &hull, parts_of(shape, groups), tests, contact)
        }
        ref g => test(c, r, v, g).map(|k| (k, shape.elasticity)),
    }
}
