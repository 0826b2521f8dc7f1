//! `bench <experiment>`: runs one of the library's experiments headless, prints its table,
//! and writes CSV files and a PNG chart into `--out`.

use super::bench_chart;
use crate::cli::{BenchArgs, Experiment};
use collide::{BroadKind, Scene};
use collide_lab::experiments::scale::{self, ScaleConfig, ScaleRun};
use collide_lab::experiments::sectors_1994::{
    self as sectors, HarnessConfig, HarnessRow, RatioRow,
};
use collide_lab::experiments::table_sweep::{self, KindSummary, LeafRow, Sweep, SweepConfig};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Runs the experiment; returns the process exit status.
pub fn run(args: &BenchArgs, scene: &Scene) -> i32 {
    collide_lab::experiments::keep_freed_memory();
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        eprintln!("error: cannot create {}: {e}", args.out.display());
        return 1;
    }
    let result = match args.experiment {
        Experiment::Sectors => run_sectors(args),
        Experiment::Quadtree => run_quadtree(args, scene),
        Experiment::Scale => run_scale(args),
    };
    match result {
        Ok(files) => {
            let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
            println!("\nwrote {}", names.join(", "));
            0
        }
        Err(e) => {
            eprintln!("error: {e}");
            1
        }
    }
}

/// Prints "name  42%" to stderr whenever the whole percent changes.
pub(crate) fn progress_printer(name: &'static str) -> impl FnMut(f32) {
    let mut last = -1i32;
    move |f| {
        let pc = (f * 100.0).floor() as i32;
        if pc != last {
            last = pc;
            eprint!("\r{name} {pc:3}%");
            if pc >= 100 {
                eprintln!();
            }
            let _ = std::io::stderr().flush();
        }
    }
}

fn write_file(dir: &Path, name: &str, text: &str) -> Result<PathBuf, String> {
    let path = dir.join(name);
    std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

fn names(kinds: &[BroadKind]) -> String {
    kinds.iter().map(|k| format!("{:>10}", k.name())).collect()
}

// ---------------------------------------------------------------------------------------------
// sectors

fn run_sectors(args: &BenchArgs) -> Result<Vec<PathBuf>, String> {
    let config = HarnessConfig {
        layouts: args.layouts.max(1),
        ..HarnessConfig::default()
    };
    let rows = sectors::run(
        &config,
        crate::clock::nanos,
        &mut progress_printer("sectors"),
    );
    let ratios = sectors::ratios(&rows);
    print!("{}", sectors_table(&config, &rows, &ratios));
    let png = args.out.join("sectors.png");
    bench_chart::sectors(&png, &rows)?;
    Ok(vec![
        write_file(&args.out, "sectors.csv", &sectors_csv(&rows))?,
        write_file(&args.out, "sectors_ratio.csv", &ratio_csv(&ratios))?,
        png,
    ])
}

fn sectors_table(config: &HarnessConfig, rows: &[HarnessRow], ratios: &[RatioRow]) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "\nThe 1994 sector harness (Moertel 1994): 640 x 480 px screen, 30 x 30 px objects at random \
         corners,\nsector size 64 px; {} random layouts x {} complete checks per cell, rate = \
         median over layouts.\nParameters: {}\n",
        config.layouts,
        config.cycles,
        param_summary(rows)
    );
    let _ = writeln!(
        t,
        "complete checks per second (a complete check finds all pairs)"
    );
    let _ = writeln!(
        t,
        "objects     K{}  | 1994 68K  1994 PPC",
        names(&config.kinds)
    );
    for (i, &n) in config.counts.iter().enumerate() {
        let _ = write!(t, "{n:>7} {:>5.2}", sectors::mean_per_sector(n));
        for &kind in &config.kinds {
            let r = rows.iter().find(|r| r.kind == kind && r.objects == n);
            let _ = write!(t, "{:>10.0}", r.map_or(f64::NAN, |r| r.checks_per_second));
        }
        let post = |a: &[f64; 4]| sectors::POST_COUNTS.get(i).and(a.get(i)).copied();
        let _ = writeln!(
            t,
            "  | {:>8} {:>9}",
            post(&sectors::POST_68K).map_or("-".into(), |v| v.to_string()),
            post(&sectors::POST_PPC).map_or("-".into(), |v| v.to_string())
        );
    }
    let _ = writeln!(t, "\nrectangle (AABB) tests per complete check");
    let _ = writeln!(t, "objects     K{}", names(&config.kinds));
    for &n in &config.counts {
        let _ = write!(t, "{n:>7} {:>5.2}", sectors::mean_per_sector(n));
        for &kind in &config.kinds {
            let r = rows.iter().find(|r| r.kind == kind && r.objects == n);
            let _ = write!(t, "{:>10.1}", r.map_or(f64::NAN, |r| r.tests_per_check));
        }
        let _ = writeln!(t);
    }
    let _ = writeln!(
        t,
        "\nfour shifts (sectors) vs adjacent sectors, rectangle tests per complete check\n\
         objects     K  four shifts   adjacent  measured R  1994 R(K)  expected (random, border)"
    );
    for r in ratios {
        let opt = |v: Option<f64>| v.map_or("n/a".to_string(), |v| format!("{v:.2}"));
        let _ = writeln!(
            t,
            "{:>7} {:>5.2} {:>12.1} {:>10.1} {:>11} {:>10} {:>11.2}",
            r.objects,
            r.k,
            r.sectors_tests,
            r.adjacent_tests,
            opt(r.measured),
            opt(r.predicted),
            sectors::expected_ratio()
        );
    }
    let _ = writeln!(t, "\n{}", ratio_sentence());
    t
}

/// Why the measured ratio differs from the post's R(K).
fn ratio_sentence() -> &'static str {
    "Why they differ: the post's model puts exactly K objects in every sector and so charges \
     four shifts 2K(K-1) per sector (zero or negative for K <= 1, hence n/a), but with objects \
     placed at random the count per sector varies and the mean of K(K-1) for a random count of \
     mean K is K^2, so the two cost about 2K^2 and 81K^2/2 per sector - a ratio near \
     81/4 = 20.25 at every K, not 38 at K = 2 - and the border sectors, whose 3 x 3 blocks \
     stick out of the 10 x 7.5-sector screen and hold fewer objects, bring the expected ratio \
     down to the last column's value, which the measured one matches."
}

fn param_summary(rows: &[HarnessRow]) -> String {
    let mut seen: Vec<String> = Vec::new();
    for r in rows.iter().filter(|r| !r.params.is_empty()) {
        let s = format!("{} {}", r.kind.name(), r.params);
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    seen.join(", ")
}

fn sectors_csv(rows: &[HarnessRow]) -> String {
    let mut t = String::from(
        "algorithm,params,objects,k,checks_per_second,tests_per_check,pairs_per_check,post_68k,post_ppc\n",
    );
    for r in rows {
        let i = sectors::POST_COUNTS.iter().position(|&c| c == r.objects);
        let post = |a: &[f64; 4]| i.map_or(String::new(), |i| a[i].to_string());
        let _ = writeln!(
            t,
            "{},{},{},{:.4},{:.1},{:.3},{:.3},{},{}",
            r.kind.name(),
            r.params,
            r.objects,
            sectors::mean_per_sector(r.objects),
            r.checks_per_second,
            r.tests_per_check,
            r.pairs_per_check,
            post(&sectors::POST_68K),
            post(&sectors::POST_PPC)
        );
    }
    t
}

fn ratio_csv(ratios: &[RatioRow]) -> String {
    let mut t = String::from("objects,k,sectors_tests,adjacent_tests,measured_ratio,post_ratio\n");
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.4}"));
    for r in ratios {
        let _ = writeln!(
            t,
            "{},{:.4},{:.3},{:.3},{},{}",
            r.objects,
            r.k,
            r.sectors_tests,
            r.adjacent_tests,
            opt(r.measured),
            opt(r.predicted)
        );
    }
    t
}

// ---------------------------------------------------------------------------------------------
// quadtree

fn run_quadtree(args: &BenchArgs, scene: &Scene) -> Result<Vec<PathBuf>, String> {
    if args.min_balls < 1 || args.max_balls < args.min_balls {
        return Err(format!(
            "need 1 <= --min-balls <= --max-balls, got {} and {}",
            args.min_balls, args.max_balls
        ));
    }
    let config = SweepConfig {
        min_balls: args.min_balls,
        max_balls: args.max_balls,
        seconds: args.seconds.max(1),
        gravity: args.gravity,
        ..SweepConfig::default()
    };
    let sweep = table_sweep::run(scene, &config, &mut progress_printer("quadtree"));
    let summary = table_sweep::summarize(&sweep.rows);
    print!("{}", quadtree_table(&config, &sweep, &summary));
    let png = args.out.join("quadtree.png");
    bench_chart::quadtree(&png, &sweep)?;
    Ok(vec![
        write_file(&args.out, "quadtree.csv", &quadtree_csv(&sweep))?,
        write_file(&args.out, "quadtree_fit.csv", &fit_csv(&summary))?,
        write_file(&args.out, "quadtree_leaf.csv", &leaf_csv(&sweep))?,
        png,
    ])
}

fn quadtree_table(config: &SweepConfig, sweep: &Sweep, summary: &[KindSummary]) -> String {
    let mut t = String::new();
    let obstacles = sweep.rows.first().map_or(0, |r| r.obstacles);
    let _ = writeln!(
        t,
        "\nFig. 26-28 of the toy (Parberry, Collision Math Toy) on the table: {} obstacles (guard points included), \
         balls of radius {} px,\n{} simulated s per run after the launches, gravity {} px/s^2, \
         motion 1 x collision 1 iteration, so one iteration = one 1/60 s frame.\n\
         Quadtree at {} levels counting the root (16 x 16 leaves of 60 x 44 px). Counts include \
         the structures' own tests.\n",
        obstacles, config.radius, config.seconds, config.gravity, config.quadtree_levels
    );
    let kinds: Vec<BroadKind> = summary.iter().map(|s| s.kind).collect();
    let _ = writeln!(t, "AABB tests per iteration\nballs{}", names(&kinds));
    for n in config.min_balls..=config.max_balls {
        let _ = write!(t, "{n:>5}");
        for &kind in &kinds {
            let r = sweep.rows.iter().find(|r| r.kind == kind && r.balls == n);
            let _ = write!(t, "{:>10.1}", r.map_or(f64::NAN, |r| r.tests_per_iteration));
        }
        let _ = writeln!(t);
    }
    let _ = writeln!(
        t,
        "\nlinear fit, tests per iteration = slope x balls + intercept (n = {}..{})\n\
         algorithm      slope  intercept      R^2  tests@{max}  brute/algo@{max}  overtakes brute from",
        config.min_balls,
        config.max_balls,
        max = config.max_balls
    );
    for s in summary {
        let _ = writeln!(t, "{}", summary_line(s.kind.name(), s));
    }
    let _ = writeln!(
        t,
        "toy quadtree    ~3.0          -    0.996        ~96              {:.0}  {} balls",
        table_sweep::TOY_FACTOR_AT_32,
        table_sweep::TOY_CROSSOVER
    );
    t += &leaf_table(sweep);
    let trajectories_agree = (config.min_balls..=config.max_balls).all(|n| {
        let mut it = sweep
            .rows
            .iter()
            .filter(|r| r.balls == n)
            .map(|r| r.state_hash);
        let first = it.next();
        it.all(|h| Some(h) == first)
    });
    let strays = sweep.rows.iter().map(|r| r.strays).max().unwrap_or(0);
    let _ = writeln!(
        t,
        "\nSame final state for every algorithm at each n: {}. Most strays in any run: {strays}.",
        if trajectories_agree { "yes" } else { "NO" }
    );
    t
}

fn summary_line(name: &str, s: &KindSummary) -> String {
    let (slope, intercept, r2) = s.fit.map_or((f64::NAN, f64::NAN, f64::NAN), |f| {
        (f.slope, f.intercept, f.r2)
    });
    let from = s
        .overtakes_brute_at
        .map_or("never".to_string(), |n| format!("{n} balls"));
    format!(
        "{name:<12} {slope:>8.2} {intercept:>10.1} {r2:>8.4} {:>10.1} {:>16.2}  {from}",
        s.at_max, s.brute_factor_at_max
    )
}

/// One number of a [`LeafRow`].
type LeafValue = fn(&LeafRow) -> f64;

/// The toy-comparable counts: tests inside the quadtree's leaves, without node tests.
fn leaf_table(sweep: &Sweep) -> String {
    let mut t = String::new();
    if sweep.leaf_rows.is_empty() {
        return t;
    }
    let series = |f: LeafValue| -> Vec<(u32, f64)> {
        sweep.leaf_rows.iter().map(|l| (l.balls, f(l))).collect()
    };
    let brute = series(|l| l.brute_ball_tests);
    let _ = writeln!(
        t,
        "\ntoy-comparable counts (the toy's look like leaf tests without node tests, its brute \
         force like ball-ball tests):\nk balls and o obstacles in a quadtree leaf; brute force \
         n(n-1)/2; 'overtakes' and 'brute/algo' against brute force n(n-1)/2"
    );
    let rows: [(&str, LeafValue); 3] = [
        ("brute b-b", |l| l.brute_ball_tests),
        ("leaf k(k-1)/2", |l| l.leaf_ball_tests),
        ("leaf +k*o", |l| l.leaf_tests),
    ];
    for (name, f) in rows {
        let s = table_sweep::summary_of(BroadKind::Quadtree, &series(f), &brute);
        let _ = writeln!(t, "{}", summary_line(name, &s));
    }
    t
}

fn quadtree_csv(sweep: &Sweep) -> String {
    let mut t = String::from(
        "algorithm,balls,obstacles,iterations,tests_per_iteration,pairs_per_iteration,strays,state_hash\n",
    );
    for r in &sweep.rows {
        let _ = writeln!(
            t,
            "{},{},{},{},{:.4},{:.4},{},{:016x}",
            r.kind.name(),
            r.balls,
            r.obstacles,
            r.iterations,
            r.tests_per_iteration,
            r.pairs_per_iteration,
            r.strays,
            r.state_hash
        );
    }
    t
}

fn fit_csv(summary: &[KindSummary]) -> String {
    let mut t = String::from(
        "algorithm,slope,intercept,r2,tests_at_max,brute_factor_at_max,overtakes_brute_at\n",
    );
    for s in summary {
        let (a, b, r2) = s.fit.map_or((f64::NAN, f64::NAN, f64::NAN), |f| {
            (f.slope, f.intercept, f.r2)
        });
        let _ = writeln!(
            t,
            "{},{a:.4},{b:.4},{r2:.5},{:.3},{:.4},{}",
            s.kind.name(),
            s.at_max,
            s.brute_factor_at_max,
            s.overtakes_brute_at
                .map_or(String::new(), |n| n.to_string())
        );
    }
    t
}

fn leaf_csv(sweep: &Sweep) -> String {
    let mut t = String::from("balls,brute_ball_tests,leaf_ball_tests,leaf_tests\n");
    for l in &sweep.leaf_rows {
        let _ = writeln!(
            t,
            "{},{},{:.4},{:.4}",
            l.balls, l.brute_ball_tests, l.leaf_ball_tests, l.leaf_tests
        );
    }
    t
}

// ---------------------------------------------------------------------------------------------
// scale

fn run_scale(args: &BenchArgs) -> Result<Vec<PathBuf>, String> {
    let mut config = ScaleConfig::default();
    config.counts.retain(|&n| n <= args.max_n);
    if config.counts.is_empty() {
        return Err(format!(
            "--max-n {} leaves no ball count (smallest 1000)",
            args.max_n
        ));
    }
    let rows = scale::run(&config, crate::clock::nanos, &mut progress_printer("scale"));
    print!("{}", scale_table(&config, &rows));
    let png = args.out.join("scale.png");
    bench_chart::scale(&png, &rows.rows)?;
    Ok(vec![
        write_file(&args.out, "scale.csv", &scale_csv(&rows))?,
        png,
    ])
}

fn scale_table(config: &ScaleConfig, run: &ScaleRun) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "\nUniform random balls, radius {}-{} px uniform, total ball area = {} x the square; \
         one fresh instance builds\nand finds all pairs (median of {} runs up to 100k, 1 \
         run above or when a run takes over 1 s); brute force up to {} balls;\nruns predicted \
         (power law from the last two counts) to take over {:.0} s are skipped.\nFreed memory is kept \
         by the allocator, so fresh instances reuse it rather than page-faulting new memory.\n",
        0.5 * scale::R0,
        1.5 * scale::R0,
        scale::AREA_FRACTION,
        config.reps,
        config.brute_max_n,
        config.budget_ms / 1000.0
    );
    let _ = writeln!(
        t,
        "{:<10} {:>9} {:>8} {:>11} {:>10} {:>11}  params",
        "algorithm", "balls", "side px", "time ms", "pairs", "tests/ball"
    );
    for r in &run.rows {
        let _ = writeln!(
            t,
            "{:<10} {:>9} {:>8.0} {:>11.3} {:>10} {:>11.1}  {}",
            r.kind.name(),
            r.n,
            r.side,
            r.millis,
            r.pairs,
            r.tests_per_object,
            r.params
        );
    }
    for s in &run.skipped {
        let why = s
            .predicted_ms
            .map_or("brute force beyond its limit".to_string(), |ms| {
                format!("predicted {:.0} s", ms / 1000.0)
            });
        let _ = writeln!(t, "{:<10} {:>9}  skipped: {why}", s.kind.name(), s.n);
    }
    t
}

fn scale_csv(run: &ScaleRun) -> String {
    let mut t = String::from("algorithm,params,n,side,millis,pairs,tests_per_object\n");
    for r in &run.rows {
        let _ = writeln!(
            t,
            "{},{},{},{:.1},{:.4},{},{:.4}",
            r.kind.name(),
            r.params,
            r.n,
            r.side,
            r.millis,
            r.pairs,
            r.tests_per_object
        );
    }
    t
}
