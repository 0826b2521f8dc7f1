//! The built-in pinball table from the command line: it loads by name, serves a ball onto the
//! plunger, and runs the same whatever the broad phase.

use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_collision-math-toy");

fn summary(args: &[&str]) -> String {
    let out = Command::new(EXE)
        .args(args)
        .output()
        .expect("the app starts");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn value<'a>(summary: &'a str, key: &str) -> &'a str {
    summary
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix(key))
        .unwrap_or_else(|| panic!("{key} missing in {summary}"))
}

#[test]
fn pinball_by_name_serves_one_ball_and_ignores_the_broad_phase() {
    let run = |broad: &str| {
        summary(&[
            "--scene",
            "pinball",
            "--headless",
            "--frames",
            "300",
            "--broad-phase",
            broad,
        ])
    };
    let (brute, quad) = (run("brute"), run("quadtree"));
    assert_eq!(value(&brute, "balls="), "1", "one ball served: {brute}");
    assert_eq!(value(&brute, "strays="), "0");
    assert_eq!(value(&brute, "hash="), value(&quad, "hash="));
}
