//! The [`Control`] that drives a flipper or plunger (part of its [`super::Motion`]). What a
//! hit on a shape is worth is the pinball rules' (`rules/pinball.rs`), not the shape's.

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
