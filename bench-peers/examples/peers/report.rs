//! The table the bench prints, in Markdown to paste: the machine (`lscpu`'s model name, the
//! cores, the load average before and after), the command, then per scene and contender the
//! medians over the runs, the ratios the goals are stated in, and each run's times.

use crate::run::{Contender, Figures};
use crate::setup::Plan;
use std::process::Command;

/// The CPU's model name as `lscpu` gives it (else `/proc/cpuinfo`'s), and the cores.
pub fn cpu() -> String {
    let lscpu = Command::new("lscpu").output().ok();
    let text = lscpu.map(|o| String::from_utf8_lossy(&o.stdout).into_owned());
    let from = |text: &str, key: &str| {
        let line = text.lines().find(|l| l.trim_start().starts_with(key))?;
        Some(line.split_once(':')?.1.trim().to_string())
    };
    let model = text.as_deref().and_then(|t| from(t, "Model name"));
    let model = model.or_else(|| {
        let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
        from(&info, "model name")
    });
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!(
        "{} ({cores} cores)",
        model.unwrap_or_else(|| "unknown CPU".into())
    )
}

/// The load average over the last minute, as `/proc/loadavg` gives it.
pub fn load() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace().next().unwrap_or("?").to_string()
}

/// Today's date (UTC), as `date` gives it.
pub fn date() -> String {
    let out = Command::new("date").args(["-u", "+%Y-%m-%d"]).output();
    out.map_or("?".into(), |o| {
        String::from_utf8_lossy(&o.stdout).trim().into()
    })
}

/// Median of `values` (the mean of the middle two for an even count).
fn median(mut values: Vec<f64>) -> f64 {
    collide_lab::experiments::median(&mut values).unwrap_or(f64::NAN)
}

/// One contender's figures over the runs, as the table prints them.
struct Row {
    ms: f64,
    runs_ms: Vec<f64>,
    asleep: String,
    overlap: String,
    lost: usize,
}

fn row(runs: &[Figures], plan: &Plan) -> Row {
    let asleep = median(
        runs.iter()
            .map(|f| f.asleep_90.unwrap_or(f64::INFINITY))
            .collect(),
    );
    let asleep = if asleep.is_finite() {
        format!("{asleep:.1} s")
    } else {
        format!("not within {} s", plan.seconds)
    };
    let mean = median(runs.iter().map(|f| f.end.mean * 100.0).collect());
    let worst = median(
        runs.iter()
            .map(|f| f64::from(f.end.worst) * 100.0)
            .collect(),
    );
    let runs_ms: Vec<f64> = runs.iter().map(|f| f.ms).collect();
    Row {
        ms: median(runs_ms.clone()),
        runs_ms,
        asleep,
        overlap: format!("{mean:.2} % / {worst:.1} %"),
        lost: runs.iter().map(|f| f.lost).max().unwrap_or(0),
    }
}

/// The name a contender's engine goes by in the table.
fn engine_name(engine: &str) -> &str {
    match engine {
        "toy" => "toy",
        "box2d" => "Box2D 3.2",
        "box2d-builtin" => "Box2D 3.2, its own scheduler",
        "rapier" => "rapier2d 0.36",
        other => other,
    }
}

/// Prints one scene's table: `figures[run][contender]`.
pub fn print_scene(plan: &Plan, contenders: &[Contender], figures: &[Vec<Figures>]) {
    let rows: Vec<Row> = (0..contenders.len())
        .map(|c| row(&figures.iter().map(|r| r[c]).collect::<Vec<_>>(), plan))
        .collect();
    let (from, to) = plan.timed;
    println!(
        "\n**{}, {} balls**: ms a frame over simulated seconds {from}–{to}; overlap at {} s.\n",
        plan.name, plan.balls, plan.seconds
    );
    println!(
        "| engine | threads | ms a frame | runs | 90 % asleep | overlap, mean / worst | lost |"
    );
    println!("|---|---|---|---|---|---|---|");
    for (c, r) in contenders.iter().zip(&rows) {
        let runs: Vec<String> = r.runs_ms.iter().map(|ms| format!("{ms:.2}")).collect();
        println!(
            "| {} | {} | {:.2} | {} | {} | {} | {} |",
            engine_name(&c.engine),
            c.threads,
            r.ms,
            runs.join(", "),
            r.asleep,
            r.overlap,
            r.lost
        );
    }
    print_ratios(contenders, &rows);
}

/// The toy's time over Box2D's on the fewest and the most threads, and each engine's time on
/// the fewest over its time on the most (its gain from the threads).
fn print_ratios(contenders: &[Contender], rows: &[Row]) {
    let ms = |engine: &str, threads: usize| {
        let at = contenders
            .iter()
            .position(|c| c.engine == engine && c.threads == threads);
        at.map(|i| rows[i].ms)
    };
    let mut lines = Vec::new();
    let threads: Vec<usize> = contenders.iter().map(|c| c.threads).collect();
    let (lo, hi) = (threads.iter().min(), threads.iter().max());
    for &t in threads
        .iter()
        .filter(|&&t| Some(&t) == lo || Some(&t) == hi)
    {
        if let (Some(toy), Some(b2)) = (ms("toy", t), ms("box2d", t)) {
            lines.push(format!("toy ÷ Box2D, ×{t}: {:.2}", toy / b2));
        }
    }
    lines.dedup();
    if let (Some(&lo), Some(&hi)) = (lo, hi) {
        for e in ["toy", "box2d", "rapier"].into_iter().filter(|_| lo != hi) {
            if let (Some(a), Some(b)) = (ms(e, lo), ms(e, hi)) {
                lines.push(format!("{} ×{lo} ÷ ×{hi}: {:.2}", engine_name(e), a / b));
            }
        }
    }
    if !lines.is_empty() {
        println!("\n{}.", lines.join("; "));
    }
}
