//! No setting pushes a ball through an obstacle: the box pile (`bench-peers/scenes/pile.ron`,
//! an open box of three segments) run with the soft contacts' iteration counts 1, 2, 4, 8 and
//! 64 and the panel's lowest and highest stiffness (1 and 1000 Hz) at 10,000 balls, and with
//! 1 iteration and the defaults at 40,000, counting the balls whose centre ever left the box
//! (below the floor or beside a wall) in any frame. Minutes long, so a benchmark, not a test.
//!
//! `cargo run --release -p collide-lab --example pile_contained -- [seconds] [threads]
//! [step|frame] [rows]` (defaults: 8 simulated seconds, 1 thread, contacts found at every
//! sub-step, every row; `frame`: found once a frame; `rows`: their numbers from 1, comma separated). Prints a row a setting: balls, iterations,
//! stiffness, balls ever out, mean and worst overlap of the meter at the end, asleep at the
//! end, physics ms a frame.

use collide::{BroadKind, Scene, World};
use std::time::Instant;

const WIDTH: f32 = 880.0;

/// One row: balls, collision iterations (`None`: the default), stiffness (`None`: default).
type Row = (u32, Option<u32>, Option<f32>);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: u32 = args.get(1).map_or(8, |s| s.parse().expect("seconds"));
    let threads: usize = args.get(2).map_or(1, |s| s.parse().expect("threads"));
    let once_a_frame = args.get(3).is_some_and(|s| s == "frame");
    let chosen: Vec<usize> = args.get(4).map_or(Vec::new(), |s| {
        s.split(',')
            .map(|r| r.parse().expect("row numbers"))
            .collect()
    });
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench-peers/scenes/pile.ron");
    let scene = Scene::load(&path).expect("the pile scene loads");
    let mut rows: Vec<Row> = [1, 2, 4, 8, 64]
        .iter()
        .map(|&k| (10_000, Some(k), None))
        .collect();
    rows.extend([(10_000, None, Some(1.0)), (10_000, None, Some(1000.0))]);
    rows.extend([(40_000, Some(1), None), (40_000, None, None)]);
    println!("balls  iterations  hertz  ever_out  overlap_mean  overlap_max  asleep  ms/frame");
    let mut lost_any = false;
    for (n, (balls, iterations, hertz)) in rows.into_iter().enumerate() {
        if !chosen.is_empty() && !chosen.contains(&(n + 1)) {
            continue;
        }
        let mut w: World = scene.clone().with_fill_count(balls).build(1);
        w.set_broad_phase(BroadKind::Grid);
        w.edit_settings(|s| {
            s.collision_iterations = iterations.unwrap_or(s.collision_iterations);
            s.soft.hertz = hertz.unwrap_or(s.soft.hertz);
            s.threads = threads;
            s.soft.once_a_frame = once_a_frame;
        });
        let (k, hz) = (w.settings().collision_iterations, w.settings().soft.hertz);
        let (ever_out, ms) = run(&mut w, seconds);
        lost_any |= ever_out > 0;
        let o = w.counters().overlap;
        let mean = o.sum / f64::from(o.pairs.max(1));
        println!(
            "{balls:>6} {k:>10} {hz:>6} {ever_out:>9} {:>12.2} % {:>10.1} % {:>7} {ms:>9.2}",
            mean * 100.0,
            o.max * 100.0,
            w.counters().asleep
        );
    }
    println!(
        "{}",
        if lost_any {
            "SOME BALL LEFT THE BOX"
        } else {
            "every ball stayed in the box"
        }
    );
}

/// Runs `seconds` simulated seconds; returns the balls that were ever out of the box at the
/// end of a frame and the physics time a frame (ms).
fn run(w: &mut World, seconds: u32) -> (usize, f64) {
    let per_frame = w.settings().motion_iterations.max(1);
    let mut out = vec![false; w.balls().len()];
    let t = Instant::now();
    let frames = seconds * 60;
    for _ in 0..frames {
        for _ in 0..per_frame {
            w.step();
        }
        for (o, b) in out.iter_mut().zip(w.balls()) {
            *o |= b.pos.y < 0.0 || b.pos.x < 0.0 || b.pos.x > WIDTH;
        }
    }
    let ms = t.elapsed().as_secs_f64() * 1000.0 / f64::from(frames);
    (out.iter().filter(|&&o| o).count(), ms)
}
