//! Ball against the interior of a segment. The ends are guard points (see the scene builder),
//! so a ball whose centre projects outside the segment is a miss here.

use super::{contact_ball_point, normalized_or, Contact};
use glam::Vec2;

/// Contact of the ball (centre `c`, radius `r`) with the segment `a`–`b`.
/// A zero-length segment behaves as a point; a negative radius counts as zero.
pub(crate) fn contact_ball_segment(c: Vec2, r: f32, a: Vec2, b: Vec2) -> Option<Contact> {
    let r = r.max(0.0);
    let ab = b - a;
    let len_sq = ab.length_squared();
    if len_sq <= f32::MIN_POSITIVE {
        return contact_ball_point(c, r, a);
    }
    // t = (c - a)·ab / |ab|²: the projection parameter; outside [0, 1] is an end's business.
    let t = (c - a).dot(ab) / len_sq;
    if !(0.0..=1.0).contains(&t) {
        return None;
    }
    // The normal is the segment's unit perpendicular, not the direction from the closest
    // point: far from `a` that point carries the rounding of `a + ab·t`, which tilts a
    // direction taken from it (by 1e-4 rad at 4000 px), enough to spoil a grazing bounce.
    let n = normalized_or(ab.perp(), Vec2::Y);
    let s = (c - a).dot(n);
    if s * s >= r * r {
        return None;
    }
    Some(Contact {
        point: a + ab * t,
        normal: if s < 0.0 { -n } else { n },
        depth: r - s.abs(),
    })
}

/// The distance of `c` from the line of segment `a`–`b`, along the segment's unit normal,
/// with the difference `c − a` taken in f64. In f32 that difference rounds to the spacing of
/// floats at the segment's length (1.2e-4 px at 4000 px from `a`), so the distance of a ball
/// sliding along a long wall jitters by that much from step to step. The normal is the same
/// f32 unit vector as [`contact_ball_segment`]'s, so both describe the same line.
pub(crate) fn distance_to_line(c: Vec2, a: Vec2, b: Vec2) -> f32 {
    let n = normalized_or((b - a).perp(), Vec2::Y).as_dvec2();
    let d = c.as_dvec2() - a.as_dvec2();
    d.dot(n).abs() as f32
}

/// [`contact_ball_segment`] with the depth measured by [`distance_to_line`]. The soft
/// contacts use it: a speculative contact closes its gap at `gap / h`, so a gap rounded by
/// 1.2e-4 px reads as a closing speed of 0.03 px/s at 240 steps per second, and a slow ball
/// meant to come to rest on a long wall keeps creeping into it. Hit or miss as the f32 test.
pub(crate) fn contact_ball_segment_fine(c: Vec2, r: f32, a: Vec2, b: Vec2) -> Option<Contact> {
    let contact = contact_ball_segment(c, r, a, b)?;
    if (b - a).length_squared() <= f32::MIN_POSITIVE {
        return Some(contact);
    }
    Some(Contact {
        depth: (r.max(0.0) - distance_to_line(c, a, b)).max(0.0),
        ..contact
    })
}

/// A segment contact corrected for a ball whose centre went through the segment this step:
/// when the move from `start` to `now` (the centre) crosses the segment itself, the ball
/// belongs on `start`'s side, so it is pushed back there (normal towards `start`'s side,
/// depth `r` + how far it went through) instead of out of the far side. Any other contact is
/// returned as it is. Used for walls in the discrete mode, where a crowd can push a ball's
/// centre over a wall between two tests.
pub(crate) fn keep_side(
    contact: Contact,
    r: f32,
    start: Vec2,
    now: Vec2,
    a: Vec2,
    b: Vec2,
) -> Contact {
    let ab = b - a;
    let n = normalized_or(ab.perp(), Vec2::Y);
    let (s0, s1) = ((start - a).dot(n), (now - a).dot(n));
    let crosses = s0 * s1 < 0.0; // false for NaN too
    if !crosses {
        return contact;
    }
    // Where the move crosses the segment's line, as a parameter along the segment.
    let f = s0 / (s0 - s1);
    let cross = start + (now - start) * f;
    let len_sq = ab.length_squared();
    let t = if len_sq > 0.0 {
        (cross - a).dot(ab) / len_sq
    } else {
        -1.0
    };
    if !(0.0..=1.0).contains(&t) {
        return contact;
    }
    Contact {
        point: contact.point,
        normal: if s0 < 0.0 { -n } else { n },
        depth: r.max(0.0) + s1.abs(),
    }
}

#[cfg(test)]
mod keep_side_tests {
    use super::*;

    fn floor() -> (Vec2, Vec2) {
        (Vec2::new(0.0, 0.0), Vec2::new(100.0, 0.0))
    }

    #[test]
    fn a_centre_pushed_through_goes_back_to_its_side() {
        let (a, b) = floor();
        let (start, now) = (Vec2::new(50.0, 3.0), Vec2::new(50.0, -1.0));
        let c = contact_ball_segment(now, 5.0, a, b).unwrap();
        assert_eq!(c.normal, Vec2::new(0.0, -1.0));
        let k = keep_side(c, 5.0, start, now, a, b);
        assert_eq!(k.normal, Vec2::new(0.0, 1.0));
        assert!((k.depth - 6.0).abs() < 1e-6);
        assert!(((now + k.normal * k.depth).y - 5.0).abs() < 1e-6);
    }

    #[test]
    fn a_ball_on_its_own_side_or_round_an_end_is_left_alone() {
        let (a, b) = floor();
        let now = Vec2::new(50.0, 2.0);
        let c = contact_ball_segment(now, 5.0, a, b).unwrap();
        assert_eq!(keep_side(c, 5.0, Vec2::new(50.0, 4.0), now, a, b), c);
        // The move crosses the line beyond the end: not through the segment.
        let now = Vec2::new(1.0, -2.0);
        let c = contact_ball_segment(now, 5.0, a, b).unwrap();
        assert_eq!(keep_side(c, 5.0, Vec2::new(-9.0, 8.0), now, a, b), c);
    }

    #[test]
    fn degenerate_moves_give_finite_contacts() {
        let (a, b) = floor();
        let now = Vec2::new(50.0, 0.0);
        let c = contact_ball_segment(now, 5.0, a, b).unwrap();
        for start in [now, Vec2::new(50.0, 1e30), Vec2::new(f32::MAX, -f32::MAX)] {
            let k = keep_side(c, 5.0, start, now, a, b);
            assert!(k.normal.is_finite() && k.depth.is_finite() && k.point.is_finite());
        }
    }
}
