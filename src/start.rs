//! Where a run starts: the world built from the scene and the command line, or from a saved
//! state or a recording, with what it was built from ([`Source`]); and the files `--record`
//! and `--save-state` write at the end of a `--frames` run. The window and the headless run
//! both start here.

use crate::cli::{self, Args};
use crate::clock::Instant;
use collide::world::Filled;
use collide::{Recording, SavedState, Scene, SceneError, World};
use collide_replay::Tape;
use std::path::Path;

/// The balls a start puts in play, or fills in over time (rain's waves): the scene's own
/// fill, or `--fill`.
pub fn start_balls(args: &Args, scene: &Scene) -> usize {
    let n = match scene.fill {
        Some(f) if args.fill == 0 => f.count,
        _ => args.fill,
    };
    n as usize
}

/// Whether `--fill` on a scene that does not fill itself takes soft contacts: more than
/// 1,000 balls and no solver chosen, by `--solver` or the scene ([`crate::advice::solver_for_fill`]).
pub fn fill_took_soft(args: &Args, scene: &Scene) -> bool {
    let own_fill = scene.fill.is_some();
    let chosen = args.solver.is_some() || scene.settings.solver.is_some();
    let fill = if own_fill { 0 } else { args.fill as usize };
    crate::advice::solver_for_fill(fill, chosen).is_some()
}

/// A world from the scene with the command line's seed, broad phase, launches and rotation;
/// `--fill N` sets the count of a scene that fills itself (rain, field), else fills the table.
/// Without `--broad-phase`, the broad phase suits the balls the start puts in play
/// ([`crate::advice::broad_for`]). A start of many balls says on stderr what it is doing.
pub fn new_world(args: &Args, scene: &Scene) -> World {
    let own_fill = args.fill > 0 && scene.fill.is_some();
    let balls = start_balls(args, scene);
    let started = Instant::now();
    let long = balls >= LONG_START_BALLS;
    if long {
        eprintln!(
            "placing {} balls ...",
            crate::advice::thousands(balls as u64)
        );
    }
    let mut world = if own_fill {
        scene.clone().with_fill_count(args.fill).build(args.seed)
    } else {
        scene.build(args.seed)
    };
    world.set_broad_phase(crate::advice::broad_for(balls, args.broad_phase));
    world.set_clock(crate::clock::nanos);
    // `--rotate` turns the kinematic shapes, as does a scene that says so.
    world.edit_settings(|st| st.rotate |= args.rotate);
    world.edit_settings(|st| st.tunnelling = args.tunnelling);
    world.edit_settings(|st| st.pair_cache = !args.no_pair_cache);
    if let Some(solver) = args.solver {
        world.edit_settings(|st| st.solver = solver);
    } else if fill_took_soft(args, scene) {
        world.edit_settings(|st| st.solver = collide::Solver::Soft);
    }
    let threads = args.threads.unwrap_or_else(crate::cli::default_threads);
    world.edit_settings(|st| st.threads = threads as usize);
    if let Some(from) = args.parallel_from {
        world.edit_settings(|st| st.parallel_from = from as usize);
    }
    if let Some(on) = args.sleep {
        world.edit_settings(|st| st.sleep.enabled = Some(on));
    }
    world.launch(args.launch);
    if args.fill > 0 && !own_fill {
        world.fill_random(args.fill, fill_radii(args.fill_radius), FILL_SPEED);
    }
    if let Some(filled) = world.last_fill().filter(|f| f.short.is_some()) {
        let msg = fill_message(balls as u32, 0.0, Some(filled)).unwrap_or_default();
        eprintln!("fill: {msg}");
    }
    if long {
        eprintln!(
            "{} balls placed in {:.2} s; broad phase {}",
            crate::advice::thousands(world.balls().len() as u64),
            started.elapsed().as_secs_f64(),
            world.broad().kind().name()
        );
    }
    world
}

/// Starts with at least this many balls say on stderr what they are doing.
const LONG_START_BALLS: usize = 20_000;

/// Top speed of filled balls (px/s).
pub const FILL_SPEED: f32 = 300.0;

/// The radius range of a fill whose largest radius is `r` (px).
pub fn fill_radii(r: f32) -> (f32, f32) {
    (0.7 * r, r)
}

/// The panel's words on a Fill of `n` balls of radius up to `r` px that did `filled`: why
/// fewer were placed, or how far the radii shrank; none when all were placed at full size.
pub fn fill_message(n: u32, r: f32, filled: Option<Filled>) -> Option<String> {
    let filled = filled?;
    match filled.short {
        Some(why) if filled.balls == 0 => Some(format!("No balls placed: {why}.")),
        Some(why) => Some(format!("{} of {n} balls placed: {why}.", filled.balls)),
        None if filled.max_radius < r * 0.999 => Some(format!(
            "{} balls placed; radii shrunk to at most {:.2} px to fit",
            filled.balls, filled.max_radius
        )),
        None => None,
    }
}

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
    let world = new_world(args, scene);
    let source = Source {
        origin,
        text,
        seed: args.seed,
    };
    Ok((source, scene.clone(), world))
}

/// A saved state's world, its scene and source.
pub fn from_state_file(path: &Path) -> Result<(Source, Scene, World), SceneError> {
    from_state(SavedState::load(path)?)
}

/// A saved state's world, read from a file or a page's upload, with its scene and source.
pub fn from_state(loaded: (SavedState, World)) -> Result<(Source, Scene, World), SceneError> {
    let (saved, mut world) = loaded;
    let scene = saved.scene()?;
    world.set_clock(crate::clock::nanos);
    let source = Source {
        origin: saved.scene_origin,
        text: saved.scene,
        seed: saved.seed,
    };
    Ok((source, scene, world))
}

/// A recording's start world, its scene and source, and the tape at its start.
pub fn from_recording_file(path: &Path) -> Result<(Source, Scene, World, Tape), SceneError> {
    from_recording(Recording::load(path)?)
}

/// A recording's start world, read from a file or a page's upload, with its scene, source
/// and the tape at its start.
pub fn from_recording(
    loaded: (Recording, World),
) -> Result<(Source, Scene, World, Tape), SceneError> {
    let (rec, mut world) = loaded;
    let scene = rec.start.scene()?;
    world.set_clock(crate::clock::nanos);
    let source = Source {
        origin: rec.start.scene_origin.clone(),
        text: rec.start.scene.clone(),
        seed: rec.start.seed,
    };
    let tape = Tape::replaying(rec, &world);
    Ok((source, scene, world, tape))
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

#[cfg(test)]
mod tests {
    use super::fill_message;
    use collide::world::{Filled, Shortfall};

    #[test]
    fn fill_that_places_nothing_says_why_in_words() {
        let filled = Filled {
            balls: 0,
            max_radius: 3.0,
            short: Some(Shortfall::Covered { radius: 0.05 }),
        };
        let msg = fill_message(2000, 3.0, Some(filled)).expect("a message");
        assert!(msg.starts_with("No balls placed: obstacles"), "{msg}");
        assert!(msg.contains("0.05 px"), "{msg}");
    }

    #[test]
    fn fill_of_every_ball_at_full_size_says_nothing() {
        let filled = Filled {
            balls: 2000,
            max_radius: 3.0,
            short: None,
        };
        assert_eq!(fill_message(2000, 3.0, Some(filled)), None);
        let shrunk = Filled {
            max_radius: 1.5,
            ..filled
        };
        let msg = fill_message(2000, 3.0, Some(shrunk)).expect("a message");
        assert!(msg.contains("shrunk to at most 1.50 px"), "{msg}");
    }
}
