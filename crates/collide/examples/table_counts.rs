//! AABB tests, candidate pairs and broad-phase time per collision iteration on the table
//! scene, for every broad phase, at 100, 250 (the app's case) and 1,000 balls.
//!
//! For each ball count and algorithm: build the table from one seed, queue the balls, and
//! simulate `WARMUP_S` seconds with sweep and prune doing the broad phase (every broad phase
//! returns the same pairs, so the trajectory does not depend on which one runs), then switch to
//! the algorithm and simulate `MEASURE_S` more seconds. The numbers are the averages over the
//! last complete simulated second, so the structure has had a full second to settle.
//!
//! Run: `cargo run --release -p collide --example table_counts [radius at 1,000 balls]
//! [algorithm names…] [--stats]`

use collide::{BroadKind, Scene, World};
use std::sync::OnceLock;
use std::time::Instant;

/// The table scene shipped with the app.
const TABLE: &str = include_str!("../scenes/table.ron");
/// Seed of every world.
const SEED: u64 = 3;
/// Simulated seconds before switching to the measured algorithm.
const WARMUP_S: u32 = 58;
/// Simulated seconds with the measured algorithm (the last one is reported).
const MEASURE_S: u32 = 2;

/// Ball radius (px) at 1,000 balls: the table's own 10 px. They all enter (none pending, no
/// strays, no overlaps after 60 s) and fill the lower half of the table as a packed pile.
const BIG_RADIUS: f32 = 10.0;

/// Nanoseconds since the first call.
fn nanos() -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// Runs `seconds` of simulated time at the world's current motion iterations.
fn simulate(w: &mut World, seconds: u32) {
    let steps = seconds as u64 * 60 * w.settings().motion_iterations as u64;
    for _ in 0..steps {
        w.step();
    }
}

/// The table with `n` balls of `radius` px launched and spread, running `kind` for the last
/// `MEASURE_S` seconds.
fn measured(kind: BroadKind, n: u32, radius: f32) -> World {
    let mut w = Scene::parse(TABLE, "table.ron")
        .expect("the table scene parses")
        .build(SEED);
    w.edit_settings(|st| st.ball_radius = radius);
    // The broad phase's own work every iteration, as in the toy's figures (Parberry, Collision Math Toy).
    w.edit_settings(|st| st.pair_cache = false);
    w.set_clock(nanos);
    w.set_broad_phase(BroadKind::Sap);
    w.launch(n);
    simulate(&mut w, WARMUP_S);
    w.set_broad_phase(kind);
    simulate(&mut w, MEASURE_S);
    w
}

/// Command line: an optional radius (px) for the 1,000-ball run, algorithm names (default:
/// all), and `--stats` to print each algorithm's own read-outs after its row.
struct Options {
    big_radius: f32,
    kinds: Vec<BroadKind>,
    stats: bool,
}

impl Options {
    fn from_args() -> Self {
        let mut o = Options {
            big_radius: BIG_RADIUS,
            kinds: Vec::new(),
            stats: false,
        };
        for a in std::env::args().skip(1) {
            if a == "--stats" {
                o.stats = true;
            } else if let Ok(r) = a.parse() {
                o.big_radius = r;
            } else {
                let kind = BroadKind::from_name(&a);
                o.kinds
                    .push(kind.unwrap_or_else(|| panic!("no broad phase {a:?}")));
            }
        }
        if o.kinds.is_empty() {
            o.kinds = BroadKind::ALL.to_vec();
        }
        o
    }
}

fn main() {
    println!(
        "table scene, seed {SEED}; {WARMUP_S} s warm-up (sap) + {MEASURE_S} s measured; \
         per collision iteration, averaged over the last simulated second"
    );
    let opts = Options::from_args();
    for (n, radius) in [(100, 10.0), (250, 10.0), (1000, opts.big_radius)] {
        println!();
        let mut header = true;
        for &kind in &opts.kinds {
            let w = measured(kind, n, radius);
            let c = w.counters();
            if header {
                println!(
                    "{n} balls queued, radius {radius} px: {} in play, {} pending, {} strays, \
                     {} overlaps, {} obstacles",
                    w.balls().len(),
                    w.pending_launches(),
                    c.strays,
                    c.co_located,
                    w.shapes().len()
                );
                println!(
                    "{:<10} {:>12} {:>10} {:>10}",
                    "broad", "AABB tests", "pairs", "broad µs"
                );
                header = false;
            }
            let (tests, pairs, _, us) = c.last_second.per_iteration();
            println!(
                "{:<10} {:>12.0} {:>10.1} {:>10.2}",
                kind.name(),
                tests,
                pairs,
                us
            );
            if opts.stats {
                for (label, value) in w.broad().stats() {
                    println!("    {label}: {value}");
                }
            }
        }
    }
}
