//! RDC, sweep and prune and the AABB tree against brute force on seeded scenarios.
//!
//! Each run reuses one instance through a sequence per scenario: a first call, jiggled steps,
//! fewer balls, more balls, statics moved under a new `statics_version`, kinematic shapes
//! moved. The long runs also carry one instance from scenario to scenario (a new layout every
//! time); the parameter sweeps start fresh per scenario. Every call must give exactly the
//! brute-force pairs, sorted and unique, with honest `pairs` and no repeats, and leave a
//! structure that validates.

use collide::broad::brute_pairs;
use collide::{BroadCounters, BroadKind, BroadPhase, Pair, Vec2};
use collide_lab::scenarios::{scenario, Scenario};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Scenarios for the default parameter of each algorithm.
const SEEDS: u64 = 1000;
/// Scenarios for each other parameter value.
const PARAM_SEEDS: u64 = 200;

fn configured(kind: BroadKind, param: &str, value: f32) -> Box<dyn BroadPhase> {
    let mut broad = kind.create();
    broad.set_param(param, value).expect("valid parameter");
    broad
}

/// One call, compared with brute force.
fn check(broad: &mut dyn BroadPhase, sc: &Scenario, version: u64, what: &str) {
    let input = sc.input(version);
    let mut got: Vec<Pair> = vec![(7, 3)]; // stale content must be cleared
    let mut counters = BroadCounters::default();
    broad.find_pairs(&input, &mut got, &mut counters);
    let ctx = format!(
        "{} {what} ({}, {} boxes)",
        broad.kind().name(),
        sc.label,
        sc.aabbs.len()
    );
    if let Err(e) = broad.validate() {
        panic!("{ctx}: validate: {e}");
    }
    assert!(
        got.windows(2).all(|w| w[0] < w[1]),
        "{ctx}: not sorted and unique"
    );
    let mut expect = Vec::new();
    brute_pairs(&input, &mut expect);
    assert_eq!(got, expect, "{ctx}: pairs differ from brute force");
    assert_eq!(counters.pairs, got.len() as u64, "{ctx}: pairs counter");
    assert_eq!(counters.repeats_dropped, 0, "{ctx}: repeats");
    if !got.is_empty() {
        assert!(
            counters.aabb_tests > 0,
            "{ctx}: pairs found without a box test"
        );
    }
}

/// Moves every box in `range` by a random step of at most `step` px.
fn shift(sc: &mut Scenario, range: std::ops::Range<usize>, rng: &mut StdRng, step: f32) {
    for b in &mut sc.aabbs[range] {
        let d = Vec2::new(rng.gen_range(-step..=step), rng.gen_range(-step..=step));
        b.min += d;
        b.max += d;
    }
}

/// The per-scenario sequence of calls on one instance.
fn sequence(broad: &mut dyn BroadPhase, seed: u64) {
    let mut sc = scenario(seed);
    let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(31) + 1);
    let version = seed * 2;
    check(broad, &sc, version, &format!("seed {seed} first call"));
    for step in 0..3 {
        sc.jiggle(&mut rng, 2.0);
        check(broad, &sc, version, &format!("seed {seed} jiggle {step}"));
    }
    let keep = sc.first_dynamic + (sc.aabbs.len() - sc.first_dynamic) / 2;
    let removed = sc.aabbs.split_off(keep);
    check(broad, &sc, version, &format!("seed {seed} fewer balls"));
    sc.aabbs.extend(removed);
    sc.jiggle(&mut rng, 25.0);
    check(broad, &sc, version, &format!("seed {seed} more balls"));
    let (fm, fd) = (sc.first_moving, sc.first_dynamic);
    shift(&mut sc, 0..fm, &mut rng, 40.0);
    check(
        broad,
        &sc,
        version + 1,
        &format!("seed {seed} statics moved"),
    );
    shift(&mut sc, fm..fd, &mut rng, 10.0);
    check(
        broad,
        &sc,
        version + 1,
        &format!("seed {seed} kinematics moved"),
    );
}

/// The default instance carried through `SEEDS` scenarios, then fresh instances per scenario
/// for each other parameter value.
fn sweep(kind: BroadKind, param: &str, others: &[f32]) {
    let mut broad = kind.create();
    for seed in 0..SEEDS {
        sequence(broad.as_mut(), seed);
    }
    for &value in others {
        for seed in 0..PARAM_SEEDS {
            sequence(configured(kind, param, value).as_mut(), seed + 7_000);
        }
    }
}

#[test]
fn rdc_matches_brute_force_on_seeded_scenarios() {
    sweep(BroadKind::Rdc, "threshold", &[1.0, 2.0, 32.0]);
}

#[test]
fn sap_matches_brute_force_on_seeded_scenarios() {
    sweep(BroadKind::Sap, "axis", &[1.0, 2.0]);
}

#[test]
fn tree_matches_brute_force_on_seeded_scenarios() {
    sweep(BroadKind::Tree, "margin", &[0.0, 32.0]);
}

#[test]
fn one_instance_survives_switching_between_scenario_kinds_every_call() {
    // Layout, ball count and statics version change on every call.
    for kind in [BroadKind::Rdc, BroadKind::Sap, BroadKind::Tree] {
        let mut broad = kind.create();
        for seed in 0..200 {
            check(
                broad.as_mut(),
                &scenario(seed),
                seed,
                &format!("seed {seed} alone"),
            );
        }
    }
}

#[test]
fn same_statics_version_with_new_ball_count_keeps_statics() {
    // Balls launched one by one onto a fixed table: only the tail of the input grows.
    let full = scenario(40);
    for kind in [BroadKind::Rdc, BroadKind::Sap, BroadKind::Tree] {
        let mut broad = kind.create();
        for n in (full.first_dynamic..=full.aabbs.len())
            .chain((full.first_dynamic..full.aabbs.len()).rev())
        {
            let mut sc = full.clone();
            sc.aabbs.truncate(n);
            check(broad.as_mut(), &sc, 5, &format!("{n} boxes"));
        }
    }
}

#[test]
fn inverted_boxes_match_brute_force() {
    // min > max on one axis: never built by the world, but must not break a structure.
    for seed in 0..200 {
        let mut sc = scenario(seed);
        for (k, b) in sc.aabbs.iter_mut().enumerate().filter(|(k, _)| k % 5 == 0) {
            let axis = k % 2;
            let (lo, hi) = (b.min[axis], b.max[axis]);
            b.min[axis] = hi + 1.0;
            b.max[axis] = lo;
        }
        for kind in [BroadKind::Rdc, BroadKind::Sap, BroadKind::Tree] {
            check(
                kind.create().as_mut(),
                &sc,
                1,
                &format!("seed {seed} inverted"),
            );
        }
    }
}

#[test]
fn names_labels_and_registration() {
    for (kind, name, label, params) in [
        (BroadKind::Rdc, "rdc", "Recursive dimensional clustering", 1),
        (BroadKind::Sap, "sap", "Sweep and prune", 2),
        (BroadKind::Tree, "tree", "AABB tree", 1),
    ] {
        assert!(BroadKind::ALL.contains(&kind));
        assert_eq!(kind.name(), name);
        assert_eq!(kind.label(), label);
        assert_eq!(BroadKind::from_name(name), Some(kind));
        assert_eq!(kind.create().kind(), kind);
        assert_eq!(kind.create().params().len(), params);
    }
}
