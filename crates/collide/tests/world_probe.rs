//! The world's probe (`World::set_probe`): asking for the broad phase's per-ball record
//! changes no simulation, every call's record adds up to the broad phase's own count for
//! every algorithm (sleepers, kinematic shapes and the wall pass included), the focus's
//! record names its candidates, and the heat sums a simulated second.
mod common;

use collide::broad::brute_force_tests;
use collide::world::{HitWith, ProbeAsk};
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
        let me = HitWith::Ball(focus as u32);
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
