//! The pair cache (`Settings::pair_cache`) changes the work, never the simulation: with it on
//! and off, every broad phase, the discrete and a swept mode, turning shapes, and a hand that
//! grabs, throws, adds and removes balls between steps, the candidate pairs of every step and
//! the state hash are the same bit for bit. Its work is counted apart from the broad phase's.
mod common;

use collide::world::Ball;
use collide::{BroadKind, Scene, Tunnelling, Vec2, World};

const FIELD: &str = include_str!("../scenes/field.ron");
const PINBALL: &str = include_str!("../scenes/pinball.ron");

/// The scenes of the comparison: the table with launched balls and a random fill (a pile
/// under gravity), the field (no gravity) and the pinball table (many obstacles).
const SCENES: [&str; 3] = ["table", "field", "pinball"];

/// Scene `name` built with `seed`, balls in it, broad phase `kind`.
fn world(name: &str, seed: u64, kind: BroadKind) -> World {
    let mut w = match name {
        "table" => {
            let mut w = common::table(seed);
            w.launch(60);
            w.fill_random(400, (2.1, 3.0), 300.0);
            w
        }
        "field" => Scene::parse(FIELD, "field.ron")
            .expect("field parses")
            .with_fill_count(600)
            .build(seed),
        _ => {
            let mut w = Scene::parse(PINBALL, "pinball.ron")
                .expect("pinball parses")
                .build(seed);
            w.launch(20);
            w
        }
    };
    w.set_broad_phase(kind);
    w
}

/// What a hand does between steps `k` and `k + 1` (the same to both worlds).
fn hand(w: &mut World, k: u32) {
    let n = w.balls().len();
    if n == 0 {
        return;
    }
    let b = w.bounds();
    let mid = (b.min + b.max) * 0.5;
    match k % 97 {
        // Grab a ball and put it somewhere else, still (a teleport).
        13 => {
            common::move_ball(w, k as usize % n, mid + Vec2::new(17.0, -9.0), Vec2::ZERO);
        }
        // Throw one hard.
        31 => {
            common::move_ball(w, (k as usize * 7) % n, mid, Vec2::new(2500.0, 1200.0));
        }
        // Drag one a little, as a mouse does frame by frame.
        32..=40 => {
            let i = (k as usize * 7) % n;
            let p = w.balls()[i].pos + Vec2::new(1.5, 0.5);
            common::move_ball(w, i, p, Vec2::new(90.0, 30.0));
        }
        // Add a ball, then remove one (same count, other balls at the indices).
        55 => {
            w.add_ball(Ball::new(mid, Vec2::new(-40.0, 80.0), 4.0, 0.9, 7));
        }
        56 => common::remove_ball(w, n / 3),
        // Remove one and add one at once: the count is back where it was.
        70 => {
            common::remove_ball(w, 0);
            w.add_ball(Ball::new(
                mid - Vec2::new(30.0, 0.0),
                Vec2::ZERO,
                2.5,
                0.9,
                3,
            ));
        }
        // Launch one in the middle of the others.
        80 => {
            common::launch_at(w, mid + Vec2::new(0.0, 25.0), Vec2::new(0.0, -300.0));
        }
        _ => {}
    }
}

/// Runs `steps` steps of two copies of a world, one with the cache and one without,
/// comparing the pairs of every step and the state every 50 steps; returns them.
fn side_by_side(
    label: &str,
    make: impl Fn() -> World,
    edit: impl Fn(&mut World),
    steps: u32,
) -> (World, World) {
    let (mut on, mut off) = (make(), make());
    edit(&mut on);
    edit(&mut off);
    on.edit_settings(|st| st.pair_cache = true);
    off.edit_settings(|st| st.pair_cache = false);
    for k in 0..steps {
        on.step();
        off.step();
        assert_eq!(
            on.last_pairs(),
            off.last_pairs(),
            "{label}: pairs differ at step {k}"
        );
        if k % 50 == 49 {
            assert_eq!(on.state_hash(), off.state_hash(), "{label}: step {k}");
        }
        hand(&mut on, k);
        hand(&mut off, k);
    }
    assert_eq!(on.state_hash(), off.state_hash(), "{label}: at the end");
    (on, off)
}

#[test]
fn the_cache_changes_no_pair_and_no_hash_with_any_broad_phase_or_hand() {
    for name in SCENES {
        for &kind in BroadKind::ALL {
            let label = format!("{name}/{}", kind.name());
            let (on, off) = side_by_side(&label, || world(name, 5, kind), |_| {}, 600);
            let (a, b) = (on.counters().total, off.counters().total);
            // The same pairs reached the narrow phase, so the same tests and hits.
            assert_eq!(a.broad.pairs, b.broad.pairs, "{label}");
            assert_eq!(
                (a.full_tests, a.collisions),
                (b.full_tests, b.collisions),
                "{label}"
            );
            assert_eq!(a.iterations, b.iterations, "{label}");
            // The cache queried less often than the world asked, and counted its work.
            assert!(a.cache_queries > 0 && a.cache_served > 0, "{label}: {a:?}");
            assert!(a.cache_tests > 0, "{label}");
            assert_eq!(
                (
                    b.cache_queries,
                    b.cache_served,
                    b.cache_tests,
                    b.cache_moved,
                    b.cache_passed
                ),
                (0, 0, 0, 0, 0),
                "{label}: the cache off counts nothing"
            );
        }
    }
}

#[test]
fn the_cache_changes_nothing_in_the_swept_modes_with_turning_shapes() {
    for name in SCENES {
        for mode in [Tunnelling::Linear, Tunnelling::Exact] {
            for kind in [BroadKind::Grid, BroadKind::Sap, BroadKind::Quadtree] {
                let label = format!("{name}/{}/{mode:?}", kind.name());
                let edit = |w: &mut World| {
                    w.edit_settings(|st| st.tunnelling = mode);
                    w.edit_settings(|st| st.rotate = true);
                };
                side_by_side(&label, || world(name, 9, kind), edit, 300);
            }
        }
    }
}

#[test]
fn the_cache_changes_nothing_with_turning_shapes_verification_and_other_iterations() {
    for name in SCENES {
        let label = format!("{name}/turning, verified, 2x9 iterations");
        let edit = |w: &mut World| {
            w.edit_settings(|st| st.rotate = true);
            w.edit_settings(|st| st.verify = true);
            w.edit_settings(|st| (st.motion_iterations, st.collision_iterations) = (2, 9));
        };
        let (on, _) = side_by_side(&label, || world(name, 11, BroadKind::Grid), edit, 400);
        let t = on.counters().total;
        assert_eq!(
            (t.missed, t.extra),
            (0, 0),
            "{label}: the cached pairs are verified"
        );
    }
}

#[test]
fn switching_the_cache_or_the_broad_phase_mid_run_and_restoring_a_state_change_nothing() {
    let mut plain = world("table", 13, BroadKind::Grid);
    plain.edit_settings(|st| st.pair_cache = false);
    let mut switched = world("table", 13, BroadKind::Grid);
    for k in 0..1_200u32 {
        if k % 100 == 0 {
            switched.edit_settings(|st| st.pair_cache = !st.pair_cache);
        }
        if k % 250 == 0 {
            let kind = BroadKind::ALL[(k / 250) as usize % BroadKind::ALL.len()];
            switched.set_broad_phase(kind);
        }
        if k == 700 {
            // A state saved and restored in the middle: the cache starts afresh.
            let saved = switched.save_state();
            let mut again = world("table", 13, BroadKind::Grid);
            again.restore_state(&saved).expect("restores");
            switched = again;
            switched.edit_settings(|st| st.pair_cache = true);
        }
        plain.step();
        switched.step();
        hand(&mut plain, k);
        hand(&mut switched, k);
    }
    assert_eq!(plain.state_hash(), switched.state_hash());
}

#[test]
fn a_settled_pile_is_answered_from_the_cache_most_of_the_time() {
    let mut w = world("table", 17, BroadKind::Grid);
    for _ in 0..2_000 {
        w.step();
    }
    let before = w.counters().total;
    for _ in 0..400 {
        w.step();
    }
    let t = w.counters().total;
    let (queries, served) = (
        t.cache_queries - before.cache_queries,
        t.cache_served - before.cache_served,
    );
    // Seven calls a step (six iterations and the wall pass); most answered from the cache,
    // which never stood aside.
    assert_eq!(queries + served, 400 * 7);
    assert!(queries * 4 < served, "{queries} queries, {served} answered");
    assert_eq!(t.cache_passed, before.cache_passed, "the cache stood aside");
    assert!(!w.pair_cache_resting());
}

#[test]
fn when_most_calls_would_query_the_cache_stands_aside_and_tries_again_changing_nothing() {
    // Fast balls (3,000 px/s, 12 px a step, more than their margins) leave their grown boxes
    // every step, and with one collision iteration a step (and the wall pass) that is a
    // query on half the calls: the cache then passes calls straight to the broad phase for a
    // while, and tries again.
    let fast = |kind: BroadKind| {
        let mut w = world("field", 3, kind);
        w.edit_settings(|st| st.collision_iterations = 1);
        for b in 0..w.balls().len() {
            let (pos, a) = (w.balls()[b].pos, b as f32 * 2.4);
            common::move_ball(&mut w, b, pos, Vec2::new(a.cos(), a.sin()) * 3_000.0);
        }
        w
    };
    for kind in [BroadKind::Grid, BroadKind::Sap, BroadKind::Tree] {
        let label = format!("fast field/{}", kind.name());
        let (on, off) = side_by_side(&label, || fast(kind), |_| {}, 400);
        let (a, b) = (on.counters().total, off.counters().total);
        assert!(a.cache_passed > 0, "{label}: never stood aside: {a:?}");
        assert!(
            a.cache_queries > 0 && a.cache_served > 0,
            "{label}: never tried again: {a:?}"
        );
        // Every call of the world (the iterations, and the wall pass once a step) went one
        // of the three ways.
        let calls = a.cache_queries + a.cache_served + a.cache_passed;
        assert_eq!(calls, a.iterations + on.steps(), "{label}");
        assert_eq!(a.broad.pairs, b.broad.pairs, "{label}");
        assert_eq!(b.cache_passed, 0, "{label}");
    }
}

/// With no balls there is nothing to keep: no call is counted as answered by the cache (an
/// empty table read 1,440 answers a second, one per collision iteration), and the table with
/// balls in it is answered again.
#[test]
fn an_empty_table_counts_no_pair_cache_answers() {
    let mut w = common::table(1);
    w.edit_settings(|s| s.pair_cache = true);
    for _ in 0..120 {
        w.step();
    }
    let t = w.counters().total;
    assert_eq!(
        t.cache_served + t.cache_queries + t.cache_passed,
        0,
        "{t:?}"
    );
    assert!(t.iterations > 0, "{t:?}");
    w.launch(5);
    for _ in 0..600 {
        w.step();
    }
    let t = w.counters().total;
    assert!(t.cache_served > 0 && t.cache_queries > 0, "{t:?}");
}

#[test]
fn the_largest_box_the_broad_phase_was_given_counts_the_cache_s_growth() {
    let run = |cached: bool| {
        let mut w = world("table", 5, BroadKind::Grid);
        w.edit_settings(|s| s.pair_cache = cached);
        for _ in 0..120 {
            w.step();
        }
        let widest = w.balls().iter().map(|b| 2.0 * b.radius).fold(0.0, f32::max);
        (w.largest_ball_box(), widest)
    };
    let (plain, widest) = run(false);
    assert!(
        plain >= widest && plain < widest * 1.5,
        "{plain} for balls of {widest}"
    );
    let (grown, _) = run(true);
    assert!(grown > plain, "grown {grown}, plain {plain}");
}
