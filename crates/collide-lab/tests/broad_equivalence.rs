//! Every broad phase in [`BroadKind::ALL`] returns exactly brute force's pair set: the same
//! pairs, sorted, each once, with `validate()` passing and `counters.pairs` equal to the count.
//!
//! Inputs are the seeded adversarial scenarios of `collide_lab::scenarios` (all kinds, cycling), and
//! one instance is reused across calls so incremental paths run: balls and kinematic shapes
//! moved between calls under the same statics version, then statics moved under a new one.
//! Each algorithm also runs at every value of each integer parameter with a small range (else
//! at its min and max), and with parameters switched mid-run. New algorithms added to `ALL`
//! are covered unchanged. No timed assertions: speed belongs in benchmarks.

use collide::broad::brute_pairs;
use collide::broad::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair, Param};
use collide::{Aabb, Vec2};
use collide_lab::scenarios::{scenario, Scenario, KINDS, WORLD};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Scenarios per algorithm at default parameters.
const SCENARIOS: u64 = 1000;
/// Scenarios per non-default parameter value (a multiple of `KINDS`: every kind runs).
const SCENARIOS_PER_VALUE: u64 = 10 * KINDS;
/// Ball jiggle step between incremental calls (px).
const JIGGLE: f32 = 12.0;

/// Runs one call and checks it against brute force; `context` names the case on failure.
fn check(algo: &mut dyn BroadPhase, input: &BroadInput, context: &str) {
    let mut expected = Vec::new();
    brute_pairs(input, &mut expected);
    let mut pairs: Vec<Pair> = vec![(9, 3), (9, 3)]; // junk: find_pairs must clear it
    let mut counters = BroadCounters::default();
    algo.find_pairs(input, &mut pairs, &mut counters);
    assert_same_pairs(&pairs, &expected, context);
    assert!(
        pairs.windows(2).all(|w| w[0] < w[1]),
        "{context}: not sorted and unique"
    );
    assert_eq!(
        counters.pairs,
        pairs.len() as u64,
        "{context}: counters.pairs"
    );
    assert!(
        counters.aabb_tests >= counters.pairs,
        "{context}: fewer AABB tests than pairs"
    );
    if let Err(e) = algo.validate() {
        panic!("{context}: validate: {e}");
    }
}

/// Equal pair lists, or a panic naming the first few missing and extra pairs.
fn assert_same_pairs(got: &[Pair], want: &[Pair], context: &str) {
    if got == want {
        return;
    }
    let missing: Vec<_> = want.iter().filter(|p| !got.contains(p)).take(8).collect();
    let extra: Vec<_> = got.iter().filter(|p| !want.contains(p)).take(8).collect();
    panic!(
        "{context}: {} pairs, brute force {}; missing {missing:?}; extra {extra:?}",
        got.len(),
        want.len()
    );
}

/// Moves every box in `range` by a random step of at most `step` px on each axis.
fn move_boxes(sc: &mut Scenario, range: std::ops::Range<usize>, rng: &mut StdRng, step: f32) {
    for b in &mut sc.aabbs[range] {
        let d = Vec2::new(rng.gen_range(-step..=step), rng.gen_range(-step..=step));
        b.min += d;
        b.max += d;
    }
}

/// Scenario `seed` through one reused instance: first call, calls with balls and kinematic
/// shapes moved under the same statics version, then moved statics under a new version.
fn run_sequence(algo: &mut dyn BroadPhase, seed: u64, name: &str) {
    let mut sc = scenario(seed);
    let mut rng = StdRng::seed_from_u64(seed);
    let version = seed * 4; // unique per scenario: the instance is reused across scenarios
    let label = sc.label;
    let context = |step: &str| format!("{name}, seed {seed} ({label}), {step}");
    check(algo, &sc.input(version), &context("first call"));
    for step in 0..2 {
        sc.jiggle(&mut rng, JIGGLE);
        let kinematic = sc.first_moving..sc.first_dynamic;
        move_boxes(&mut sc, kinematic, &mut rng, JIGGLE);
        check(
            algo,
            &sc.input(version),
            &context(&format!("jiggle {step}")),
        );
    }
    let statics = 0..sc.first_moving;
    move_boxes(&mut sc, statics, &mut rng, 40.0);
    sc.jiggle(&mut rng, JIGGLE);
    check(algo, &sc.input(version + 1), &context("statics moved"));
}

/// The values each parameter is tried at: every value of a small integer range, else the
/// min and the max.
fn values(p: &Param) -> Vec<f32> {
    if p.integer && p.max - p.min <= 16.0 {
        (p.min as i32..=p.max as i32).map(|v| v as f32).collect()
    } else {
        vec![p.min, p.max]
    }
}

/// Every (parameter, value) setting of `kind`, each as a fresh instance with it applied.
fn settings(kind: BroadKind) -> Vec<(String, Box<dyn BroadPhase>)> {
    let mut out = Vec::new();
    for p in kind.create().params() {
        for v in values(&p) {
            let mut algo = kind.create();
            algo.set_param(p.name, v)
                .unwrap_or_else(|e| panic!("{} {}={v}: {e}", kind.name(), p.name));
            out.push((format!("{} {}={v}", kind.name(), p.name), algo));
        }
    }
    out
}

#[test]
fn every_algorithm_matches_brute_force_on_seeded_scenarios() {
    for &kind in BroadKind::ALL {
        let mut algo = kind.create();
        algo.validate()
            .unwrap_or_else(|e| panic!("{} fresh: {e}", kind.name()));
        for seed in 0..SCENARIOS {
            run_sequence(algo.as_mut(), seed, kind.name());
        }
    }
}

#[test]
fn every_parameter_value_matches_brute_force() {
    for &kind in BroadKind::ALL {
        for (name, mut algo) in settings(kind) {
            for seed in 0..SCENARIOS_PER_VALUE {
                run_sequence(algo.as_mut(), 7_000 + seed, &name);
            }
        }
    }
}

#[test]
fn switching_parameters_mid_run_keeps_pairs_exact() {
    for &kind in BroadKind::ALL {
        let mut algo = kind.create();
        let mut rng = StdRng::seed_from_u64(11);
        for seed in 0..KINDS {
            let mut sc = scenario(seed);
            for p in algo.params() {
                for v in values(&p) {
                    algo.set_param(p.name, v).unwrap();
                    let context = format!("{} {}={v} seed {seed}", kind.name(), p.name);
                    check(algo.as_mut(), &sc.input(seed), &context);
                    sc.jiggle(&mut rng, JIGGLE);
                    check(algo.as_mut(), &sc.input(seed), &context);
                }
            }
        }
    }
}

#[test]
fn parameters_refuse_values_outside_their_range() {
    for &kind in BroadKind::ALL {
        let mut algo = kind.create();
        for p in algo.params() {
            let span = (p.max - p.min).max(1.0);
            for bad in [p.min - span, p.max + span, f32::NAN] {
                let r = algo.set_param(p.name, bad);
                assert!(r.is_err(), "{} {}={bad} accepted", kind.name(), p.name);
            }
            assert!(algo.set_param(p.name, p.value).is_ok());
        }
        assert!(algo.set_param("no such parameter", 1.0).is_err());
    }
}

/// Hand-built: boxes on leaf and grid boundaries (touching exactly across them), point boxes
/// on leaf corners, balls partly and wholly outside the world box, a world-sized static.
fn boundary_scenario() -> (Scenario, Vec<Pair>) {
    let mut aabbs = vec![
        Aabb::new(Vec2::new(0.0, 352.0), Vec2::new(960.0, 352.0)), // static on the mid line
        Aabb::new(Vec2::new(-50.0, -100.0), Vec2::new(-50.0, 900.0)), // static outside
        WORLD,                                                     // static: the world box
        Aabb::new(Vec2::splat(480.0), Vec2::splat(480.0)),         // kinematic point
        Aabb::new(Vec2::new(230.0, 40.0), Vec2::new(240.0, 44.0)), // kinematic on grid lines
    ];
    let (first_moving, first_dynamic) = (3, 5);
    let mut ball = |b: Aabb| {
        aabbs.push(b);
        (aabbs.len() - 1) as u32
    };
    let b = |x0: f32, y0: f32, x1: f32, y1: f32| Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1));
    // Touching exactly across x = 480 (a split line at every level > 1).
    let left = ball(b(470.0, 100.0, 480.0, 110.0));
    let right = ball(b(480.0, 100.0, 490.0, 110.0));
    // Touching only at the world centre corner.
    let low = ball(b(470.0, 342.0, 480.0, 352.0));
    let high = ball(b(480.0, 352.0, 490.0, 362.0));
    // Overlapping each other wholly outside, left of the world.
    let out_a = ball(Aabb::around(Vec2::new(-100.0, 300.0), 10.0));
    let out_b = ball(Aabb::around(Vec2::new(-85.0, 300.0), 10.0));
    // Both clamp to the corner (0, 0) but do not overlap.
    ball(Aabb::around(Vec2::new(-200.0, -200.0), 10.0));
    ball(Aabb::around(Vec2::new(-20.0, -20.0), 10.0));
    // Outside beyond the max corner, overlapping.
    let far_a = ball(Aabb::around(Vec2::new(1000.0, 800.0), 50.0));
    let far_b = ball(Aabb::around(Vec2::new(1100.0, 800.0), 60.0));
    // Straddling the right edge; covering the whole world; far away from everything.
    ball(Aabb::around(Vec2::new(955.0, 352.0), 10.0));
    ball(Aabb::around(WORLD.centre(), 2000.0));
    ball(Aabb::around(Vec2::new(5000.0, -5000.0), 1.0));
    // Point boxes on leaf corners of the 5-level grid (60 × 44 px), the world corners included.
    for (i, j) in [
        (0, 0),
        (16, 16),
        (0, 16),
        (16, 0),
        (8, 8),
        (3, 5),
        (4, 4),
        (12, 7),
    ] {
        let p = Vec2::new(60.0 * i as f32, 44.0 * j as f32);
        ball(Aabb::new(p, p));
    }
    let must = vec![(left, right), (low, high), (out_a, out_b), (far_a, far_b)];
    let sc = Scenario {
        label: "leaf boundaries and outside the world",
        aabbs,
        first_moving,
        first_dynamic,
        world: WORLD,
    };
    (sc, must)
}

#[test]
fn balls_on_leaf_boundaries_and_outside_the_world_match_brute_force() {
    let (sc, must) = boundary_scenario();
    let mut expected = Vec::new();
    brute_pairs(&sc.input(1), &mut expected);
    for p in &must {
        assert!(expected.contains(p), "scenario lost its point: {p:?}");
    }
    for &kind in BroadKind::ALL {
        let mut all = settings(kind);
        all.push((kind.name().to_string(), kind.create()));
        for (name, mut algo) in all {
            check(algo.as_mut(), &sc.input(1), &name);
            check(algo.as_mut(), &sc.input(1), &format!("{name}, second call"));
        }
    }
}
