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

/// A field with bounds of 1e30 px, filled headless, panicked in the fill (exit 101). The
/// loader refuses such bounds by file, line and field, with exit 2; a block covering the
/// whole play area lets the run go on, and the start says on stderr why no ball was placed.
#[test]
fn fill_on_a_field_with_bounds_of_1e30_is_refused_by_name_with_exit_2() {
    let dir = std::env::temp_dir().join(format!("cmt-huge-bounds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let field = include_str!("../crates/collide/scenes/field.ron");
    let huge = dir.join("huge.ron");
    std::fs::write(
        &huge,
        field.replacen("max: (960, 704)", "max: (1e30, 1e30)", 1),
    )
    .unwrap();
    let run = |scene: &std::path::Path| {
        let args = ["--fill", "2000", "--headless", "--frames", "30"];
        Command::new(EXE)
            .arg("--scene")
            .arg(scene)
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&huge);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let at = format!("{}:7:5: field `bounds.max`: must be in", huge.display());
    assert!(err.contains(&at), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let covered = dir.join("covered.ron");
    let block = "shapes: [\n        Rect(min: (0, 0), max: (960, 704)),";
    std::fs::write(&covered, field.replacen("shapes: [", block, 1)).unwrap();
    let out = run(&covered);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains(" balls=0 "));
    assert!(err.contains("No balls placed: obstacles"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
