//! The golden runs: headless runs over every broad phase, both solvers, sleep, the swept
//! modes and every built-in scene, plus a saved recording with removals and a saved state,
//! whose summary lines (timings left out) must equal `tests/golden/summaries.txt` bit for bit.
//! A change that moves the simulation shows here, run by run.
//!
//! `GOLDEN_BLESS=1 cargo test --release --test golden` writes the file and the two saved
//! files anew; do that only in a commit that changes the physics on purpose, and say why.

use collide::{Input, Scene};
use collide_replay::Tape;
use std::path::{Path, PathBuf};
use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_collision-math-toy");

/// Each run's name and its command line (after the program's name).
const RUNS: &[(&str, &str)] = &[
    ("readme", "--headless --frames 600 --launch 50"),
    (
        "brute-rotate",
        "--headless --frames 600 --launch 50 --rotate --broad-phase brute",
    ),
    (
        "quadtree",
        "--headless --frames 600 --launch 50 --rotate --broad-phase quadtree",
    ),
    (
        "sectors",
        "--headless --frames 600 --launch 50 --rotate --broad-phase sectors",
    ),
    (
        "adjacent",
        "--headless --frames 600 --launch 50 --rotate --broad-phase adjacent",
    ),
    (
        "grid",
        "--headless --frames 600 --launch 50 --rotate --broad-phase grid",
    ),
    (
        "rdc",
        "--headless --frames 600 --launch 50 --rotate --broad-phase rdc",
    ),
    (
        "sap",
        "--headless --frames 600 --launch 50 --rotate --broad-phase sap",
    ),
    (
        "tree",
        "--headless --frames 600 --launch 50 --rotate --broad-phase tree",
    ),
    (
        "no-pair-cache",
        "--headless --frames 600 --launch 50 --no-pair-cache",
    ),
    ("soft", "--headless --frames 600 --launch 50 --solver soft"),
    (
        "soft-sleep-off",
        "--headless --frames 600 --launch 50 --solver soft --sleep off",
    ),
    (
        "push-out-sleep-on",
        "--headless --frames 600 --launch 50 --sleep on",
    ),
    (
        "linear",
        "--headless --frames 600 --launch 50 --rotate --tunnelling linear",
    ),
    (
        "binary",
        "--headless --frames 600 --launch 50 --rotate --tunnelling binary",
    ),
    (
        "exact",
        "--headless --frames 600 --launch 50 --rotate --tunnelling exact",
    ),
    (
        "soft-exact",
        "--headless --frames 600 --launch 50 --solver soft --tunnelling exact",
    ),
    (
        "lab-exact",
        "--headless --frames 300 --scene lab --launch 20 --tunnelling exact",
    ),
    ("lab-off", "--headless --frames 300 --scene lab --launch 20"),
    (
        "lab-linear",
        "--headless --frames 300 --scene lab --launch 20 --tunnelling linear",
    ),
    (
        "lab-binary",
        "--headless --frames 300 --scene lab --launch 20 --tunnelling binary",
    ),
    ("pinball", "--headless --frames 900 --scene pinball"),
    ("rain", "--headless --frames 300 --scene rain --fill 800"),
    ("cradle", "--headless --frames 600 --scene cradle"),
    (
        "cradle-soft",
        "--headless --frames 600 --scene cradle --solver soft",
    ),
    ("pool", "--headless --frames 600 --scene pool"),
    ("field", "--headless --frames 120 --scene field --fill 1000"),
    (
        "fill-push-out",
        "--headless --frames 240 --fill 2000 --solver push-out",
    ),
    (
        "fill-soft",
        "--headless --frames 240 --fill 2000 --solver soft --broad-phase grid",
    ),
    (
        "fill-soft-sap",
        "--headless --frames 240 --fill 2000 --solver soft --broad-phase sap",
    ),
    ("removals", "--replay tests/golden/removals.ron"),
    (
        "state",
        "--headless --frames 300 --state tests/golden/state.ron",
    ),
];

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

/// The summary line without the fields that time the run, and the thread count (the
/// machine's cores unless told; the same bits on any number).
fn untimed(line: &str) -> String {
    line.split_whitespace()
        .filter(|kv| {
            !["fps=", "physics_ms=", "physics_ms_last=", "threads="]
                .iter()
                .any(|p| kv.starts_with(p))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn summary(args: &str) -> String {
    let config = std::env::temp_dir().join(format!("cmt-golden-{}", std::process::id()));
    let out = Command::new(EXE)
        .args(args.split_whitespace())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("CMT_CONFIG_DIR", config)
        .output()
        .expect("the app starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "`{args}` failed: {}{}",
        stdout,
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("frames="))
        .unwrap_or_else(|| panic!("`{args}` printed no summary line: {stdout}"));
    untimed(line)
}

/// The saved files the last two runs load: a recording of the table in which balls are
/// removed (first, middle, last) while others fly, and a state saved mid-run.
fn write_saved_files() {
    let text = collide::scene::builtin("table").unwrap();
    let scene = Scene::parse(text, "table (built in)").unwrap();
    let mut world = scene.build(7);
    let mut tape = Tape::recording("table (built in)", text, 7, &world);
    tape.input(&mut world, Input::Launch(12)).unwrap();
    let removals = [(200, 0), (260, 5), (320, 3), (400, 0usize)];
    for step in 0..720u64 {
        for &(at, ball) in &removals {
            match world.ball_id(ball) {
                Some(id) if step == at => tape.input(&mut world, Input::RemoveBall(id)).unwrap(),
                _ => {}
            }
        }
        tape.step(&mut world);
    }
    tape.record(&world)
        .save(&dir().join("removals.ron"))
        .unwrap();
    let state = collide::SavedState::of("table (built in)", text, 7, &world);
    state.save(&dir().join("state.ron")).unwrap();
}

#[test]
fn the_golden_runs_give_the_same_summary_lines() {
    let path = dir().join("summaries.txt");
    if std::env::var_os("GOLDEN_BLESS").is_some() {
        std::fs::create_dir_all(dir()).unwrap();
        write_saved_files();
        let lines: Vec<String> = RUNS
            .iter()
            .map(|(name, args)| format!("{name}: {}", summary(args)))
            .collect();
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).expect("tests/golden/summaries.txt");
    let expected: Vec<&str> = expected.lines().collect();
    assert_eq!(expected.len(), RUNS.len(), "one line a run in {path:?}");
    let mut moved = Vec::new();
    for ((name, args), want) in RUNS.iter().zip(&expected) {
        let got = format!("{name}: {}", summary(args));
        if got != *want {
            moved.push(format!("{args}\n  was {want}\n  now {got}"));
        }
    }
    assert!(
        moved.is_empty(),
        "{} of {} golden runs moved:\n{}",
        moved.len(),
        RUNS.len(),
        moved.join("\n")
    );
}

#[test]
fn the_readme_example_prints_the_readme_hash() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let line = readme
        .lines()
        .find(|l| l.starts_with("frames=600 balls=50"))
        .expect("the README shows the example's summary line");
    let got = summary("--headless --frames 600 --launch 50");
    assert_eq!(
        untimed(line),
        got,
        "README's example line and the run differ"
    );
}
