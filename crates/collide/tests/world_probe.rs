//! The world's probe (`World::set_probe`): asking for the broad phase's per-ball record
//! changes no simulation, every call's record adds up to the broad phase's own count for
//! every algorithm (sleepers, kinematic shapes and the wall pass included), the focus's
//! record names its candidates, and the heat sums a simulated second.
mod common;

use collide::broad::brute_force_tests;
use collide::world::{ContactWith, ProbeAsk};
use collide::{BroadKind, Solver, World};

/// A table with rotating shapes and a pile of filled balls, `solver` answering contacts.
fn busy_table(seed: u64, solver: Solver) -> World {
    let mut w = common::table(seed);
    w.edit_settings(|st| {
        st.rotate = true;
        st.solver = solver;
    });
    w.fill_random(400, (2.0, 4.0), 300.0);
    w.launch(20);
    w
}

#[test]
fn the_probe_changes_no_simulation() {
    for solver in [Solver::PushOut, Solver::Soft] {
        for &kind in [BroadKind::Grid, BroadKind::Tree, BroadKind::Sap].iter() {
            let (mut plain, mut probed) = (busy_table(5, solver), busy_table(5, solver));
            plain.set_broad_phase(kind);
            probed.set_broad_phase(kind);
            probed.set_probe(Some(ProbeAsk {
                focus: Some(17),
                heat: true,
            }));
            for _ in 0..300 {
                plain.step();
                probed.step();
            }
            let name = format!("{} {}", kind.name(), solver.name());
            assert_eq!(plain.state_hash(), probed.state_hash(), "{name}");
            assert!(probed.probe().is_some_and(|r| r.calls > 0), "{name}");
        }
    }
}

#[test]
fn every_call_adds_up_to_the_broad_phase_count_for_every_algorithm() {
    for &kind in BroadKind::ALL {
        // Soft contacts put the pile to sleep: sleepers are shown to the broad phase as
        // static boxes, and their tests count as obstacles'.
        let mut w = busy_table(9, Solver::Soft);
        w.set_broad_phase(kind);
        w.set_probe(Some(ProbeAsk {
            focus: Some(3),
            heat: false,
        }));
        for step in 0..2400 {
            w.step();
            let r = w.probe().expect("asked");
            let parts = r.ball_tests + r.obstacle_tests + r.structure;
            let name = format!("{} step {step}", kind.name());
            assert_eq!(parts, r.aabb_tests, "{name}: balls + obstacles + structure");
            let brute = brute_force_tests(r.boxes, r.first_dynamic);
            if kind == BroadKind::Brute {
                assert_eq!(r.aabb_tests, brute, "{name}: brute force's own count");
            }
        }
        assert!(w.asleep_count() > 0, "{}: some slept", kind.name());
    }
}

#[test]
fn the_focus_record_names_its_candidates_and_its_contacts() {
    for &kind in BroadKind::ALL {
        let mut w = busy_table(2, Solver::PushOut);
        w.set_broad_phase(kind);
        let focus = 40;
        w.set_probe(Some(ProbeAsk {
            focus: Some(focus),
            heat: false,
        }));
        for _ in 0..120 {
            w.step();
        }
        let r = w.probe().expect("asked");
        let f = r.focus.as_ref().expect("the focus is in the call");
        let name = kind.name();
        assert_eq!(f.ball, focus, "{name}");
        // The grid's, the tree's and the sweep's tests may all be the partners' (a ball
        // alone in its cell); brute force and the quadtree always test the focus.
        if matches!(kind, BroadKind::Brute | BroadKind::Quadtree) {
            assert!(f.tests > 0, "{name}: tested");
        }
        assert!(f.contacts as usize <= f.candidates.len(), "{name}");
        let me = ContactWith::Ball(focus as u32);
        assert!(f
            .candidates
            .iter()
            .all(|(o, b)| *o != me && b.overlaps(&f.aabb)));
        // Every candidate of a complete list is among the boxes it was tested against, where
        // the algorithm names them all (brute force does).
        if kind == BroadKind::Brute {
            assert_eq!(f.against.len() as u64, f.tests, "{name}");
        }
    }
}

#[test]
fn the_heat_sums_a_simulated_second() {
    let mut w = busy_table(4, Solver::PushOut);
    w.set_broad_phase(BroadKind::Grid);
    w.set_probe(Some(ProbeAsk {
        focus: None,
        heat: true,
    }));
    let per_second = w.steps_per_second() as usize;
    for _ in 0..per_second / 2 {
        w.step();
    }
    let r = w.probe().expect("asked");
    assert!(!r.heat_complete(), "half a second in");
    for _ in 0..per_second {
        w.step();
    }
    let r = w.probe().expect("asked");
    assert!(r.heat_complete());
    let heat = r.heat();
    assert!(heat.hottest() > 0);
    // Every grid test has a place: the places sum the second's tests.
    let ball_heat: u64 = r.ball_heat().iter().sum();
    assert!(ball_heat > 0 && ball_heat <= heat.place_tests());
    // Calls in a second: collision iterations and the wall pass, every step.
    let calls = per_second as u64 * (w.settings().collision_iterations as u64 + 1);
    assert_eq!(heat.calls, calls);
    w.set_probe(None);
    assert!(w.probe().is_none());
}

/// Two copies of a world on `kind`, stepped until the last call is the one to look at, the
/// first probing ball `focus`, the second ball 7: the second is the world a viewer paused
/// and then pointed at `focus` in. With the push-out the busy table after 40 steps; with soft
/// contacts a pile of 400 balls after 800 steps, part of it asleep.
fn seen_and_pointed(kind: BroadKind, solver: Solver, focus: usize) -> [World; 2] {
    [focus, 7].map(|asked| {
        let mut w = match solver {
            Solver::PushOut => busy_table(3, solver),
            Solver::Soft => {
                let mut w = common::table(3);
                w.edit_settings(|st| st.solver = solver);
                w.fill_random(400, (2.0, 4.0), 0.0);
                w
            }
        };
        w.set_broad_phase(kind);
        w.set_probe(Some(ProbeAsk {
            focus: Some(asked),
            heat: true,
        }));
        let steps = if solver == Solver::Soft { 800 } else { 40 };
        for _ in 0..steps {
            w.step();
        }
        w
    })
}

/// Paused, the probe follows the pointer: the last call made again for another ball records
/// what that call did for it (the same tests, places, boxes and candidates as a run probing it
/// all along), and the run goes on as if nothing had been asked (its state, its counters and
/// its next calls' records), for every algorithm, with sleepers and without.
#[test]
fn paused_the_probe_shows_the_ball_pointed_at_and_changes_nothing() {
    let cases = BroadKind::ALL
        .iter()
        .map(|&k| (k, Solver::PushOut, 40))
        .chain([BroadKind::Sap, BroadKind::Tree].map(|k| (k, Solver::Soft, 40)));
    for (kind, solver, focus) in cases {
        let [mut seen, mut pointed] = seen_and_pointed(kind, solver, focus);
        let name = format!("{} {}", kind.name(), solver.name());
        pointed.set_probe(Some(ProbeAsk {
            focus: Some(focus),
            heat: true,
        }));
        if solver == Solver::Soft {
            assert!(pointed.asleep_count() > 0, "{name}: some asleep");
        }
        assert!(pointed.probe_again(), "{name}: made again");
        let record = |w: &World| {
            let r = w.probe().expect("asked");
            let f = r.focus.clone().expect("the focus is in the call");
            (
                r.aabb_tests,
                r.candidates,
                f.ball,
                f.tests,
                f.visited,
                f.against,
                f.candidates,
            )
        };
        assert_eq!(
            record(&pointed),
            record(&seen),
            "{name}: as the call saw it"
        );
        for _ in 0..30 {
            seen.step();
            pointed.step();
        }
        assert_eq!(seen.state_hash(), pointed.state_hash(), "{name}");
        assert_eq!(seen.counters().total, pointed.counters().total, "{name}");
        assert_eq!(record(&pointed), record(&seen), "{name}: the calls after");
    }
}

#[test]
fn the_last_call_is_made_again_only_while_probed_and_for_the_same_balls() {
    let mut w = busy_table(3, Solver::PushOut);
    for _ in 0..10 {
        w.step();
    }
    assert!(!w.probe_again(), "the probe is off");
    w.set_probe(Some(ProbeAsk {
        focus: Some(4),
        heat: false,
    }));
    assert!(
        w.probe_again(),
        "turned on while paused: the last call is there"
    );
    assert_eq!(
        w.probe().and_then(|r| r.focus.as_ref()).map(|f| f.ball),
        Some(4)
    );
    w.fill_random(10, (2.0, 3.0), 0.0);
    assert!(!w.probe_again(), "other balls since the call");
}
