//! Pendulum strings (tethers): a ball kept within `length` of an anchor.
//!
//! After the balls move and again after the collision iterations, a ball beyond its string is
//! put back on the circle of radius `length` about the anchor, and the outward radial part of
//! its velocity is removed (`v ← v − max(0, v·d̂)·d̂`, `d̂` from anchor to ball): an
//! inextensible string that can go slack. `O(tethers)` per step; the string never lengthens,
//! so `|p − a| ≤ length` holds at the end of every step.

use crate::geom::Ball;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A pendulum string: ball `ball` kept within `length` of `anchor`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tether {
    /// Index of the ball in [`crate::World::balls`] (renumbered when balls are removed).
    pub ball: u32,
    /// Fixed end of the string (px).
    pub anchor: Vec2,
    /// Length of the string (px), ≥ 0.
    pub length: f32,
}

/// Puts every tethered ball back within its string and removes outward radial velocity.
pub(super) fn hold(tethers: &[Tether], balls: &mut [Ball]) {
    for t in tethers {
        let Some(b) = balls.get_mut(t.ball as usize) else {
            continue;
        };
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

/// Renumbers the tethers after ball `i` was removed (its own tether goes).
pub(super) fn ball_removed(tethers: &mut Vec<Tether>, i: usize) {
    let i = i as u32;
    tethers.retain(|t| t.ball != i);
    for t in tethers {
        if t.ball > i {
            t.ball -= 1;
        }
    }
}
