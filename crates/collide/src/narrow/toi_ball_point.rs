//! Swept ball against a point: the first moment the moving centre comes within the radius
//! (the quadratic of [`super::crossing`], solved without cancellation).

use super::crossing::first_within;
use super::{Contact, Impact};
use glam::Vec2;

/// First impact of the ball (centre `c`, radius `r`) moving by `d` (px) with the point `p`,
/// as a fraction `t ∈ [0, 1]` of the move. A ball already touching and moving closer hits at
/// `t = 0` (depth > 0 when overlapping); a ball moving away never hits, nor does a ball
/// centred exactly on the point (it has no direction to be pushed).
pub(crate) fn toi_ball_point(c: Vec2, r: f32, d: Vec2, p: Vec2) -> Option<Impact> {
    let m = c.as_dvec2() - p.as_dvec2();
    let (t, normal, depth) = first_within(m, d.as_dvec2(), r.max(0.0) as f64)?;
    Some(Impact::at(t, p, normal, depth))
}

impl Impact {
    /// An impact at fraction `t` with the given contact.
    pub(crate) fn at(t: f32, point: Vec2, normal: Vec2, depth: f32) -> Impact {
        Impact {
            t,
            contact: Contact {
                point,
                normal,
                depth,
            },
        }
    }
}
