//! Swept ball against a point: the first moment the moving centre comes within the radius.

use super::{normalized_or, Contact, Impact};
use glam::Vec2;

/// First impact of the ball (centre `c`, radius `r`) moving by `d` (px) with the point `p`,
/// as a fraction `t ∈ [0, 1]` of the move. A ball already touching and moving closer hits at
/// `t = 0` (depth > 0 when overlapping); a ball moving away never hits.
pub fn toi_ball_point(c: Vec2, r: f32, d: Vec2, p: Vec2) -> Option<Impact> {
    let r = r.max(0.0);
    let m = c - p;
    // |m + t·d|² = r²  ⇔  a·t² + 2b·t + k = 0, with a = d·d, b = m·d, k = m·m − r².
    let b = m.dot(d);
    let k = m.length_squared() - r * r;
    // Early out: moving away from the point (or not moving) never closes the gap.
    if b >= 0.0 {
        return None;
    }
    if k <= 0.0 {
        let normal = normalized_or(m, normalized_or(-d, Vec2::Y));
        let depth = r - m.length();
        return Some(Impact::at(0.0, p, normal, depth.max(0.0)));
    }
    let a = d.length_squared();
    let disc = b * b - a * k;
    // Early out: the line of motion passes farther than r from the point.
    if disc < 0.0 {
        return None;
    }
    // The smaller root, in the form without cancellation: t = k / (−b + √disc).
    let t = k / (-b + disc.sqrt());
    if !(t <= 1.0) {
        return None;
    }
    let normal = normalized_or(m + d * t, normalized_or(-d, Vec2::Y));
    Some(Impact::at(t, p, normal, 0.0))
}

impl Impact {
    /// An impact at fraction `t` with the given contact.
    pub fn at(t: f32, point: Vec2, normal: Vec2, depth: f32) -> Impact {
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
