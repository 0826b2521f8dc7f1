//! Swept ball against a circular arc, from either side. The ball touches the arc's circle
//! when its centre is on the circle of radius `ar + r` (from outside) or `ar − r` (from
//! inside). Entering that ring happens at most twice along a line: through the outer circle
//! coming in, or through the inner circle going out. The first of these whose direction lies
//! in the arc's sweep is the impact; entries beside the sweep belong to the end guard points.
//!
//! Which crossings are entries depends on where the ball starts, and that is decided once, by
//! the contact test's own [`Ring`] question: a ball the contact test sees touching the outer
//! edge exactly is outside, and its entry is at `t = 0` if it moves in (the crossing computed
//! in f64 may round a hair below 0 and is clamped), never the exit on the far side of the arc.

use super::arc::{ring, Ring};
use super::crossing::{crossings, unit_or};
use super::{angle_in_arc, contact_ball_arc, Impact};
use crate::geom::angle;
use glam::{DVec2, Vec2};

/// First impact of the ball (centre `c`, radius `r`) moving by `d` with the arc (centre
/// `ac`, radius `ar`, from `start` counter-clockwise to `end`, rad), as a fraction of the move.
pub(crate) fn toi_ball_arc(
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
            return Some(Impact {
                t: 0.0,
                contact: now,
            });
        }
    }
    let (m, dm) = (c.as_dvec2() - ac.as_dvec2(), d.as_dvec2());
    let start_at = ring(c - ac, r, ar);
    let outer = entering_outer(m, dm, ar as f64 + r as f64, start_at);
    let inner = if ar > r {
        leaving_inner(m, dm, ar as f64 - r as f64, start_at)
    } else {
        None
    };
    let (sin, cos) = angle::sin_cos_f64((start as f64 + end as f64) * 0.5);
    let mid = DVec2::new(cos, sin);
    for (t, outside) in [(outer, true), (inner, false)] {
        let Some(t) = t.filter(|t| (0.0..=1.0).contains(t)) else {
            continue;
        };
        let dir = unit_or(m + dm * t, mid).as_vec2();
        if angle_in_arc(angle::atan2(dir.y, dir.x), start, end) {
            let normal = if outside { dir } else { -dir };
            return Some(Impact::at(t as f32, ac + dir * ar, normal, 0.0));
        }
    }
    None
}

/// When the path `m + t·d` enters the circle of radius `big` about the origin, for a ball that
/// starts outside it (touching included).
fn entering_outer(m: DVec2, d: DVec2, big: f64, start_at: Ring) -> Option<f64> {
    // Early out: already within the outer edge, or not moving inwards.
    let b = m.dot(d);
    if start_at != Ring::Out || b.is_nan() || b >= 0.0 {
        return None;
    }
    let (enter, _) = crossings(m, d, big)?;
    Some(enter.max(0.0))
}

/// When the path `m + t·d` leaves the disk of radius `small` about the origin: the later
/// crossing, clamped to the start for a ball starting in the hole (touching included).
fn leaving_inner(m: DVec2, d: DVec2, small: f64, start_at: Ring) -> Option<f64> {
    let (_, leave) = crossings(m, d, small)?;
    if start_at == Ring::In {
        Some(leave.max(0.0))
    } else {
        Some(leave)
    }
}
