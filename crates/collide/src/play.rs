//! Game state of a scene that is played (pinball): the held controls, the score, lit targets
//! and lost balls. It lives in the [`crate::World`], changes only at step boundaries through
//! [`crate::World::set_control`] and the step itself, and is part of a saved state.
//!
//! Per shape, [`ShapePlay`] holds what a hit is worth and the runtime state of flippers,
//! plungers and targets; the table's [`GameRules`] hold the drain and the serve. The stepping
//! that uses them is in `world/play.rs`.

use crate::geom::Aabb;
use serde::{Deserialize, Serialize};

/// A control the player holds (keys in the app, inputs in a recording).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Control {
    /// The left flipper (left Shift).
    LeftFlipper,
    /// The right flipper (right Shift).
    RightFlipper,
    /// The plunger (Space: hold to pull, release to fire).
    Plunger,
}

impl Control {
    /// Every control, in index order.
    pub const ALL: [Control; 3] = [
        Control::LeftFlipper,
        Control::RightFlipper,
        Control::Plunger,
    ];

    /// Index into [`PlayState::held`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What the player has done and holds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayState {
    /// Whether each [`Control`] is held, by [`Control::index`].
    pub held: [bool; 3],
    /// Points scored.
    pub score: u64,
    /// Balls lost down the drain.
    pub lost: u32,
}

/// What a shape is worth and how its player-driven parts stand: plain data, saved with the
/// world's state. All zero for shapes that take no part in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ShapePlay {
    /// Points a hit adds to [`PlayState::score`].
    pub points: u32,
    /// Least speed (px/s) a hit sends the ball away with along the contact normal (a bumper's
    /// kick); 0 for none.
    pub kick: f32,
    /// For a target: its number. Every shape of one target lights together.
    pub target: Option<u32>,
    /// A target that has been hit and not yet reset.
    pub lit: bool,
    /// A flipper's angular velocity over the last step (rad/s, counter-clockwise).
    pub spin: f32,
    /// How far a plunger is pulled back (px).
    pub pull: f32,
    /// The rate `pull` changed at over the last step (px/s; negative while firing).
    pub pull_rate: f32,
}

/// The rules of a played table: where balls are lost, whether a new one is served.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameRules {
    /// A ball whose centre enters this box is removed and counted in [`PlayState::lost`].
    pub drain: Option<Aabb>,
    /// Serve a new ball at the launcher whenever none is in play or waiting.
    pub serve: bool,
    /// Points added when every target is lit; the targets then go dark again.
    pub bank_bonus: u32,
}

impl GameRules {
    /// True when the table is played at all (a drain or a serve).
    pub fn active(&self) -> bool {
        self.drain.is_some() || self.serve
    }
}
