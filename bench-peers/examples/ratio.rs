//! Quick interleaved timing of our broad phases against parry2d's `Bvh` and broccoli on the
//! scale input, for before/after comparisons on a loaded machine: each round runs every
//! contender once, in turn, so load changes hit all of them alike. Reports, per contender, the
//! median and minimum over the rounds of both wall time and this thread's CPU time (the
//! latter is not inflated by time spent descheduled).
//!
//! `cargo run --release --manifest-path bench-peers/Cargo.toml --example ratio -- N ROUNDS [kinds…]`
//! (kinds: our algorithm names, `NAME-kept` for one instance kept across rounds; default
//! `grid`; the quadtree runs with automatic levels). `PEERS=0` leaves the peers out (for profiling ours).

use bench_peers::{fresh, run_broccoli, run_parry, thread_cpu};
use collide::broad::{BroadCounters, BroadKind, BroadPhase};
use collide_lab::scenarios::scale_input;
use std::time::Instant;

fn main() {
    collide_lab::experiments::keep_freed_memory();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let rounds: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(9).max(1);
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
                    let mut algo = fresh(kind);
                    if let Ok(size) = size.parse::<f32>() {
                        algo.set_param("cell size", size).expect("a cell size");
                    }
                    algo.find_pairs(&sc.input(1), &mut pairs, &mut BroadCounters::default());
                    pairs.len()
                }
            };
            cpu[k].push((thread_cpu() - c0) * 1e3);
            wall[k].push(t0.elapsed().as_secs_f64() * 1e3);
        }
    }
    let median = |v: &mut [f64]| collide_lab::experiments::median(v).unwrap_or(0.0);
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
