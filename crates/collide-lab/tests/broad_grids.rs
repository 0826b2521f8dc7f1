//! The grid broad phases (sectors with four shifts, adjacent sectors, uniform grid) against
//! brute force on seeded scenarios: fresh instances, several parameter values, and one
//! instance reused across jiggled steps and changed statics.

use collide::broad::brute_pairs;
use collide::{Aabb, BroadCounters, BroadInput, BroadKind, BroadPhase, Pair, Vec2};
use collide_lab::scenarios::{scenario, Scenario};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const GRIDS: [BroadKind; 3] = [BroadKind::Sectors, BroadKind::Adjacent, BroadKind::Grid];

/// The size parameter of each grid algorithm.
fn size_param(kind: BroadKind) -> &'static str {
    match kind {
        BroadKind::Grid => "cell size",
        _ => "sector size",
    }
}

/// Runs `bp` on `input` and checks it against brute force; returns its counters.
fn check(bp: &mut dyn BroadPhase, input: &BroadInput, what: &str) -> BroadCounters {
    let mut want = Vec::new();
    brute_pairs(input, &mut want);
    let mut got: Vec<Pair> = vec![(7, 7)]; // must be cleared
    let mut counters = BroadCounters::default();
    bp.find_pairs(input, &mut got, &mut counters);
    assert!(
        got.windows(2).all(|w| w[0] < w[1]),
        "{what}: not sorted and unique"
    );
    assert_eq!(got, want, "{what}: differs from brute force");
    assert_eq!(counters.pairs, got.len() as u64, "{what}: pairs counter");
    if let Err(e) = bp.validate() {
        panic!("{what}: validate: {e}");
    }
    counters
}

#[test]
fn fresh_instances_match_brute_force_on_1000_scenarios() {
    for kind in GRIDS {
        for seed in 0..1000 {
            let sc = scenario(seed);
            let mut bp = kind.create();
            check(
                bp.as_mut(),
                &sc.input(0),
                &format!("{} seed {seed} ({})", kind.name(), sc.label),
            );
        }
    }
}

#[test]
fn every_size_setting_matches_brute_force() {
    let settings: [(BroadKind, &[f32]); 3] = [
        // 65: just above 2 × the 32 px boxes of the "grid lines" scenarios; 32 and 30: the cell
        // equal to, and raised from just below, that side.
        (BroadKind::Sectors, &[1.0, 16.0, 33.0, 65.0, 100.0, 500.0]),
        (BroadKind::Adjacent, &[1.0, 16.0, 33.0, 65.0, 100.0, 500.0]),
        (BroadKind::Grid, &[0.0, 1.0, 7.0, 30.0, 32.0, 40.0, 300.0]),
    ];
    for (kind, sizes) in settings {
        for &size in sizes {
            let mut bp = kind.create();
            bp.set_param(size_param(kind), size).unwrap();
            for seed in 0..300 {
                let sc = scenario(seed);
                let what = format!("{} size {size} seed {seed} ({})", kind.name(), sc.label);
                check(bp.as_mut(), &sc.input(seed), &what);
            }
        }
    }
}

/// Changes the statics of `sc` (if any) in a way a cached structure would notice.
fn move_statics(sc: &mut Scenario, rng: &mut StdRng) {
    for b in &mut sc.aabbs[..sc.first_moving] {
        let d = Vec2::new(rng.gen_range(-80.0..80.0), rng.gen_range(-80.0..80.0));
        *b = Aabb::new(b.min + d, b.max + d * 2.0);
    }
}

#[test]
fn one_instance_reused_across_jiggled_steps_and_changed_statics() {
    let mut rng = StdRng::seed_from_u64(94);
    for kind in GRIDS {
        let mut bp = kind.create();
        let mut version = 0;
        for seed in 0..200 {
            let mut sc = scenario(seed);
            version += 1;
            for step in 0..8 {
                if step == 5 {
                    move_statics(&mut sc, &mut rng);
                    version += 1;
                }
                let what = format!("{} seed {seed} step {step} ({})", kind.name(), sc.label);
                check(bp.as_mut(), &sc.input(version), &what);
                sc.jiggle(&mut rng, 6.0);
            }
        }
    }
}

#[test]
fn coincident_balls_repeats_per_algorithm() {
    let b = Aabb::around(Vec2::new(300.0, 200.0), 5.0);
    let boxes = [b, b];
    let input = BroadInput {
        aabbs: &boxes,
        first_moving: 0,
        first_dynamic: 0,
        statics_version: 0,
        world: collide_lab::scenarios::WORLD,
    };
    let repeats: Vec<u64> = GRIDS
        .iter()
        .map(|k| check(k.create().as_mut(), &input, k.name()).repeats_dropped)
        .collect();
    assert_eq!(
        repeats,
        vec![3, 8, 0],
        "four shifts: 4 sightings; adjacent: 9; grid: 1"
    );
}

#[test]
fn kinds_are_registered() {
    for (kind, name, label) in [
        (BroadKind::Sectors, "sectors", "Sectors (four shifts)"),
        (BroadKind::Adjacent, "adjacent", "Adjacent sectors"),
        (BroadKind::Grid, "grid", "Uniform grid"),
    ] {
        assert!(BroadKind::ALL.contains(&kind));
        assert_eq!((kind.name(), kind.label()), (name, label));
        assert_eq!(BroadKind::from_name(name), Some(kind));
        assert_eq!(kind.create().kind(), kind);
    }
}

/// Prints AABB tests per call against brute force (run with `--nocapture`).
#[test]
fn print_aabb_tests_per_call() {
    let mut algorithms: Vec<BroadKind> = vec![BroadKind::Brute];
    algorithms.extend(GRIDS);
    for seed in [0, 10, 7, 4, 3] {
        let sc = scenario(seed);
        let balls = sc.aabbs.len() - sc.first_dynamic;
        let mut line = format!(
            "seed {seed:>2} {:<18} {:>3} obstacles {:>3} balls:",
            sc.label, sc.first_dynamic, balls
        );
        for kind in &algorithms {
            let c = check(kind.create().as_mut(), &sc.input(0), kind.name());
            line += &format!(
                "  {} {} (rep {})",
                kind.name(),
                c.aabb_tests,
                c.repeats_dropped
            );
        }
        println!("{line}");
    }
}
