//! Record and replay: every change the app makes to a [`World`] is an [`Input`], applied
//! between steps and stored with the step number it was applied at. A [`Recording`] is the
//! start state (a [`SavedState`]: scene text, seed, [`WorldState`]), the inputs, and the
//! [`World::state_hash`] at checkpoints. Replaying applies each input when the world has run
//! exactly its step count, so the frame rate of the recording and of the replay do not
//! matter; a checkpoint whose hash differs is a divergence.
//!
//! The tape that records and replays (`Tape`: recording, rewinding with in-memory snapshots,
//! branching) is the sibling crate `collide-replay`, on this module's public types.
//!
//! Files are RON. Errors name the file, line, column and field.

use crate::broad::ParamError;
use crate::geom::Control;
use crate::scene::{FileKind, Scene, SceneError};
use crate::world::{BallId, Settings, StaleBall, World, WorldState};
use glam::Vec2;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Most balls one fill input may ask for.
pub(crate) const MAX_FILL: u32 = 1_000_000;
/// Most steps a recording may span.
pub(crate) const MAX_STEPS: u64 = 1 << 40;

/// One change to a world, applied between steps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Input {
    /// Queue this many launches.
    Launch(u32),
    /// Remove every ball.
    Clear,
    /// Launch a ball now at `pos` (px) with `vel` (px/s).
    LaunchAt {
        /// Place (px).
        pos: Vec2,
        /// Velocity (px/s).
        vel: Vec2,
    },
    /// Put ball `ball` at `pos` with `vel` (a grab or a throw). Files name it `MoveBallById`.
    #[serde(rename = "MoveBallById")]
    MoveBall {
        /// The ball, by id.
        ball: BallId,
        /// Place (px).
        pos: Vec2,
        /// Velocity (px/s).
        vel: Vec2,
    },
    /// Delete a ball by id. Files name it `RemoveBallById`.
    #[serde(rename = "RemoveBallById")]
    RemoveBall(BallId),
    /// [`Input::MoveBall`] of the ball at place `ball` in [`World::balls`] when it is
    /// applied: how recordings written before inputs named balls by id say it (their
    /// `MoveBall`). Read from those files only, never recorded.
    #[serde(rename = "MoveBall")]
    MoveBallAt {
        /// The ball's place in the list.
        ball: u32,
        /// Place (px).
        pos: Vec2,
        /// Velocity (px/s).
        vel: Vec2,
    },
    /// [`Input::RemoveBall`] of the ball at this place in [`World::balls`] when it is
    /// applied: older recordings' `RemoveBall`, read from those files only.
    #[serde(rename = "RemoveBall")]
    RemoveBallAt(u32),
    /// Switch the broad phase (by [`crate::BroadKind::name`]).
    SetBroad(String),
    /// Set a parameter of the broad phase.
    SetParam {
        /// Parameter name.
        name: String,
        /// New value.
        value: f32,
    },
    /// Clear, then [`World::fill_random`].
    Fill {
        /// Balls asked for.
        n: u32,
        /// Radius range (px).
        radius: (f32, f32),
        /// Top speed (px/s).
        speed: f32,
    },
    /// Press or release a control.
    Control {
        /// Which.
        control: Control,
        /// Pressed.
        down: bool,
    },
    /// Replace the settings (recorded whole whenever they change).
    Settings(Settings),
}

/// Why the world refused an input.
#[derive(Clone, Debug, PartialEq)]
pub enum InputError {
    /// A number that is not finite, in the field named.
    NotFinite(&'static str),
    /// A fill of more balls than [`MAX_FILL`].
    TooManyBalls(u32),
    /// A broad phase by a name no algorithm has.
    UnknownBroadPhase(String),
    /// A broad-phase parameter the algorithm refused.
    Param(ParamError),
    /// A ball id that names no ball now.
    Stale(StaleBall),
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::NotFinite(field) => write!(f, "field `{field}`: must be finite"),
            InputError::TooManyBalls(n) => write!(f, "field `n`: {n} balls, at most {MAX_FILL}"),
            InputError::UnknownBroadPhase(name) => write!(f, "unknown broad phase {name:?}"),
            InputError::Param(e) => e.fmt(f),
            InputError::Stale(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for InputError {}

/// Why a state or a recording could not be written.
#[derive(Clone, Debug, PartialEq)]
pub enum SaveError {
    /// RON could not encode it.
    Encode(String),
    /// The file could not be written.
    Write {
        /// The file.
        path: String,
        /// What the system said.
        reason: String,
    },
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SaveError::Encode(e) => f.write_str(e),
            SaveError::Write { path, reason } => write!(f, "{path}: cannot write: {reason}"),
        }
    }
}

impl std::error::Error for SaveError {}

impl Input {
    /// Every number usable; the field named otherwise.
    pub fn check(&self) -> Result<(), InputError> {
        let finite = |v: &[f32], what: &'static str| {
            if v.iter().all(|x| x.is_finite()) {
                Ok(())
            } else {
                Err(InputError::NotFinite(what))
            }
        };
        match self {
            Input::LaunchAt { pos, vel }
            | Input::MoveBall { pos, vel, .. }
            | Input::MoveBallAt { pos, vel, .. } => {
                finite(&[pos.x, pos.y, vel.x, vel.y], "pos/vel")
            }
            Input::SetParam { value, .. } => finite(&[*value], "value"),
            Input::Fill { n, radius, speed } => {
                finite(&[radius.0, radius.1, *speed], "radius/speed")?;
                if *n > MAX_FILL {
                    return Err(InputError::TooManyBalls(*n));
                }
                Ok(())
            }
            Input::Settings(s) => finite(
                &[
                    s.gravity,
                    s.elasticity_scale,
                    s.ball_radius,
                    s.launch_speed,
                    s.ball_elasticity,
                ],
                "settings",
            ),
            _ => Ok(()),
        }
    }
}

impl World {
    /// Applies one input. Refused (world unchanged): non-finite numbers, an unknown broad
    /// phase or a parameter it rejects, a fill above [`MAX_FILL`], a ball id that names no
    /// ball now.
    pub fn apply_input(&mut self, input: &Input) -> Result<(), InputError> {
        input.check()?;
        match input {
            Input::Launch(n) => self.launch(*n),
            Input::Clear => self.clear(),
            Input::LaunchAt { pos, vel } => {
                self.launch_at(*pos, *vel);
            }
            Input::MoveBall { ball, pos, vel } => {
                let i = self.ball_index(*ball).map_err(InputError::Stale)?;
                self.set_ball_motion(i, *pos, *vel);
            }
            Input::RemoveBall(ball) => {
                let i = self.ball_index(*ball).map_err(InputError::Stale)?;
                self.remove_ball(i);
            }
            // Older recordings: the ball at that place, if there is one (nothing otherwise,
            // as when they were recorded).
            Input::MoveBallAt { ball, pos, vel } => {
                self.set_ball_motion(*ball as usize, *pos, *vel);
            }
            Input::RemoveBallAt(i) => self.remove_ball(*i as usize),
            Input::SetBroad(name) => {
                let kind = crate::BroadKind::from_name(name)
                    .ok_or_else(|| InputError::UnknownBroadPhase(name.clone()))?;
                self.set_broad_phase(kind);
            }
            Input::SetParam { name, value } => self
                .broad_mut()
                .set_param(name, *value)
                .map_err(InputError::Param)?,
            Input::Fill { n, radius, speed } => {
                self.clear();
                self.fill_random(*n, *radius, *speed);
            }
            Input::Control { control, down } => self.set_control(*control, *down),
            Input::Settings(s) => self.set_settings(s.clone()),
        }
        Ok(())
    }
}

/// A world saved to a file: the scene it was built from, the seed, and its state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedState {
    /// Where the scene came from (a path or a built-in name), for messages.
    pub scene_origin: String,
    /// The scene's text (RON), so the file stands alone.
    pub scene: String,
    /// The seed the scene was built with.
    pub seed: u64,
    /// The world's state.
    pub state: WorldState,
}

impl SavedState {
    /// The state of `world`, built from `scene_text` with `seed`.
    pub fn of(scene_origin: &str, scene_text: &str, seed: u64, world: &World) -> Self {
        Self {
            scene_origin: scene_origin.to_string(),
            scene: scene_text.to_string(),
            seed,
            state: world.save_state(),
        }
    }

    /// Builds the scene and restores the state; errors are about field `field` of `origin`
    /// at `text` (the file this was read from).
    fn world_in(&self, origin: &str, text: &str, field: &str) -> Result<World, SceneError> {
        let scene = Scene::parse(&self.scene, &self.scene_origin)
            .map_err(|e| error_at(origin, text, "scene", format!("field `{field}.scene`: {e}")))?;
        let mut world = scene.build(self.seed);
        world
            .restore_state(&self.state)
            .map_err(|e| error_at(origin, text, "state", format!("{field}: {e}")))?;
        Ok(world)
    }

    /// The scene, for the app to keep.
    pub fn scene(&self) -> Result<Scene, SceneError> {
        Scene::parse(&self.scene, &self.scene_origin)
    }

    /// Parses a state file and builds its world; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<(SavedState, World), SceneError> {
        let saved: SavedState = parse_ron(text, origin, FileKind::State)?;
        let world = saved.world_in(origin, text, "state")?;
        Ok((saved, world))
    }

    /// Reads a state file.
    pub fn load(path: &Path) -> Result<(SavedState, World), SceneError> {
        let origin = path.display().to_string();
        Self::parse(&read(path)?, &origin)
    }

    /// Writes the state as RON.
    pub fn save(&self, path: &Path) -> Result<(), SaveError> {
        write(path, &to_ron(self)?)
    }
}

/// A recording: where it starts, what was done at which step, and the hashes seen.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recording {
    /// The world at the start.
    pub start: SavedState,
    /// The last step recorded.
    pub end: u64,
    /// `(step, input)`: the input was applied when the world had run `step` steps, in order.
    pub inputs: Vec<(u64, Input)>,
    /// `(step, state hash right after that step)`, ascending; the last is at `end`.
    pub checkpoints: Vec<(u64, u64)>,
}

impl Recording {
    /// Checks the order and range of steps and every input; the field named.
    fn check(&self) -> Result<(), (&'static str, String)> {
        let first = self.start.state.steps;
        if self.end < first || self.end - first > MAX_STEPS {
            return Err((
                "end",
                format!(
                    "field `end`: {} must be within {first}..={}",
                    self.end,
                    first + MAX_STEPS
                ),
            ));
        }
        let mut last = first;
        for (i, (step, input)) in self.inputs.iter().enumerate() {
            if *step < last || *step > self.end {
                return Err((
                    "inputs",
                    format!("field `inputs[{i}]`: step {step} out of order or past the end"),
                ));
            }
            last = *step;
            input
                .check()
                .map_err(|e| ("inputs", format!("field `inputs[{i}]`: {e}")))?;
            if let Input::SetBroad(name) = input {
                if crate::BroadKind::from_name(name).is_none() {
                    let msg = format!("field `inputs[{i}]`: unknown broad phase {name:?}");
                    return Err(("inputs", msg));
                }
            }
        }
        let mut last = first;
        for (i, (step, _)) in self.checkpoints.iter().enumerate() {
            if *step <= last || *step > self.end {
                return Err((
                    "checkpoints",
                    format!("field `checkpoints[{i}]`: step {step} out of order or past the end"),
                ));
            }
            last = *step;
        }
        Ok(())
    }

    /// Parses a recording and builds its start world; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<(Recording, World), SceneError> {
        let rec: Recording = parse_ron(text, origin, FileKind::Recording)?;
        rec.check()
            .map_err(|(key, msg)| error_at(origin, text, key, msg))?;
        let world = rec.start.world_in(origin, text, "start")?;
        Ok((rec, world))
    }

    /// Reads a recording file.
    pub fn load(path: &Path) -> Result<(Recording, World), SceneError> {
        let origin = path.display().to_string();
        Self::parse(&read(path)?, &origin)
    }

    /// Writes the recording as RON.
    pub fn save(&self, path: &Path) -> Result<(), SaveError> {
        write(path, &to_ron(self)?)
    }
}

/// Parses RON into `T`, the error at the parser's line and column; text of another kind of
/// file than `kind` is named as such instead.
fn parse_ron<T: serde::de::DeserializeOwned>(
    text: &str,
    origin: &str,
    kind: FileKind,
) -> Result<T, SceneError> {
    ron::from_str(text).map_err(|e| {
        SceneError {
            origin: origin.to_string(),
            line: e.position.line.max(1),
            col: e.position.col.max(1),
            message: e.code.to_string(),
        }
        .or_wrong_kind(kind, text)
    })
}

/// An error at the first `key:` in `text` (1:1 when not found).
fn error_at(origin: &str, text: &str, key: &str, message: String) -> SceneError {
    let needle = format!("{key}:");
    let (line, col) = text
        .find(&needle)
        .map(|at| {
            let before = &text[..at];
            let line = before.matches('\n').count() + 1;
            let col = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
            (line, col)
        })
        .unwrap_or((1, 1));
    SceneError {
        origin: origin.to_string(),
        line,
        col,
        message,
    }
}

fn to_ron<T: Serialize>(value: &T) -> Result<String, SaveError> {
    let pretty = ron::ser::PrettyConfig::new().depth_limit(3);
    ron::ser::to_string_pretty(value, pretty).map_err(|e| SaveError::Encode(e.to_string()))
}

fn read(path: &Path) -> Result<String, SceneError> {
    std::fs::read_to_string(path).map_err(|e| SceneError::unreadable(path, &e))
}

fn write(path: &Path, text: &str) -> Result<(), SaveError> {
    std::fs::write(path, text).map_err(|e| SaveError::Write {
        path: path.display().to_string(),
        reason: e.to_string(),
    })
}
