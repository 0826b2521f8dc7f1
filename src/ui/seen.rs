//! What the panels and windows read while they are laid out ([`Seen`]): each fact from its
//! owner (the world, the scene, the sound, the user's choices, the last changes' notes), read
//! only. What they would change they return as messages (`message.rs`).

use crate::sound::Sound;
use crate::state::{Choices, Load, Notes};
use collide::{Scene, World};

/// What the panels and windows read, each from its owner.
pub struct Seen<'a> {
    /// The world in play.
    pub world: &'a World,
    /// The scene it was built from (its name, its own fill's ball count).
    pub scene: &'a Scene,
    /// What the user chose beside the world.
    pub choices: &'a Choices,
    /// What the last changes did, in words.
    pub notes: &'a Notes,
    /// The sound: mute, volume, where it goes.
    pub sound: &'a Sound,
    /// How the frame is drawn.
    pub renderer: &'a str,
    /// The frame's load.
    pub load: Load,
}
