//! Several worlds stepping at once, each on several threads: they share the library's worker
//! pools, and none may wait for a part another world's step has not yet started.

mod common;

use collide::{BroadKind, Solver, World};
use std::sync::mpsc;
use std::time::Duration;

/// The table filled with `n` balls, soft contacts on `threads` threads, never asleep.
fn busy_table(seed: u64, n: u32, threads: usize) -> World {
    let mut w = common::table(seed);
    w.set_broad_phase(BroadKind::Grid);
    w.edit_settings(|st| {
        st.solver = Solver::Soft;
        st.sleep.enabled = Some(false);
        st.threads = threads;
        st.parallel_from = 0;
    });
    w.fill_random(n, (2.1, 3.0), 100.0);
    w
}

/// Steps `worlds` worlds at once, one OS thread each, `steps` steps, and returns their hashes;
/// fails (instead of hanging) when they are not all done within `limit`, which is many times
/// what the work needs even on a slow shared machine.
fn step_at_once(worlds: usize, threads: usize, steps: u32, limit: Duration) -> Vec<u64> {
    let (tx, rx) = mpsc::channel();
    for k in 0..worlds {
        let tx = tx.clone();
        std::thread::spawn(move || {
            let mut w = busy_table(k as u64 + 1, 300, threads);
            for _ in 0..steps {
                w.step();
            }
            let _ = tx.send((k, w.state_hash()));
        });
    }
    drop(tx);
    let mut hashes = vec![0; worlds];
    for _ in 0..worlds {
        match rx.recv_timeout(limit) {
            Ok((k, h)) => hashes[k] = h,
            Err(_) => panic!("{worlds} worlds on {threads} threads each did not finish: a hang"),
        }
    }
    hashes
}

#[test]
fn several_worlds_stepping_at_once_on_several_threads_each_all_finish() {
    let limit = Duration::from_secs(240);
    // Before the threads claimed the move of the balls, four worlds of 300 balls on 3
    // threads each hung within these steps on every try (a world's part that had begun the
    // move waited for a part queued behind another world's). On two threads the passes run
    // the plan's two regions, each thread taking from the back of the other's.
    for threads in [2, 3, 4] {
        step_at_once(4, threads, 2500, limit);
    }
}

#[test]
fn a_world_stepped_beside_others_gives_the_bits_it_gives_alone() {
    let mut alone = busy_table(2, 300, 1);
    for _ in 0..200 {
        alone.step();
    }
    let together = step_at_once(3, 3, 200, Duration::from_secs(240));
    // busy_table(2, …) is the second world's.
    assert_eq!(together[1], alone.state_hash());
}

fn nanos() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_nanos() as u64
}

#[test]
fn the_profile_by_thread_accounts_for_each_stage_within_its_wall_time() {
    for threads in [1, 2, 3] {
        let mut w = busy_table(3, 600, threads);
        w.set_clock(nanos);
        for _ in 0..40 {
            w.step();
        }
        let total = w.counters().total;
        let stages = total.profile();
        for s in &stages {
            let sp = &s.spread;
            // The caller is busy all of a stage but what it waits: exactly its wall time.
            assert_eq!(sp.busy[0] + sp.idle[0], s.nanos, "{}: the caller", s.name);
            // A worker's parts lie within the stage.
            for k in 1..collide::world::SLOTS {
                assert!(sp.busy[k] + sp.idle[k] <= s.nanos, "{} worker {k}", s.name);
            }
        }
        let names: Vec<&str> = stages.iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            [
                "pairs",
                "narrow",
                "prepare",
                "solve",
                "relax",
                "restitution",
                "sleep",
                "meter"
            ]
        );
        assert!(
            stages.iter().all(|s| s.nanos > 0),
            "every stage ran and was timed"
        );
        // On threads, the passes are cut into parts, run on the threads asked or fewer.
        let parts: u32 = stages.iter().flat_map(|s| s.spread.parts).sum();
        assert_eq!(parts > 0, threads > 1, "{threads} threads");
        assert!(total.profiled_threads() <= threads, "{threads} threads");
    }
}

#[test]
fn the_hits_come_in_the_same_order_on_any_number_of_threads() {
    // The table's bumpers and walls struck by a fast fill: on several threads each colour's
    // lanes are ordered by region, yet the hits keep the plan's own order.
    let run = |threads: usize| {
        let mut w = busy_table(7, 600, threads);
        let mut hits = Vec::new();
        for _ in 0..240 {
            w.step();
            hits.extend(w.drain_hits().map(|h| format!("{h:?}")));
        }
        (hits, w.state_hash())
    };
    let one = run(1);
    assert!(
        one.0.len() > 20,
        "the fill strikes things: {} hits",
        one.0.len()
    );
    for threads in [2, 3] {
        assert!(run(threads) == one, "{threads} threads");
    }
}

#[test]
fn the_frame_end_and_the_overlap_meter_are_the_same_on_any_number_of_threads() {
    // Enough pairs (4,000 large balls crowding the table: 8,845 pairs at the last frame's
    // end, 2,842 of them touching) that the frame's end is found on the threads, in parts
    // joined in order.
    let run = |threads: usize| {
        let mut w = common::table(3);
        w.set_broad_phase(BroadKind::Grid);
        w.edit_settings(|st| {
            st.solver = Solver::Soft;
            st.threads = threads;
            st.parallel_from = 0;
        });
        w.fill_random(4000, (5.0, 6.0), 100.0);
        for _ in 0..240 {
            w.step();
        }
        let end = w.frame_end_contacts();
        let list: Vec<String> = end.awake.iter().map(|c| format!("{c:?}")).collect();
        assert!(
            list.len() > 2000,
            "{} contacts at the frame's end",
            list.len()
        );
        (list, format!("{:?}", w.counters().overlap))
    };
    let one = run(1);
    for threads in [2, 3] {
        assert!(run(threads) == one, "{threads} threads");
    }
}
