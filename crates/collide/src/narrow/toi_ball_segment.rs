//! Swept ball against the interior of a segment. As in the contact test, the ends belong to
//! guard points: a ball that reaches the segment's line outside its span is a miss here, and
//! its guard point's swept test finds the hit (it touches the end no later).

use super::{toi_ball_point, Impact};
use glam::Vec2;

/// First impact of the ball (centre `c`, radius `r`) moving by `d` with the segment `a`–`b`,
/// as a fraction of the move. A zero-length segment is a point. Thin walls cannot be
/// tunnelled: the test finds the moment the ball's edge reaches the line, however far the
/// move.
pub(crate) fn toi_ball_segment(c: Vec2, r: f32, d: Vec2, a: Vec2, b: Vec2) -> Option<Impact> {
    let r = r.max(0.0);
    let ab = b - a;
    let len_sq = ab.length_squared();
    if len_sq <= f32::MIN_POSITIVE || !len_sq.is_finite() {
        return toi_ball_point(c, r, d, a);
    }
    let n = ab.perp() / len_sq.sqrt();
    // Signed distance from the line now, and its change over the move.
    let (s0, ds) = ((c - a).dot(n), d.dot(n));
    // The side the ball is on; a centre on the line counts as on the side it comes from.
    let side = if s0 > 0.0 || (s0 == 0.0 && ds < 0.0) {
        1.0
    } else {
        -1.0
    };
    // Early out: not moving towards the line.
    if side * ds >= 0.0 {
        return None;
    }
    let gap = s0.abs() - r;
    // The edge reaches the line when the distance has shrunk by `gap`: t = gap / |ds|.
    let t = if gap <= 0.0 { 0.0 } else { gap / -(side * ds) };
    let within = t <= 1.0; // false for NaN too
    if !within {
        return None;
    }
    let u = (c + d * t - a).dot(ab) / len_sq;
    // Early out: the line is reached beside the segment; the guard points take it.
    if !(0.0..=1.0).contains(&u) {
        return None;
    }
    Some(Impact::at(t, a + ab * u, n * side, (-gap).max(0.0)))
}
