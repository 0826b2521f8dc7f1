//! Ball against a solid rectangle, axis-aligned or oriented. Corners need no guard points:
//! the closest point of the rectangle is a corner when the ball is off both faces.

use super::{normalized_or, Contact};
use crate::geom::angle;
use crate::geom::unrotated;
use glam::Vec2;

/// Contact of the ball (centre `c`, radius `r`) with the solid box `[min, max]` (px).
/// A centre inside the box is pushed out through the nearest face. A negative radius counts
/// as zero.
pub(crate) fn contact_ball_rect(c: Vec2, r: f32, min: Vec2, max: Vec2) -> Option<Contact> {
    let r = r.max(0.0);
    let q = c.clamp(min, max);
    let d = c - q;
    let dist_sq = d.length_squared();
    if dist_sq > 0.0 {
        // Early out: centre outside the box and at least `r` from it.
        if dist_sq >= r * r {
            return None;
        }
        return Some(Contact {
            point: q,
            normal: normalized_or(d, Vec2::Y),
            depth: r - dist_sq.sqrt(),
        });
    }
    Some(inside_box(c, r, min, max))
}

/// The contact of a centre inside the box: out through the nearest face.
fn inside_box(c: Vec2, r: f32, min: Vec2, max: Vec2) -> Contact {
    let faces = [
        (c.x - min.x, Vec2::NEG_X, Vec2::new(min.x, c.y)),
        (max.x - c.x, Vec2::X, Vec2::new(max.x, c.y)),
        (c.y - min.y, Vec2::NEG_Y, Vec2::new(c.x, min.y)),
        (max.y - c.y, Vec2::Y, Vec2::new(c.x, max.y)),
    ];
    let (gap, normal, point) = faces
        .into_iter()
        .reduce(|best, f| if f.0 < best.0 { f } else { best })
        .expect("four faces");
    Contact {
        point,
        normal,
        depth: r + gap.max(0.0),
    }
}

/// Contact of the ball (centre `c`, radius `r`) with the rectangle of centre `rc`, half
/// extents `half` turned by `angle` (rad): the box test in the rectangle's own frame.
pub(crate) fn contact_ball_oriented_rect(
    c: Vec2,
    r: f32,
    rc: Vec2,
    half: Vec2,
    angle: f32,
) -> Option<Contact> {
    let rot = angle::from_angle(angle);
    let local = unrotated(rot, c - rc);
    let hit = contact_ball_rect(local, r, -half.abs(), half.abs())?;
    Some(Contact {
        point: rc + rot.rotate(hit.point),
        normal: rot.rotate(hit.normal),
        depth: hit.depth,
    })
}
