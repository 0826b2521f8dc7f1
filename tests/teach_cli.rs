//! The teaching flags: `--tour list` prints Things to try, `--tour N` is refused outside the
//! list with the range, and `--show heat`, `probe` and `impulses` are accepted overlays (an
//! unknown one refused with the names).

use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_collision-math-toy");

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(EXE)
        .args(args)
        .output()
        .expect("the app starts");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn tour_list_prints_the_numbered_experiments() {
    let (code, out, err) = run(&["--tour", "list"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 12, "{out}");
    assert!(lines[0].trim_start().starts_with("1. "), "{out}");
    assert!(out.contains("Brute force"), "{out}");
}

#[test]
fn a_tour_number_outside_the_list_is_refused_with_the_range() {
    for bad in ["0", "99", "first"] {
        let (code, _, err) = run(&["--tour", bad, "--headless", "--frames", "1"]);
        assert_eq!(code, 2, "{bad}: {err}");
        assert!(
            err.contains("--tour") && err.contains("1..=") && err.contains("list"),
            "{err}"
        );
    }
}

#[test]
fn the_teaching_overlays_are_accepted_and_an_unknown_one_refused() {
    let (code, out, err) = run(&[
        "--show",
        "heat,probe,impulses",
        "--tour",
        "3",
        "--headless",
        "--frames",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("hash="), "{out}");
    let (code, _, err) = run(&["--show", "heatmap", "--headless", "--frames", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("heatmap") && err.contains("heat"), "{err}");
}
