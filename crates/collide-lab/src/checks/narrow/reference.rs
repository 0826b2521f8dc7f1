//! The exact reference for the narrow phase: closest features and first times of impact in
//! f64, written apart from the library's f32 code so that the two can be compared.
//!
//! Every input is an f32 the library also sees, widened to f64 without loss; differences and
//! products of two such numbers are exact or rounded once at 1e-16, so the answers here are
//! exact to far below any tolerance the check uses. Swept answers are in closed form: a line
//! against a circle from its closest approach (the origin moved to the point of the move
//! nearest the centre, where no cancellation happens), a line against a slab from the signed
//! distance. [`sampled_first_touch`] is the other road to the same answers, a dense search
//! with bisection, used to check these closed forms.
//!
//! The reference keeps the library's conventions: the ends of segments and arcs belong to
//! their guard points, a rectangle's centre inside goes out through the nearest face, a ball
//! starting in contact hits at `t = 0` only when it moves in. Where a convention has no
//! defined answer (a normal at coincident centres) the reference says so with `sure = false`.
//!
//! `slack` (px) grows (`> 0`) or shrinks (`< 0`) every test by that distance: the radius, the
//! span of a segment, the sweep of an arc, and the speed a ball must move in at to count as an
//! impact. The check calls it with `±tolerance` to tell a true disagreement from a case
//! within the tolerance of the boundary. The grown swept test also reports a ball coming in
//! beside a segment's span or an arc's sweep (marked `side`): grown, the test then says
//! whether the ball comes near the shape at all.

pub use crate::kinds::{whole_turn, Shape64, TURN_SLACK};
use glam::DVec2;
use std::f64::consts::TAU;

/// The feature of a shape nearest a ball's centre.
#[derive(Clone, Copy, Debug)]
pub struct Near {
    /// Closest point of the shape (px).
    pub point: DVec2,
    /// Unit normal from the shape towards the centre.
    pub normal: DVec2,
    /// Signed distance from the shape to the centre (px), negative inside a solid.
    pub gap: f64,
    /// False when the normal is arbitrary: a centre within the slack of the feature itself (or
    /// of a tie between two faces), where moving it by the slack can turn the normal round.
    pub sure: bool,
}

/// A first impact: fraction of the move and the feature touched then.
#[derive(Clone, Copy, Debug)]
pub struct Touch {
    /// Fraction of the move.
    pub t: f64,
    /// The feature at that moment; `gap` is the distance then.
    pub near: Near,
    /// True when the ball came in beside the feature, through a segment's span end or an
    /// arc's sweep boundary while already within reach of its line or circle: a touch of the
    /// guard point there, found only by the grown test (`slack > 0`).
    pub side: bool,
}

/// The nearest feature of `shape` to `p` within its region (a segment's span, an arc's sweep),
/// the region grown by `slack` px; `None` when `p` lies beside the region.
pub fn nearest(shape: &Shape64, p: DVec2, slack: f64) -> Option<Near> {
    match *shape {
        Shape64::Point(q) => Some(from_point(p, q, 0.0, slack)),
        Shape64::Circle(q, cr) => Some(from_point(p, q, cr, slack)),
        Shape64::Segment(a, b) if a == b => Some(from_point(p, a, 0.0, slack)),
        Shape64::Segment(a, b) => segment_near(p, a, b, slack),
        Shape64::Arc(c, r, s, e, closed) => arc_near(p, c, r, Sweep::of(s, e, closed), slack),
        Shape64::Rect(min, max) => Some(box_near(p, min, max, slack)),
        Shape64::Oriented(c, half, rot) => {
            let near = box_near(unrotate(rot, p - c), -half.abs(), half.abs(), slack);
            Some(rotated_near(near, c, rot))
        }
    }
}

/// The contact of a ball (`c`, radius `r`) with `shape`: the nearest feature, if closer than
/// `r + slack`.
pub fn contact(shape: &Shape64, c: DVec2, r: f64, slack: f64) -> Option<Near> {
    nearest(shape, c, slack).filter(|n| n.gap < r + slack)
}

/// The first impact of a ball (`c`, radius `r`) moving by `d` with `shape`, all tests grown by
/// `slack` px.
pub fn first_touch(shape: &Shape64, c: DVec2, r: f64, d: DVec2, slack: f64) -> Option<Touch> {
    let big = r + slack;
    if let Some(now) = contact(shape, c, r, slack) {
        // A normal the slack can turn either way: only the grown test counts it a hit.
        let at_once = Touch {
            t: 0.0,
            near: now,
            side: false,
        };
        if !now.sure {
            return (slack >= 0.0).then_some(at_once);
        }
        // Moving in: the gap closes by more than `−slack` over the move.
        if d.dot(now.normal) < slack {
            return Some(at_once);
        }
        // Only an arc can be met again after leaving it: convex shapes cannot.
        if !matches!(shape, Shape64::Arc(..)) {
            return None;
        }
    }
    let front = |t: Option<f64>| t.map(|t| (t, false));
    let (t, side) = match *shape {
        Shape64::Point(q) => front(circle_entry(c - q, d, big)),
        Shape64::Circle(q, cr) => front(circle_entry(c - q, d, big + cr)),
        Shape64::Segment(a, b) if a == b => front(circle_entry(c - a, d, big)),
        Shape64::Segment(a, b) => slab_entry(c, d, a, b, big, slack),
        Shape64::Arc(ac, ar, s, e, closed) => {
            arc_entry(c - ac, d, ar, big, Sweep::of(s, e, closed), slack)
        }
        Shape64::Rect(min, max) => front(box_entry(c, d, min, max, big)),
        Shape64::Oriented(rc, half, rot) => front(box_entry(
            unrotate(rot, c - rc),
            unrotate(rot, d),
            -half.abs(),
            half.abs(),
            big,
        )),
    }?;
    let at = c + d * t;
    let near = nearest(
        shape,
        at,
        slack.max(0.0) + 1e-9 * (1.0 + at.abs().max_element()),
    )?;
    Some(Touch { t, near, side })
}

/// The earliest of `(t, side)` candidates.
fn earliest(candidates: impl Iterator<Item = (f64, bool)>) -> Option<(f64, bool)> {
    candidates.reduce(|a, b| if b.0 < a.0 { b } else { a })
}

/// The first touch found by sampling the move densely (`samples` places) and bisecting the
/// first step that goes into contact. It sees the ball as touching whatever `gap` says (the
/// caller includes guard points there); a graze shorter than one step can be missed.
pub fn sampled_first_touch(
    gap: &dyn Fn(DVec2) -> f64,
    c: DVec2,
    r: f64,
    d: DVec2,
    samples: u32,
) -> Option<f64> {
    let inside = |t: f64| gap(c + d * t) < r;
    if inside(0.0) {
        return Some(0.0);
    }
    let n = samples.max(1);
    let k = (1..=n).find(|&k| inside(k as f64 / n as f64))?;
    let (mut lo, mut hi) = ((k - 1) as f64 / n as f64, k as f64 / n as f64);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if inside(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(hi)
}

/// The feature nearest `p` on the circle (`q`, radius `rad`), seen from outside.
fn from_point(p: DVec2, q: DVec2, rad: f64, slack: f64) -> Near {
    let m = p - q;
    let len = m.length();
    let sure = len > slack.abs();
    let normal = if sure { m / len } else { DVec2::Y };
    Near {
        point: q + normal * rad,
        normal,
        gap: len - rad,
        sure,
    }
}

/// The segment's interior feature, when `p` projects onto the span grown by `slack`.
fn segment_near(p: DVec2, a: DVec2, b: DVec2, slack: f64) -> Option<Near> {
    let e = b - a;
    let len = e.length();
    let along = (p - a).dot(e) / len;
    if along < -slack || along > len + slack {
        return None;
    }
    let n = e.perp() / len;
    let s = (p - a).dot(n);
    Some(Near {
        point: a + e * (along / len).clamp(0.0, 1.0),
        normal: if s < 0.0 { -n } else { n },
        gap: s.abs(),
        sure: s.abs() > slack.abs(),
    })
}

/// An arc's sweep: from `start` counter-clockwise to `end` (rad), or the whole circle when
/// `closed`.
#[derive(Clone, Copy, Debug)]
struct Sweep {
    start: f64,
    end: f64,
    closed: bool,
}

impl Sweep {
    fn of(start: f64, end: f64, closed: bool) -> Self {
        Sweep { start, end, closed }
    }
}

/// The arc's feature, when `p` lies in its sweep grown by `slack`.
fn arc_near(p: DVec2, c: DVec2, r: f64, sweep: Sweep, slack: f64) -> Option<Near> {
    let m = p - c;
    if !in_sweep(m, sweep, slack) {
        return None;
    }
    let len = m.length();
    let mid = DVec2::from_angle(0.5 * (sweep.start + sweep.end));
    let dir = if len > 0.0 { m / len } else { mid };
    let outside = len >= r;
    Some(Near {
        point: c + dir * r,
        normal: if outside { dir } else { -dir },
        gap: (len - r).abs(),
        sure: (len - r).abs() > slack.abs() && len > slack.abs(),
    })
}

/// Whether direction `m` lies in `sweep`, grown by `slack` px: the
/// distance from `m` to the sweep's boundary rays decides near them.
fn in_sweep(m: DVec2, sweep: Sweep, slack: f64) -> bool {
    let Sweep { start, end, closed } = sweep;
    if closed {
        return true;
    }
    let theta = m.y.atan2(m.x);
    let inside = (theta - start).rem_euclid(TAU) <= end - start;
    let edge = ray_distance(m, start).min(ray_distance(m, end));
    if slack >= 0.0 {
        inside || edge <= slack
    } else {
        inside && edge >= -slack
    }
}

/// Distance from `m` to the ray from the origin at angle `phi`.
fn ray_distance(m: DVec2, phi: f64) -> f64 {
    let u = DVec2::from_angle(phi);
    if m.dot(u) >= 0.0 {
        u.perp_dot(m).abs()
    } else {
        m.length()
    }
}

/// The box feature nearest `p`: the clamped point outside, the nearest face inside (ties go
/// to the first of −x, +x, −y, +y, and are marked unsure).
fn box_near(p: DVec2, min: DVec2, max: DVec2, slack: f64) -> Near {
    let q = p.clamp(min, max);
    if q != p {
        return from_point(p, q, 0.0, slack);
    }
    let faces = [
        (p.x - min.x, DVec2::NEG_X, DVec2::new(min.x, p.y)),
        (max.x - p.x, DVec2::X, DVec2::new(max.x, p.y)),
        (p.y - min.y, DVec2::NEG_Y, DVec2::new(p.x, min.y)),
        (max.y - p.y, DVec2::Y, DVec2::new(p.x, max.y)),
    ];
    let best = faces
        .iter()
        .fold(faces[0], |b, f| if f.0 < b.0 { *f } else { b });
    let ties = faces.iter().filter(|f| f.0 <= best.0 + slack.abs()).count();
    Near {
        point: best.2,
        normal: best.1,
        gap: -best.0,
        sure: ties == 1,
    }
}

/// `v` turned back by the rotation `rot` (cos, sin).
fn unrotate(rot: DVec2, v: DVec2) -> DVec2 {
    DVec2::new(rot.x * v.x + rot.y * v.y, rot.x * v.y - rot.y * v.x)
}

/// A box feature found in a rectangle's frame, taken back to the world.
fn rotated_near(n: Near, c: DVec2, rot: DVec2) -> Near {
    Near {
        point: c + rot.rotate(n.point),
        normal: rot.rotate(n.normal),
        ..n
    }
}

/// Times `(enter, leave)` at which the line `m + t·d` crosses the circle of radius `big` about
/// the origin, from the move's closest approach `q = m + t_c·d`: `t = t_c ∓ √((big² − |q|²)/|d|²)`.
pub fn crossings(m: DVec2, d: DVec2, big: f64) -> Option<(f64, f64)> {
    let a = d.length_squared();
    if a.is_nan() || a <= 0.0 || big < 0.0 {
        return None;
    }
    let tc = -m.dot(d) / a;
    let h = (m + d * tc).length();
    if h > big {
        return None;
    }
    let w = ((big - h) * (big + h) / a).sqrt();
    Some((tc - w, tc + w))
}

/// When a centre starting at `m` (at least `big` from the origin) first comes within `big`.
fn circle_entry(m: DVec2, d: DVec2, big: f64) -> Option<f64> {
    let (t, _) = crossings(m, d, big)?;
    (0.0..=1.0).contains(&t).then_some(t)
}

/// When a centre starting at `c` reaches distance `big` from the line of `a`–`b`, within its
/// span grown by `slack`; grown, also when it crosses the grown span's ends within `big` of
/// the line (`side`).
fn slab_entry(c: DVec2, d: DVec2, a: DVec2, b: DVec2, big: f64, slack: f64) -> Option<(f64, bool)> {
    let e = b - a;
    let (len, n) = (e.length(), e.perp() / e.length());
    let (s0, ds) = ((c - a).dot(n), d.dot(n));
    let sign = s0.signum();
    // Already within the slab (beside the span: the guard points' business) or moving away.
    let front = (s0.abs() >= big && sign * ds < 0.0)
        .then(|| (s0.abs() - big) / -(sign * ds))
        .filter(|&t| t <= 1.0 && segment_near(c + d * t, a, b, slack).is_some());
    let (u0, du) = ((c - a).dot(e) / len, d.dot(e) / len);
    let ends = [-slack, len + slack].into_iter().filter_map(|bound| {
        let t = (bound - u0) / du;
        let inside = (s0 + ds * t).abs() < big;
        (slack > 0.0 && du != 0.0 && (0.0..=1.0).contains(&t) && inside).then_some((t, true))
    });
    earliest(front.map(|t| (t, false)).into_iter().chain(ends))
}

/// When a centre starting at `m` (from the arc's centre) enters the ring `|dist − ar| < big`
/// within the sweep: inwards through the outer circle or outwards through the inner one;
/// grown, also when it crosses a boundary ray of the sweep inside the ring (`side`).
fn arc_entry(
    m: DVec2,
    d: DVec2,
    ar: f64,
    big: f64,
    sweep: Sweep,
    slack: f64,
) -> Option<(f64, bool)> {
    let outer = crossings(m, d, ar + big).map(|(t, _)| t);
    let inner = if ar > big {
        crossings(m, d, ar - big).map(|(_, t)| t)
    } else {
        None
    };
    let front = [outer, inner]
        .into_iter()
        .flatten()
        .filter(|t| (0.0..=1.0).contains(t) && in_sweep(m + d * *t, sweep, slack))
        .map(|t| (t, false));
    let in_ring = |p: DVec2| (p.length() - ar).abs() < big;
    let rays = [sweep.start, sweep.end].into_iter().filter_map(|phi| {
        let u = DVec2::from_angle(phi);
        let t = -u.perp_dot(m) / u.perp_dot(d);
        let p = m + d * t;
        let on_ray = (0.0..=1.0).contains(&t) && p.dot(u) >= 0.0 && in_ring(p);
        (slack > 0.0 && !sweep.closed && on_ray).then_some((t, true))
    });
    earliest(front.chain(rays))
}

/// When a centre starting at `c` (at least `big` from the box) first comes within `big`: the
/// earliest of the four faces moved out by `big` and the four corners' circles.
fn box_entry(c: DVec2, d: DVec2, min: DVec2, max: DVec2, big: f64) -> Option<f64> {
    let corners = [min, DVec2::new(max.x, min.y), max, DVec2::new(min.x, max.y)];
    let faces = (0..4).filter_map(|i| {
        let (a, b) = (corners[i], corners[(i + 1) % 4]);
        face_entry(c, d, a, b, big)
    });
    let round = corners.iter().filter_map(|&k| circle_entry(c - k, d, big));
    faces.chain(round).reduce(f64::min)
}

/// When the centre reaches `big` outside the box face `a`–`b` (counter-clockwise corners, so
/// the outward normal is `−perp`), over the face's closed span.
fn face_entry(c: DVec2, d: DVec2, a: DVec2, b: DVec2, big: f64) -> Option<f64> {
    let e = b - a;
    let len = e.length();
    if len.is_nan() || len <= 0.0 {
        return None;
    }
    let n = -e.perp() / len;
    let (s0, ds) = ((c - a).dot(n), d.dot(n));
    if s0 < big || ds >= 0.0 {
        return None;
    }
    let t = (s0 - big) / -ds;
    let along = (c + d * t - a).dot(e) / len;
    ((0.0..=len).contains(&along) && t <= 1.0).then_some(t)
}
