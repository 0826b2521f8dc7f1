//! The one line a run of N frames ends with: the desktop's `--frames` and `--headless` runs
//! and the web page print the same text, so their hashes can be compared by eye or by script.

use crate::World;

/// The summary line after `frames` frames: balls, the counters, the broad phase and solver,
/// the threads when the step runs on more than one (`threads=N`: set, and at least
/// `Settings::parallel_from` balls in play; the hash is the same on any number), the
/// run's timings (`fps`; `physics_ms`, the mean physics time a frame over the run, and
/// `physics_ms_last`, over its last 60 frames) and the world's state hash. Only the timings
/// differ between two runs of the same simulation.
pub fn summary(
    frames: u64,
    world: &World,
    fps: f64,
    physics_ms: f64,
    physics_ms_last: f64,
) -> String {
    let c = world.counters();
    let st = world.settings();
    let threads = match st.threads {
        n if n > 1 && world.balls().len() >= st.parallel_from => format!(" threads={n}"),
        _ => String::new(),
    };
    format!(
        "frames={frames} balls={} strays={} co_located={} overlap_max={:.4} overlap_mean={:.5} asleep={} aabb_tests={} broad={} solver={}{threads} fps={fps:.1} physics_ms={physics_ms:.3} physics_ms_last={physics_ms_last:.3} hash={:016x}",
        world.balls().len(),
        c.strays,
        c.co_located,
        c.overlap.max,
        c.overlap.mean(),
        c.asleep,
        c.total.broad.aabb_tests,
        world.broad().kind().name(),
        world.settings().solver.name(),
        world.state_hash()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scene;

    #[test]
    fn the_summary_of_an_empty_table_names_its_fields_in_order_and_ends_with_the_hash() {
        let world = Scene::builtin("table").expect("built in").build(1);
        let line = summary(0, &world, 0.0, 0.0, 0.0);
        let keys: Vec<&str> = line
            .split(' ')
            .map(|f| f.split('=').next().unwrap())
            .collect();
        assert_eq!(
            keys,
            [
                "frames",
                "balls",
                "strays",
                "co_located",
                "overlap_max",
                "overlap_mean",
                "asleep",
                "aabb_tests",
                "broad",
                "solver",
                "fps",
                "physics_ms",
                "physics_ms_last",
                "hash"
            ]
        );
        assert!(line.ends_with(&format!("hash={:016x}", world.state_hash())));
    }
}
