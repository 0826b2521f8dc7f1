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
    // The normal is the segment's unit perpendicular, not the direction from the closest
    // point: far from `a` that point carries the rounding of `a + ab·t`, which tilts a
    // direction taken from it (by 1e-4 rad at 4000 px), enough to spoil a grazing bounce.
    let n = normalized_or(ab.perp(), Vec2::Y);
    let s = (c - a).dot(n);
    if s * s >= r * r {
        return None;
    }
    Some(Contact {
        point: a + ab * t,
        normal: if s < 0.0 { -n } else { n },
        depth: r - s.abs(),
    })
}
