//! Seeded cases for the narrow-phase check: a shape, a ball and a move, in the mix the
//! reference is meant to probe. Shapes lie on a 1000 px table; radii are 0.01–20 px
//! (log-uniform); moves are up to 1000 px.
//!
//! - random: a ball near the shape (0.01–500 px off a feature), a random move;
//! - aimed: a move through a point near a feature (within two radii);
//! - grazing: a move tangent to the shape, passing within ±1e-6…1e-2 · max(1, r) px of
//!   touching;
//! - ends: a move through a segment's or arc's end or a rectangle's corner;
//! - touching: a ball starting in contact (or touching exactly in f32) with a random move;
//! - extreme: every number may be 0, ±1e-30 or ±1e30 (only finiteness is checked).
//!
//! Segments are sometimes of zero length (or 1e-6…1e-3 px); arcs are given in degrees as a
//! scene file gives them, a fifth of them a whole turn, and a fifth of the points picked on an
//! arc are its ends (the seam, on a whole turn).

use collide::Geometry;
use glam::Vec2;
use rand::rngs::StdRng;
use rand::Rng;
use std::f32::consts::TAU;

/// The shape pairs the check runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pair {
    /// Ball against point.
    Point,
    /// Ball against segment.
    Segment,
    /// Ball against solid circle.
    Circle,
    /// Ball against arc.
    Arc,
    /// Ball against gate.
    Gate,
    /// Ball against axis-aligned rectangle.
    Rect,
    /// Ball against oriented rectangle.
    Oriented,
    /// Ball against ball (both moving in the swept test).
    Ball,
}

impl Pair {
    /// Every pair, in table order.
    pub const ALL: [Pair; 8] = [
        Pair::Point,
        Pair::Segment,
        Pair::Circle,
        Pair::Arc,
        Pair::Gate,
        Pair::Rect,
        Pair::Oriented,
        Pair::Ball,
    ];

    /// Short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Pair::Point => "point",
            Pair::Segment => "segment",
            Pair::Circle => "circle",
            Pair::Arc => "arc",
            Pair::Gate => "gate",
            Pair::Rect => "rect",
            Pair::Oriented => "oriented rect",
            Pair::Ball => "ball",
        }
    }
}

/// How a case was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A ball near the shape with a random move.
    Random,
    /// A move through a point near a feature.
    Aimed,
    /// A move tangent to the shape.
    Grazing,
    /// A move through an end or corner.
    Ends,
    /// A ball starting in contact or touching.
    Touching,
    /// Extreme numbers.
    Extreme,
}

/// One case: the shape (the other ball is a circle with its own move), the ball, its move, and
/// its velocity (px/s, for gates).
#[derive(Clone, Copy, Debug)]
pub struct Case {
    /// How it was made.
    pub kind: Kind,
    /// The shape; for [`Pair::Ball`] a circle standing for the other ball.
    pub geom: Geometry,
    /// The other ball's move (px), zero for every other pair.
    pub d2: Vec2,
    /// Ball centre (px).
    pub c: Vec2,
    /// Ball radius (px).
    pub r: f32,
    /// The move (px).
    pub d: Vec2,
    /// Velocity (px/s).
    pub v: Vec2,
}

/// The `i`-th kind of the mix: 6 random, 3 aimed, 4 grazing, 3 ends, 3 touching, 1 extreme
/// in every 20.
pub fn kind_of(i: u64) -> Kind {
    match i % 20 {
        0..=5 => Kind::Random,
        6..=8 => Kind::Aimed,
        9..=12 => Kind::Grazing,
        13..=15 => Kind::Ends,
        16..=18 => Kind::Touching,
        _ => Kind::Extreme,
    }
}

/// A case of `pair` and `kind` drawn from `rng`.
pub fn case(rng: &mut StdRng, pair: Pair, kind: Kind) -> Case {
    let r = log_uniform(rng, 0.01, 20.0);
    let (geom, d2) = shape(rng, pair);
    let (c, d) = match kind {
        Kind::Random => {
            let (f, dist) = (feature(rng, &geom), log_uniform(rng, 0.01, 500.0));
            let c = near(rng, f, dist);
            (c, dir(rng) * move_len(rng))
        }
        Kind::Aimed => {
            let (f, dist) = (feature(rng, &geom), rng.gen_range(0.0..2.0) * r);
            let q = near(rng, f, dist);
            through(rng, q)
        }
        Kind::Grazing => grazing(rng, &geom, r),
        Kind::Ends => {
            let (f, dist) = (end(rng, &geom), rng.gen_range(0.0..1.5) * r);
            let q = near(rng, f, dist);
            through(rng, q)
        }
        Kind::Touching => touching(rng, &geom, r),
        Kind::Extreme => (wild_v(rng), wild_v(rng)),
    };
    let mut case = Case {
        kind,
        geom,
        d2,
        c,
        r,
        d,
        v: dir(rng) * rng.gen_range(0.0..2000.0),
    };
    if kind == Kind::Extreme {
        make_wild(rng, &mut case);
    }
    case
}

/// A shape of `pair` on the table, and the other ball's move for [`Pair::Ball`].
fn shape(rng: &mut StdRng, pair: Pair) -> (Geometry, Vec2) {
    let at = Vec2::new(rng.gen_range(0.0..1000.0), rng.gen_range(0.0..1000.0));
    let geom = match pair {
        Pair::Point => Geometry::Point { p: at },
        Pair::Segment => Geometry::Segment {
            a: at,
            b: at + dir(rng) * segment_len(rng),
        },
        Pair::Circle => Geometry::Circle {
            c: at,
            r: if rng.gen_bool(0.02) {
                0.0
            } else {
                log_uniform(rng, 0.1, 300.0)
            },
        },
        Pair::Arc => arc(rng, at),
        Pair::Gate => {
            let b = at + dir(rng) * segment_len(rng);
            let side = if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
            Geometry::Gate {
                a: at,
                b,
                normal: (b - at).normalize_or_zero().perp() * side,
                threshold: rng.gen_range(0.0..2000.0),
            }
        }
        Pair::Rect => {
            let size = Vec2::new(box_side(rng), box_side(rng));
            Geometry::Rect {
                min: at,
                max: at + size,
            }
        }
        Pair::Oriented => Geometry::OrientedRect {
            c: at,
            half: Vec2::new(box_side(rng), box_side(rng)) * 0.5,
            angle: if rng.gen_bool(0.1) {
                rng.gen_range(-4..=4) as f32 * TAU / 4.0
            } else {
                rng.gen_range(-TAU..TAU)
            },
        },
        Pair::Ball => Geometry::Circle {
            c: at,
            r: log_uniform(rng, 0.01, 20.0),
        },
    };
    let d2 = if pair == Pair::Ball && rng.gen_bool(0.7) {
        dir(rng) * move_len(rng)
    } else {
        Vec2::ZERO
    };
    (geom, d2)
}

/// An arc given in degrees, as scene files give them: a fifth of them a whole turn.
fn arc(rng: &mut StdRng, c: Vec2) -> Geometry {
    let start: f32 = if rng.gen_bool(0.5) {
        rng.gen_range(-360..=360) as f32
    } else {
        rng.gen_range(-360.0..360.0)
    };
    let extent = if rng.gen_bool(0.2) {
        360.0
    } else {
        rng.gen_range(1.0..359.0)
    };
    Geometry::Arc {
        c,
        r: if rng.gen_bool(0.02) {
            0.0
        } else {
            log_uniform(rng, 0.5, 500.0)
        },
        start: start.to_radians(),
        end: (start + extent).to_radians(),
    }
}

/// A segment's length: mostly 0.1–1000 px, sometimes zero or tiny.
fn segment_len(rng: &mut StdRng) -> f32 {
    match rng.gen_range(0..100) {
        0..=4 => 0.0,
        5..=6 => log_uniform(rng, 1e-6, 1e-3),
        _ => log_uniform(rng, 0.1, 1000.0),
    }
}

/// A box side: 0.1–500 px, sometimes zero.
fn box_side(rng: &mut StdRng) -> f32 {
    if rng.gen_bool(0.02) {
        0.0
    } else {
        log_uniform(rng, 0.1, 500.0)
    }
}

/// A point of the shape, with the outward normal there (towards where a ball may sit).
fn surface(rng: &mut StdRng, geom: &Geometry) -> (Vec2, Vec2) {
    let side = if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
    match *geom {
        Geometry::Point { p } => (p, dir(rng)),
        Geometry::Segment { a, b } | Geometry::Gate { a, b, .. } => {
            let n = (b - a).normalize_or_zero().perp();
            let n = if n == Vec2::ZERO { dir(rng) } else { n };
            (a.lerp(b, rng.gen_range(0.0..=1.0)), n * side)
        }
        Geometry::Circle { c, r } => {
            let u = dir(rng);
            (c + u * r, u)
        }
        Geometry::Arc { c, r, start, end } => {
            // A fifth of the points at an end exactly (the seam of a whole turn).
            let theta = match rng.gen_range(0..10) {
                0 => start,
                1 => end,
                _ => rng.gen_range(start..=end),
            };
            let u = Vec2::from_angle(theta);
            (c + u * r, u * side)
        }
        Geometry::Rect { min, max } => box_surface(rng, min, max),
        Geometry::OrientedRect { c, half, angle } => {
            let rot = Vec2::from_angle(angle);
            let (p, n) = box_surface(rng, -half, half);
            (c + rot.rotate(p), rot.rotate(n))
        }
        Geometry::Group { .. } => (Vec2::ZERO, Vec2::Y),
    }
}

/// A point on a box's boundary and its outward normal (at a corner, a direction between the
/// two faces').
fn box_surface(rng: &mut StdRng, min: Vec2, max: Vec2) -> (Vec2, Vec2) {
    let (x, y) = (rng.gen_range(min.x..=max.x), rng.gen_range(min.y..=max.y));
    match rng.gen_range(0..5) {
        0 => (Vec2::new(min.x, y), Vec2::NEG_X),
        1 => (Vec2::new(max.x, y), Vec2::X),
        2 => (Vec2::new(x, min.y), Vec2::NEG_Y),
        3 => (Vec2::new(x, max.y), Vec2::Y),
        _ => {
            let (sx, sy) = (rng.gen_bool(0.5), rng.gen_bool(0.5));
            let k = Vec2::new(
                if sx { max.x } else { min.x },
                if sy { max.y } else { min.y },
            );
            let a = rng.gen_range(0.0..TAU / 4.0);
            let n = Vec2::new(a.cos() * sign(sx), a.sin() * sign(sy));
            (k, n)
        }
    }
}

/// A point of the shape.
fn feature(rng: &mut StdRng, geom: &Geometry) -> Vec2 {
    surface(rng, geom).0
}

/// An end of a segment, gate or arc, a corner of a rectangle, or any point of the rest.
fn end(rng: &mut StdRng, geom: &Geometry) -> Vec2 {
    let pick = rng.gen_bool(0.5);
    match *geom {
        Geometry::Segment { a, b } | Geometry::Gate { a, b, .. } => {
            if pick {
                a
            } else {
                b
            }
        }
        Geometry::Arc { c, r, start, end } => {
            c + Vec2::from_angle(if pick { start } else { end }) * r
        }
        Geometry::Rect { min, max } => {
            Vec2::new(if pick { min.x } else { max.x }, pick_of(rng, min.y, max.y))
        }
        Geometry::OrientedRect { c, half, angle } => {
            let k = Vec2::new(half.x * sign(pick), half.y * sign(rng.gen_bool(0.5)));
            c + Vec2::from_angle(angle).rotate(k)
        }
        _ => feature(rng, geom),
    }
}

/// A point `dist` px from `q` in a random direction.
fn near(rng: &mut StdRng, q: Vec2, dist: f32) -> Vec2 {
    q + dir(rng) * dist
}

/// A move through `q`: starting before it and ending before or after it.
fn through(rng: &mut StdRng, q: Vec2) -> (Vec2, Vec2) {
    let d = dir(rng) * move_len(rng);
    let before = rng.gen_range(0.0..1.2);
    (q - d * before, d)
}

/// A move tangent to the shape at a random point, passing `gap` px from touching.
fn grazing(rng: &mut StdRng, geom: &Geometry, r: f32) -> (Vec2, Vec2) {
    let (f, n) = surface(rng, geom);
    let scale = r.max(1.0);
    let off = log_uniform(rng, 1e-6, 1e-2) * scale * sign(rng.gen_bool(0.5));
    let closest = f + n * (r + off);
    let d = n.perp() * sign(rng.gen_bool(0.5)) * move_len(rng);
    (closest - d * rng.gen_range(0.0..1.2), d)
}

/// A ball starting in contact: its centre within the radius of a point of the shape, or
/// exactly at the radius (touching, as f32 rounds it).
fn touching(rng: &mut StdRng, geom: &Geometry, r: f32) -> (Vec2, Vec2) {
    let (f, n) = surface(rng, geom);
    let depth = if rng.gen_bool(0.3) {
        r
    } else {
        rng.gen_range(-1.0..1.0) * r
    };
    let c = match *geom {
        // Touching an arc: the centre on the circle of radius ar ± r, as the test sees it.
        Geometry::Arc { c: ac, r: ar, .. } => {
            let out = (f - ac).dot(n) >= 0.0;
            let u = (f - ac).normalize_or_zero();
            ac + u * if out { ar + depth } else { ar - depth }
        }
        _ => f + n * depth,
    };
    (c, dir(rng) * move_len(rng))
}

/// Replaces some of the case's numbers with 0, ±1e-30 or ±1e30.
fn make_wild(rng: &mut StdRng, case: &mut Case) {
    case.r = wild(rng, case.r).abs();
    case.v = Vec2::new(wild(rng, case.v.x), wild(rng, case.v.y));
    case.d2 = Vec2::new(wild(rng, case.d2.x), wild(rng, case.d2.y));
    case.geom = match case.geom {
        Geometry::Point { p } => Geometry::Point { p: wild_of(rng, p) },
        Geometry::Segment { a, b } => Geometry::Segment {
            a: wild_of(rng, a),
            b: wild_of(rng, b),
        },
        Geometry::Circle { c, r } => Geometry::Circle {
            c: wild_of(rng, c),
            r: wild(rng, r),
        },
        Geometry::Arc { c, r, start, end } => Geometry::Arc {
            c: wild_of(rng, c),
            r: wild(rng, r),
            start,
            end,
        },
        Geometry::Gate {
            a,
            b,
            normal,
            threshold,
        } => Geometry::Gate {
            a: wild_of(rng, a),
            b: wild_of(rng, b),
            normal,
            threshold,
        },
        Geometry::Rect { min, max } => Geometry::Rect {
            min: wild_of(rng, min),
            max: wild_of(rng, max),
        },
        Geometry::OrientedRect { c, half, angle } => Geometry::OrientedRect {
            c: wild_of(rng, c),
            half: wild_of(rng, half),
            angle,
        },
        g => g,
    };
}

/// `x`, or (half the time) one of 0, ±1e-30, ±1e30.
fn wild(rng: &mut StdRng, x: f32) -> f32 {
    const WILD: [f32; 5] = [0.0, 1e-30, -1e-30, 1e30, -1e30];
    if rng.gen_bool(0.5) {
        x
    } else {
        WILD[rng.gen_range(0..WILD.len())]
    }
}

/// [`wild`] on both components.
fn wild_of(rng: &mut StdRng, v: Vec2) -> Vec2 {
    Vec2::new(wild(rng, v.x), wild(rng, v.y))
}

/// A vector of wild components.
fn wild_v(rng: &mut StdRng) -> Vec2 {
    let v = Vec2::new(rng.gen_range(-1e3..1e3), rng.gen_range(-1e3..1e3));
    wild_of(rng, v)
}

/// A move's length: 0.01–1000 px, log-uniform.
fn move_len(rng: &mut StdRng) -> f32 {
    log_uniform(rng, 0.01, 1000.0)
}

/// A uniformly random unit vector.
fn dir(rng: &mut StdRng) -> Vec2 {
    Vec2::from_angle(rng.gen_range(0.0..TAU))
}

/// A number between `lo` and `hi` whose logarithm is uniform.
fn log_uniform(rng: &mut StdRng, lo: f32, hi: f32) -> f32 {
    (rng.gen_range(lo.ln()..hi.ln())).exp()
}

/// `a` or `b`, at random.
fn pick_of(rng: &mut StdRng, a: f32, b: f32) -> f32 {
    if rng.gen_bool(0.5) {
        a
    } else {
        b
    }
}

/// +1 when `b`, −1 otherwise.
fn sign(b: bool) -> f32 {
    if b {
        1.0
    } else {
        -1.0
    }
}
