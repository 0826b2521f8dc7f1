//! What a shape carries for play: the [`Control`] that drives a flipper or plunger, and
//! [`ShapePlay`], a hit's worth (points, kick, target) and the runtime state of the
//! player-driven parts (a flipper's spin, a plunger's pull). Plain data, saved with a world's
//! state; the pinball rules (`rules/pinball.rs`) read and change it.

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

    /// Index into [`crate::rules::PlayState::held`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What a shape is worth and how its player-driven parts stand: plain data, saved with the
/// world's state. All zero for shapes that take no part in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ShapePlay {
    /// Points a hit adds to [`crate::rules::PlayState::score`].
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
