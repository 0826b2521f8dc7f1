//! Where a ball's straight move crosses a circle: the one quadratic of the swept point,
//! circle, ball–ball, guard-point, rectangle-corner and arc tests, solved without
//! cancellation.
//!
//! The centre moves as `m + t·d` relative to the circle's centre and is at distance `big` from
//! it when `a·t² + 2b·t + k = 0`, with `a = d·d`, `b = m·d`, `k = m·m − big²`. The textbook
//! discriminant `b² − a·k` subtracts two terms of size `|m|²|d|²` to leave one of size
//! `big²|d|²`: a 500 px move past a 0.1 px ball keeps no digit of it in f32, and impacts are
//! missed or found late. Lagrange's identity gives the same value as `a·big² − (m × d)²`, where
//! `|m × d| / |d|` is the distance of the line of the move from the centre (the origin moved to
//! the move's closest approach): no large terms cancel, and only a true graze stays
//! ill-conditioned. The inputs are f32 widened to f64, where a difference of two positions and
//! a product of two f32 are exact, so one rounding of 1e-16 remains. The roots are taken in the
//! forms that do not cancel either, `k / (−b ± √disc)` or `(−b ± √disc) / a` by the sign of `b`
//! (Ericson, Real-Time Collision Detection, 2005; Press et al., Numerical Recipes, 2007).
//! Cost: a dozen multiplications and one square root.

use glam::{DVec2, Vec2};

/// The times `(enter, leave)`, as fractions of the move, at which the centre `m + t·d` crosses
/// the circle of radius `big` about the origin; `None` when the line misses it or `d` is zero.
pub(crate) fn crossings(m: DVec2, d: DVec2, big: f64) -> Option<(f64, f64)> {
    let a = d.length_squared();
    // Early out: no motion, no line.
    if a.is_nan() || a <= 0.0 {
        return None;
    }
    let b = m.dot(d);
    let cross = m.perp_dot(d);
    let disc = a * big * big - cross * cross;
    // Early out: the line passes farther than `big` from the centre.
    if disc.is_nan() || disc < 0.0 {
        return None;
    }
    let k = m.length_squared() - big * big;
    let root = disc.sqrt();
    // The root whose terms add (`−b` and `±√disc` of one sign) is divided by `a`; the other is
    // `k` over it (the product of the roots is k / a).
    let q = if b <= 0.0 { -b + root } else { -b - root };
    if q == 0.0 {
        // A graze at the start itself: both roots are 0.
        return Some((0.0, 0.0));
    }
    let (near, far) = (k / q, q / a);
    Some(if b <= 0.0 { (near, far) } else { (far, near) })
}

/// The first impact of a centre `m` (from a circle's centre, px) moving by `d` with the circle
/// of radius `big`: the fraction of the move, the unit normal from the circle's centre towards
/// the ball's, and the depth (non-zero only when it starts inside and moves in). A centre
/// moving away from the circle's centre (or not moving) never hits. The swept point, circle and
/// ball–ball tests.
pub(crate) fn first_within(m: DVec2, d: DVec2, big: f64) -> Option<(f32, Vec2, f32)> {
    let b = m.dot(d);
    // Early out: moving away from the centre (or not moving) never closes the gap.
    if b.is_nan() || b >= 0.0 {
        return None;
    }
    let fallback = unit_or(-d, DVec2::Y);
    let k = m.length_squared() - big * big;
    if k <= 0.0 {
        let depth = (big - m.length()).max(0.0);
        return Some((0.0, unit_or(m, fallback).as_vec2(), depth as f32));
    }
    let (t, _) = crossings(m, d, big)?;
    // Early out: the impact lies beyond this move.
    if t.is_nan() || t > 1.0 {
        return None;
    }
    Some((t as f32, unit_or(m + d * t, fallback).as_vec2(), 0.0))
}

/// Unit vector of `v`, or `fallback` when `v` is zero or not finite.
pub(crate) fn unit_or(v: DVec2, fallback: DVec2) -> DVec2 {
    let len_sq = v.length_squared();
    if len_sq > 0.0 && len_sq.is_finite() {
        v / len_sq.sqrt()
    } else {
        fallback
    }
}
