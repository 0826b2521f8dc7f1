//! What a narrow-phase test answers ([`Contact`], and [`Impact`] for a swept test), and the two
//! vector helpers every test shares.

use glam::Vec2;

/// A contact between a ball and another shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Contact point on the other shape (px).
    pub point: Vec2,
    /// Unit normal from the other shape towards the ball.
    pub normal: Vec2,
    /// Penetration depth (px), at least 0.
    pub depth: f32,
}

/// A swept test's answer: the first moment of contact along a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// Fraction of the move at the impact, in `[0, 1]`.
    pub t: f32,
    /// The contact at that moment (depth 0 unless the ball started overlapping).
    pub contact: Contact,
}

/// The point of segment `a`–`b` closest to `p`.
pub(crate) fn closest_on_segment(p: Vec2, a: Vec2, b: Vec2) -> Vec2 {
    let ab = b - a;
    let len_sq = ab.length_squared();
    if len_sq <= f32::MIN_POSITIVE {
        return a;
    }
    a + ab * ((p - a).dot(ab) / len_sq).clamp(0.0, 1.0)
}

/// Unit vector of `d`, or `fallback` when `d` is zero or not finite (keeps NaN out).
#[inline]
pub(crate) fn normalized_or(d: Vec2, fallback: Vec2) -> Vec2 {
    let len_sq = d.length_squared();
    if len_sq > f32::MIN_POSITIVE && len_sq.is_finite() {
        d / len_sq.sqrt()
    } else {
        fallback
    }
}
