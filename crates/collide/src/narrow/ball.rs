//! Ball against ball.

use super::{normalized_or, Contact};
use glam::Vec2;

/// Contact of ball 1 (`c1`, `r1`) with ball 2 (`c2`, `r2`); the normal points from 2 to 1.
/// Coincident centres get the normal +y.
pub fn contact_ball_ball(c1: Vec2, r1: f32, c2: Vec2, r2: f32) -> Option<Contact> {
    let d = c1 - c2;
    let reach = r1.max(0.0) + r2.max(0.0);
    let dist_sq = d.length_squared();
    if dist_sq >= reach * reach {
        return None;
    }
    let normal = normalized_or(d, Vec2::Y);
    Some(Contact {
        point: c2 + normal * r2.max(0.0),
        normal,
        depth: reach - dist_sq.sqrt(),
    })
}
