//! Which balls keep a settling pile awake: each second, the balls asleep and awake, the awake
//! islands, and from a chosen second on, where the awake ones are and what they touch.
//!
//! `cargo run --release -p collide-lab --example pile_awake -- [N] [seconds] [from second]
//! [list]` (defaults: 10000, 10, 4, 20): the table filled as the app's Fill does, soft
//! contacts, grid. A ball is *fast* when its sleep speed (`√(|v|² + (spin·r)²)`, as sleep
//! measures it) is at least the sleep speed. From `from second` on, each second lists every
//! awake island with a fast ball or more than one ball (size, middle, fast balls, fastest),
//! up to `list` balls slow at the second's end that were fast in some step of it (most steps
//! first), and up to `list` of the fastest awake balls with their contacts (`Ball(i)` or
//! `Shape(i)` and the normal impulse × 1000). `ROLLING`, `FRICTION` and `RESTITUTION_SPEED`
//! in the environment set the soft contacts' rolling resistance, friction and bounce speed.

use collide::{Scene, Solver, World};
use glam::Vec2;
use std::collections::BTreeMap;

/// Whether ball `i` (its place in the list) sleeps.
fn sleeps(w: &World, i: usize) -> bool {
    w.ball_id(i).is_some_and(|id| w.asleep(id))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: u32| args.get(i).map_or(d, |s| s.parse().expect("number"));
    let (n, seconds, from, list) = (arg(1, 10_000), arg(2, 10), arg(3, 4), arg(4, 20));
    let mut w = filled_table(n);
    let steps = w.steps_per_second();
    for s in 1..=seconds {
        let mut woken = 0;
        let mut fast_steps = vec![0u32; w.balls().len()];
        for _ in 0..steps {
            w.step();
            woken += w.counters().last_step.wakeups;
            for (i, f) in fast_steps.iter_mut().enumerate() {
                *f += (!sleeps(&w, i) && is_fast(&w, i)) as u32;
            }
        }
        summary(&w, s, woken);
        if s >= from {
            islands(&w);
            flickers(&w, &fast_steps, list as usize);
            fastest(&w, list as usize);
        }
    }
}

/// The table filled with `n` balls as the app's Fill does, soft contacts, grid, with the
/// environment's contact settings.
fn filled_table(n: u32) -> World {
    let scene = Scene::parse(collide_lab::checks::TABLE_RON, "table").expect("table");
    let mut w = scene.build(1);
    w.set_broad_phase(collide::BroadKind::from_name("grid").expect("grid"));
    w.edit_settings(|st| st.solver = Solver::Soft);
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<f32>().ok());
    if let Some(r) = env("ROLLING") {
        w.edit_settings(|st| st.soft.rolling = r);
    }
    if let Some(f) = env("FRICTION") {
        w.edit_settings(|st| st.soft.friction = f);
    }
    if let Some(v) = env("RESTITUTION_SPEED") {
        w.edit_settings(|st| st.soft.restitution_speed = v);
    }
    w.fill_random(n, (2.1, 3.0), 300.0);
    w
}

/// Ball `i`'s speed as sleep measures it (px/s).
fn speed(w: &World, i: usize) -> f32 {
    let b = &w.balls()[i];
    (b.vel.length_squared() + (b.spin * b.radius).powi(2)).sqrt()
}

fn is_fast(w: &World, i: usize) -> bool {
    speed(w, i) >= w.settings().sleep.speed
}

fn awake(w: &World) -> Vec<usize> {
    (0..w.balls().len()).filter(|&i| !sleeps(w, i)).collect()
}

/// The second's line: asleep, awake, islands, fast balls, wake-ups.
fn summary(w: &World, s: u32, woken: u64) {
    let awake = awake(w);
    let fast: Vec<usize> = awake.iter().copied().filter(|&i| is_fast(w, i)).collect();
    let limit = w.settings().sleep.speed;
    let spin_only = fast
        .iter()
        .filter(|&&i| w.balls()[i].vel.length() < limit)
        .count();
    let isl = w.islands();
    let mut sizes = BTreeMap::new();
    for &i in &awake {
        *sizes.entry(isl[i]).or_insert(0u32) += 1;
    }
    let biggest = sizes.values().copied().max().unwrap_or(0);
    println!(
        "second {s}: asleep {} awake {} islands {} biggest {biggest} fast {} (spin only {spin_only}) woken {woken}",
        w.asleep_count(),
        awake.len(),
        sizes.len(),
        fast.len()
    );
}

/// Every awake island with a fast ball or more than one ball.
fn islands(w: &World) {
    let isl = w.islands();
    let mut groups: BTreeMap<_, (u32, Vec2, f32, u32)> = BTreeMap::new();
    for i in awake(w) {
        let e = groups.entry(isl[i]).or_insert((0, Vec2::ZERO, 0.0, 0));
        e.0 += 1;
        e.1 += w.balls()[i].pos;
        e.2 = e.2.max(speed(w, i));
        e.3 += is_fast(w, i) as u32;
    }
    for (k, (count, sum, top, fast)) in groups {
        if fast > 0 || count > 1 {
            let m = sum / count as f32;
            println!(
                "  island {k:?}: {count} balls about ({:.0},{:.0}), {fast} fast, fastest {top:.1}",
                m.x, m.y
            );
        }
    }
}

/// Up to `list` balls slow now that were fast in some step of the second.
fn flickers(w: &World, fast_steps: &[u32], list: usize) {
    let isl = w.islands();
    let mut flick: Vec<usize> = (0..w.balls().len())
        .filter(|&i| fast_steps[i] > 0 && !is_fast(w, i))
        .collect();
    flick.sort_by_key(|&i| std::cmp::Reverse(fast_steps[i]));
    println!(
        "  {} balls slow now were fast in some step of this second",
        flick.len()
    );
    for &i in flick.iter().take(list) {
        let b = &w.balls()[i];
        println!(
            "  flick {i:>5} at ({:>6.1},{:>6.1}) steps {} v ({:.2},{:.2}) rim {:.2} isl {:?}",
            b.pos.x,
            b.pos.y,
            fast_steps[i],
            b.vel.x,
            b.vel.y,
            b.spin * b.radius,
            isl[i]
        );
    }
}

/// Up to `list` of the fastest awake balls, with their contacts.
fn fastest(w: &World, list: usize) {
    let isl = w.islands();
    let mut fast: Vec<usize> = awake(w).into_iter().filter(|&i| is_fast(w, i)).collect();
    fast.sort_by(|&a, &b| speed(w, b).total_cmp(&speed(w, a)));
    let contacts = w.solver_contacts();
    for &i in fast.iter().take(list) {
        let me = format!("Ball({i})");
        let touching: Vec<String> = contacts
            .iter()
            .filter(|c| c.ball == i || format!("{:?}", c.other) == me)
            .map(|c| {
                let mut other = format!("{:?}", c.other);
                if other == me {
                    other = format!("Ball({})", c.ball);
                }
                format!("{other}:{:.0}", c.impulse * 1000.0)
            })
            .collect();
        let b = &w.balls()[i];
        println!(
            "  ball {i:>5} at ({:>6.1},{:>6.1}) r {:.2} v ({:>7.2},{:>7.2}) rim {:>7.2} speed {:>6.2} isl {:?}  {}",
            b.pos.x,
            b.pos.y,
            b.radius,
            b.vel.x,
            b.vel.y,
            b.spin * b.radius,
            speed(w, i),
            isl[i],
            touching.join(" ")
        );
    }
}
