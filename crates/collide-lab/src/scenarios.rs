//! Seeded random broad-phase inputs for equivalence tests and benchmarks, including the
//! adversarial cases: everything at one point, everything on one line, tiny and huge boxes
//! mixed, boxes outside the world box, empty and single-ball inputs, boxes that touch exactly,
//! and boxes on power-of-two grid lines (quadtree leaf and sector boundaries). Also the
//! benchmarks' `scale` input ([`scale_input`]): many uniform random balls at a fixed density.

use collide::geom::Aabb;
use collide::BroadInput;
use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// An owned broad-phase input.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// What kind of case this is.
    pub label: &'static str,
    /// Boxes: statics, kinematic, balls.
    pub aabbs: Vec<Aabb>,
    /// First kinematic index.
    pub first_moving: usize,
    /// First ball index.
    pub first_dynamic: usize,
    /// World box.
    pub world: Aabb,
}

impl Scenario {
    /// Borrows it as a [`BroadInput`] with the given statics version.
    pub fn input(&self, statics_version: u64) -> BroadInput<'_> {
        BroadInput {
            aabbs: &self.aabbs,
            first_moving: self.first_moving,
            first_dynamic: self.first_dynamic,
            statics_version,
            world: self.world,
        }
    }

    /// Moves every ball box by a small random step (for incremental structures).
    pub fn jiggle(&mut self, rng: &mut StdRng, step: f32) {
        for b in &mut self.aabbs[self.first_dynamic..] {
            let d = Vec2::new(rng.gen_range(-step..=step), rng.gen_range(-step..=step));
            b.min += d;
            b.max += d;
        }
    }
}

/// The world box used by scenarios: the table's 960 × 704 px.
pub const WORLD: Aabb = Aabb {
    min: Vec2::ZERO,
    max: Vec2::new(960.0, 704.0),
};

/// Number of scenario kinds [`scenario`] cycles through.
pub const KINDS: u64 = 10;

/// Scenario number `seed`; the kind cycles with `seed % KINDS`.
pub fn scenario(seed: u64) -> Scenario {
    let mut rng = StdRng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15);
    let n_static = rng.gen_range(0..12);
    let n_kin = rng.gen_range(0..4);
    let n_balls = rng.gen_range(0..120);
    let (label, maker) = ball_maker(seed % KINDS);
    let n_balls = match seed % KINDS {
        8 => rng.gen_range(0..2),
        _ => n_balls,
    };
    let mut aabbs = Vec::with_capacity(n_static + n_kin + n_balls);
    for _ in 0..n_static + n_kin {
        aabbs.push(obstacle(&mut rng));
    }
    for _ in 0..n_balls {
        aabbs.push(maker(&mut rng));
    }
    Scenario {
        label,
        aabbs,
        first_moving: n_static,
        first_dynamic: n_static + n_kin,
        world: WORLD,
    }
}

/// Makes one ball's box from the generator.
type BallMaker = fn(&mut StdRng) -> Aabb;

/// The label of scenario kind `kind` (below [`KINDS`]) and how its balls are made.
fn ball_maker(kind: u64) -> (&'static str, BallMaker) {
    match kind {
        0 => ("uniform", |r| {
            ball_at(random_point(r, WORLD), r.gen_range(2.0..25.0))
        }),
        1 => ("one point", |r| {
            ball_at(Vec2::new(300.0, 200.0), r.gen_range(0.0..10.0))
        }),
        2 => ("one line", |r| {
            ball_at(
                Vec2::new(r.gen_range(0.0..960.0), 352.0),
                r.gen_range(1.0..8.0),
            )
        }),
        3 => ("tiny and huge", |r| {
            let radius = if r.gen_bool(0.1) {
                r.gen_range(150.0..600.0)
            } else {
                r.gen_range(0.0..2.0)
            };
            ball_at(random_point(r, WORLD), radius)
        }),
        4 => ("outside the world", |r| {
            let wide = WORLD.expanded(600.0);
            ball_at(random_point(r, wide), r.gen_range(1.0..30.0))
        }),
        5 => ("grid lines", |r| {
            // Centres and edges on multiples of 60 × 44 px (leaf size at 5 levels) and 32 px.
            let (sx, sy) = if r.gen_bool(0.5) {
                (60.0, 44.0)
            } else {
                (32.0, 32.0)
            };
            let p = Vec2::new(
                r.gen_range(0..17) as f32 * sx,
                r.gen_range(0..17) as f32 * sy,
            );
            let half = [0.0, 15.0, 16.0, 30.0, 22.0][r.gen_range(0..5)];
            Aabb::new(p - Vec2::splat(half), p + Vec2::splat(half))
        }),
        6 => ("touching", |r| {
            // Unit-aligned boxes on an 8 px lattice: many share exactly an edge or a corner.
            let p = Vec2::new(
                r.gen_range(0..12) as f32 * 8.0,
                r.gen_range(0..12) as f32 * 8.0,
            ) + Vec2::splat(400.0);
            Aabb::new(p, p + Vec2::splat(8.0 * r.gen_range(1..3) as f32))
        }),
        7 => ("dense cluster", |r| {
            ball_at(
                random_point(r, Aabb::new(Vec2::splat(100.0), Vec2::splat(180.0))),
                r.gen_range(3.0..12.0),
            )
        }),
        8 => ("empty or one", |r| ball_at(random_point(r, WORLD), 10.0)),
        _ => ("points", |r| {
            let p = random_point(r, WORLD);
            Aabb { min: p, max: p }
        }),
    }
}

fn random_point(rng: &mut StdRng, b: Aabb) -> Vec2 {
    Vec2::new(
        rng.gen_range(b.min.x..=b.max.x),
        rng.gen_range(b.min.y..=b.max.y),
    )
}

fn ball_at(c: Vec2, r: f32) -> Aabb {
    Aabb::around(c, r)
}

/// A segment-like or bumper-like obstacle box, sometimes long and thin, sometimes outside.
fn obstacle(rng: &mut StdRng) -> Aabb {
    let a = random_point(rng, WORLD.expanded(50.0));
    match rng.gen_range(0..3) {
        0 => Aabb::new(a, a + Vec2::new(rng.gen_range(0.0..500.0), 0.0)),
        1 => Aabb::new(a, a + Vec2::new(0.0, rng.gen_range(0.0..400.0))),
        _ => Aabb::around(a, rng.gen_range(5.0..60.0)),
    }
}

/// Mean ball radius of [`scale_input`] (px): radii are uniform in `[0.5, 1.5] ×` this.
pub const SCALE_RADIUS: f32 = 10.0;

/// Fraction of the square covered by the balls of [`scale_input`] (sum of disc areas / area).
pub const SCALE_FILL: f64 = 0.3;

/// The benchmarks' `scale` input: `n` balls, uniform random centres in the square
/// `[0, side]²` (also the world box), radii uniform in `[5, 15]` px, the side chosen so the
/// discs' areas add up to 0.3 of the square. No obstacles (`first_moving = first_dynamic = 0`).
/// Seeded: the same `(n, seed)` always gives the same boxes.
///
/// Side: `E[r²] = r0²(1 + 1/12)` for `r` uniform in `[r0/2, 3r0/2]`, so
/// `n π r0² 13/12 = 0.3 side²`. For `n` = 1k, 10k, 100k, 1M that is about 1.1k, 3.4k, 10.7k and
/// 33.7k px.
pub fn scale_input(n: usize, seed: u64) -> Scenario {
    let r0 = SCALE_RADIUS as f64;
    let side = (n as f64 * std::f64::consts::PI * r0 * r0 * 13.0 / 12.0 / SCALE_FILL).sqrt() as f32;
    let world = Aabb::new(Vec2::ZERO, Vec2::splat(side));
    let mut rng = StdRng::seed_from_u64(seed ^ 0x5ca1_e000_0000_0001);
    let aabbs = (0..n)
        .map(|_| {
            let r = rng.gen_range(0.5 * SCALE_RADIUS..=1.5 * SCALE_RADIUS);
            ball_at(random_point(&mut rng, world), r)
        })
        .collect();
    Scenario {
        label: "scale",
        aabbs,
        first_moving: 0,
        first_dynamic: 0,
        world,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide::broad::brute_pairs;
    use collide::broad::{BroadCounters, BroadKind};

    #[test]
    fn scale_input_covers_three_tenths_of_its_square_and_is_seeded() {
        let sc = scale_input(20_000, 7);
        let side = sc.world.size().x as f64;
        let discs: f64 = sc
            .aabbs
            .iter()
            .map(|b| std::f64::consts::PI * (b.size().x as f64 / 2.0).powi(2))
            .sum();
        let fill = discs / (side * side);
        assert!((fill - SCALE_FILL).abs() < 0.01, "fill {fill}");
        assert!(sc.aabbs.iter().all(|b| sc.world.contains(b.centre())));
        assert_eq!(scale_input(20_000, 7).aabbs, sc.aabbs);
        assert_ne!(scale_input(20_000, 8).aabbs, sc.aabbs);
    }

    #[test]
    fn every_algorithm_matches_brute_force_on_the_scale_input() {
        let sc = scale_input(3000, 1);
        let mut want = Vec::new();
        brute_pairs(&sc.input(1), &mut want);
        for &kind in BroadKind::ALL {
            let (mut got, mut c) = (Vec::new(), BroadCounters::default());
            let mut algo = kind.create();
            algo.find_pairs(&sc.input(1), &mut got, &mut c);
            assert_eq!(got, want, "{}", kind.name());
            algo.validate().unwrap();
        }
    }
}
