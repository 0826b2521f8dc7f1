//! Ball against a solid circle (bumpers), from outside.

use super::{normalized_or, Contact};
use glam::Vec2;

/// Contact of the ball (centre `c`, radius `r`) with the solid circle (`cc`, `cr`).
/// Negative radii count as zero.
pub(crate) fn contact_ball_circle(c: Vec2, r: f32, cc: Vec2, cr: f32) -> Option<Contact> {
    let d = c - cc;
    let reach = r.max(0.0) + cr.max(0.0);
    let dist_sq = d.length_squared();
    if dist_sq >= reach * reach {
        return None;
    }
    let normal = normalized_or(d, Vec2::Y);
    Some(Contact {
        point: cc + normal * cr.max(0.0),
        normal,
        depth: reach - dist_sq.sqrt(),
    })
}
