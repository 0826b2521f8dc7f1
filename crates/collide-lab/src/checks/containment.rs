//! Containment: with exact tunnelling and rotation on, no ball leaves the closed table, and
//! balls put on top of each other are pushed apart until the overlap counter reads 0.
//!
//! The table is launched full of small balls (radius 5 px, so that 2,000 of them cover about
//! a quarter of the table) plus seeded co-located pairs dropped in the open field at the start
//! (clear of every obstacle and not in the pocket behind the kicking corner arc). Every
//! step, the strays counter (balls whose centre is outside the play area) must read 0; after
//! the first simulated second and at the end, the overlaps counter must read 0 too.

use super::{no_panic, row_name, table, use_solver, CheckReport};
use collide::world::{Ball, Solver};
use collide::{BroadKind, Tunnelling};
use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Size of the check.
#[derive(Clone, Copy, Debug)]
pub struct ContainmentSize {
    /// Balls launched.
    pub balls: u32,
    /// Co-located pairs placed at the start.
    pub pairs: u32,
    /// Simulated seconds.
    pub seconds: u32,
    /// Seed.
    pub seed: u64,
}

/// True when a ball at `p` touches no obstacle and is not in the pocket behind a kicking arc
/// (elasticity above 1, like the table's top-left corner), where two balls would pump each
/// other up to the speed cap: that case has its own regression test
/// (`containment_seed_1_step_6678_...` in `tests/promises.rs`); this check is about the field.
fn in_the_open(w: &collide::World, p: Vec2) -> bool {
    let clearance = 2.0 * RADIUS;
    w.shapes().iter().all(|s| {
        let touches =
            collide::narrow::contact_ball_shape(p, clearance, Vec2::ZERO, &s.geom).is_some();
        let in_pocket = match s.geom {
            collide::Geometry::Arc { c, r, .. } => {
                s.elasticity > 1.0 && p.distance(c) < r + clearance
            }
            _ => false,
        };
        !touches && !in_pocket
    })
}

/// Radius of the balls (px).
pub const RADIUS: f32 = 5.0;

/// Runs the check; `progress` is told the fraction done now and then.
pub fn run(size: ContainmentSize, solver: Solver, progress: &mut dyn FnMut(f32)) -> CheckReport {
    let mut report = CheckReport::new(&row_name("containment", solver));
    if let Err(m) = no_panic(|| run_inner(size, solver, &mut report, progress)) {
        report.fail(format!("panic: {m}"));
    }
    report
}

fn run_inner(
    size: ContainmentSize,
    solver: Solver,
    report: &mut CheckReport,
    progress: &mut dyn FnMut(f32),
) {
    let mut w = table(size.seed);
    use_solver(&mut w, solver);
    w.edit_settings(|st| st.rotate = true);
    w.edit_settings(|st| st.tunnelling = Tunnelling::Exact);
    w.edit_settings(|st| st.ball_radius = RADIUS);
    w.set_broad_phase(BroadKind::Grid);
    let mut rng = StdRng::seed_from_u64(size.seed);
    for _ in 0..size.pairs {
        let p = loop {
            let p = Vec2::new(rng.gen_range(60.0..840.0), rng.gen_range(380.0..680.0));
            if in_the_open(&w, p) {
                break p;
            }
        };
        for k in 0..2 {
            w.add_ball(Ball::new(p, Vec2::ZERO, RADIUS, 0.95, k));
        }
    }
    w.launch(size.balls);
    let steps_per_second = w.steps_per_second() as u64;
    let total = steps_per_second * size.seconds as u64;
    let (mut worst_strays, mut worst_overlaps, mut cleared_at) = (0u32, 0u32, None);
    for step in 0..total {
        w.step();
        w.drain_hits();
        report.cases += 1;
        let c = *w.counters();
        worst_strays = worst_strays.max(c.strays);
        if c.strays > 0 {
            report.fail(format!("step {step}: {} strays", c.strays));
        }
        if c.co_located == 0 && cleared_at.is_none() {
            cleared_at = Some(step);
        }
        if step >= steps_per_second {
            worst_overlaps = worst_overlaps.max(c.co_located);
            if c.co_located > 0 {
                report.fail(format!("step {step}: {} overlaps", c.co_located));
            }
        }
        if step % steps_per_second == 0 {
            progress(step as f32 / total as f32);
        }
    }
    progress(1.0);
    if w.counters().launched < size.balls as u64 {
        report.fail(format!(
            "only {} of {} balls launched",
            w.counters().launched,
            size.balls
        ));
    }
    report.worst = format!(
        "{} balls, {} s: strays max {worst_strays}; overlaps 0 from step {}, max {worst_overlaps} after 1 s",
        w.balls().len(),
        size.seconds,
        cleared_at.map_or("never".to_string(), |s| s.to_string())
    );
}
