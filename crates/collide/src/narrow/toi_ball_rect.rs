//! Swept ball against a solid rectangle: the earliest of its four faces (as segments whose
//! ends are left out) and its four corners (as points). Oriented rectangles run the same test
//! in their own frame.

use super::{contact_ball_rect, toi_ball_point, toi_ball_segment, Impact};
use crate::geom::angle;
use crate::geom::unrotated;
use glam::Vec2;

/// First impact of the ball (centre `c`, radius `r`) moving by `d` with the box `[min, max]`,
/// as a fraction of the move. A ball already in contact hits at `t = 0` if it moves in, and
/// never if it moves out (the box is convex: once leaving, it stays left).
pub(crate) fn toi_ball_rect(c: Vec2, r: f32, d: Vec2, min: Vec2, max: Vec2) -> Option<Impact> {
    if let Some(now) = contact_ball_rect(c, r, min, max) {
        return (d.dot(now.normal) < 0.0).then_some(Impact {
            t: 0.0,
            contact: now,
        });
    }
    let k = [min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)];
    let faces = (0..4).filter_map(|i| toi_ball_segment(c, r, d, k[i], k[(i + 1) % 4]));
    let corners = k.into_iter().filter_map(|p| toi_ball_point(c, r, d, p));
    faces
        .chain(corners)
        .reduce(|best, h| if h.t < best.t { h } else { best })
}

/// First impact of the ball (centre `c`, radius `r`) moving by `d` with the rectangle of
/// centre `rc`, half extents `half`, turned by `angle` (rad).
pub(crate) fn toi_ball_oriented_rect(
    c: Vec2,
    r: f32,
    d: Vec2,
    rc: Vec2,
    half: Vec2,
    angle: f32,
) -> Option<Impact> {
    let rot = angle::from_angle(angle);
    let (lc, ld) = (unrotated(rot, c - rc), unrotated(rot, d));
    let mut hit = toi_ball_rect(lc, r, ld, -half.abs(), half.abs())?;
    hit.contact.point = rc + rot.rotate(hit.contact.point);
    hit.contact.normal = rot.rotate(hit.contact.normal);
    Some(hit)
}
