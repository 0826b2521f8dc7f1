//! Ball against the interior of a segment. The ends are guard points (see the scene builder),
//! so a ball whose centre projects outside the segment is a miss here.

use super::{contact_ball_point, normalized_or, Contact};
use glam::Vec2;

/// Contact of the ball (centre `c`, radius `r`) with the segment `a`–`b`.
/// A zero-length segment behaves as a point; a negative radius counts as zero.
pub fn contact_ball_segment(c: Vec2, r: f32, a: Vec2, b: Vec2) -> Option<Contact> {
    let r = r.max(0.0);
    let ab = b - a;
    let len_sq = ab.length_squared();
    if len_sq <= f32::MIN_POSITIVE {
        return contact_ball_point(c, r, a);
    }
    // t = (c - a)·ab / |ab|²: the projection parameter; outside [0, 1] is an end's business.
    let t = (c - a).dot(ab) / len_sq;
    if !(0.0..=1.0).contains(&t) {
        return None;
    }
    let q = a + ab * t;
    let d = c - q;
    let dist_sq = d.length_squared();
    if dist_sq >= r * r {
        return None;
    }
    let normal = normalized_or(d, normalized_or(ab.perp(), Vec2::Y));
    Some(Contact {
        point: q,
        normal,
        depth: r - dist_sq.sqrt(),
    })
}
