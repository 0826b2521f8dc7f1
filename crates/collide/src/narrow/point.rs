//! Ball against a point (also the guard points at segment and arc ends).

use super::{normalized_or, Contact};
use glam::Vec2;

/// Contact of the ball (centre `c`, radius `r`) with the point `p`.
/// A negative radius counts as zero.
pub(crate) fn contact_ball_point(c: Vec2, r: f32, p: Vec2) -> Option<Contact> {
    let r = r.max(0.0);
    let d = c - p;
    let dist_sq = d.length_squared();
    // Early out: outside the ball (touching exactly is a miss).
    if dist_sq >= r * r {
        return None;
    }
    let dist = dist_sq.sqrt();
    Some(Contact {
        point: p,
        normal: normalized_or(d, Vec2::Y),
        depth: r - dist,
    })
}
