//! Growth of each broad phase from 10k to 100k balls on the scale input, measured so that
//! this machine's load changes hit both sizes alike: each round times, for every contender,
//! one fresh instance at 100k and `SMALL_REPS` fresh instances at 10k back to back, and takes
//! the round's ratio (100k time over the 10k mean). Reports per contender the median and the
//! spread (lowest, highest) of the rounds' ratios, and the median times. Times are this
//! thread's CPU time (not inflated by time spent descheduled).
//!
//! `cargo run --release --manifest-path bench-peers/Cargo.toml --example growth -- ROUNDS [kinds…]`
//! (kinds: our algorithm names, `NAME-kept` for one instance per size kept across calls as
//! the World keeps it, and `broccoli`, `parry2d`; default every algorithm but brute force and
//! RDC, and `grid-kept`; the quadtree runs with automatic levels, as in `bench scale`).

use broccoli::aabb::Rect;
use collide::broad::scenarios::{scale_input, Scenario};
use collide::broad::{BroadCounters, BroadKind, BroadPhase, Pair};
use parry2d::bounding_volume::Aabb as ParryAabb;
use parry2d::math::Vector;
use parry2d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};

/// Fresh 10k calls per round, so both sizes take about the same time in a round.
const SMALL_REPS: usize = 10;

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
        "broccoli" => {
            let mut boxes: Vec<(Rect<f32>, u32)> = (0u32..)
                .zip(&sc.aabbs)
                .map(|(i, b)| (broccoli::rect(b.min.x, b.max.x, b.min.y, b.max.y), i))
                .collect();
            let mut tree = broccoli::Tree::new(boxes.as_mut_slice());
            tree.find_colliding_pairs(|a, b| pairs.push((a.1, b.1)));
        }
        "parry2d" => {
            let leaves = sc.aabbs.iter().map(|b| {
                let (lo, hi) = (Vector::new(b.min.x, b.min.y), Vector::new(b.max.x, b.max.y));
                ParryAabb::new(lo, hi)
            });
            let bvh = Bvh::from_iter(BvhBuildStrategy::Binned, leaves.enumerate());
            let mut workspace = BvhWorkspace::default();
            bvh.traverse_bvtt_single_tree::<false>(&mut workspace, &mut |a, b| pairs.push((a, b)));
        }
        other => {
            let kind = BroadKind::from_name(other).expect("an algorithm name");
            let mut algo = kind.create();
            if kind == BroadKind::Quadtree {
                algo.set_param("levels", 0.0).expect("automatic levels");
            }
            algo.find_pairs(&sc.input(1), pairs, &mut BroadCounters::default());
        }
    }
    pairs.len()
}

/// Median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    bench_peers::keep_freed_memory();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(9);
    let mut names: Vec<String> = args.iter().skip(1).cloned().collect();
    if names.is_empty() {
        names = ["grid", "sap", "tree", "quadtree", "sectors", "adjacent", "grid-kept"]
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
            let c0 = thread_cpu();
            let [for_small, for_large] = match kept[k].as_mut() {
                Some([s, l]) => [Some(s), Some(l)],
                None => [None, None],
            };
            found[k].1 = run(name, &large, for_large, &mut pairs);
            let big = thread_cpu() - c0;
            let c0 = thread_cpu();
            let mut for_small = for_small;
            for _ in 0..SMALL_REPS {
                found[k].0 = run(name, &small, for_small.as_deref_mut(), &mut pairs);
            }
            let little = (thread_cpu() - c0) / SMALL_REPS as f64;
            ratios[k].push(big / little);
            t_small[k].push(little * 1e3);
            t_large[k].push(big * 1e3);
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!("10k → 100k, {rounds} rounds, load {}", load.trim());
    for k in 0..names.len() {
        let m = median(&mut ratios[k]);
        let (lo, hi) = (ratios[k][0], ratios[k][rounds - 1]);
        let (s, l) = (median(&mut t_small[k]), median(&mut t_large[k]));
        println!(
            "{:>10}: growth median {m:5.1}× (rounds {lo:4.1}–{hi:4.1}) | 10k {s:7.3} ms, 100k {l:8.3} ms | pairs {} / {}",
            names[k], found[k].0, found[k].1
        );
    }
}
