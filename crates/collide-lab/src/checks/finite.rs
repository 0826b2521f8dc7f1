//! No NaN, no panic: generated worlds of a few shapes and balls with wild sizes and settings,
//! stepped a few times; every position and velocity must stay finite.
//!
//! Each world draws: obstacles of every kind (zero-length segments, arcs of zero and full
//! extent, radii from 0 to 1e5 or 1e6 px, some kinematic), balls with radii as wild (some
//! coincident, some at rest on a shape), elasticities 0 to 10, gravity 0 to 1e7 px/s², motion
//! and collision iterations 1 to 64, rotation on or off, every broad phase and every
//! tunnelling mode. World `k` of seed `s` uses the generator seeded `s ^ k`, so a failure names
//! the one world to replay.

use super::{no_panic, row_name, use_solver, CheckReport};
use crate::kinds::{anchor, wild_obstacle};
use collide::geom::{Geometry, Motion, Shape};
use collide::world::{Ball, Launcher, Solver};
use collide::{Aabb, BroadKind, Tunnelling, World};
use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::f32::consts::TAU;

/// Size of the check.
#[derive(Clone, Copy, Debug)]
pub struct FiniteSize {
    /// Worlds generated.
    pub worlds: u64,
    /// Steps run in each.
    pub steps: u32,
    /// Seed of the first world.
    pub seed: u64,
    /// Largest lengths drawn (px): 10 to this power. Huge shapes cost the grid broad phases
    /// their whole cell array, so the tests stop at 1e5 px (100 tables wide).
    pub huge_exp: f32,
}

/// Runs the check with `solver` (sleep follows it).
pub fn run(size: FiniteSize, solver: Solver) -> CheckReport {
    let mut report = CheckReport::new(&row_name("no-nan", solver));
    let mut fastest = 0.0f32;
    for k in 0..size.worlds {
        report.cases += 1;
        let seed = size.seed ^ k.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        match no_panic(|| run_world(seed, size.steps, size.huge_exp, solver)) {
            Ok(Ok(speed)) => fastest = fastest.max(speed),
            Ok(Err(step)) => report.fail(format!("world seed {seed}: non-finite at step {step}")),
            Err(msg) => report.fail(format!("world seed {seed}: panic: {msg}")),
        }
    }
    report.worst = format!("fastest ball {fastest:.3e} px/s, all finite");
    report
}

/// Builds world `seed` and steps it; the fastest speed seen, or the step that went non-finite.
pub fn run_world(seed: u64, steps: u32, huge_exp: f32, solver: Solver) -> Result<f32, u32> {
    let mut w = generated_world(seed, huge_exp);
    use_solver(&mut w, solver);
    let mut fastest = 0.0f32;
    for s in 0..steps {
        w.step();
        if !w.all_finite() {
            return Err(s);
        }
        for b in w.balls() {
            fastest = fastest.max(b.vel.length());
        }
        w.drain_hits();
    }
    Ok(fastest)
}

/// A length from 0 to 1e6 px, often ordinary: 0, tiny, ordinary or huge.
fn wild_length(rng: &mut StdRng, huge_exp: f32) -> f32 {
    match rng.gen_range(0..8) {
        0 => 0.0,
        1 => 10f32.powf(rng.gen_range(-6.0..0.0)),
        2 => 10f32.powf(rng.gen_range(3.0..huge_exp)),
        _ => rng.gen_range(1.0..60.0),
    }
}

/// A value of `0..=hi` with its ends drawn often.
fn wild_range(rng: &mut StdRng, hi: f32) -> f32 {
    match rng.gen_range(0..6) {
        0 => 0.0,
        1 => hi,
        2 => 10f32.powf(rng.gen_range(-3.0..hi.log10())),
        _ => rng.gen_range(0.0..=hi),
    }
}

fn point_in(rng: &mut StdRng, lo: f32, hi: f32) -> Vec2 {
    Vec2::new(rng.gen_range(lo..hi), rng.gen_range(lo..hi))
}

/// The world generated from `seed`.
pub fn generated_world(seed: u64, huge_exp: f32) -> World {
    let mut rng = StdRng::seed_from_u64(seed);
    let n_shapes = rng.gen_range(0..5);
    let shapes: Vec<Shape> = (0..n_shapes)
        .map(|_| obstacle(&mut rng, huge_exp))
        .collect();
    let bounds = Aabb::new(Vec2::ZERO, Vec2::new(1000.0, 1000.0));
    let launcher = Launcher {
        pos: point_in(&mut rng, 0.0, 1000.0),
        dir: Vec2::from_angle(rng.gen_range(0.0..TAU)),
    };
    let mut w = World::new_unguarded(shapes.clone(), bounds, seed).with_launcher(launcher);
    settle_settings(&mut w, &mut rng, huge_exp);
    add_balls(&mut w, &shapes, &mut rng, huge_exp);
    w
}

fn settle_settings(w: &mut World, rng: &mut StdRng, h: f32) {
    let mut s = w.settings().clone();
    s.motion_iterations = if rng.gen_bool(0.2) {
        64
    } else {
        rng.gen_range(1..=8)
    };
    s.collision_iterations = if rng.gen_bool(0.2) {
        64
    } else {
        rng.gen_range(1..=8)
    };
    s.gravity = wild_range(rng, 1e7);
    s.elasticity_scale = if rng.gen_bool(0.8) {
        1.0
    } else {
        wild_range(rng, 10.0)
    };
    s.rotate = rng.gen_bool(0.5);
    s.ball_radius = wild_length(rng, h);
    s.launch_speed = wild_range(rng, 1e6);
    s.ball_elasticity = wild_range(rng, 10.0);
    s.tunnelling = Tunnelling::ALL[rng.gen_range(0..Tunnelling::ALL.len())];
    s.linear_fractions = rng.gen_range(1..=64);
    // Half the worlds with the pair cache, without drawing from the generator (the cases
    // generated stay the same).
    s.pair_cache = s.linear_fractions.is_multiple_of(2);
    w.set_settings(s);
    let kind = BroadKind::ALL[rng.gen_range(0..BroadKind::ALL.len())];
    w.set_broad_phase(kind);
    if rng.gen_bool(0.3) {
        w.launch(rng.gen_range(1..4));
    }
}

fn add_balls(w: &mut World, shapes: &[Shape], rng: &mut StdRng, h: f32) {
    let n = rng.gen_range(1..5);
    let mut last = point_in(rng, 0.0, 1000.0);
    for _ in 0..n {
        let pos = match rng.gen_range(0..4) {
            0 => last, // coincident with the previous ball
            1 if !shapes.is_empty() => anchor(&shapes[rng.gen_range(0..shapes.len())].geom),
            _ => point_in(rng, -100.0, 1100.0),
        };
        last = pos;
        let speed = wild_range(rng, 1e6);
        let vel = Vec2::from_angle(rng.gen_range(0.0..TAU)) * speed;
        let ball = Ball::new(pos, vel, wild_length(rng, h), wild_range(rng, 10.0), 0);
        w.add_ball(ball);
    }
}

fn obstacle(rng: &mut StdRng, h: f32) -> Shape {
    let c = point_in(rng, 0.0, 1000.0);
    let r = wild_length(rng, h);
    let geom = wild_obstacle(rng, c, r, h, wild_length, wild_range);
    let motion = if rng.gen_bool(0.3) && !matches!(geom, Geometry::Gate { .. }) {
        Motion::Kinematic {
            pivot: point_in(rng, 0.0, 1000.0),
            speed: rng.gen_range(-100.0..100.0),
        }
    } else {
        Motion::Static
    };
    Shape::new(geom, wild_range(rng, 10.0), motion)
}
