//! The toy, Box2D v3 and rapier2d on the same balls in one run, each on 1 and 2 threads,
//! interleaved second by second, with the same measures; prints a Markdown table to paste.
//!
//! ```text
//! cargo run --release --manifest-path bench-peers/Cargo.toml --example peers -- \
//!     [--scenes pile,drum,pile40k] [--runs 3] [--engines toy,box2d,rapier] \
//!     [--threads 1,2] [--seconds S] [--seed 1] [--trace]
//! ```
//!
//! Scenes (the toy's files in `bench-peers/scenes`, the balls placed by its seeded fill):
//! - `pile`: 10,000 balls of radius 2.1–3 px dropped into an open box of three segments,
//!   880 × 670 px, for 20 s; timed over the first 5 s.
//! - `drum`: 10,000 balls in a closed square of four segments, 700 × 700 px, turning at
//!   0.25 turn/s about its centre, for 10 s; timed over seconds 5–10, when it tumbles. The
//!   peers' drum walls are solid boxes 100 px deep behind the same faces (through bare
//!   turning segments they lose balls); the toy keeps its segments.
//! - `pile40k`: the pile with 40,000 balls (the fill shrinks them to 1.2–1.7 px), for 8 s;
//!   timed over the first 5 s.
//!
//! Every scene: gravity 400 px/s², friction 0.6, restitution 0, the toy's rolling resistance
//! where the engine has one (Box2D), frames of 1/60 s in 4 sub-steps, density 1. Per contender
//! the table gives the median over `--runs` runs of: the wall time a frame over the timed
//! seconds, when 90 % of the balls first were asleep, the overlap at the end (mean and worst
//! over the touching pairs, as a fraction of the smaller radius) and the most balls out of
//! the box at the end of any second over all runs. `--trace` prints every contender's
//! seconds as they run, and under each of the toy's its stages (ms a frame over that second,
//! its clock then set). `--seconds` runs every scene that long (its timed seconds cut to fit).
//! Engine `box2d-builtin` is Box2D on the scheduler it starts itself when given no task
//! functions, to check the bench's own task system costs it nothing.

mod box2d;
mod engine;
mod measure;
mod rapier;
mod report;
mod run;
mod setup;
mod tasks;
mod toy;

use run::Contender;
use setup::{Plan, Setup};
use std::time::Instant;

/// The scenes the bench knows.
const PLANS: [Plan; 3] = [
    Plan {
        name: "pile",
        file: "scenes/pile.ron",
        balls: 10_000,
        seconds: 20,
        timed: (0, 5),
    },
    Plan {
        name: "drum",
        file: "scenes/drum.ron",
        balls: 10_000,
        seconds: 10,
        timed: (5, 10),
    },
    Plan {
        name: "pile40k",
        file: "scenes/pile.ron",
        balls: 40_000,
        seconds: 8,
        timed: (0, 5),
    },
];

struct Args {
    plans: Vec<Plan>,
    runs: usize,
    contenders: Vec<Contender>,
    seed: u64,
    trace: bool,
}

fn list(text: &str) -> Vec<String> {
    text.split(',').map(|s| s.trim().to_string()).collect()
}

fn args() -> Args {
    let (mut scenes, mut engines) = (list("pile,drum,pile40k"), list("toy,box2d,rapier"));
    let (mut threads, mut seconds) = (vec![1, 2], None);
    let (mut runs, mut seed, mut trace) = (3, 1, false);
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--scenes" => scenes = list(&value()),
            "--engines" => engines = list(&value()),
            "--threads" => {
                threads = list(&value())
                    .iter()
                    .map(|t| t.parse().expect("--threads 1,2"))
                    .collect()
            }
            "--runs" => runs = value().parse().expect("--runs N"),
            "--seconds" => seconds = Some(value().parse().expect("--seconds S")),
            "--seed" => seed = value().parse().expect("--seed N"),
            "--trace" => trace = true,
            other => panic!("unknown flag {other}"),
        }
    }
    let plans = scenes.iter().map(|name| plan(name, seconds)).collect();
    let contenders = threads
        .iter()
        .flat_map(|&t| {
            engines.iter().map(move |e| Contender {
                engine: e.clone(),
                threads: t,
            })
        })
        .collect();
    Args {
        plans,
        runs: runs.max(1),
        contenders,
        seed,
        trace,
    }
}

/// The scene called `name`, run `seconds` long when told.
fn plan(name: &str, seconds: Option<u32>) -> Plan {
    let known = PLANS.iter().find(|p| p.name == name);
    let mut plan = *known.unwrap_or_else(|| panic!("unknown scene {name} (pile, drum, pile40k)"));
    if let Some(s) = seconds {
        plan.seconds = s;
        plan.timed = (plan.timed.0.min(s.saturating_sub(1)), plan.timed.1.min(s));
    }
    plan
}

fn main() {
    collide_lab::experiments::keep_freed_memory();
    let a = args();
    let started = Instant::now();
    let load = report::load();
    let setups: Vec<Setup> = a.plans.iter().map(|p| Setup::new(p, a.seed)).collect();
    let mut figures = vec![Vec::new(); a.plans.len()];
    for r in 0..a.runs {
        for (k, (plan, setup)) in a.plans.iter().zip(&setups).enumerate() {
            eprintln!(
                "run {}/{}: {} ({:.0} s so far)",
                r + 1,
                a.runs,
                plan.name,
                started.elapsed().as_secs_f64()
            );
            figures[k].push(run::run(plan, setup, &a.contenders, a.trace));
        }
    }
    let command: Vec<String> = std::env::args().skip(1).collect();
    println!(
        "\n{}, {}; load average {load} before, {} after; {} runs, {:.0} s in all.",
        report::date(),
        report::cpu(),
        report::load(),
        a.runs,
        started.elapsed().as_secs_f64()
    );
    println!(
        "`cargo run --release --manifest-path bench-peers/Cargo.toml --example peers -- {}`",
        command.join(" ")
    );
    for ((plan, setup), f) in a.plans.iter().zip(&setups).zip(&figures) {
        let unit = setup.length_unit();
        println!(
            "\n(Length unit given to Box2D and rapier: {unit:.2} px, the mean ball diameter.)"
        );
        report::print_scene(plan, &a.contenders, f);
    }
}
