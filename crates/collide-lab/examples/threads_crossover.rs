//! Where a second thread starts to pay: the box pile (`bench-peers/scenes/pile.ron`) of N
//! balls for its first seconds on 1 and on `threads` threads, every stage allowed to use
//! them (`Settings::parallel_from` 0), runs interleaved, medians of ms a frame.
//!
//! `cargo run --release -p collide-lab --example threads_crossover -- [threads] [seconds]
//! [runs] [N...]` (defaults: 2, 2, 3, and 500 1000 2000 4000 8000 16000). The crossover is
//! the smallest N from which the threads' median is below the one thread's; the library's
//! `PARALLEL_FROM` is set from it.

use collide::{BroadKind, Scene, World};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |k: usize, d: u32| args.get(k).map_or(d, |s| s.parse().expect("a number"));
    let (threads, seconds, runs) = (arg(1, 2) as usize, arg(2, 2), arg(3, 3));
    let counts: Vec<u32> = match args.len() > 4 {
        true => args[4..].iter().map(|s| s.parse().expect("N")).collect(),
        false => vec![500, 1000, 2000, 4000, 8000, 16000],
    };
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench-peers/scenes/pile.ron");
    let scene = Scene::load(&path).expect("the pile scene loads");
    println!("balls  1 thread  {threads} threads  ratio   (ms a frame, median of {runs}, first {seconds} s)");
    for n in counts {
        let mut times = [Vec::new(), Vec::new()];
        for _ in 0..runs {
            for (k, t) in [1, threads].into_iter().enumerate() {
                times[k].push(run(&scene, n, t, seconds));
            }
        }
        let [one, many] = times.map(median);
        println!("{n:>5}  {one:8.3}  {many:9.3}  {:5.2}", one / many);
    }
}

/// Ms a frame of the first `seconds` of the pile of `n` balls on `threads` threads.
fn run(scene: &Scene, n: u32, threads: usize, seconds: u32) -> f64 {
    let mut w: World = scene.clone().with_fill_count(n).build(1);
    w.set_broad_phase(BroadKind::Grid);
    w.edit_settings(|s| {
        s.threads = threads;
        s.parallel_from = 0;
    });
    let steps = w.steps_per_second() * seconds;
    let t = Instant::now();
    for _ in 0..steps {
        w.step();
    }
    t.elapsed().as_secs_f64() * 1000.0 / f64::from(60 * seconds)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
