//! Growth of each broad phase from 10k to 100k balls on the scale input, measured so that
//! the machine's load changes hit both sizes alike: each round times, for every contender,
//! one fresh instance at 100k and `SMALL_REPS` fresh instances at 10k back to back, and takes
//! the round's ratio (100k time over the 10k mean). Reports per contender the median and the
//! spread (lowest, highest) of the rounds' ratios, and the median times. Times are this
//! thread's CPU time (not inflated by time spent descheduled).
//!
//! `cargo run --release --manifest-path bench-peers/Cargo.toml --example growth -- ROUNDS [kinds…]`
//! (kinds: our algorithm names, `NAME-kept` for one instance per size kept across calls as
//! the World keeps it, and `broccoli`, `parry2d`; default every algorithm but brute force and
//! RDC, and `grid-kept`; the quadtree runs with automatic levels, as in `bench scale`).

use bench_peers::{fresh, run_broccoli, run_parry, thread_cpu};
use collide::broad::{BroadCounters, BroadKind, BroadPhase, Pair};
use collide_lab::scenarios::{scale_input, Scenario};

/// Fresh 10k calls per round, so both sizes take about the same time in a round.
const SMALL_REPS: usize = 10;

/// One call of contender `name` on `sc` (on `kept` when given); returns the pairs found.
fn run(
    name: &str,
    sc: &Scenario,
    kept: Option<&mut Box<dyn BroadPhase>>,
    pairs: &mut Vec<Pair>,
) -> usize {
    pairs.clear();
    if let Some(algo) = kept {
        algo.find_pairs(&sc.input(1), pairs, &mut BroadCounters::default());
        return pairs.len();
    }
    match name {
        "broccoli" => run_broccoli(sc, &mut Vec::new(), pairs),
        "parry2d" => run_parry(sc, pairs),
        other => {
            let kind = BroadKind::from_name(other).expect("an algorithm name");
            fresh(kind).find_pairs(&sc.input(1), pairs, &mut BroadCounters::default());
            pairs.len()
        }
    }
}

fn main() {
    collide_lab::experiments::keep_freed_memory();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args
        .first()
        .and_then(|s| s.parse().ok())
        .unwrap_or(9)
        .max(1);
    let mut names: Vec<String> = args.iter().skip(1).cloned().collect();
    if names.is_empty() {
        names = [
            "grid",
            "sap",
            "tree",
            "quadtree",
            "sectors",
            "adjacent",
            "grid-kept",
        ]
        .map(String::from)
        .to_vec();
    }
    let (small, large) = (scale_input(10_000, 2024), scale_input(100_000, 2024));
    let mut pairs = Vec::new();
    let (mut ratios, mut t_small, mut t_large) = (
        vec![Vec::new(); names.len()],
        vec![Vec::new(); names.len()],
        vec![Vec::new(); names.len()],
    );
    let mut found = vec![(0, 0); names.len()];
    // Per contender, for `-kept` names: the instance for 10k and the one for 100k.
    let mut kept: Vec<Option<[Box<dyn BroadPhase>; 2]>> = names
        .iter()
        .map(|n| n.strip_suffix("-kept").and_then(BroadKind::from_name))
        .map(|k| k.map(|k| [k.create(), k.create()]))
        .collect();
    for _ in 0..rounds {
        for (k, name) in names.iter().enumerate() {
            let (mut for_small, for_large) = match kept[k].as_mut() {
                Some([s, l]) => (Some(s), Some(l)),
                None => (None, None),
            };
            let c0 = thread_cpu();
            found[k].1 = run(name, &large, for_large, &mut pairs);
            let big = thread_cpu() - c0;
            let c0 = thread_cpu();
            for _ in 0..SMALL_REPS {
                found[k].0 = run(name, &small, for_small.as_deref_mut(), &mut pairs);
            }
            let little = (thread_cpu() - c0) / SMALL_REPS as f64;
            ratios[k].push(big / little);
            t_small[k].push(little * 1e3);
            t_large[k].push(big * 1e3);
        }
    }
    let median = |v: &mut [f64]| collide_lab::experiments::median(v).unwrap_or(0.0);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("10k → 100k, {rounds} rounds, load {}", load.trim());
    for k in 0..names.len() {
        let m = median(&mut ratios[k]); // sorts the rounds' ratios in place
        let (lo, hi) = (ratios[k][0], ratios[k][rounds - 1]);
        let (s, l) = (median(&mut t_small[k]), median(&mut t_large[k]));
        println!(
            "{:>10}: growth median {m:5.1}× (rounds {lo:4.1}–{hi:4.1}) | 10k {s:7.3} ms, 100k {l:8.3} ms | pairs {} / {}",
            names[k], found[k].0, found[k].1
        );
    }
}
