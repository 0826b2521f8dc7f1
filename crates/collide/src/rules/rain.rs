//! Rain: `remaining` balls enter in waves along a segment at the top, one per slot
//! `2.2 · r_max` wide, a wave whenever the last one has fallen a slot's width. Positions are
//! jittered by the world's seeded generator, so a run is the same given the same seed.

use super::WorldView;
use crate::geom::{clamp_speed, Ball};
use glam::Vec2;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// Space between rain slots, as a factor on the largest diameter.
const RAIN_GAP: f32 = 1.1;

/// Balls entering over time along a segment (rain into a funnel).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rain {
    /// One end of the entry segment (px).
    pub from: Vec2,
    /// The other end (px).
    pub to: Vec2,
    /// Balls still to enter.
    pub remaining: u32,
    /// Radius range of the balls (px), `lo ≤ hi`.
    pub radius: (f32, f32),
    /// Velocity the balls enter with (px/s).
    pub vel: Vec2,
    /// Steps until the next wave.
    pub wait: u32,
}

/// Counts down to the next wave and lets it fall; the rain ends once every ball entered.
pub(super) fn fall(rain_slot: &mut Option<Rain>, w: &mut WorldView) {
    let Some(mut rain) = *rain_slot else {
        return;
    };
    if rain.remaining == 0 {
        *rain_slot = None;
        return;
    }
    if rain.wait > 0 {
        rain.wait -= 1;
    } else {
        wave(&mut rain, w);
    }
    *rain_slot = Some(rain);
}

/// One wave: a ball in each slot (fewer for the last), starting at a random slot.
fn wave(rain: &mut Rain, w: &mut WorldView) {
    let (lo, hi) = rain.radius;
    let slot = 2.0 * hi * RAIN_GAP;
    let span = rain.to - rain.from;
    let len = span.length();
    let slots = ((len / slot).floor() as u32).max(1);
    let along = if len > 0.0 { span / len } else { Vec2::X };
    let wave = slots.min(rain.remaining);
    // Start the wave at a random slot so a short last wave does not always fill one side.
    let first = w.rng.gen_range(0..slots);
    for k in 0..wave {
        let s = (first + k) % slots;
        let r = w.rng.gen_range(lo..=hi);
        let jitter = w.rng.gen_range(-0.5..=0.5) * (slot - 2.0 * r).max(0.0);
        let pos = rain.from + along * ((s as f32 + 0.5) * slot + jitter);
        let color = w.rng.gen::<u32>();
        let e = w.ball_elasticity;
        w.balls
            .push(Ball::new(pos, clamp_speed(rain.vel), r, e, color));
    }
    rain.remaining -= wave;
    // Wait until the wave has moved one slot away at its entry speed (gravity only helps).
    let speed = rain.vel.length().max(1.0);
    rain.wait = ((slot / speed) / w.dt.max(1e-6)).ceil().min(1.0e6) as u32;
}
