//! `--record`, `--replay`, `--save-state` and `--state` on the command line: a recorded run
//! replays to the same hash (exit 0), a tampered one is reported at its step (exit 1), a
//! broken file is refused with file:line:col (exit 2), and a saved state runs on exactly.

use std::path::{Path, PathBuf};
use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_collision-math-toy");

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cmt-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(EXE)
        .args(args)
        // Never the user's saved settings.
        .env("CMT_CONFIG_DIR", temp("config"))
        .output()
        .expect("the app starts");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn hash_of(out: &str) -> &str {
    out.split_whitespace()
        .find_map(|kv| kv.strip_prefix("hash="))
        .expect("a hash")
}

fn record(path: &Path, extra: &[&str]) -> String {
    let p = path.to_str().unwrap();
    let mut args = vec![
        "--headless",
        "--frames",
        "240",
        "--launch",
        "20",
        "--record",
        p,
    ];
    args.extend(extra);
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(path.exists());
    out
}

#[test]
fn a_recorded_run_replays_to_the_same_hash_and_exits_0() {
    let path = temp("run.ron");
    let out = record(
        &path,
        &["--rotate", "--tunnelling", "exact", "--fill", "50"],
    );
    let (code, replay, err) = run(&["--replay", path.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}\n{replay}");
    assert!(replay.contains("verdict=same"), "{replay}");
    assert_eq!(hash_of(&replay), hash_of(&out));
}

#[test]
fn a_tampered_recording_is_reported_at_its_step_and_exits_1() {
    let path = temp("tampered.ron");
    record(&path, &[]);
    let (mut rec, _) = collide::Recording::load(&path).unwrap();
    let k = rec.checkpoints.len() / 2;
    rec.checkpoints[k].1 ^= 0x10;
    let step = rec.checkpoints[k].0;
    rec.save(&path).unwrap();
    let (code, out, _) = run(&["--replay", path.to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("DIVERGED at step {step}:")), "{out}");
}

#[test]
fn a_broken_recording_or_state_file_exits_2_naming_line_and_column() {
    let path = temp("broken.ron");
    std::fs::write(&path, "Recording(\n  start: 12,\n)").unwrap();
    let p = path.to_str().unwrap();
    for flag in ["--replay", "--state"] {
        let mut args = vec![flag, p];
        if flag == "--state" {
            args.extend(["--headless", "--frames", "1"]);
        }
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{flag}: {err}");
        assert!(err.contains(&format!("{p}:")), "{err}");
        assert!(err.lines().count() == 1, "{err}");
        let rest = err.trim().strip_prefix(&format!("error: {p}:")).unwrap();
        let mut parts = rest.split(':');
        assert!(parts.next().unwrap().parse::<u32>().unwrap() >= 1, "{err}");
        assert!(parts.next().unwrap().parse::<u32>().unwrap() >= 1, "{err}");
    }
}

#[test]
fn a_saved_state_runs_on_to_the_hash_of_the_unbroken_run() {
    let state = temp("state.ron");
    let s = state.to_str().unwrap();
    let common = ["--headless", "--launch", "30", "--rotate", "--seed", "4"];
    let (code, _, err) = run(&[&common[..], &["--frames", "150", "--save-state", s]].concat());
    assert_eq!(code, 0, "{err}");
    let (code, resumed, err) = run(&["--state", s, "--headless", "--frames", "90"]);
    assert_eq!(code, 0, "{err}");
    let (_, whole, _) = run(&[&common[..], &["--frames", "240"]].concat());
    assert_eq!(hash_of(&resumed), hash_of(&whole));
}
