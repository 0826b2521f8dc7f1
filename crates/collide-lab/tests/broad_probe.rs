//! The probe's per-ball record against the broad phase's own totals, for every algorithm in
//! [`BroadKind::ALL`], on the seeded scenarios of `collide_lab::scenarios` (every kind, one
//! instance reused so the incremental paths run): a probed instance returns the same pairs
//! and counters as a plain one fed the same calls; the tests given to the boxes plus the
//! structure's equal `aabb_tests` exactly; each box's candidates are the pairs it is in; the
//! focus's visits carry its tests.

use collide::broad::brute_pairs;
use collide::broad::{
    brute_force_share, brute_force_tests, BroadCounters, BroadInput, BroadKind, BroadPhase, Heat,
    Pair, Probe,
};
use collide_lab::scenarios::{scale_input, scenario, KINDS};
use rand::rngs::StdRng;
use rand::SeedableRng;

/// Scenarios per algorithm (a multiple of `KINDS`: every kind runs).
const SCENARIOS: u64 = 20 * KINDS;
/// Ball jiggle step between incremental calls (px).
const JIGGLE: f32 = 12.0;

/// One call of each instance; the plain one's pairs and counters, the probed one's record.
fn both(
    plain: &mut dyn BroadPhase,
    probed: &mut dyn BroadPhase,
    input: &BroadInput,
    probe: &mut Probe,
) -> (Vec<Pair>, BroadCounters) {
    let (mut pairs, mut counters) = (Vec::new(), BroadCounters::default());
    plain.find_pairs(input, &mut pairs, &mut counters);
    let (mut pairs2, mut counters2) = (vec![(9, 3)], BroadCounters::default());
    probed.find_pairs_probed(input, &mut pairs2, &mut counters2, probe);
    let name = plain.kind().name();
    assert!(pairs2 == pairs, "{name}: pairs with the probe on");
    assert_eq!(counters2, counters, "{name}: counters with the probe on");
    (pairs, counters)
}

/// The focus for scenario `seed`: some ball, or none when there are no balls.
fn focus_of(input: &BroadInput, seed: u64) -> Option<u32> {
    let n = input.aabbs.len();
    let balls = n.saturating_sub(input.first_dynamic);
    (balls > 0).then(|| (input.first_dynamic + seed as usize * 7 % balls) as u32)
}

/// Checks one call's record against its pairs and counters.
fn check_record(name: &str, input: &BroadInput, probe: &Probe, pairs: &[Pair], c: &BroadCounters) {
    assert_eq!(probe.total(), c.aabb_tests, "{name}: boxes + structure");
    let mut expected = vec![0u32; input.aabbs.len()];
    for &(i, j) in pairs {
        expected[i as usize] += 1;
        expected[j as usize] += 1;
    }
    assert!(probe.candidates == expected, "{name}: candidates per box");
    let balls = input.first_dynamic..input.aabbs.len();
    let in_pairs: u64 = probe.candidates[balls.clone()]
        .iter()
        .map(|&k| k as u64)
        .sum();
    let ball_ball = pairs
        .iter()
        .filter(|p| p.0 as usize >= input.first_dynamic)
        .count() as u64;
    assert_eq!(
        in_pairs,
        pairs.len() as u64 + ball_ball,
        "{name}: pairs by ball"
    );
    let ball_tests: u64 = probe.tests[balls].iter().sum();
    assert!(ball_tests <= c.aabb_tests, "{name}: ball tests");
}

#[test]
fn per_ball_tests_plus_structure_equal_the_totals_for_every_algorithm() {
    for &kind in BroadKind::ALL {
        let (mut plain, mut probed) = (kind.create(), kind.create());
        let mut rng = StdRng::seed_from_u64(7);
        for seed in 0..SCENARIOS {
            let mut s = scenario(seed);
            for call in 0..3u64 {
                let input = s.input(seed);
                let mut probe = Probe::new(focus_of(&input, seed + call), true);
                let (pairs, c) = both(plain.as_mut(), probed.as_mut(), &input, &mut probe);
                let name = format!("{} seed {seed} call {call} ({})", kind.name(), s.label);
                check_record(&name, &input, &probe, &pairs, &c);
                s.jiggle(&mut rng, JIGGLE);
            }
        }
    }
}

#[test]
fn the_record_is_exact_with_many_balls_for_every_algorithm() {
    let s = scale_input(3000, 11);
    let input = s.input(1);
    for &kind in BroadKind::ALL {
        let (mut plain, mut probed) = (kind.create(), kind.create());
        for call in 0..2 {
            let mut probe = Probe::new(Some(1234), true);
            let (pairs, c) = both(plain.as_mut(), probed.as_mut(), &input, &mut probe);
            let name = format!("{} call {call}", kind.name());
            check_record(&name, &input, &probe, &pairs, &c);
            assert!(probe.tests[1234] > 0, "{name}: the focus was tested");
        }
    }
}

#[test]
fn the_focus_visits_carry_its_tests_where_places_are_visited() {
    let s = scale_input(2000, 5);
    let input = s.input(1);
    let places = [
        BroadKind::Quadtree,
        BroadKind::Sectors,
        BroadKind::Adjacent,
        BroadKind::Grid,
        BroadKind::Rdc,
        BroadKind::Sap,
    ];
    for kind in places {
        let mut broad = kind.create();
        for focus in [0u32, 777, 1999] {
            let mut probe = Probe::new(Some(focus), false);
            let (mut pairs, mut c) = (Vec::new(), BroadCounters::default());
            broad.find_pairs_probed(&input, &mut pairs, &mut c, &mut probe);
            let visited: u64 = probe.visited.iter().map(|v| v.tests).sum();
            let name = format!("{} focus {focus}", kind.name());
            assert!(!probe.visited.is_empty(), "{name}: something visited");
            assert_eq!(
                visited, probe.tests[focus as usize],
                "{name}: visits' tests"
            );
            assert!(probe.heat.is_empty(), "{name}: no heat unless asked");
        }
    }
}

#[test]
fn brute_force_tested_against_every_shape_before_it() {
    let s = scenario(3);
    let input = s.input(1);
    let focus = input.aabbs.len() as u32 - 1;
    let mut probe = Probe::new(Some(focus), false);
    let (mut pairs, mut c) = (Vec::new(), BroadCounters::default());
    BroadKind::Brute
        .create()
        .find_pairs_probed(&input, &mut pairs, &mut c, &mut probe);
    assert_eq!(probe.against, (0..focus).collect::<Vec<_>>());
    assert_eq!(probe.tests[focus as usize], focus as u64);
    assert_eq!(probe.structure, 0);
}

#[test]
fn brute_force_tests_are_what_brute_force_counts() {
    for seed in 0..2 * KINDS {
        let s = scenario(seed);
        let input = s.input(1);
        let mut pairs = Vec::new();
        let counted = brute_pairs(&input, &mut pairs);
        let n = input.aabbs.len();
        assert_eq!(
            brute_force_tests(n, input.first_dynamic),
            counted,
            "{}",
            s.label
        );
    }
    // 3 obstacles and 4 balls: 4 · 3 + 4 · 3 / 2.
    assert_eq!(brute_force_tests(7, 3), 18);
    assert_eq!(brute_force_tests(0, 0), 0);
    assert_eq!(brute_force_tests(5, 9), 0, "no balls");
}

#[test]
fn share_of_brute_force_and_precision() {
    let share = brute_force_share(7, 3, 9, 4, Some(1));
    assert_eq!(share.brute, 18);
    assert_eq!(share.percent, 50.0);
    assert_eq!(share.precision(), Some(25.0));
    assert_eq!(brute_force_share(7, 3, 9, 0, Some(0)).precision(), None);
    assert_eq!(brute_force_share(7, 3, 9, 4, None).precision(), None);
    assert_eq!(brute_force_share(2, 2, 0, 0, None).percent, 0.0);
}

#[test]
fn heat_of_places_adds_up_to_the_tests_where_every_test_has_a_place() {
    let s = scale_input(1500, 3);
    let input = s.input(1);
    for kind in [
        BroadKind::Sectors,
        BroadKind::Adjacent,
        BroadKind::Grid,
        BroadKind::Rdc,
    ] {
        let mut broad = kind.create();
        let mut heat = Heat::default();
        let mut total = 0;
        for _ in 0..3 {
            let mut probe = Probe::new(None, true);
            let (mut pairs, mut c) = (Vec::new(), BroadCounters::default());
            broad.find_pairs_probed(&input, &mut pairs, &mut c, &mut probe);
            heat.add(&probe);
            total += c.aabb_tests;
        }
        let name = kind.name();
        assert_eq!(heat.place_tests(), total, "{name}: places' tests");
        assert_eq!(heat.calls, 3);
        let places = heat.places();
        assert_eq!(places[0].tests, heat.hottest(), "{name}: hottest first");
        assert!(places.windows(2).all(|w| w[0].tests >= w[1].tests));
        let per_box: u64 = heat.per_box.iter().sum();
        assert_eq!(per_box + heat.structure, total, "{name}: per box");
        heat.clear();
        assert_eq!((heat.hottest(), heat.calls), (0, 0));
    }
}

#[test]
fn the_focus_is_tested_against_one_box_per_test_where_the_algorithm_names_them() {
    let s = scale_input(2000, 9);
    let input = s.input(1);
    let named = [
        BroadKind::Brute,
        BroadKind::Quadtree,
        BroadKind::Sectors,
        BroadKind::Adjacent,
        BroadKind::Grid,
        BroadKind::Sap,
    ];
    for kind in named {
        let mut broad = kind.create();
        for focus in [3u32, 1000, 1998] {
            let mut probe = Probe::new(Some(focus), false);
            let (mut pairs, mut c) = (Vec::new(), BroadCounters::default());
            broad.find_pairs_probed(&input, &mut pairs, &mut c, &mut probe);
            // The quadtree's node tests during insertion name no box.
            let nodes = probe
                .visited
                .iter()
                .filter(|v| v.place == collide::broad::Place::Node)
                .count() as u64;
            let name = format!("{} focus {focus}", kind.name());
            let tests = probe.tests[focus as usize];
            assert_eq!(probe.against.len() as u64, tests - nodes, "{name}");
            assert!(
                probe.against.iter().all(|&j| j != focus),
                "{name}: not itself"
            );
        }
    }
}
