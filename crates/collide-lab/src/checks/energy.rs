//! Energy: kinetic `½·m·v²` plus potential `m·g·(y − floor)`, with `m = radius²`.
//!
//! - [`conserved`]: the table with every elasticity at most 1 and rotation off (no bumpers,
//!   no kinematic motion), a few balls of elasticity 0.5–1 placed clear of every shape and of
//!   each other, gravity 400 px/s². The energy may fall; it must never rise above its lowest
//!   value so far by more than 0.1 % of the starting energy. (Semi-implicit Euler alone loses
//!   `½·g²·dt²` per unit mass each step; a push-out between two balls keeps their centre of
//!   mass, so it adds no potential energy.)
//! - [`adders`]: the full table, bumpers and rotation on: every step that raises the energy
//!   by more than 0.1 % must have a ball within reach of a bumper (elasticity above 1) or a
//!   kinematic shape.

use super::{no_panic, row_name, table, total_energy, use_solver, CheckReport, TABLE_RON};
use collide::narrow::contact_ball_shape;
use collide::world::{Ball, Solver};
use collide::{Scene, World};
use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::f32::consts::TAU;

/// Size of the checks.
#[derive(Clone, Copy, Debug)]
pub struct EnergySize {
    /// Worlds run.
    pub worlds: u64,
    /// Balls in each.
    pub balls: usize,
    /// Steps run in each.
    pub steps: u64,
    /// Seed of the first world.
    pub seed: u64,
}

/// The largest rise allowed, as a fraction of the starting energy.
pub const MAX_RISE: f64 = 1e-3;

/// The table with the bumpers' elasticity brought down to 1 (rotation stays off).
pub fn tame_table(seed: u64) -> World {
    let text = TABLE_RON
        .replace("elasticity: 1.3", "elasticity: 1.0")
        .replace("elasticity: 1.5", "elasticity: 1.0");
    Scene::parse(&text, "tame table")
        .expect("the tamed table parses")
        .build(seed)
}

/// Adds `n` balls at seeded places clear of every shape and ball, with speeds up to 800 px/s
/// and elasticities in `e_lo..=1`.
pub fn scatter_balls(w: &mut World, n: usize, e_lo: f32, rng: &mut StdRng) {
    let b = w.bounds();
    let mut tries = 0;
    while w.balls().len() < n && tries < 100_000 {
        tries += 1;
        let r = rng.gen_range(4.0..14.0);
        let pos = Vec2::new(
            rng.gen_range(b.min.x + r..b.max.x - r),
            rng.gen_range(b.min.y + r..b.max.y - r),
        );
        let clear_of_shapes = w
            .shapes()
            .iter()
            .all(|s| contact_ball_shape(pos, r + 1.0, Vec2::ZERO, &s.geom).is_none());
        let clear_of_balls = w
            .balls()
            .iter()
            .all(|o| (o.pos - pos).length() > o.radius + r + 1.0);
        if clear_of_shapes && clear_of_balls {
            let vel = Vec2::from_angle(rng.gen_range(0.0..TAU)) * rng.gen_range(0.0..800.0);
            let e = if rng.gen_bool(0.5) {
                1.0
            } else {
                rng.gen_range(e_lo..=1.0)
            };
            w.add_ball(Ball::new(pos, vel, r, e, 0));
        }
    }
}

/// Runs the conservation check with `solver`.
pub fn conserved(size: EnergySize, solver: Solver) -> CheckReport {
    let mut report = CheckReport::new(&row_name("energy", solver));
    let mut worst = 0.0f64;
    for k in 0..size.worlds {
        report.cases += 1;
        let seed = size.seed + k;
        match no_panic(|| worst_rise(seed, size, solver)) {
            Ok(rise) => {
                worst = worst.max(rise);
                if rise > MAX_RISE {
                    report.fail(format!("seed {seed}: energy rose {:.4} %", rise * 100.0));
                }
            }
            Err(m) => report.fail(format!("seed {seed}: panic: {m}")),
        }
    }
    report.worst = format!(
        "rise {:.2e} % of the start (limit 0.1 %), {} steps each",
        worst * 100.0,
        size.steps
    );
    report
}

/// The largest rise of the energy above its lowest value so far, over the starting energy.
fn worst_rise(seed: u64, size: EnergySize, solver: Solver) -> f64 {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut w = tame_table(seed);
    use_solver(&mut w, solver);
    scatter_balls(&mut w, size.balls, 0.5, &mut rng);
    let floor = w.bounds().min.y;
    let e0 = total_energy(&w, floor);
    let (mut lowest, mut worst) = (e0, 0.0f64);
    for _ in 0..size.steps {
        w.step();
        w.drain_hits();
        let e = total_energy(&w, floor);
        lowest = lowest.min(e);
        worst = worst.max((e - lowest) / e0);
    }
    worst
}

/// Runs the check that energy rises only where a bumper or a moving shape touches a ball,
/// with `solver`.
pub fn adders(size: EnergySize, solver: Solver) -> CheckReport {
    let mut report = CheckReport::new(&row_name("energy-adders", solver));
    let mut rises = 0u64;
    for k in 0..size.worlds {
        let seed = size.seed + k;
        let mut rng = StdRng::seed_from_u64(seed);
        let mut w = table(seed);
        use_solver(&mut w, solver);
        w.edit_settings(|st| st.rotate = true);
        scatter_balls(&mut w, size.balls, 0.5, &mut rng);
        let floor = w.bounds().min.y;
        for step in 0..size.steps {
            let before = total_energy(&w, floor);
            let near_before = near_an_adder(&w);
            w.step();
            w.drain_hits();
            let after = total_energy(&w, floor);
            // A rise counts when it is above the bound the conservation check allows
            // (0.1 % of the energy), which contact push-outs on slopes stay well below.
            if after - before <= MAX_RISE * before.abs().max(1.0) {
                continue;
            }
            rises += 1;
            report.cases += 1;
            if !(near_before || near_an_adder(&w)) {
                report.fail(format!(
                    "seed {seed} step {step}: energy rose {:.3e} with no ball near a bumper or moving shape",
                    after - before
                ));
            }
        }
    }
    report.worst = format!("{rises} steps raised the energy, all at a bumper or moving shape");
    report
}

/// True when some ball is within its own step's travel (plus 2 px) of a shape with
/// elasticity above 1 or a kinematic shape.
fn near_an_adder(w: &World) -> bool {
    let dt = w.step_seconds() as f32;
    let adders: Vec<_> = w
        .shapes()
        .iter()
        .filter(|s| s.is_kinematic() || s.elasticity > 1.0)
        .collect();
    w.balls().iter().any(|b| {
        let reach = b.radius + b.vel.length() * dt * 2.0 + 2.0;
        adders
            .iter()
            .any(|s| contact_ball_shape(b.pos, reach, Vec2::ZERO, &s.geom).is_some())
    })
}
