//! Where a run starts (a scene or a saved state), the headless replay of `--replay`, and the
//! files `--record` and `--save-state` write at the end of a `--frames` run.

use crate::cli::{self, Args};
use collide::{Recording, SavedState, Scene, SceneError, Tape, World};
use std::path::Path;

/// What the world was built from: recordings and saved states carry it.
#[derive(Clone, Debug)]
pub struct Source {
    /// Path or built-in name of the scene.
    pub origin: String,
    /// The scene's text.
    pub text: String,
    /// Seed of the world's generator when built.
    pub seed: u64,
}

impl Source {
    /// A tape recording `world` from now on.
    pub fn tape(&self, world: &World) -> Tape {
        Tape::recording(&self.origin, &self.text, self.seed, world)
    }

    /// The state of `world`, for a file.
    pub fn saved(&self, world: &World) -> SavedState {
        SavedState::of(&self.origin, &self.text, self.seed, world)
    }
}

/// The first world: from `--state`, else the scene with the command line's options.
pub fn start(args: &Args, scene: &Scene) -> Result<(Source, Scene, World), SceneError> {
    if let Some(path) = &args.state {
        return from_state_file(path);
    }
    let (origin, text) = cli::scene_source(args)?;
    let world = crate::app::new_world(args, scene);
    let source = Source {
        origin,
        text,
        seed: args.seed,
    };
    Ok((source, scene.clone(), world))
}

/// A saved state's world, its scene and source.
pub fn from_state_file(path: &Path) -> Result<(Source, Scene, World), SceneError> {
    let (saved, mut world) = SavedState::load(path)?;
    let scene = saved.scene()?;
    world.set_clock(cli::nanos);
    let source = Source {
        origin: saved.scene_origin,
        text: saved.scene,
        seed: saved.seed,
    };
    Ok((source, scene, world))
}

/// A recording's start world, its scene and source, and the tape at its start.
pub fn from_recording_file(path: &Path) -> Result<(Source, Scene, World, Tape), SceneError> {
    let (rec, mut world) = Recording::load(path)?;
    let scene = rec.start.scene()?;
    world.set_clock(cli::nanos);
    let source = Source {
        origin: rec.start.scene_origin.clone(),
        text: rec.start.scene.clone(),
        seed: rec.start.seed,
    };
    let tape = Tape::replaying(rec, &world);
    Ok((source, scene, world, tape))
}

/// `--replay FILE`: replays to the end, prints the summary line and the verdict; the exit
/// status (0 same hashes, 1 divergence, 2 bad file).
pub fn replay(path: &Path) -> i32 {
    let (rec, mut world) = match Recording::load(path) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return 2;
        }
    };
    let (start, checkpoints) = (rec.start.state.steps, rec.checkpoints.len());
    let t0 = std::time::Instant::now();
    let divergence = rec.replay(&mut world);
    let secs = t0.elapsed().as_secs_f64();
    let frames = (world.steps() - start) / world.settings.motion_iterations.max(1) as u64;
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

/// Writes `--record` and `--save-state` after a `--frames` run.
pub fn write_outputs(
    args: &Args,
    source: &Source,
    tape: &mut Tape,
    world: &World,
) -> Result<(), String> {
    if let Some(path) = &args.record {
        tape.record(world).save(path).map_err(|e| e.to_string())?;
    }
    if let Some(path) = &args.save_state {
        source.saved(world).save(path).map_err(|e| e.to_string())?;
    }
    Ok(())
}
