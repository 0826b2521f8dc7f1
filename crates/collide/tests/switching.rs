//! Switching broad phase never changes the simulation: every algorithm gives the same state,
//! bit for bit, and switching in the middle of a run changes nothing either.
mod common;

use collide::{BroadKind, World};

fn table_with_balls(seed: u64) -> World {
    let mut w = common::table(seed);
    w.edit_settings(|st| st.rotate = true);
    w.launch(120);
    w
}

#[test]
fn ten_thousand_steps_give_the_same_hash_with_every_broad_phase() {
    let mut hashes = Vec::new();
    for &kind in BroadKind::ALL {
        let mut w = table_with_balls(3);
        w.set_broad_phase(kind);
        for _ in 0..10_000 {
            w.step();
        }
        let t = w.counters().total;
        assert_eq!(
            (t.missed, t.extra),
            (0, 0),
            "{} disagrees with brute force",
            kind.name()
        );
        assert!(w.all_finite());
        hashes.push((kind.name(), w.state_hash()));
    }
    let first = hashes[0].1;
    for (name, h) in &hashes {
        assert_eq!(*h, first, "{name} diverged: {hashes:x?}");
    }
}

#[test]
fn switching_in_the_middle_of_a_run_changes_nothing() {
    let mut plain = table_with_balls(11);
    let mut switched = table_with_balls(11);
    for step in 0..3_000 {
        if step % 250 == 0 {
            let kind = BroadKind::ALL[(step / 250) % BroadKind::ALL.len()];
            switched.set_broad_phase(kind);
        }
        plain.step();
        switched.step();
    }
    assert_eq!(plain.state_hash(), switched.state_hash());
}

#[test]
fn verification_counts_nothing_for_correct_broad_phases() {
    for &kind in BroadKind::ALL {
        let mut w = table_with_balls(5);
        w.edit_settings(|st| st.verify = true);
        w.set_broad_phase(kind);
        for _ in 0..500 {
            w.step();
        }
        assert!(w.counters().total.iterations > 0);
        assert_eq!(
            w.counters().total.missed + w.counters().total.extra,
            0,
            "{}",
            kind.name()
        );
    }
}
