//! `bench`: the quick quadtree sweep writes its table, CSV and PNG.

use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_collision-math-toy");

#[test]
fn bench_quadtree_quick_writes_csv_and_png() {
    let out = std::env::temp_dir().join(format!("cmt-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new(EXE)
        .args([
            "bench",
            "quadtree",
            "--seconds",
            "1",
            "--max-balls",
            "4",
            "--out",
        ])
        .arg(&out)
        .output()
        .expect("the app starts");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(stdout.contains("AABB tests per iteration"), "{stdout}");
    assert!(stdout.contains("linear fit"), "{stdout}");

    let csv = std::fs::read_to_string(out.join("quadtree.csv")).expect("quadtree.csv");
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().starts_with("algorithm,balls,"));
    // Balls 2, 3 and 4 for every algorithm.
    assert_eq!(lines.count(), 3 * collide::BroadKind::ALL.len(), "{csv}");
    for name in ["quadtree_fit.csv", "quadtree_leaf.csv"] {
        assert!(out.join(name).is_file(), "{name}");
    }

    let png = std::fs::File::open(out.join("quadtree.png")).expect("quadtree.png");
    let info = png::Decoder::new(png)
        .read_info()
        .expect("a PNG")
        .info()
        .clone();
    assert!(
        info.width >= 800 && info.height >= 400,
        "{}x{}",
        info.width,
        info.height
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn bench_refuses_an_unknown_experiment() {
    let run = Command::new(EXE)
        .args(["bench", "nonsense"])
        .output()
        .expect("the app starts");
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("sectors"));
}
