//! `--replay FILE`: a recording replayed headless to its end, every checkpoint hash compared.

use crate::cli;
use collide::Recording;
use std::path::Path;

/// `--replay FILE`: replays to the end, prints the summary line and the verdict; the exit
/// status (0 same hashes, 1 divergence, 2 bad file).
pub fn run(path: &Path) -> i32 {
    let (rec, mut world) = match Recording::load(path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let (start, checkpoints) = (rec.start.state.steps, rec.checkpoints.len());
    let t0 = crate::clock::Instant::now();
    let divergence = collide_replay::replay(rec, &mut world);
    let secs = t0.elapsed().as_secs_f64();
    let frames = (world.steps() - start) / world.settings().motion_iterations.max(1) as u64;
    println!(
        "{}",
        cli::summary(
            frames,
            &world,
            frames as f64 / secs.max(1e-9),
            (secs * 1000.0 / frames.max(1) as f64, 0.0)
        )
    );
    match divergence {
        None => {
            println!(
                "replay: steps {start}..{} checkpoints={checkpoints} verdict=same",
                world.steps()
            );
            0
        }
        Some(d) => {
            println!(
                "replay: DIVERGED at step {}: recorded hash={:016x} replayed hash={:016x} verdict=diverged",
                d.step, d.recorded, d.replayed
            );
            1
        }
    }
}
