//! The experiments on tiny runs: consistent rows, not timings.
// The library's test helpers, one copy for both crates' tests.
#[path = "../../collide/tests/common/mod.rs"]
mod common;

use collide::BroadKind;
use collide_lab::experiments::table_sweep::{self, SweepConfig};

fn tiny() -> SweepConfig {
    SweepConfig {
        min_balls: 2,
        max_balls: 4,
        seconds: 1,
        ..SweepConfig::default()
    }
}

#[test]
fn table_sweep_brute_force_counts_match_the_closed_form() {
    let scene = collide::Scene::parse(common::TABLE, "table.ron").unwrap();
    let mut last = 0.0;
    let sweep = table_sweep::run(&scene, &tiny(), &mut |f| {
        assert!(f >= last && f <= 1.0);
        last = f;
    });
    assert_eq!(last, 1.0);
    assert_eq!(sweep.rows.len(), 3 * BroadKind::ALL.len());
    for r in sweep.rows.iter().filter(|r| r.kind == BroadKind::Brute) {
        let (n, m) = (r.balls as f64, r.obstacles as f64);
        // Every ball against every obstacle and every other ball, once per 1/60 s frame.
        assert_eq!(r.tests_per_iteration, n * m + n * (n - 1.0) / 2.0, "{r:?}");
        assert_eq!(r.iterations, 60);
    }
    assert_eq!(sweep.leaf_rows.len(), 3);
    for l in &sweep.leaf_rows {
        let n = l.balls as f64;
        assert_eq!(l.brute_ball_tests, n * (n - 1.0) / 2.0);
    }
}

#[test]
fn table_sweep_runs_follow_one_trajectory_whatever_the_broad_phase() {
    let scene = collide::Scene::parse(common::TABLE, "table.ron").unwrap();
    let sweep = table_sweep::run(&scene, &tiny(), &mut |_| {});
    for n in 2..=4 {
        let runs: Vec<_> = sweep.rows.iter().filter(|r| r.balls == n).collect();
        assert!(
            runs.iter().all(|r| r.state_hash == runs[0].state_hash),
            "{runs:?}"
        );
        assert!(runs
            .iter()
            .all(|r| r.pairs_per_iteration == runs[0].pairs_per_iteration));
    }
    let summary = table_sweep::summarize(&sweep.rows);
    assert_eq!(summary.len(), BroadKind::ALL.len());
    let brute = &summary[0];
    assert_eq!(brute.kind, BroadKind::Brute);
    assert_eq!(brute.brute_factor_at_max, 1.0);
    assert_eq!(brute.overtakes_brute_at, None);
}

/// The table with `n` balls launched and in play, on `kind`.
fn table_in_play(n: u32, kind: BroadKind) -> (collide::Scene, collide::World) {
    let scene = collide::Scene::parse(common::TABLE, "table.ron").unwrap();
    let mut world = scene.build(3);
    world.set_broad_phase(kind);
    world.launch(n);
    for _ in 0..600 {
        world.step();
    }
    (scene, world)
}

#[test]
fn param_sweep_gives_one_point_per_value_on_one_trajectory() {
    use collide_lab::experiments::param_sweep::{self, ParamSweepConfig};
    let (scene, world) = table_in_play(12, BroadKind::Grid);
    let values = vec![20.0, 32.0, 64.0, 128.0];
    let config = ParamSweepConfig {
        iterations: 30,
        ..ParamSweepConfig::new("cell size", values.clone())
    };
    let mut last = 0.0;
    let state = world.save_state();
    let points = param_sweep::run(&scene, &state, &config, None, &mut |f| last = f).unwrap();
    assert_eq!(last, 1.0);
    assert_eq!(points.iter().map(|p| p.value).collect::<Vec<_>>(), values);
    for p in &points {
        assert!(p.iterations >= 30, "{p:?}");
        assert!(p.tests_per_iteration > 0.0, "{p:?}");
        assert_eq!(p.micros_per_iteration, None);
        // The same pairs, so the same simulation, whatever the cell size.
        assert_eq!(p.steps, points[0].steps, "{p:?}");
        assert_eq!(p.state_hash, points[0].state_hash, "{p:?}");
        assert_eq!(p.pairs_per_iteration, points[0].pairs_per_iteration);
    }
    // The world the sweep started from is not touched.
    assert_eq!(world.state_hash(), state.hash);
}

#[test]
fn param_sweep_of_quadtree_levels_counts_more_node_tests_deeper() {
    use collide_lab::experiments::param_sweep::{self, ParamSweepConfig};
    let (scene, world) = table_in_play(3, BroadKind::Quadtree);
    let config = ParamSweepConfig::new("levels", vec![1.0, 5.0]);
    let points = param_sweep::run(&scene, &world.save_state(), &config, None, &mut |_| {}).unwrap();
    assert_eq!(points.len(), 2);
    // Three balls far apart: five levels cost node tests that one level (brute force
    // inside the root) does not.
    assert!(points[1].tests_per_iteration != points[0].tests_per_iteration);
}

#[test]
fn param_sweep_refuses_a_value_the_broad_phase_refuses_naming_it() {
    use collide_lab::experiments::param_sweep::{self, ParamSweepConfig};
    let (scene, world) = table_in_play(2, BroadKind::Sectors);
    let config = ParamSweepConfig::new("sector size", vec![64.0, -1.0]);
    let err =
        param_sweep::run(&scene, &world.save_state(), &config, None, &mut |_| {}).unwrap_err();
    assert!(err.contains("sector size = -1"), "{err}");
    let unknown = ParamSweepConfig::new("cell size", vec![8.0]);
    let err =
        param_sweep::run(&scene, &world.save_state(), &unknown, None, &mut |_| {}).unwrap_err();
    assert!(err.contains("cell size"), "{err}");
}
