//! Pockets: a ball whose centre is inside a pocket's circle is taken off the table and
//! counted in [`Rules::pocketed`](super::Rules::pocketed). `O(balls · pockets)` per step.

use super::WorldView;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A pocket: balls whose centre enters the circle are taken off the table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pocket {
    /// Centre (px).
    pub centre: Vec2,
    /// Radius (px).
    pub radius: f32,
}

/// Takes the balls whose centre is in a pocket, in index order, telling `taken` each index.
pub(super) fn take(pockets: &[Pocket], w: &mut WorldView, taken: impl FnMut(crate::balls::BallId)) {
    if pockets.is_empty() {
        return;
    }
    w.take_balls(
        |b| {
            let p = b.pos;
            pockets
                .iter()
                .any(|k| (p - k.centre).length_squared() < k.radius * k.radius)
        },
        taken,
    );
}
