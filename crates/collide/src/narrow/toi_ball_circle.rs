//! Swept ball against a solid circle: the "circle absorbs the ball" trick (Schwarzl 2012). Shrink the
//! ball to its centre and grow the circle by the ball's radius; the centre's path is a
//! segment, and the test is point against the grown circle, exact (Schwarzl 2012,
//! `moving_circle_circle_collide`).

use super::crossing::first_within;
use super::Impact;
use glam::Vec2;

/// First impact of the ball (centre `c`, radius `r`) moving by `d` with the circle (`cc`,
/// `cr`), as a fraction of the move; the contact point is on the circle.
pub(crate) fn toi_ball_circle(c: Vec2, r: f32, d: Vec2, cc: Vec2, cr: f32) -> Option<Impact> {
    let cr = cr.max(0.0);
    let big = r.max(0.0) as f64 + cr as f64;
    let (t, normal, depth) = first_within(c.as_dvec2() - cc.as_dvec2(), d.as_dvec2(), big)?;
    Some(Impact::at(t, cc + normal * cr, normal, depth))
}
