//! Each obstacle kind as the lab sees it, in one place: the random shapes of each kind the
//! narrow-phase and finiteness checks draw, the points they read off a shape (a point on its
//! surface, an end or corner, a point inside to start a ball at), its f64 form for the
//! narrow-phase reference, and the fixed samples of the restitution check and the shots'
//! containers. A new kind of shape is taught to the lab here.

use collide::scene::{ShapeDesc, ShapeKind};
use collide::Geometry;
use glam::{DVec2, Vec2};
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

/// A shape of `pair` on the table, and the other ball's move for [`Pair::Ball`].
pub(crate) fn shape(rng: &mut StdRng, pair: Pair) -> (Geometry, Vec2) {
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
pub(crate) fn surface(rng: &mut StdRng, geom: &Geometry) -> (Vec2, Vec2) {
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

/// An end of a segment, gate or arc, a corner of a rectangle, or any point of the rest.
pub(crate) fn end(rng: &mut StdRng, geom: &Geometry) -> Vec2 {
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
        _ => surface(rng, geom).0,
    }
}

/// `geom` with some of its numbers replaced with 0, ±1e-30 or ±1e30 (see [`wild`]).
pub(crate) fn wild_geometry(rng: &mut StdRng, geom: Geometry) -> Geometry {
    match geom {
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
    }
}

/// A random obstacle of any kind at `c` (px), `r` (px) its radius or reach, for the
/// finiteness check: `len(rng, h)` draws its other lengths (px), `range(rng, hi)` its gate's
/// threshold (px/s) up to `hi`.
pub(crate) fn wild_obstacle(
    rng: &mut StdRng,
    c: Vec2,
    r: f32,
    h: f32,
    len: fn(&mut StdRng, f32) -> f32,
    range: fn(&mut StdRng, f32) -> f32,
) -> Geometry {
    match rng.gen_range(0..7) {
        0 => Geometry::Point { p: c },
        1 => {
            // A zero-length segment now and then.
            let b = if rng.gen_bool(0.3) {
                c
            } else {
                c + Vec2::from_angle(rng.gen_range(0.0..TAU)) * r
            };
            Geometry::Segment { a: c, b }
        }
        2 => Geometry::Circle { c, r },
        3 => {
            let start = rng.gen_range(-TAU..TAU);
            let extent = match rng.gen_range(0..3) {
                0 => 0.0,
                1 => TAU,
                _ => rng.gen_range(0.0..TAU),
            };
            Geometry::Arc {
                c,
                r,
                start,
                end: start + extent,
            }
        }
        4 => Geometry::Gate {
            a: c,
            b: c + Vec2::from_angle(rng.gen_range(0.0..TAU)) * r,
            normal: Vec2::from_angle(rng.gen_range(0.0..TAU)),
            threshold: range(rng, 1e4),
        },
        5 => Geometry::Rect {
            min: c,
            max: c + Vec2::new(len(rng, h), len(rng, h)),
        },
        _ => Geometry::OrientedRect {
            c,
            half: Vec2::new(len(rng, h), len(rng, h)),
            angle: rng.gen_range(0.0..TAU),
        },
    }
}

/// A point on or in the shape, where a ball starts in contact with it.
pub(crate) fn anchor(g: &Geometry) -> Vec2 {
    match *g {
        Geometry::Point { p } => p,
        Geometry::Segment { a, b } | Geometry::Gate { a, b, .. } => (a + b) * 0.5,
        Geometry::Circle { c, .. } => c,
        Geometry::Arc { c, r, start, .. } => c + Vec2::from_angle(start) * r,
        Geometry::Rect { min, max } => (min + max) * 0.5,
        Geometry::OrientedRect { c, .. } => c,
        Geometry::Group { hull, .. } => hull.aabb().centre(),
    }
}

/// A shape in f64, as the library's geometry describes it.
#[derive(Clone, Copy, Debug)]
pub enum Shape64 {
    /// A point.
    Point(DVec2),
    /// The interior of a segment (its ends are guard points).
    Segment(DVec2, DVec2),
    /// A solid circle: centre, radius.
    Circle(DVec2, f64),
    /// An arc: centre, radius, start and end angle (rad), and whether it is a whole turn.
    Arc(DVec2, f64, f64, f64, bool),
    /// A solid box: min, max.
    Rect(DVec2, DVec2),
    /// A solid rectangle: centre, half extents, rotation (cos, sin).
    Oriented(DVec2, DVec2, DVec2),
}

/// An arc extent within this of a whole turn (rad) is a whole turn: angles given in degrees
/// that add up to 360° land within a few f32 roundings of it.
pub const TURN_SLACK: f64 = 1e-4;

/// Whether an arc from `start` to `end` (rad) is a whole turn.
pub fn whole_turn(start: f64, end: f64) -> bool {
    end - start >= std::f64::consts::TAU - TURN_SLACK
}

/// The reference shape of a case, or `None` for a gate the ball passes.
pub fn shape64(geom: Geometry, v: Vec2) -> Option<Shape64> {
    let v2 = |v: Vec2| v.as_dvec2();
    Some(match geom {
        Geometry::Point { p } => Shape64::Point(v2(p)),
        Geometry::Segment { a, b } => Shape64::Segment(v2(a), v2(b)),
        Geometry::Circle { c, r } => Shape64::Circle(v2(c), r.max(0.0) as f64),
        Geometry::Arc { c, r, start, end } => {
            let (s, e) = (start as f64, end as f64);
            Shape64::Arc(v2(c), r.max(0.0) as f64, s, e, whole_turn(s, e))
        }
        Geometry::Gate {
            a,
            b,
            normal,
            threshold,
        } => {
            if -v.as_dvec2().dot(v2(normal)) > threshold as f64 {
                return None;
            }
            Shape64::Segment(v2(a), v2(b))
        }
        Geometry::Rect { min, max } => Shape64::Rect(v2(min), v2(max)),
        Geometry::OrientedRect { c, half, angle } => {
            let a = angle as f64;
            Shape64::Oriented(v2(c), v2(half), DVec2::new(a.cos(), a.sin()))
        }
        Geometry::Group { .. } => return None,
    })
}

/// A solid box `2·half_width` px wide and 100 px deep, turned by `angle` (rad), whose face
/// through `o` (px) looks along the unit vector `n`: the restitution check's rectangle.
pub fn box_behind(o: Vec2, n: Vec2, half_width: f32, angle: f32) -> Geometry {
    Geometry::OrientedRect {
        c: o - n * 50.0,
        half: Vec2::new(half_width, 50.0),
        angle,
    }
}

/// A turned rectangle as a scene gives it: centre (px), half extents before turning (px) and
/// angle (degrees, counter-clockwise): the shots' ring of thin rectangles.
pub fn turned_rect(centre: Vec2, half_extents: Vec2, angle: f32) -> ShapeDesc {
    ShapeDesc::new(ShapeKind::OrientedRect {
        centre,
        half_extents,
        angle,
    })
}

/// `x`, or (half the time) one of 0, ±1e-30, ±1e30.
pub(crate) fn wild(rng: &mut StdRng, x: f32) -> f32 {
    const WILD: [f32; 5] = [0.0, 1e-30, -1e-30, 1e30, -1e30];
    if rng.gen_bool(0.5) {
        x
    } else {
        WILD[rng.gen_range(0..WILD.len())]
    }
}

/// [`wild`] on both components.
pub(crate) fn wild_of(rng: &mut StdRng, v: Vec2) -> Vec2 {
    Vec2::new(wild(rng, v.x), wild(rng, v.y))
}

/// A move's length: 0.01–1000 px, log-uniform.
pub(crate) fn move_len(rng: &mut StdRng) -> f32 {
    log_uniform(rng, 0.01, 1000.0)
}

/// A uniformly random unit vector.
pub(crate) fn dir(rng: &mut StdRng) -> Vec2 {
    Vec2::from_angle(rng.gen_range(0.0..TAU))
}

/// A number between `lo` and `hi` whose logarithm is uniform.
pub(crate) fn log_uniform(rng: &mut StdRng, lo: f32, hi: f32) -> f32 {
    (rng.gen_range(lo.ln()..hi.ln())).exp()
}

/// `a` or `b`, at random.
pub(crate) fn pick_of(rng: &mut StdRng, a: f32, b: f32) -> f32 {
    if rng.gen_bool(0.5) {
        a
    } else {
        b
    }
}

/// +1 when `b`, −1 otherwise.
pub(crate) fn sign(b: bool) -> f32 {
    if b {
        1.0
    } else {
        -1.0
    }
}
