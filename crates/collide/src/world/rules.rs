//! Scene rules that act on the balls every step besides collisions: pendulum strings
//! (tethers), table friction, pockets, and rain (balls entering over time).
//!
//! - **Tether**: a ball kept within `length` of an anchor. After the balls move and again after
//!   the collision iterations, a ball beyond its string is put back on the circle of radius
//!   `length` about the anchor, and the outward radial part of its velocity is removed
//!   (`v ← v − max(0, v·d̂)·d̂`, `d̂` from anchor to ball): an inextensible string that can go
//!   slack. `O(tethers)` per step; the string never lengthens, so `|p − a| ≤ length` holds at
//!   the end of every step.
//! - **Friction**: a deceleration `f` (px/s²) on every ball's speed,
//!   `|v| ← max(0, |v| − f·dt)`, never reversing it; a ball slower than `f·dt` stops exactly.
//! - **Pockets**: a ball whose centre is inside a pocket's circle is removed and counted.
//! - **Rain**: `remaining` balls enter in waves along a segment at the top, one per slot
//!   `2.2 · r_max` wide, a wave whenever the last one has fallen a slot's width; positions are
//!   jittered by the world's seeded generator, so a run is the same given the same seed.
//!
//! Everything here is plain data (serde), so a saved state carries it.

use super::{clamp_speed, Ball, World};
use glam::Vec2;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// A pendulum string: ball `ball` kept within `length` of `anchor`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tether {
    /// Index of the ball in [`World::balls`] (renumbered when balls are removed).
    pub ball: u32,
    /// Fixed end of the string (px).
    pub anchor: Vec2,
    /// Length of the string (px), ≥ 0.
    pub length: f32,
}

/// A pocket: balls whose centre enters the circle are taken off the table.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pocket {
    /// Centre (px).
    pub centre: Vec2,
    /// Radius (px).
    pub radius: f32,
}

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

/// The rules a scene sets beyond obstacles and settings.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Rules {
    /// Pendulum strings.
    pub tethers: Vec<Tether>,
    /// Deceleration of every ball (px/s²); 0 for none.
    pub friction: f32,
    /// Pockets.
    pub pockets: Vec<Pocket>,
    /// Balls still to rain in.
    pub rain: Option<Rain>,
    /// Balls that fell into a pocket since the scene was loaded.
    pub pocketed: u32,
    /// How impacts pass through the row of tethered balls (the cradle's read-out).
    pub transfer: super::TransferMeter,
}

impl Rules {
    /// Renumbers the tethers after ball `i` was removed (its own tether goes).
    pub(super) fn ball_removed(&mut self, i: usize) {
        let i = i as u32;
        self.tethers.retain(|t| t.ball != i);
        for t in &mut self.tethers {
            if t.ball > i {
                t.ball -= 1;
            }
        }
    }
}

/// Space between rain slots, as a factor on the largest diameter.
const RAIN_GAP: f32 = 1.1;

impl World {
    /// The scene's rules (tethers, friction, pockets, rain).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Replaces the rules; tethers naming balls that do not exist are dropped and the
    /// numbers are made sane (finite, non-negative).
    pub fn set_rules(&mut self, mut rules: Rules) {
        let n = self.balls.len() as u32;
        rules.tethers.retain(|t| t.ball < n && t.anchor.is_finite());
        for t in &mut rules.tethers {
            t.length = finite_or_zero(t.length);
        }
        rules.friction = finite_or_zero(rules.friction);
        rules.pockets.retain(|p| p.centre.is_finite());
        for p in &mut rules.pockets {
            p.radius = finite_or_zero(p.radius);
        }
        self.rules = rules;
    }

    /// Ties ball `ball` to `anchor` with a string of `length` px (the ball's current distance
    /// when `None`). False if there is no such ball or the values are not finite.
    pub fn tether(&mut self, ball: usize, anchor: Vec2, length: Option<f32>) -> bool {
        let Some(b) = self.balls.get(ball) else {
            return false;
        };
        let length = length.unwrap_or_else(|| (b.pos - anchor).length());
        if !anchor.is_finite() || !length.is_finite() {
            return false;
        }
        self.rules.tethers.push(Tether {
            ball: ball as u32,
            anchor,
            length: length.max(0.0),
        });
        true
    }

    /// Puts every tethered ball back within its string and removes outward radial velocity.
    pub(super) fn apply_tethers(&mut self) {
        for t in &self.rules.tethers {
            let Some(b) = self.balls.get_mut(t.ball as usize) else {
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

    /// Rules run before the balls move: the next wave of rain.
    pub(super) fn rules_before_move(&mut self, dt: f32) {
        let Some(mut rain) = self.rules.rain else {
            return;
        };
        if rain.remaining == 0 {
            self.rules.rain = None;
            return;
        }
        if rain.wait > 0 {
            rain.wait -= 1;
        } else {
            self.rain_wave(&mut rain, dt);
        }
        self.rules.rain = Some(rain);
    }

    fn rain_wave(&mut self, rain: &mut Rain, dt: f32) {
        let (lo, hi) = rain.radius;
        let slot = 2.0 * hi * RAIN_GAP;
        let span = rain.to - rain.from;
        let len = span.length();
        let slots = ((len / slot).floor() as u32).max(1);
        let along = if len > 0.0 { span / len } else { Vec2::X };
        let wave = slots.min(rain.remaining);
        // Start the wave at a random slot so a short last wave does not always fill one side.
        let first = self.rng.gen_range(0..slots);
        for k in 0..wave {
            let s = (first + k) % slots;
            let r = self.rng.gen_range(lo..=hi);
            let jitter = self.rng.gen_range(-0.5..=0.5) * (slot - 2.0 * r).max(0.0);
            let pos = rain.from + along * ((s as f32 + 0.5) * slot + jitter);
            let color = self.rng.gen::<u32>();
            let e = self.settings.ball_elasticity;
            self.balls
                .push(Ball::new(pos, clamp_speed(rain.vel), r, e, color));
        }
        rain.remaining -= wave;
        // Wait until the wave has moved one slot away at its entry speed (gravity only helps).
        let speed = rain.vel.length().max(1.0);
        rain.wait = ((slot / speed) / dt.max(1e-6)).ceil().min(1.0e6) as u32;
    }

    /// Rules run after the collision iterations: strings, friction, pockets.
    pub(super) fn rules_after_step(&mut self, dt: f32) {
        self.apply_tethers();
        self.apply_friction(dt);
        self.take_pocketed();
        if !self.rules.tethers.is_empty() {
            self.measure_transfer();
        }
    }

    fn apply_friction(&mut self, dt: f32) {
        let drop = self.rules.friction * dt;
        if drop <= 0.0 {
            return;
        }
        for b in &mut self.balls {
            let s2 = b.vel.length_squared();
            // Slower than one step's loss: stop exactly (also covers a speed of zero).
            if s2 <= drop * drop {
                b.vel = Vec2::ZERO;
                continue;
            }
            let s = s2.sqrt();
            b.vel *= (s - drop) / s;
        }
    }

    fn take_pocketed(&mut self) {
        if self.rules.pockets.is_empty() {
            return;
        }
        let mut i = 0;
        while i < self.balls.len() {
            let p = self.balls[i].pos;
            let inside = self
                .rules
                .pockets
                .iter()
                .any(|k| (p - k.centre).length_squared() < k.radius * k.radius);
            if inside {
                self.remove_ball(i);
                self.rules.pocketed += 1;
            } else {
                i += 1;
            }
        }
    }
}

fn finite_or_zero(x: f32) -> f32 {
    if x.is_finite() {
        x.max(0.0)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Aabb;
    use crate::world::Launcher;

    fn empty() -> World {
        let bounds = Aabb::new(Vec2::ZERO, Vec2::new(1000.0, 1000.0));
        let launcher = Launcher {
            pos: Vec2::new(10.0, 10.0),
            dir: Vec2::Y,
        };
        World::new(Vec::new(), bounds, launcher, 3)
    }

    #[test]
    fn friction_slows_without_reversing_and_stops_at_zero() {
        let mut w = empty();
        w.settings.gravity = 0.0;
        w.add_ball(Ball::new(
            Vec2::splat(500.0),
            Vec2::new(30.0, 40.0),
            5.0,
            1.0,
            0,
        ));
        w.add_ball(Ball::new(Vec2::splat(100.0), Vec2::ZERO, 5.0, 1.0, 0));
        w.set_rules(Rules {
            friction: 100.0,
            ..Rules::default()
        });
        let dir = Vec2::new(0.6, 0.8);
        for _ in 0..240 {
            w.step();
            let v = w.balls()[0].vel;
            assert!(v.is_finite() && v.dot(dir) >= 0.0, "reversed: {v}");
            assert!(v.perp_dot(dir).abs() < 1e-3);
        }
        assert_eq!(w.balls()[0].vel, Vec2::ZERO);
        assert_eq!(w.balls()[1].vel, Vec2::ZERO);
        assert!(w.all_finite());
    }

    #[test]
    fn removing_a_ball_renumbers_the_tethers() {
        let mut w = empty();
        for k in 0..3 {
            w.add_ball(Ball::new(
                Vec2::new(100.0 * k as f32, 0.0),
                Vec2::ZERO,
                5.0,
                1.0,
                0,
            ));
        }
        for k in 0..3 {
            assert!(w.tether(k, Vec2::new(100.0 * k as f32, 100.0), None));
        }
        w.remove_ball(1);
        let balls: Vec<u32> = w.rules().tethers.iter().map(|t| t.ball).collect();
        assert_eq!(balls, vec![0, 1]);
        assert_eq!(w.rules().tethers[1].anchor, Vec2::new(200.0, 100.0));
    }

    #[test]
    fn a_ball_at_its_anchor_stays_finite() {
        let mut w = empty();
        w.add_ball(Ball::new(
            Vec2::splat(500.0),
            Vec2::new(0.0, 50.0),
            5.0,
            1.0,
            0,
        ));
        assert!(w.tether(0, Vec2::splat(500.0), Some(0.0)));
        for _ in 0..100 {
            w.step();
        }
        assert!(w.all_finite());
        assert!((w.balls()[0].pos - Vec2::splat(500.0)).length() < 1e-3);
    }
}
