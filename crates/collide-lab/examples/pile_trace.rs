//! A per-second trace of a pile settling on the table: overlap, sleep, speed and physics time.
//!
//! `cargo run --release -p collide-lab --example pile_trace -- [soft|push-out] [N] [seconds] [broad]
//! [switch second]` (defaults: soft, 10000, 15, grid, never). The table filled with N balls of radius 2.1–3 px at
//! 300 px/s, as the app's Fill does.

use collide::{BroadKind, Scene, Solver};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let solver = Solver::from_name(args.get(1).map_or("soft", String::as_str)).expect("solver");
    let n: u32 = args.get(2).map_or(10_000, |s| s.parse().expect("N"));
    let seconds: u32 = args.get(3).map_or(15, |s| s.parse().expect("seconds"));
    let broad = BroadKind::from_name(args.get(4).map_or("grid", String::as_str)).expect("broad");
    // From this second on, the other solver (to watch a resting pile sink, or rest).
    let switch_at: u32 = args
        .get(5)
        .map_or(u32::MAX, |s| s.parse().expect("switch second"));
    let scene = Scene::parse(collide_lab::checks::TABLE_RON, "table").expect("table");
    let mut w = scene.build(1);
    w.set_broad_phase(broad);
    w.edit_settings(|st| st.solver = solver);
    w.fill_random(n, (2.1, 3.0), 300.0);
    let steps = w.steps_per_second();
    println!("second  overlap_mean  overlap_max  over_1%  over_10%  asleep  rms_speed  physics_ms_per_frame");
    for s in 1..=seconds {
        if s == switch_at {
            let solver = match w.settings().solver {
                Solver::Soft => Solver::PushOut,
                Solver::PushOut => Solver::Soft,
            };
            w.edit_settings(|st| st.solver = solver);
            println!("-- solver now {}", w.settings().solver.name());
        }
        let t = Instant::now();
        for _ in 0..steps {
            w.step();
        }
        let ms = t.elapsed().as_secs_f64() * 1000.0 / 60.0;
        let c = w.counters();
        let v2: f64 = w
            .balls()
            .iter()
            .map(|b| b.vel.length_squared() as f64)
            .sum();
        let rms = (v2 / w.balls().len().max(1) as f64).sqrt();
        let mut speeds: Vec<f32> = w.balls().iter().map(|b| b.vel.length()).collect();
        speeds.sort_by(f32::total_cmp);
        let pct = |q: f64| {
            speeds
                .get(((speeds.len() as f64 - 1.0) * q) as usize)
                .copied()
                .unwrap_or(0.0)
        };
        let slow = speeds
            .iter()
            .filter(|&&v| v < w.settings().sleep.speed)
            .count();
        println!(
            "{s:>6}  {:>12.5}  {:>11.4}  {:>7}  {:>8}  {:>6}  {:>9.2}  {:>8.2}   slow={slow} p50={:.2} p90={:.2} p99={:.2}",
            c.overlap.mean(),
            c.overlap.max,
            c.overlap.over_1pct,
            c.overlap.over_10pct,
            c.asleep,
            rms,
            ms,
            pct(0.5),
            pct(0.9),
            pct(0.99)
        );
    }
}
