//! Strays per 10,000 shots for each tunnelling mode at three speeds, with the impact tests
//! per shot, measured in one run over every container of `collide_lab::shots`.
//!
//! ```text
//! cargo run --release -p collide-lab --example tunnel_table [SHOTS per container and cell]
//! ```

use collide::Tunnelling;
use collide_lab::shots::{fire, ShotStats, Target};

/// Speeds in ball radii per step.
const SPEEDS: [f32; 3] = [1.0, 10.0, 100.0];

fn main() {
    let shots: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    println!("{shots} shots per container, mode and speed; ball radius {} px, ring {} px; speeds in radii per step", collide_lab::shots::BALL_RADIUS, collide_lab::shots::RING);
    let mut totals = Vec::new();
    println!("\n| container | mode | {} |", header());
    println!("|---|---|{}", "---|".repeat(SPEEDS.len()));
    for &target in Target::ALL {
        for &mode in Tunnelling::ALL {
            let cells: Vec<ShotStats> = SPEEDS
                .iter()
                .map(|&s| fire(target, mode, s..=s, shots, 0x5407 + target as u64))
                .collect();
            println!("| {} | {} | {} |", target.name(), mode.name(), row(&cells));
            totals.push((mode, cells));
        }
    }
    println!(
        "\nAll {} containers together ({} shots per cell):\n",
        Target::ALL.len(),
        shots * Target::ALL.len() as u64
    );
    println!("| mode | {} |", header());
    println!("|---|{}", "---|".repeat(SPEEDS.len()));
    for &mode in Tunnelling::ALL {
        let mut sum = vec![ShotStats::default(); SPEEDS.len()];
        for (_, cells) in totals.iter().filter(|(m, _)| *m == mode) {
            for (s, c) in sum.iter_mut().zip(cells) {
                s.shots += c.shots;
                s.strays += c.strays;
                s.impact_tests += c.impact_tests;
                s.full_tests += c.full_tests;
                s.steps += c.steps;
            }
        }
        println!("| {} | {} |", mode.name(), row(&sum));
    }
    println!(
        "\nEach cell: strays per 10,000 shots / impact tests per shot (candidate pairs per shot)."
    );
}

fn header() -> String {
    SPEEDS
        .iter()
        .map(|s| format!("{s} r/step"))
        .collect::<Vec<_>>()
        .join(" | ")
}

fn row(cells: &[ShotStats]) -> String {
    cells
        .iter()
        .map(|c| {
            format!(
                "{:.1} / {:.1} ({:.1})",
                c.strays_per_10k(),
                c.tests_per_shot(),
                c.full_tests as f64 / c.shots.max(1) as f64
            )
        })
        .collect::<Vec<_>>()
        .join(" | ")
}
