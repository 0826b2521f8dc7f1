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

pub use crate::kinds::Pair;
use crate::kinds::{
    dir, end, log_uniform, move_len, shape, sign, surface, wild, wild_geometry, wild_of,
};
use collide::Geometry;
use glam::Vec2;
use rand::rngs::StdRng;
use rand::Rng;

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

/// A point of the shape.
fn feature(rng: &mut StdRng, geom: &Geometry) -> Vec2 {
    surface(rng, geom).0
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
    case.geom = wild_geometry(rng, case.geom);
}

/// A vector of wild components.
fn wild_v(rng: &mut StdRng) -> Vec2 {
    let v = Vec2::new(rng.gen_range(-1e3..1e3), rng.gen_range(-1e3..1e3));
    wild_of(rng, v)
}
