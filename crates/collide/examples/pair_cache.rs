//! The pair cache at 10,000 balls: how often it queries, how many pairs it keeps and filters,
//! and the physics time per frame with it on and off, on the table (`--fill`, gravity: a
//! dense pile) and the field (its own random fill, no gravity), grid broad phase.
//!
//! Run: `cargo run --release -p collide --example pair_cache [frames] [balls]`

use collide::{BroadKind, Scene, World};
use std::time::Instant;

const TABLE: &str = include_str!("../scenes/table.ron");
const FIELD: &str = include_str!("../scenes/field.ron");

/// The app's `--fill N` on the table, or the field's own fill of N.
fn world(field: bool, n: u32) -> World {
    let mut w = if field {
        Scene::parse(FIELD, "field.ron")
            .expect("field parses")
            .with_fill_count(n)
            .build(1)
    } else {
        let mut w = Scene::parse(TABLE, "table.ron")
            .expect("table parses")
            .build(1);
        w.fill_random(n, (2.1, 3.0), 300.0);
        w
    };
    w.set_broad_phase(BroadKind::Grid);
    w
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let frames: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(300);
    let n: u32 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    for field in [false, true] {
        for cache in [true, false] {
            // PAIR_CACHE_ONLY=table-true (say) runs that one configuration.
            let name = format!("{}-{cache}", if field { "field" } else { "table" });
            if std::env::var("PAIR_CACHE_ONLY").is_ok_and(|o| o != name) {
                continue;
            }
            let mut w = world(field, n);
            w.edit_settings(|st| st.pair_cache = cache);
            let (t, cpu0) = (Instant::now(), cpu_ns());
            for _ in 0..frames {
                for _ in 0..w.settings().motion_iterations {
                    w.step();
                }
            }
            let ms = t.elapsed().as_secs_f64() * 1e3 / frames as f64;
            let cpu_ms = (cpu_ns() - cpu0) as f64 / 1e6 / frames as f64;
            let c = w.counters().total;
            let it = c.iterations.max(1) as f64;
            let steps = w.steps().max(1) as f64;
            println!(
                "{} cache={cache}: {ms:.1} ms/frame ({cpu_ms:.1} ms CPU)  hash={:016x}  queries/step {:.3}  re-boxed/step {:.1}  \
                 kept pairs/query {:.0}  pairs/iteration {:.0}  broad tests/iteration {:.0}  \
                 cache tests/iteration {:.0}  wall-pass tests/step {:.0}",
                if field { "field" } else { "table" },
                w.state_hash(),
                c.cache_queries as f64 / steps,
                c.cache_moved as f64 / steps,
                c.cache_pairs as f64 / c.cache_queries.max(1) as f64,
                c.broad.pairs as f64 / it,
                c.broad.aabb_tests as f64 / it,
                c.cache_tests as f64 / it,
                c.wall_pass.aabb_tests as f64 / steps,
            );
        }
    }
}

/// CPU time this thread has run (ns), from /proc/thread-self/schedstat; wall time elsewhere.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}
