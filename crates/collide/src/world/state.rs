//! Saving and restoring everything about a [`World`] that affects its future: the balls, the
//! obstacles' runtime state (angles and geometry, wholesale, so fields added to [`Shape`] come
//! along), the shape groups, the game state, the random generator's position, the step
//! count, queued launches, the settings and the broad phase with its parameters, and the
//! soft contacts' impulses kept for the next step's warm start.
//!
//! Left out on purpose: the counters other than `launched` (they only describe the past), the
//! hits not yet drained and the last step's pairs and boxes (rebuilt by the next step). So a
//! world restored from [`World::save_state`] runs on to the same [`World::state_hash`], bit for
//! bit, as the world it was saved from.

use super::context::FrameOf;
use super::context::WorldRng;
use super::saved::{SavedBall, SavedShape};
use super::step::SavedStages;
use super::{BallSet, Settings, World};
use crate::balls::{BallId, SavedIds};
use crate::broad::BroadKind;
use crate::geom::Group;
use crate::rules::{GameRules, PlayState, Rules};
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

/// Where the world's ChaCha12 generator stands: its key, stream and word position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RngState {
    /// The 32-byte key (derived from the seed).
    pub key: [u8; 32],
    /// The stream number.
    pub stream: u64,
    /// Word position, high 64 bits (the position is a 68-bit number).
    pub word_hi: u64,
    /// Word position, low 64 bits.
    pub word_lo: u64,
}

impl RngState {
    fn of(rng: &WorldRng) -> Self {
        let pos = rng.get_word_pos();
        Self {
            key: rng.get_seed(),
            stream: rng.get_stream(),
            word_hi: (pos >> 64) as u64,
            word_lo: pos as u64,
        }
    }

    fn rng(&self) -> WorldRng {
        let mut rng = WorldRng::from_seed(self.key);
        rng.set_stream(self.stream);
        rng.set_word_pos(((self.word_hi as u128) << 64) | self.word_lo as u128);
        rng
    }
}

/// Why a saved state was refused: the field and what is wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct StateError {
    /// The field, as written in the state (`balls[3]`, `settings.gravity`).
    pub field: String,
    /// What is wrong with it.
    pub problem: String,
}

impl StateError {
    fn new(field: impl Into<String>, problem: impl Into<String>) -> Self {
        Self {
            field: field.into(),
            problem: problem.into(),
        }
    }
}

impl std::fmt::Display for StateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "field `{}`: {}", self.field, self.problem)
    }
}

impl std::error::Error for StateError {}

/// Everything about a world that affects its future (see the module notes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WorldState {
    /// Steps run since the scene was loaded.
    pub steps: u64,
    /// The settings.
    pub settings: Settings,
    /// Broad phase by name ([`BroadKind::name`]).
    pub broad: String,
    /// Its parameters by name.
    #[serde(default)]
    pub broad_params: Vec<(String, f32)>,
    /// The obstacles, statics first, as the world holds them, each with its worth in a game.
    pub shapes: Vec<SavedShape>,
    /// The shape groups' members in their current pose.
    #[serde(default)]
    pub groups: Vec<Group>,
    /// The balls, each with its rest.
    pub balls: Vec<SavedBall>,
    /// The balls' ids and the free slots of the ball table, so an id names the same ball
    /// after a restore and the next ball added gets the same id. States saved before ids
    /// were kept have none: their balls get fresh ids (slot = place, generation 0).
    #[serde(default)]
    pub ball_ids: Option<SavedIds>,
    /// Balls waiting to be launched.
    pub pending_launches: u32,
    /// Balls launched since the last clear.
    pub launched: u64,
    /// The game state.
    #[serde(default)]
    pub play: PlayState,
    /// The scene's rules as they stand: strings, friction, pockets, rain still to fall.
    #[serde(default)]
    pub rules: Rules,
    /// The played table's rules (drain, serve, bonus).
    #[serde(default)]
    pub game: GameRules,
    /// The soft contacts' impulses of the last step, for the next step's warm start.
    #[serde(default)]
    pub soft_impulses: Vec<super::KeptImpulse>,
    /// The soft contacts of a frame in progress (found at its first sub-step, serving the
    /// rest), when the state was saved between two of its sub-steps.
    #[serde(default)]
    pub soft_frame: Option<super::SavedFrame>,
    /// The number the next group of sleepers gets.
    #[serde(default)]
    pub next_sleep_group: u32,
    /// The random generator.
    pub rng: RngState,
    /// [`World::state_hash`] when saved: checked after restoring.
    pub hash: u64,
}

impl World {
    /// Everything that affects the future of this world.
    pub fn save_state(&self) -> WorldState {
        let stages = self.stages.saved(self.shapes.len());
        WorldState {
            steps: self.steps,
            settings: self.settings.clone(),
            broad: self.stages.broad().kind().name().to_string(),
            broad_params: (self.stages.broad().params())
                .iter()
                .map(|p| (p.name.to_string(), p.value))
                .collect(),
            shapes: (self.shapes.iter().enumerate())
                .map(|(i, s)| SavedShape::of(s, self.rules.play.shape(i)))
                .collect(),
            groups: self.groups.clone(),
            balls: (self.balls.iter().zip(self.balls.rests()))
                .map(|(b, r)| SavedBall::of(b, r))
                .collect(),
            ball_ids: Some(self.balls.saved_ids()),
            pending_launches: stages.pending_launches,
            launched: self.counters.launched,
            // Each shape's worth is written with the shape (above).
            play: PlayState {
                shapes: Vec::new(),
                ..self.rules.play.clone()
            },
            rules: self.saved_rules(),
            game: self.rules.game,
            soft_impulses: stages.soft_impulses,
            soft_frame: self.saved_frame(),
            next_sleep_group: stages.next_sleep_group,
            rng: RngState::of(&self.rng),
            hash: self.state_hash(),
        }
    }

    /// Puts this world (built from the scene the state was saved from) into `state`. Refuses,
    /// leaving the world unchanged, a state of another scene (shape count, kinds or motions
    /// differ), a non-finite ball, an unknown broad phase or parameter, or a state whose hash
    /// does not come out as saved. The error names the field.
    pub fn restore_state(&mut self, state: &WorldState) -> Result<(), StateError> {
        self.check_state(state)?;
        let kind = BroadKind::from_name(&state.broad).ok_or_else(|| {
            StateError::new("broad", format!("unknown broad phase {:?}", state.broad))
        })?;
        let mut broad = kind.create();
        for (name, v) in &state.broad_params {
            broad
                .set_param(name, *v)
                .map_err(|e| StateError::new("broad_params", format!("{name}: {e}")))?;
        }
        let (old, old_balls) = (self.save_state(), self.balls.clone());
        let old_rules = self.rules.scene.clone();
        self.apply_state(state);
        if self.state_hash() != state.hash {
            self.apply_state(&old);
            // The balls keep the ids they had, so grabs and strings still hold them.
            self.balls = old_balls;
            self.rules.scene = old_rules;
            let problem = format!(
                "the state hashes to {:016x}, not the saved {:016x}",
                self.state_hash(),
                state.hash
            );
            return Err(StateError::new("hash", problem));
        }
        self.stages.set_broad(broad);
        self.clear_scratch();
        if let Some(f) = &state.soft_frame {
            let w = FrameOf {
                balls: &self.balls,
                moving: &self.shapes[self.first_moving.min(self.shapes.len())..],
                n_shapes: self.shapes.len(),
            };
            self.stages.restore_frame(f, w, &self.settings);
        }
        Ok(())
    }

    /// The soft contacts' frame in progress, if any (`soft/saved.rs`).
    fn saved_frame(&self) -> Option<super::SavedFrame> {
        let w = FrameOf {
            balls: &self.balls,
            moving: &self.shapes[self.first_moving.min(self.shapes.len())..],
            n_shapes: self.shapes.len(),
        };
        self.stages.saved_frame(w, &self.settings)
    }

    fn apply_state(&mut self, s: &WorldState) {
        self.steps = s.steps;
        self.settings = s.settings.clone();
        let (shapes, plays) = s.shapes.iter().map(SavedShape::parts).unzip();
        self.shapes = shapes;
        self.groups = s.groups.clone();
        let mut restored = BallSet::from_resting(s.balls.iter().map(SavedBall::parts));
        if let Some(ids) = &s.ball_ids {
            restored.take_ids(ids);
        }
        let old = std::mem::replace(&mut self.balls, restored);
        self.balls.keep_wake_count(&old);
        self.counters = Default::default();
        self.counters.launched = s.launched;
        self.rules.play = s.play.clone();
        self.rules.play.shapes = plays;
        self.rules.scene = s.rules.clone();
        // A string names its ball by its place in the saved list (`saved_rules`).
        for t in &mut self.rules.scene.tethers {
            let place = t.ball.slot() as usize;
            t.ball = self.balls.id(place).unwrap_or(t.ball);
        }
        self.rules.game = s.game;
        let stages = SavedStages {
            pending_launches: s.pending_launches,
            soft_impulses: s.soft_impulses.clone(),
            next_sleep_group: s.next_sleep_group,
        };
        self.stages.restore(stages, self.shapes.len());
        self.rng = s.rng.rng();
    }

    /// The scene's rules with each string naming its ball by its place in the saved list
    /// (a restore turns the place back into the id of the ball there).
    fn saved_rules(&self) -> Rules {
        let mut rules = self.rules.scene.clone();
        for t in &mut rules.tethers {
            if let Ok(i) = self.balls.index(t.ball) {
                t.ball = BallId::fresh(i as u32);
            }
        }
        rules
    }

    fn clear_scratch(&mut self) {
        self.hits.clear();
        self.stages.forget_scratch();
    }

    /// The state belongs to this world's scene and every number in it is usable.
    fn check_state(&self, s: &WorldState) -> Result<(), StateError> {
        if s.shapes.len() != self.shapes.len() {
            let problem = format!(
                "{} shapes, but the scene has {}",
                s.shapes.len(),
                self.shapes.len()
            );
            return Err(StateError::new("shapes", problem));
        }
        for (i, (a, b)) in s.shapes.iter().zip(&self.shapes).enumerate() {
            let same_motion =
                std::mem::discriminant(&a.motion) == std::mem::discriminant(&b.motion);
            if a.geom.kind_name() != b.geom.kind_name() || !same_motion {
                let problem = format!(
                    "shape {i} is a {} here, a {} in the scene",
                    a.geom.kind_name(),
                    b.geom.kind_name()
                );
                return Err(StateError::new("shapes", problem));
            }
            if !a.angle.is_finite() {
                return Err(StateError::new(format!("shapes[{i}].angle"), "not finite"));
            }
        }
        if s.groups.len() != self.groups.len() {
            let problem = format!(
                "{} groups, but the scene has {}",
                s.groups.len(),
                self.groups.len()
            );
            return Err(StateError::new("groups", problem));
        }
        check_settings(&s.settings)?;
        let impulse_ok = |k: &super::KeptImpulse| {
            [k.impulse, k.friction, k.rolling]
                .iter()
                .all(|x| x.is_finite())
        };
        if !s.soft_impulses.iter().all(impulse_ok) {
            return Err(StateError::new(
                "soft_impulses",
                "every number must be finite",
            ));
        }
        if let Some(f) = &s.soft_frame {
            let problem = super::soft::saved::frame_problem(f, s.balls.len(), s.shapes.len());
            if let Some(problem) = problem {
                return Err(StateError::new("soft_frame", problem));
            }
        }
        if let Some(problem) = s
            .ball_ids
            .as_ref()
            .and_then(|ids| ids.problem(s.balls.len()))
        {
            return Err(StateError::new("ball_ids", problem));
        }
        check_balls(&s.balls)
    }
}

fn check_settings(s: &Settings) -> Result<(), StateError> {
    let numbers = [
        ("gravity", s.gravity),
        ("elasticity_scale", s.elasticity_scale),
        ("ball_radius", s.ball_radius),
        ("launch_speed", s.launch_speed),
        ("ball_elasticity", s.ball_elasticity),
    ];
    for (name, x) in numbers {
        if !x.is_finite() {
            let field = format!("settings.{name}");
            return Err(StateError::new(field, format!("must be finite, got {x}")));
        }
    }
    Ok(())
}

/// Most balls a state may hold.
pub(crate) const MAX_BALLS: usize = 2_000_000;

fn check_balls(balls: &[SavedBall]) -> Result<(), StateError> {
    if balls.len() > MAX_BALLS {
        let problem = format!("{} balls, at most {MAX_BALLS}", balls.len());
        return Err(StateError::new("balls", problem));
    }
    for (i, b) in balls.iter().enumerate() {
        let numbers = [b.radius, b.mass, b.elasticity, b.spin, b.slow_for];
        if !b.pos.is_finite() || !b.vel.is_finite() || numbers.iter().any(|x| !x.is_finite()) {
            let problem = "every number must be finite";
            return Err(StateError::new(format!("balls[{i}]"), problem));
        }
        if b.radius < 0.0 || b.mass <= 0.0 {
            let problem = format!(
                "radius must be ≥ 0 and mass > 0, got {} and {}",
                b.radius, b.mass
            );
            return Err(StateError::new(format!("balls[{i}]"), problem));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::Rng;

    #[test]
    fn the_world_generator_gives_the_stream_of_std_rng_for_a_seed() {
        // So naming ChaCha12 directly changed no trajectory or hash made with StdRng.
        for seed in [0, 1, 42, u64::MAX] {
            let (mut a, mut b) = (StdRng::seed_from_u64(seed), WorldRng::seed_from_u64(seed));
            for _ in 0..1000 {
                assert_eq!(a.gen::<u64>(), b.gen::<u64>());
            }
        }
    }

    #[test]
    fn a_restored_generator_continues_the_stream() {
        let mut a = WorldRng::seed_from_u64(9);
        for _ in 0..37 {
            a.gen::<u32>();
        }
        let mut b = RngState::of(&a).rng();
        for _ in 0..1000 {
            assert_eq!(a.gen::<u32>(), b.gen::<u32>());
        }
    }
}
