//! One broad phase's parameter swept on a world as it stands: AABB tests per collision
//! iteration (and the broad phase's time per iteration, given a clock) against the
//! parameter's value, for the app's "Sweep" beside each parameter.
//!
//! **Setup.** For each value, a fresh world is built from the scene and put into the saved
//! state (the balls where they are, the settings, the generator), given the saved broad phase
//! with the saved parameters and then this one set to the value, and stepped until
//! `iterations` collision iterations have asked the broad phase (at most `max_steps` steps,
//! and no step more once the value has made `max_tests` AABB tests).
//! The pair cache and the verification are turned off for the measurement, so every
//! iteration asks the broad phase, as the panel's "AABB tests / iteration" counts with the
//! cache off. Neither changes the simulation. When timed, a short run of the first value goes
//! first, unmeasured, so that it does not pay alone for cold caches.
//!
//! **What is counted.** The world's own counter: every AABB test of the broad phase, the
//! structure's included, over the iterations run; the pairs found likewise. Every value
//! returns the same pairs, so every run follows the same trajectory: the final state hash is
//! kept to show it (equal for values run as many steps), and the counts differ only by what
//! the parameter costs.

use collide::broad::BroadKind;
use collide::scene::Scene;
use collide::world::{World, WorldState};

/// What to sweep.
#[derive(Clone, Debug)]
pub struct ParamSweepConfig {
    /// The parameter's name, as [`collide::broad::BroadPhase::params`] gives it.
    pub param: String,
    /// Its values, in the order measured.
    pub values: Vec<f32>,
    /// Collision iterations measured per value.
    pub iterations: u64,
    /// Most steps per value (a world without collision iterations stops here).
    pub max_steps: u32,
    /// A value stops after the step in which its AABB tests pass this many, however few
    /// iterations that was (a quadtree of one level on 10,000 balls makes 50 million a call).
    pub max_tests: u64,
}

impl ParamSweepConfig {
    /// `values` of `param`, 60 collision iterations each.
    pub fn new(param: &str, values: Vec<f32>) -> Self {
        Self {
            param: param.to_string(),
            values,
            iterations: 60,
            max_steps: 600,
            max_tests: 200_000_000,
        }
    }
}

/// One value's measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamPoint {
    /// The parameter's value.
    pub value: f32,
    /// Collision iterations measured.
    pub iterations: u64,
    /// World steps measured.
    pub steps: u32,
    /// AABB tests per collision iteration (mean).
    pub tests_per_iteration: f64,
    /// Candidate pairs per collision iteration (mean).
    pub pairs_per_iteration: f64,
    /// The broad phase's time per collision iteration (µs, mean), when a clock was given.
    pub micros_per_iteration: Option<f64>,
    /// The world's state hash at the end: the same for every value run as many steps.
    pub state_hash: u64,
}

/// Runs the sweep from `state` (saved from a world built from `scene`); `clock` (ns from any
/// fixed origin) times the broad phase; `progress` gets the fraction done. Refuses, naming
/// it, a state that does not restore, an unknown broad phase or a value the broad phase
/// refuses.
pub fn run(
    scene: &Scene,
    state: &WorldState,
    config: &ParamSweepConfig,
    clock: Option<fn() -> u64>,
    progress: &mut dyn FnMut(f32),
) -> Result<Vec<ParamPoint>, String> {
    let kind = BroadKind::from_name(&state.broad)
        .ok_or_else(|| format!("unknown broad phase {:?}", state.broad))?;
    let total = config.values.len().max(1) as f32;
    // A short unmeasured run first, so that the first value measured does not pay alone for
    // cold caches and the allocator's first requests.
    if let (Some(&first), Some(_)) = (config.values.first(), clock) {
        let warm = ParamSweepConfig {
            iterations: config.iterations.min(10),
            ..config.clone()
        };
        measured(
            &mut prepared(scene, state, kind, &config.param, first)?,
            first,
            &warm,
        );
    }
    let mut points = Vec::with_capacity(config.values.len());
    for (k, &value) in config.values.iter().enumerate() {
        let mut world = prepared(scene, state, kind, &config.param, value)?;
        if let Some(c) = clock {
            world.set_clock(c);
        }
        points.push(measured(&mut world, value, config));
        progress((k + 1) as f32 / total);
    }
    Ok(points)
}

/// A world in `state` with `kind` at the saved parameters and `param` at `value`, the pair
/// cache and the verification off.
fn prepared(
    scene: &Scene,
    state: &WorldState,
    kind: BroadKind,
    param: &str,
    value: f32,
) -> Result<World, String> {
    let mut world = scene.build(0);
    world.restore_state(state).map_err(|e| e.to_string())?;
    let mut broad = kind.create();
    for (name, v) in &state.broad_params {
        broad
            .set_param(name, *v)
            .map_err(|e| format!("{name} = {v}: {e}"))?;
    }
    broad
        .set_param(param, value)
        .map_err(|e| format!("{param} = {value}: {e}"))?;
    world.set_broad_phase_boxed(broad);
    let mut s = world.settings().clone();
    (s.pair_cache, s.verify) = (false, false);
    world.set_settings(s);
    Ok(world)
}

/// Steps `world` until the configured iterations have run (or the steps run out).
fn measured(world: &mut World, value: f32, config: &ParamSweepConfig) -> ParamPoint {
    let before = world.counters().total;
    let mut steps = 0;
    for _ in 0..config.max_steps {
        let now = world.counters().total;
        let tests = now.broad.aabb_tests - before.broad.aabb_tests;
        if now.iterations - before.iterations >= config.iterations || tests >= config.max_tests {
            break;
        }
        world.step();
        steps += 1;
    }
    let after = world.counters().total;
    let iterations = after.iterations - before.iterations;
    let per = |a: u64, b: u64| (a - b) as f64 / iterations.max(1) as f64;
    let nanos = after.broad_nanos - before.broad_nanos;
    ParamPoint {
        value,
        iterations,
        steps,
        tests_per_iteration: per(after.broad.aabb_tests, before.broad.aabb_tests),
        pairs_per_iteration: per(after.broad.pairs, before.broad.pairs),
        micros_per_iteration: (nanos > 0).then(|| nanos as f64 / 1000.0 / iterations.max(1) as f64),
        state_hash: world.state_hash(),
    }
}
