//! Game state of a scene that is played (pinball): the held controls, the score, lit targets
//! and lost balls. It lives in the [`crate::World`], changes only at step boundaries through
//! [`crate::World::set_control`] and the step itself, and is part of a saved state.

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
