//! Swept ball against a circular arc, from either side. The ball touches the arc's circle
//! when its centre is on the circle of radius `ar + r` (from outside) or `ar − r` (from
//! inside). Entering that ring happens at most twice along a line: through the outer circle
//! coming in, or through the inner circle going out. The first of these whose direction lies
//! in the arc's sweep is the impact; entries beside the sweep belong to the end guard points.

use super::{angle_in_arc, contact_ball_arc, normalized_or, Impact};
use glam::Vec2;

/// First impact of the ball (centre `c`, radius `r`) moving by `d` with the arc (centre
/// `ac`, radius `ar`, from `start` counter-clockwise to `end`, rad), as a fraction of the move.
pub fn toi_ball_arc(
    c: Vec2,
    r: f32,
    d: Vec2,
    ac: Vec2,
    ar: f32,
    start: f32,
    end: f32,
) -> Option<Impact> {
    let (r, ar) = (r.max(0.0), ar.max(0.0));
    if let Some(now) = contact_ball_arc(c, r, ac, ar, start, end) {
        if d.dot(now.normal) < 0.0 {
            return Some(super::Impact {
                t: 0.0,
                contact: now,
            });
        }
    }
    let m = c - ac;
    let outer = entering_outer(m, d, ar + r);
    let inner = if ar > r {
        leaving_inner(m, d, ar - r)
    } else {
        None
    };
    for (t, outside) in [(outer, true), (inner, false)] {
        let Some(t) = t.filter(|t| (0.0..=1.0).contains(t)) else {
            continue;
        };
        let dir = normalized_or(m + d * t, Vec2::from_angle((start + end) * 0.5));
        if angle_in_arc(dir.y.atan2(dir.x), start, end) {
            let normal = if outside { dir } else { -dir };
            return Some(Impact::at(t, ac + dir * ar, normal, 0.0));
        }
    }
    None
}

/// When the path `m + t·d` enters the circle of radius `big` about the origin from outside.
fn entering_outer(m: Vec2, d: Vec2, big: f32) -> Option<f32> {
    let (b, k) = (m.dot(d), m.length_squared() - big * big);
    // Early out: already inside, or moving away.
    if k <= 0.0 || b >= 0.0 {
        return None;
    }
    let disc = b * b - d.length_squared() * k;
    (disc >= 0.0).then(|| k / (-b + disc.sqrt()))
}

/// When the path `m + t·d` leaves the disk of radius `small` about the origin: the larger root.
fn leaving_inner(m: Vec2, d: Vec2, small: f32) -> Option<f32> {
    let (a, b, k) = (
        d.length_squared(),
        m.dot(d),
        m.length_squared() - small * small,
    );
    let disc = b * b - a * k;
    // Early out: the line misses the disk, or there is no motion.
    if disc < 0.0 || a <= f32::MIN_POSITIVE {
        return None;
    }
    // Larger root (−b + √disc)/a; for b > 0 the same value as k / (−b − √disc), no cancellation.
    let root = disc.sqrt();
    Some(if b <= 0.0 {
        (-b + root) / a
    } else {
        k / (-b - root)
    })
}
