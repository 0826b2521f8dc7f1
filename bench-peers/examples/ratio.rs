//! Quick interleaved timing of our broad phases against parry2d's `Bvh` and broccoli on the
//! scale input, for before/after comparisons on a loaded machine: each round runs every
//! contender once, in turn, so load changes hit all of them alike. Reports, per contender, the
//! median and minimum over the rounds of both wall time and this thread's CPU time (the
//! latter is not inflated by time spent descheduled).
//!
//! `cargo run --release --manifest-path bench-peers/Cargo.toml --example ratio -- N ROUNDS [kinds…]`
//! (kinds: our algorithm names, `NAME-kept` for one instance kept across rounds; default
//! `grid`; the quadtree runs with automatic levels). `PEERS=0` leaves the peers out (for profiling ours).

use broccoli::aabb::Rect;
use collide::broad::scenarios::{scale_input, Scenario};
use collide::broad::{BroadCounters, BroadKind, BroadPhase, Pair};
use parry2d::bounding_volume::Aabb as ParryAabb;
use parry2d::math::Vector;
use parry2d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
use std::time::Instant;

/// This thread's CPU time (s).
fn thread_cpu() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

fn run_parry(sc: &Scenario, pairs: &mut Vec<Pair>) -> usize {
    pairs.clear();
    let leaves = sc.aabbs.iter().map(|b| {
        let (lo, hi) = (Vector::new(b.min.x, b.min.y), Vector::new(b.max.x, b.max.y));
        ParryAabb::new(lo, hi)
    });
    let bvh = Bvh::from_iter(BvhBuildStrategy::Binned, leaves.enumerate());
    let mut workspace = BvhWorkspace::default();
    bvh.traverse_bvtt_single_tree::<false>(&mut workspace, &mut |a, b| pairs.push((a, b)));
    pairs.len()
}

fn run_broccoli(sc: &Scenario, boxes: &mut Vec<(Rect<f32>, u32)>, pairs: &mut Vec<Pair>) -> usize {
    pairs.clear();
    boxes.clear();
    boxes.extend(
        sc.aabbs
            .iter()
            .enumerate()
            .map(|(i, b)| (broccoli::rect(b.min.x, b.max.x, b.min.y, b.max.y), i as u32)),
    );
    let mut tree = broccoli::Tree::new(boxes.as_mut_slice());
    tree.find_colliding_pairs(|a, b| pairs.push((a.1, b.1)));
    pairs.len()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    bench_peers::keep_freed_memory();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let rounds: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(9);
    let mut names: Vec<String> = args.iter().skip(2).cloned().collect();
    if names.is_empty() {
        names.push("grid".into());
    }
    if std::env::var("PEERS").map_or(true, |v| v != "0") {
        names.push("broccoli".into());
        names.push("parry2d".into());
    }
    let mut kept: Vec<Option<Box<dyn BroadPhase>>> = names
        .iter()
        .map(|n| n.strip_suffix("-kept").and_then(BroadKind::from_name))
        .map(|k| k.map(|k| k.create()))
        .collect();
    let sc = scale_input(n, 2024);
    let (mut pairs, mut boxes) = (Vec::new(), Vec::new());
    let mut wall = vec![Vec::new(); names.len()];
    let mut cpu = vec![Vec::new(); names.len()];
    let mut counts = vec![0; names.len()];
    for _ in 0..rounds {
        for (k, name) in names.iter().enumerate() {
            let (t0, c0) = (Instant::now(), thread_cpu());
            counts[k] = match name.as_str() {
                "broccoli" => run_broccoli(&sc, &mut boxes, &mut pairs),
                "parry2d" => run_parry(&sc, &mut pairs),
                _ if kept[k].is_some() => {
                    let algo = kept[k].as_mut().unwrap();
                    algo.find_pairs(&sc.input(1), &mut pairs, &mut BroadCounters::default());
                    pairs.len()
                }
                other => {
                    // `grid@64`: the grid with 64 px cells.
                    let (name, size) = other.split_once('@').unwrap_or((other, ""));
                    let kind = BroadKind::from_name(name).expect("an algorithm name");
                    let mut algo = kind.create();
                    if let Ok(size) = size.parse::<f32>() {
                        algo.set_param("cell size", size).expect("a cell size");
                    }
                    if kind == BroadKind::Quadtree {
                        algo.set_param("levels", 0.0).expect("automatic levels");
                    }
                    algo.find_pairs(&sc.input(1), &mut pairs, &mut BroadCounters::default());
                    pairs.len()
                }
            };
            cpu[k].push((thread_cpu() - c0) * 1e3);
            wall[k].push(t0.elapsed().as_secs_f64() * 1e3);
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("N = {n}, {rounds} rounds, load {}", load.trim());
    let best_cpu = median(&mut cpu[0].clone());
    for k in 0..names.len() {
        let (wm, cm) = (median(&mut wall[k]), median(&mut cpu[k]));
        println!(
            "{:>10}: wall median {wm:8.2} ms min {:8.2} | cpu median {cm:8.2} ms min {:8.2} | ×{:5.2} of {} | {} pairs",
            names[k],
            wall[k][0],
            cpu[k][0],
            cm / best_cpu,
            names[0],
            counts[k]
        );
    }
}
