//! Swept ball against ball, both moving: the relative-motion trick (Schwarzl 2012). Subtract ball 2's
//! move from both: ball 2 stands still, ball 1 moves by the difference, and their relative
//! motion is unchanged. Then the circle-absorbs-the-ball trick makes it a point against a
//! circle of the summed radii (Schwarzl 2012, "When Both Objects Move").

use super::crossing::first_within;
use super::Impact;
use glam::Vec2;

/// First impact of ball 1 (centre `c1`, radius `r1`, moving by `d1`) with ball 2 (`c2`, `r2`,
/// moving by `d2`) over the same time, as a fraction of it. The normal points from ball 2 to
/// ball 1 and the point is on ball 2, both at the moment of impact.
pub fn toi_ball_ball(c1: Vec2, r1: f32, d1: Vec2, c2: Vec2, r2: f32, d2: Vec2) -> Option<Impact> {
    let r2 = r2.max(0.0);
    let big = r1.max(0.0) as f64 + r2 as f64;
    // The relative position and move in f64, where the differences are exact.
    let m = c1.as_dvec2() - c2.as_dvec2();
    let d = d1.as_dvec2() - d2.as_dvec2();
    let (t, normal, depth) = first_within(m, d, big)?;
    Some(Impact::at(t, c2 + d2 * t + normal * r2, normal, depth))
}
