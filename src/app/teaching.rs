//! The teaching tools' state between frames (`teach.rs` is what they do): the probe's
//! pinned and hovered balls, the heat map's places.

use crate::render::heat::HeatCache;

/// The teaching tools' state between frames.
#[derive(Default)]
pub struct Teach {
    /// The ball pinned by a click (else the probe follows the pointer).
    pub pinned: Option<usize>,
    /// The ball under the pointer this frame.
    pub hover: Option<usize>,
    /// What the world was last asked to record (`App::sync_probe`).
    pub asked: Option<collide::world::ProbeAsk>,
    /// The heat map's places, summed once per simulated second.
    pub heat: HeatCache,
}
