//! The command line: summaries, determinism across broad phases, and clear errors.

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

fn hash_of(summary: &str) -> &str {
    summary
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix("hash="))
        .expect("a hash")
}

#[test]
fn headless_run_prints_one_summary_line() {
    let (code, out, err) = run(&["--headless", "--frames", "120", "--launch", "5"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    for key in [
        "frames=120",
        "balls=5",
        "strays=",
        "co_located=",
        "overlap_max=",
        "overlap_mean=",
        "asleep=",
        "aabb_tests=",
        "solver=push-out",
        "fps=",
        "physics_ms=",
        "physics_ms_last=",
        "hash=",
    ] {
        assert!(lines[0].contains(key), "{key} missing in {}", lines[0]);
    }
}

#[test]
fn every_broad_phase_gives_the_same_state() {
    let base = run(&[
        "--headless",
        "--frames",
        "300",
        "--launch",
        "40",
        "--rotate",
    ]);
    for kind in collide::BroadKind::ALL {
        let other = run(&[
            "--headless",
            "--frames",
            "300",
            "--launch",
            "40",
            "--rotate",
            "--broad-phase",
            kind.name(),
        ]);
        assert_eq!(other.0, 0, "{}", other.2);
        assert_eq!(
            hash_of(&base.1),
            hash_of(&other.1),
            "{} differs",
            kind.name()
        );
    }
}

#[test]
fn bad_scene_file_names_path_line_and_field_and_exits_2() {
    let dir = std::env::temp_dir().join(format!("cmt-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.ron");
    let text = "Scene(\n  name: \"bad\",\n  bounds: (min: (0, 0), max: (100, 100)),\n  launch: (pos: (5, 5), dir: (0, 1)),\n  shapes: [\n    Segment(a: (0, 0), b: (10, 0)),\n    Circle(centre: (50, 50), radius: -4),\n  ],\n)\n";
    std::fs::write(&path, text).unwrap();
    let (code, out, err) = run(&[
        "--scene",
        path.to_str().unwrap(),
        "--headless",
        "--frames",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(
        err.contains("bad.ron:7:5:") && err.contains("radius"),
        "{err}"
    );
    assert!(!err.contains("panicked") && !err.contains("backtrace"));

    std::fs::write(
        &path,
        "Scene(name: \"x\", bounds: (min: (0, 0) max: (1, 1)))",
    )
    .unwrap();
    let (code, _, err) = run(&[
        "--scene",
        path.to_str().unwrap(),
        "--headless",
        "--frames",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.ron:1:"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_scene_file_exits_2_with_its_path() {
    let (code, _, err) = run(&[
        "--scene",
        "/no/such/scene.ron",
        "--headless",
        "--frames",
        "1",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("/no/such/scene.ron"), "{err}");
    assert!(
        !err.contains(":0:0"),
        "no line and column for a missing file: {err}"
    );
}

#[test]
fn a_scene_name_in_the_wrong_case_lists_the_built_in_names_a_close_match_first() {
    let (code, _, err) = run(&["--scene", "Pinball", "--headless", "--frames", "1"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no built-in scene or file named `Pinball`; did you mean `pinball`?"),
        "{err}"
    );
    assert!(
        err.contains("Built-in scenes: pinball, table, lab, cradle, pool, rain, field"),
        "{err}"
    );
    assert!(!err.contains("cannot read"), "{err}");
}

#[test]
fn a_saved_state_given_as_a_recording_is_named_as_a_saved_state() {
    let dir = std::env::temp_dir().join(format!("cmt-kinds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("state.ron");
    let s = state.to_str().unwrap();
    let (code, _, err) = run(&["--headless", "--frames", "5", "--save-state", s]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&["--replay", s]);
    assert_ne!(code, 0);
    assert!(
        err.contains("this is a saved state, not a recording (Load state or --state opens it)"),
        "{err}"
    );
    let (code, _, err) = run(&["--scene", s, "--headless", "--frames", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("this is a saved state, not a scene"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn unknown_broad_phase_is_refused() {
    let (code, _, err) = run(&["--broad-phase", "nonsense", "--headless", "--frames", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("nonsense"), "{err}");
}

fn value_of<'a>(summary: &'a str, key: &str) -> &'a str {
    summary
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix(key))
        .unwrap_or_else(|| panic!("{key} missing in {summary}"))
}

#[test]
fn built_in_lab_loads_by_name_and_only_off_mode_loses_balls() {
    let lab = |mode: &str| {
        let args = [
            "--scene",
            "lab",
            "--headless",
            "--frames",
            "300",
            "--launch",
            "30",
        ];
        let (code, out, err) = run(&[&args[..], &["--tunnelling", mode]].concat());
        assert_eq!(code, 0, "{err}");
        value_of(&out, "strays=").parse::<u32>().unwrap()
    };
    assert!(lab("off") > 0, "the lab shows tunnelling when off");
    assert_eq!(lab("binary"), 0);
    assert_eq!(lab("exact"), 0);
}

#[test]
fn table_by_name_is_the_default_scene() {
    let base = run(&["--headless", "--frames", "120", "--launch", "5"]);
    let named = run(&[
        "--scene",
        "table",
        "--headless",
        "--frames",
        "120",
        "--launch",
        "5",
    ]);
    let off = run(&[
        "--headless",
        "--frames",
        "120",
        "--launch",
        "5",
        "--tunnelling",
        "off",
    ]);
    assert_eq!(hash_of(&base.1), hash_of(&named.1));
    assert_eq!(hash_of(&base.1), hash_of(&off.1));
}

#[test]
fn unknown_tunnelling_mode_is_refused_with_the_choices() {
    let (code, _, err) = run(&["--headless", "--frames", "1", "--tunnelling", "fast"]);
    assert_ne!(code, 0);
    assert!(err.contains("off, linear, binary, exact"), "{err}");
}

#[test]
fn fill_puts_n_balls_on_the_table_headless() {
    let (code, out, err) = run(&["--fill", "500", "--headless", "--frames", "10"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("frames=10 "), "{out}");
    assert!(out.contains("balls=500 "), "{out}");
    assert!(out.contains("strays=0 "), "{out}");
}

#[test]
fn fill_is_the_same_for_every_broad_phase() {
    let args = ["--fill", "300", "--headless", "--frames", "60"];
    let base = run(&args);
    assert_eq!(base.0, 0, "{}", base.2);
    for kind in ["grid", "sap", "tree"] {
        let mut a = args.to_vec();
        a.extend(["--broad-phase", kind]);
        let other = run(&a);
        assert_eq!(hash_of(&base.1), hash_of(&other.1), "{kind} differs");
    }
}

#[test]
fn edit_mode_needs_a_window() {
    let (code, out, err) = run(&["--edit", "--headless", "--frames", "1"]);
    assert_eq!(code, 2, "{out}");
    assert!(
        err.contains("--edit") && err.contains("--headless"),
        "{err}"
    );
}

/// Numbers on the command line get the panel's ranges: a fill of a hundred million is refused
/// by the parser, naming the flag and the range, instead of running for minutes (the refusal
/// prints no summary line: no frame ran).
#[test]
fn numbers_out_of_the_panels_ranges_are_refused_at_once_naming_the_flag() {
    for (args, flag, range) in [
        (&["--fill", "100000000"][..], "--fill", "0..=100000"),
        (&["--launch", "5000"], "--launch", "0..=1000"),
        (&["--fill-radius", "50"], "--fill-radius", "0.5..=20"),
        (&["--fill-radius", "x"], "--fill-radius", "0.5..=20"),
        (&["--scale", "9"], "--scale", "1..=4"),
        (&["--msaa", "64"], "--msaa", "1..=16"),
    ] {
        let (code, out, err) = run(&[args, &["--headless", "--frames", "1"]].concat());
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(flag) && err.contains(range), "{args:?}: {err}");
        assert!(!out.contains("frames="), "{args:?} ran: {out}");
    }
}

/// `--launch -5`, `--seed -1` and `--threads -1` were taken for unknown flags ("unexpected
/// argument '-5'"), `--launch 1e9` got "invalid digit", and `--tour 0` and `--tour 17` (one
/// past the list) were answered in two different words. Each now names the flag and its
/// range, as the other ranged flags do.
#[test]
fn negative_and_written_out_numbers_are_refused_naming_the_range() {
    let all_u64 = "0..=18446744073709551615";
    for (flag, value, range) in [
        ("--launch <N>", "-5", "0..=1000"),
        ("--seed <SEED>", "-1", all_u64),
        ("--threads <N>", "-1", "1..=64"),
        ("--fill <N>", "-3", "0..=100000"),
        ("--fill-radius <R>", "-1", "0.5..=20"),
        ("--frames <N>", "-1", all_u64),
        ("--msaa <SAMPLES>", "-2", "1..=16"),
    ] {
        refused_saying(flag, value, &format!("{value} is not in {range}"));
    }
    refused_saying(
        "--launch <N>",
        "1e9",
        "1e9 is not a whole number in 0..=1000",
    );
    let n = tour_count();
    for value in ["0".to_string(), (n + 1).to_string()] {
        refused_saying(
            "--tour <N|list>",
            &value,
            &format!("{value} is not in 1..={n}"),
        );
    }
}

/// Runs `FLAG VALUE` (the flag's name before its placeholder) and checks that clap refuses
/// it with exit 2 and the parser's words `says`.
fn refused_saying(flag: &str, value: &str, says: &str) {
    let name = flag.split(' ').next().unwrap();
    let (code, _, err) = run(&[name, value, "--headless", "--frames", "1"]);
    assert_eq!(code, 2, "{name} {value}: {err}");
    let want = format!("for '{flag}': {says}");
    assert!(err.contains(&want), "{name} {value}: {err}");
}

/// How many experiments `--tour list` prints.
fn tour_count() -> usize {
    let (code, out, err) = run(&["--tour", "list"]);
    assert_eq!(code, 0, "{err}");
    out.lines().count()
}

/// Without --broad-phase, a start of many balls gets the grid (brute force would take a
/// quarter of a second a frame at 10,000) and a few keep brute force; a broad phase asked for
/// is kept. The simulation is the same either way.
#[test]
fn soft_contacts_give_the_same_hash_on_every_kernel_width_and_any_thread_count() {
    let args = [
        "--fill",
        "3000",
        "--headless",
        "--frames",
        "60",
        "--broad-phase",
    ];
    // The widest kernel the CPU has (16 lanes with AVX-512, 8 with AVX2), 8, or 1 (scalar).
    let out = |threads: &str, lanes: u32, broad: &str| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_collision-math-toy"));
        cmd.args(args)
            .args([broad, "--threads", threads, "--parallel-from", "0"]);
        cmd.env(
            "CMT_CONFIG_DIR",
            std::env::temp_dir().join("cmt-cli-kernels"),
        );
        match lanes {
            1 => cmd.env("COLLIDE_NO_AVX2", "1"),
            8 => cmd.env("COLLIDE_NO_AVX512", "1"),
            _ => &mut cmd,
        };
        let o = cmd.output().expect("the app runs");
        assert!(o.status.success());
        hash_of(&String::from_utf8_lossy(&o.stdout)).to_string()
    };
    let wide = out("1", 16, "grid");
    assert_eq!(out("1", 8, "grid"), wide, "8 lanes");
    assert_eq!(out("1", 1, "grid"), wide, "scalar kernel");
    assert_eq!(out("2", 16, "grid"), wide, "2 threads");
    assert_eq!(
        out("2", 8, "quadtree"),
        wide,
        "2 threads, 8 lanes, quadtree"
    );
    assert_eq!(
        out("3", 1, "sap"),
        wide,
        "3 threads, scalar, sweep and prune"
    );
}

#[test]
fn the_grids_threaded_search_gives_the_same_hash_with_either_solver() {
    // 9,000 balls: above the 8,192 from which the grid searches its pairs and queries its
    // obstacles on several threads.
    let out = |solver: &str, threads: &str| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_collision-math-toy"));
        cmd.args(["--fill", "9000", "--headless", "--frames", "20"]);
        cmd.args([
            "--broad-phase",
            "grid",
            "--solver",
            solver,
            "--threads",
            threads,
        ]);
        cmd.env(
            "CMT_CONFIG_DIR",
            std::env::temp_dir().join("cmt-cli-grid-threads"),
        );
        let o = cmd.output().expect("the app runs");
        assert!(o.status.success());
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        let tests = text
            .split_whitespace()
            .find(|w| w.starts_with("aabb_tests="));
        (hash_of(&text).to_string(), tests.map(str::to_string))
    };
    for solver in ["push-out", "soft"] {
        let one = out(solver, "1");
        assert_eq!(out(solver, "2"), one, "{solver}, 2 threads");
        assert_eq!(out(solver, "3"), one, "{solver}, 3 threads");
    }
}

#[test]
fn a_large_fill_takes_soft_contacts_unless_a_solver_is_asked_for() {
    let solver = |summary: &str| {
        let kv = summary
            .split_whitespace()
            .find_map(|kv| kv.strip_prefix("solver="));
        kv.expect("solver=").to_string()
    };
    let few = run(&["--fill", "1000", "--headless", "--frames", "2"]);
    assert_eq!(solver(&few.1), "push-out", "{}", few.1);
    let many = run(&["--fill", "1001", "--headless", "--frames", "2"]);
    assert_eq!(solver(&many.1), "soft", "{}", many.1);
    let args = ["--fill", "3000", "--headless", "--frames", "2", "--solver"];
    let asked = run(&[&args[..], &["push-out"]].concat());
    assert_eq!(solver(&asked.1), "push-out", "{}", asked.1);
    let field = run(&[
        "--scene",
        "field",
        "--fill",
        "3000",
        "--headless",
        "--frames",
        "1",
    ]);
    assert_eq!(
        solver(&field.1),
        "push-out",
        "a scene's own fill keeps its solver"
    );
}

#[test]
fn a_large_fill_starts_on_the_grid_unless_a_broad_phase_is_asked_for() {
    let broad = |summary: &str| {
        summary
            .split_whitespace()
            .find_map(|kv| kv.strip_prefix("broad="))
            .expect("broad=")
            .to_string()
    };
    let few = run(&["--fill", "500", "--headless", "--frames", "2"]);
    assert_eq!(broad(&few.1), "brute", "{}", few.1);
    let many = run(&["--fill", "3000", "--headless", "--frames", "2"]);
    assert_eq!(broad(&many.1), "grid", "{}", many.1);
    let asked = run(&[
        "--fill",
        "3000",
        "--headless",
        "--frames",
        "2",
        "--broad-phase",
        "brute",
    ]);
    assert_eq!(broad(&asked.1), "brute", "{}", asked.1);
    assert_eq!(hash_of(&many.1), hash_of(&asked.1));
    let field = run(&["--scene", "field", "--headless", "--frames", "1"]);
    assert_eq!(broad(&field.1), "grid", "{}", field.1);
}
