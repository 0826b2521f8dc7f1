//! The pile: the table filled with small balls (radius 2.1–3 px at up to 300 px/s, as the
//! app's Fill does), the grid broad phase, left to settle.
//!
//! - **overlap**, both solvers: once every simulated second the overlap meter must agree
//!   with a direct measurement of every touching pair from the positions (ball pairs found by
//!   a sort along x, every ball against every obstacle); a meter that reads less than the
//!   picture shows is a failure. Soft contacts must also end with a mean overlap of at most
//!   0.5 % and a deepest of at most 5 % of the smaller radius (Box2D keeps its piles within
//!   its linear slop, about 1 % of a size); the push-out's figures are reported.
//! - **sleep**, soft contacts (sleep on): at least 90 % of the balls asleep at the end; then,
//!   with every ball asleep, one more simulated second must leave the state hash unchanged and
//!   add no narrow-phase test.

use super::{no_panic, row_name, table, use_solver, CheckReport};
use collide::narrow::contact_ball_shape;
use collide::world::{OverlapMeter, Solver};
use collide::{BroadKind, Geometry, World};

/// Size of the check.
#[derive(Clone, Copy, Debug)]
pub struct PileSize {
    /// Balls filled in.
    pub balls: u32,
    /// Simulated seconds to settle.
    pub seconds: u32,
    /// Seed of the table and the fill.
    pub seed: u64,
}

/// Mean overlap soft contacts may end with (fraction of the smaller radius).
pub const SOFT_MEAN: f32 = 0.005;
/// Deepest overlap soft contacts may end with.
pub const SOFT_MAX: f32 = 0.05;
/// Fraction of the balls soft contacts must have asleep at the end.
pub const SOFT_ASLEEP: f32 = 0.9;

/// The filled table, before any step.
pub fn pile(size: PileSize, solver: Solver) -> World {
    let mut w = table(size.seed);
    use_solver(&mut w, solver);
    w.set_broad_phase(BroadKind::Grid);
    w.fill_random(size.balls, (2.1, 3.0), 300.0);
    w
}

/// Runs the check: the overlap row, and for soft contacts the sleep row.
pub fn run(size: PileSize, solver: Solver, progress: &mut dyn FnMut(f32)) -> Vec<CheckReport> {
    let mut overlap = CheckReport::new(&row_name("pile overlap", solver));
    let mut sleep = CheckReport::new(&row_name("pile sleep", solver));
    let ran = no_panic(|| settle(size, solver, &mut overlap, &mut sleep, progress));
    if let Err(m) = ran {
        overlap.fail(format!("panic: {m}"));
    }
    if solver == Solver::Soft {
        vec![overlap, sleep]
    } else {
        vec![overlap]
    }
}

fn settle(
    size: PileSize,
    solver: Solver,
    overlap: &mut CheckReport,
    sleep: &mut CheckReport,
    progress: &mut dyn FnMut(f32),
) {
    let mut w = pile(size, solver);
    let per_second = w.steps_per_second() as u64;
    let mut worst_gap = 0.0f32;
    for s in 0..size.seconds {
        for _ in 0..per_second {
            w.step();
            w.drain_hits();
        }
        overlap.cases += 1;
        let (meter, direct) = (w.counters().overlap, direct_overlap(&w));
        let gap = disagreement(&meter, &direct);
        worst_gap = worst_gap.max(gap);
        if gap > 1e-4 {
            overlap.fail(format!(
                "second {}: the meter reads {} pairs, max {:.5}, mean {:.6}; measured {} pairs, max {:.5}, mean {:.6}",
                s + 1,
                meter.pairs,
                meter.max,
                meter.mean(),
                direct.pairs,
                direct.max,
                direct.mean()
            ));
        }
        progress((s + 1) as f32 / size.seconds as f32);
    }
    let m = w.counters().overlap;
    let n = w.balls().len().max(1) as f32;
    let asleep = w.counters().asleep;
    let deep = m.over_10pct as f32 / m.pairs.max(1) as f32;
    overlap.worst = format!(
        "{} balls, {} s: mean {:.3} %, max {:.2} %, {:.1} % of {} pairs deeper than 10 %; meter off by {worst_gap:.1e}",
        w.balls().len(),
        size.seconds,
        m.mean() * 100.0,
        m.max * 100.0,
        deep * 100.0,
        m.pairs
    );
    if solver != Solver::Soft {
        return;
    }
    overlap.cases += 1;
    if m.mean() > SOFT_MEAN || m.max > SOFT_MAX {
        overlap.fail(format!(
            "mean {:.4} (limit {SOFT_MEAN}), max {:.4} (limit {SOFT_MAX})",
            m.mean(),
            m.max
        ));
    }
    sleep_row(&mut w, asleep, n, sleep);
}

/// The sleep row: how many sleep, then a second with all asleep changes nothing and costs no
/// narrow test.
fn sleep_row(w: &mut World, asleep: u32, n: f32, report: &mut CheckReport) {
    report.cases += 1;
    let fraction = asleep as f32 / n;
    if fraction < SOFT_ASLEEP {
        report.fail(format!(
            "{asleep} of {n} asleep, fewer than {:.0} %",
            SOFT_ASLEEP * 100.0
        ));
    }
    // Up to ten more seconds for the last ones to fall asleep.
    let per_second = w.steps_per_second() as u64;
    let mut waited = 0;
    while (w.counters().asleep as usize) < w.balls().len() && waited < 10 {
        for _ in 0..per_second {
            w.step();
            w.drain_hits();
        }
        waited += 1;
    }
    report.cases += 1;
    let all = w.counters().asleep as usize == w.balls().len();
    let (hash, tests) = (w.state_hash(), w.counters().total.full_tests);
    for _ in 0..per_second {
        w.step();
        w.drain_hits();
    }
    let (still, added) = (
        w.state_hash() == hash,
        w.counters().total.full_tests - tests,
    );
    if !all {
        report.fail(format!(
            "{} of {} asleep after {waited} more seconds",
            w.counters().asleep,
            w.balls().len()
        ));
    } else if !still || added > 0 {
        report.fail(format!(
            "all asleep, yet a second changed the hash ({}) and added {added} narrow tests",
            !still
        ));
    }
    report.worst = format!(
        "{:.1} % asleep at the end, all {waited} s later; a second asleep: same hash, {added} narrow tests",
        fraction * 100.0
    );
}

/// How far the meter is from the direct measurement: the largest of the relative differences
/// of the pair counts, the deepest and the mean overlap.
fn disagreement(meter: &OverlapMeter, direct: &OverlapMeter) -> f32 {
    let rel = |a: f32, b: f32| (a - b).abs() / a.abs().max(b.abs()).max(1e-6);
    rel(meter.pairs as f32, direct.pairs as f32)
        .max(rel(meter.max, direct.max))
        .max(rel(meter.mean(), direct.mean()))
        .max(rel(meter.over_1pct as f32, direct.over_1pct as f32))
}

/// Every touching pair of the world measured from the positions alone: ball pairs by a sort
/// along x, each ball against every obstacle (a group by its deepest member).
pub fn direct_overlap(w: &World) -> OverlapMeter {
    let balls = w.balls();
    let mut m = OverlapMeter::default();
    let mut order: Vec<usize> = (0..balls.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&balls[a], &balls[b]);
        (a.pos.x - a.radius).total_cmp(&(b.pos.x - b.radius))
    });
    for (k, &i) in order.iter().enumerate() {
        let a = &balls[i];
        for &j in &order[k + 1..] {
            let b = &balls[j];
            if b.pos.x - b.radius > a.pos.x + a.radius {
                break;
            }
            let small = a.radius.min(b.radius);
            if small > 0.0 {
                m.add((a.radius + b.radius - (a.pos - b.pos).length()) / small);
            }
        }
    }
    for b in balls {
        if b.radius <= 0.0 {
            continue;
        }
        for s in w.shapes() {
            let v = b.vel - s.velocity_at(b.pos, w.settings().rotate);
            let depth = match s.geom {
                Geometry::Group { id, .. } => w.group(id).map_or(0.0, |g| {
                    g.members
                        .iter()
                        .filter_map(|mb| contact_ball_shape(b.pos, b.radius, v, &mb.geom))
                        .map(|c| c.depth)
                        .fold(0.0, f32::max)
                }),
                ref g => contact_ball_shape(b.pos, b.radius, v, g).map_or(0.0, |c| c.depth),
            };
            m.add(depth / b.radius);
        }
    }
    m
}
