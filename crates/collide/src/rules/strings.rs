//! Pendulum strings (tethers): a ball kept within `length` of an anchor.
//!
//! After the balls move and again after the collision iterations, a ball beyond its string is
//! put back on the circle of radius `length` about the anchor, and the outward radial part of
//! its velocity is removed (`v ← v − max(0, v·d̂)·d̂`, `d̂` from anchor to ball): an
//! inextensible string that can go slack. `O(tethers)` per step; the string never lengthens,
//! so `|p − a| ≤ length` holds at the end of every step.

use crate::balls::{BallId, BallSet};
use crate::geom::Ball;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A pendulum string: ball `ball` kept within `length` of `anchor`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tether {
    /// The ball held. Saved (in a state) as the ball's place in the saved list; read back
    /// as [`BallId::fresh`] of that place, which the restore turns into the id of the ball
    /// there.
    #[serde(with = "saved_as_place")]
    pub ball: BallId,
    /// Fixed end of the string (px).
    pub anchor: Vec2,
    /// Length of the string (px), ≥ 0.
    pub length: f32,
}

/// Puts every tethered ball back within its string and removes outward radial velocity.
pub(super) fn hold(tethers: &[Tether], balls: &mut BallSet) {
    for t in tethers {
        let Ok(i) = balls.index(t.ball) else {
            continue;
        };
        let b: &mut Ball = &mut balls[i];
        let d = b.pos - t.anchor;
        let d2 = d.length_squared();
        // Early out: within the string (slack or taut), nothing to do.
        if d2 <= t.length * t.length {
            continue;
        }
        let dist = d2.sqrt();
        // d2 > length² ≥ 0, so dist > 0 and the direction is defined.
        let dir = d / dist;
        b.pos = t.anchor + dir * t.length;
        let outward = b.vel.dot(dir);
        if outward > 0.0 {
            b.vel -= dir * outward;
        }
    }
}

/// Drops the tether of ball `id`, which left the world.
pub(super) fn ball_removed(tethers: &mut Vec<Tether>, id: BallId) {
    tethers.retain(|t| t.ball != id);
}

/// A tether's ball written as a number: its place among the saved balls (the saver writes
/// [`BallId::fresh`] of the place, see [`crate::World::save_state`]; the restore turns it
/// into the id of the ball at that place).
mod saved_as_place {
    use crate::balls::BallId;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(id: &BallId, s: S) -> Result<S::Ok, S::Error> {
        id.slot().serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BallId, D::Error> {
        u32::deserialize(d).map(BallId::fresh)
    }
}
