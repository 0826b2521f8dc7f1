//! Ball against a circular arc, from inside or outside. The arc's ends are guard points.

use super::{normalized_or, Contact};
use glam::Vec2;
use std::f32::consts::TAU;

/// True when direction angle `theta` lies in the sweep from `start` counter-clockwise to `end`.
pub fn angle_in_arc(theta: f32, start: f32, end: f32) -> bool {
    let extent = end - start;
    if extent >= TAU {
        return true;
    }
    (theta - start).rem_euclid(TAU) <= extent
}

/// Contact of the ball (centre `c`, radius `r`) with the arc of centre `ac`, radius `ar`,
/// from `start` counter-clockwise to `end` (rad). The ball's centre must lie within the sweep.
/// Negative radii count as zero.
pub fn contact_ball_arc(
    c: Vec2,
    r: f32,
    ac: Vec2,
    ar: f32,
    start: f32,
    end: f32,
) -> Option<Contact> {
    let d = c - ac;
    let dist_sq = d.length_squared();
    let (r, ar) = (r.max(0.0), ar.max(0.0));
    // Early out: the ball cannot reach the circle of the arc (|dist - ar| >= r).
    let (lo, hi) = ((ar - r).max(0.0), ar + r);
    if dist_sq >= hi * hi || (ar > r && dist_sq <= lo * lo) {
        return None;
    }
    let mid = (start + end) * 0.5;
    // A ball at the centre sees every point of the arc; take the middle one.
    let dir = normalized_or(d, Vec2::from_angle(mid));
    if !angle_in_arc(dir.y.atan2(dir.x), start, end) {
        return None;
    }
    let dist = dist_sq.sqrt();
    let point = ac + dir * ar;
    let (normal, gap) = if dist >= ar {
        (dir, dist - ar)
    } else {
        (-dir, ar - dist)
    };
    if gap >= r {
        return None;
    }
    Some(Contact {
        point,
        normal,
        depth: r - gap,
    })
}
