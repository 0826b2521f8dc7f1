//! Ball against a circular arc, from inside or outside. The arc's ends are guard points.

use super::{normalized_or, Contact};
use crate::geom::angle;
use crate::geom::arc_is_closed;
use glam::Vec2;
use std::f32::consts::TAU;

/// True when direction angle `theta` lies in the sweep from `start` counter-clockwise to `end`.
/// A closed arc ([`arc_is_closed`]) has every direction, its seam included.
pub(crate) fn angle_in_arc(theta: f32, start: f32, end: f32) -> bool {
    if arc_is_closed(start, end) {
        return true;
    }
    (theta - start).rem_euclid(TAU) <= end - start
}

/// Where a ball's centre (`d` from the arc's centre) stands against the ring of centres within
/// `r` of the arc's circle (radius `ar`), as the contact test decides it; the swept test asks
/// the same question so that the two never disagree about a ball touching exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ring {
    /// Beyond the outer edge, touching it included.
    Out,
    /// Within the ring: closer than `r` to the circle.
    On,
    /// In the hole inside the inner edge, touching it included.
    In,
}

/// The [`Ring`] of a centre `d` from the arc's centre; radii at least 0. Decided on the
/// distance itself, the one number the contact's depth is then taken from.
pub(crate) fn ring(d: Vec2, r: f32, ar: f32) -> Ring {
    let dist = d.length();
    if dist - ar >= r {
        Ring::Out
    } else if ar - dist >= r {
        Ring::In
    } else {
        Ring::On
    }
}

/// Contact of the ball (centre `c`, radius `r`) with the arc of centre `ac`, radius `ar`,
/// from `start` counter-clockwise to `end` (rad). The ball's centre must lie within the sweep.
/// Negative radii count as zero.
pub(crate) fn contact_ball_arc(
    c: Vec2,
    r: f32,
    ac: Vec2,
    ar: f32,
    start: f32,
    end: f32,
) -> Option<Contact> {
    let d = c - ac;
    let (r, ar) = (r.max(0.0), ar.max(0.0));
    // Early out: the ball cannot reach the circle of the arc (|dist - ar| >= r).
    if ring(d, r, ar) != Ring::On {
        return None;
    }
    let mid = (start + end) * 0.5;
    // A ball at the centre sees every point of the arc; take the middle one.
    let dir = normalized_or(d, angle::from_angle(mid));
    if !angle_in_arc(angle::atan2(dir.y, dir.x), start, end) {
        return None;
    }
    let dist = d.length();
    let point = ac + dir * ar;
    // Within the ring, so the gap is less than `r`.
    let (normal, gap) = if dist >= ar {
        (dir, dist - ar)
    } else {
        (-dir, ar - dist)
    };
    Some(Contact {
        point,
        normal,
        depth: r - gap,
    })
}
