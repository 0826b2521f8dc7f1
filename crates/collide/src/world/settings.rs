//! The settings a user changes while the world runs: iterations, gravity, elasticity, the
//! next ball, the tunnelling mode, the pair cache, the contact solver and sleep.

use super::{SleepSettings, SoftSettings, Solver};
use crate::tunnel::Tunnelling;

/// Settings the user changes while the world runs.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// Motion iterations per 1/60 s frame (1–64): physics rate is 60 × this.
    pub motion_iterations: u32,
    /// Collision iterations per motion iteration (1–64).
    pub collision_iterations: u32,
    /// Gravity (px/s², pointing down). May be 0.
    pub gravity: f32,
    /// Multiplies every combined elasticity.
    pub elasticity_scale: f32,
    /// Kinematic shapes turn while this is on.
    pub rotate: bool,
    /// Radius of the next launched ball (px).
    pub ball_radius: f32,
    /// Launch speed of the next ball (px/s).
    pub launch_speed: f32,
    /// Elasticity of launched balls.
    pub ball_elasticity: f32,
    /// Also run brute force every collision iteration and count the pairs the broad phase
    /// missed or added (both stay 0 for a correct broad phase). Costs a brute-force pass.
    pub verify: bool,
    /// How moving balls are tested (Off: discrete tests at the end of each step).
    pub tunnelling: Tunnelling,
    /// Fractions of the move the linear impact search tests (1–64; it tests `n + 1` places).
    pub linear_fractions: u32,
    /// Keep candidate pairs across collision iterations and steps (`world/cache.rs`): the
    /// broad phase is asked with grown boxes and asked again only when some box has left its
    /// grown box; each iteration filters the kept pairs. The same pairs in the same order, so
    /// the same simulation; fewer broad-phase box tests, counted apart (`Tally::cache_*`).
    #[serde(default = "yes")]
    pub pair_cache: bool,
    /// Which contact solver answers the contacts.
    #[serde(default)]
    pub solver: Solver,
    /// The soft solver's stiffness, damping, push-out speed and restitution threshold.
    #[serde(default)]
    pub soft: SoftSettings,
    /// When balls fall asleep.
    #[serde(default)]
    pub sleep: SleepSettings,
}

fn yes() -> bool {
    true
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            motion_iterations: 4,
            collision_iterations: 6,
            gravity: 300.0,
            elasticity_scale: 1.0,
            rotate: false,
            ball_radius: 10.0,
            launch_speed: 1000.0,
            ball_elasticity: 0.95,
            verify: false,
            tunnelling: Tunnelling::Off,
            linear_fractions: 8,
            pair_cache: true,
            solver: Solver::PushOut,
            soft: SoftSettings::default(),
            sleep: SleepSettings::default(),
        }
    }
}
