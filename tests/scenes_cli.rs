//! The built-in scenes on the command line: each loads by name and runs headless;
//! `--fill N` sets the ball count of a scene that fills itself; broad phases agree.

use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_collision-math-toy");

fn summary(args: &[&str]) -> String {
    let out = Command::new(EXE)
        .args(args)
        .output()
        .expect("the app starts");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {err}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split_whitespace()
        .find_map(|kv| kv.strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key} in {line}"))
}

#[test]
fn each_new_scene_loads_by_name_and_runs_headless() {
    for (name, balls) in [("cradle", "5"), ("pool", "16"), ("field", "2000")] {
        let line = summary(&["--scene", name, "--headless", "--frames", "1"]);
        assert_eq!(field(&line, "balls="), balls, "{name}: {line}");
        assert_eq!(field(&line, "strays="), "0", "{name}: {line}");
    }
    // Rain starts empty and fills over time.
    let line = summary(&["--scene", "rain", "--headless", "--frames", "1"]);
    let first: u32 = field(&line, "balls=").parse().unwrap();
    assert!(first > 0 && first < 3000, "{line}");
}

#[test]
fn fill_sets_the_count_of_a_scene_that_fills_itself() {
    let args = [
        "--scene",
        "field",
        "--fill",
        "300",
        "--headless",
        "--frames",
        "60",
    ];
    let brute = summary(&args);
    assert_eq!(field(&brute, "balls="), "300", "{brute}");
    let mut grid = args.to_vec();
    grid.extend(["--broad-phase", "grid"]);
    let grid = summary(&grid);
    assert_eq!(field(&brute, "hash="), field(&grid, "hash="));
}
