//! The experiments on tiny runs: consistent rows, not timings.
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
