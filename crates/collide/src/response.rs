//! Collision response: push the ball out along the contact normal, then reflect the normal
//! component of the relative velocity scaled by the combined elasticity.
//!
//! For a ball against an obstacle moving with surface velocity `u` at the contact point:
//! `v_n = (v - u)·n`; when approaching (`v_n < 0`), `v ← v - (1 + e)·v_n·n`, so the relative
//! normal speed leaves at `e` times the speed it came in with. Ball–ball uses the reduced mass
//! and conserves momentum: `j = -(1 + e)·v_n / (1/m₁ + 1/m₂)`.
//!
//! Each response that finds the ball approaching is kept as a [`Hit`] (where, how fast, with
//! what), for the app's hit points and lights, the measured restitution and the game's score.

use crate::balls::{BallId, BallSet};
use crate::geom::{clamp_speed, Ball, Shape};
use crate::narrow::Contact;
use glam::Vec2;

/// Responds to a ball–obstacle contact; returns the approach speed (px/s, 0 if separating).
pub(crate) fn respond_ball_obstacle(
    ball: &mut Ball,
    contact: &Contact,
    e: f32,
    surface_vel: Vec2,
) -> f32 {
    let n = contact.normal;
    ball.pos += n * contact.depth;
    let vn = (ball.vel - surface_vel).dot(n);
    if vn >= 0.0 {
        return 0.0;
    }
    ball.vel -= n * ((1.0 + e) * vn);
    -vn
}

/// Responds to a contact of ball `a` with ball `b` (normal from `b` to `a`); returns the
/// approach speed (px/s, 0 if separating).
pub(crate) fn respond_ball_ball(a: &mut Ball, b: &mut Ball, contact: &Contact, e: f32) -> f32 {
    let n = contact.normal;
    let (wa, wb) = push_shares(a.mass, b.mass);
    a.pos += n * (contact.depth * wa);
    b.pos -= n * (contact.depth * wb);
    let vn = (a.vel - b.vel).dot(n);
    if vn >= 0.0 {
        return 0.0;
    }
    let inv_sum = 1.0 / a.mass + 1.0 / b.mass;
    let j = -(1.0 + e) * vn / inv_sum;
    a.vel += n * (j / a.mass);
    b.vel -= n * (j / b.mass);
    -vn
}

/// Answers `ball` touching obstacle `shape` at `contact`: the response with elasticity
/// `ball × shape_e × scale` (`shape_e` a group member's for a group) against the surface's
/// velocity there (`rotating`: kinematic shapes turn), the speed clamped. Returns the approach
/// speed and the elasticity used.
pub(crate) fn answer_ball_obstacle(
    ball: &mut Ball,
    shape: &Shape,
    contact: &Contact,
    shape_e: f32,
    scale: f32,
    rotating: bool,
) -> (f32, f32) {
    let e = ball.elasticity * shape_e * scale;
    let surface = shape.velocity_at(contact.point, rotating);
    let speed = respond_ball_obstacle(ball, contact, e, surface);
    ball.vel = clamp_speed(ball.vel);
    (speed, e)
}

/// Answers balls `a` and `b` touching at `contact` with elasticity `e`, both speeds clamped;
/// returns the approach speed.
pub(crate) fn answer_ball_ball(a: &mut Ball, b: &mut Ball, contact: &Contact, e: f32) -> f32 {
    let speed = respond_ball_ball(a, b, contact, e);
    a.vel = clamp_speed(a.vel);
    b.vel = clamp_speed(b.vel);
    speed
}

/// How much of the separation each ball takes: the lighter one moves more.
pub(crate) fn push_shares(ma: f32, mb: f32) -> (f32, f32) {
    let sum = ma + mb;
    if sum > 0.0 && sum.is_finite() {
        (mb / sum, ma / sum)
    } else {
        (0.5, 0.5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow::contact_ball_ball;

    fn ball(pos: Vec2, vel: Vec2, r: f32) -> Ball {
        Ball::new(pos, vel, r, 1.0, 0)
    }

    #[test]
    fn ball_ball_conserves_momentum() {
        let mut a = ball(Vec2::new(0.0, 0.0), Vec2::new(100.0, 5.0), 10.0);
        let mut b = ball(Vec2::new(15.0, 3.0), Vec2::new(-40.0, 0.0), 6.0);
        let before = a.vel * a.mass + b.vel * b.mass;
        let c = contact_ball_ball(a.pos, a.radius, b.pos, b.radius).unwrap();
        let speed = respond_ball_ball(&mut a, &mut b, &c, 0.8);
        assert!(speed > 0.0);
        let after = a.vel * a.mass + b.vel * b.mass;
        assert!((before - after).length() <= 1e-3 * before.length().max(1.0));
    }

    #[test]
    fn obstacle_reflects_normal_speed_scaled() {
        let mut a = ball(Vec2::ZERO, Vec2::new(30.0, -100.0), 5.0);
        let c = Contact {
            point: Vec2::new(0.0, -4.0),
            normal: Vec2::Y,
            depth: 1.0,
        };
        respond_ball_obstacle(&mut a, &c, 0.5, Vec2::ZERO);
        assert_eq!(a.vel, Vec2::new(30.0, 50.0));
        assert_eq!(a.pos, Vec2::new(0.0, 1.0));
    }
}

/// Impacts slower than this (px/s) are resting contact, not hits worth showing.
pub(crate) const HIT_SPEED: f32 = 30.0;
/// Most hits kept between two [`crate::World::drain_hits`] calls.
pub(crate) const MAX_HITS: usize = 4096;

/// What a ball touches, by place: an obstacle or another ball. The step's own form (the
/// contact list, the soft contacts, the probe); a [`Hit`] names the other ball by id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactWith {
    /// An obstacle, by index into [`crate::World::shapes`].
    Shape(u32),
    /// Another ball, by index into [`crate::World::balls`].
    Ball(u32),
}

/// What a ball hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitWith {
    /// An obstacle, by index into [`crate::World::shapes`].
    Shape(u32),
    /// Another ball, by id (it stays the same ball while others leave).
    Ball(BallId),
}

/// One impact, for hit points, reticles, lights and the measured restitution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    /// Where (px).
    pub point: Vec2,
    /// Approach speed (px/s): the normal speed relative to the surface before the response.
    pub speed: f32,
    /// Rebound speed (px/s): the normal speed relative to the surface at the end of the step
    /// of the impact, after every collision iteration (negative if still approaching).
    pub rebound: f32,
    /// The combined elasticity the response used (ball × shape × scale).
    pub e: f32,
    /// Unit contact normal, from the surface (or the other ball) towards the ball.
    pub normal: Vec2,
    /// The ball that hit, by id.
    pub ball: BallId,
    /// What it hit.
    pub with: HitWith,
    /// The step it happened in: [`crate::World::steps`] before that step (for timing the
    /// impact's sound on simulated time).
    pub step: u64,
}

/// An impact as a stage records it during the step, its balls by place; the step names
/// them by id once the collisions are over ([`Struck::named`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Struck {
    /// Where (px).
    pub(crate) point: Vec2,
    /// Unit contact normal, towards the ball.
    pub(crate) normal: Vec2,
    /// Approach speed (px/s).
    pub(crate) speed: f32,
    /// The combined elasticity the response used.
    pub(crate) e: f32,
    /// The ball that hit, by place.
    pub(crate) ball: u32,
    /// What it hit, by place.
    pub(crate) with: ContactWith,
}

impl Struck {
    /// A hit of `ball` with `with` at `point` (unit `normal` towards the ball), closing at
    /// `speed` px/s, answered with elasticity `e`.
    pub(crate) fn new(
        point: Vec2,
        normal: Vec2,
        speed: f32,
        e: f32,
        ball: u32,
        with: ContactWith,
    ) -> Self {
        Self {
            point,
            normal,
            speed,
            e,
            ball,
            with,
        }
    }

    /// The hit with its balls named by their ids in `balls` (where they are now), in step
    /// `step`, its rebound `rebound` px/s; `None` when the ball is not there.
    pub(crate) fn named(&self, balls: &BallSet, step: u64, rebound: f32) -> Option<Hit> {
        let with = match self.with {
            ContactWith::Shape(s) => HitWith::Shape(s),
            ContactWith::Ball(o) => HitWith::Ball(balls.id(o as usize)?),
        };
        Some(Hit {
            point: self.point,
            speed: self.speed,
            rebound,
            e: self.e,
            normal: self.normal,
            ball: balls.id(self.ball as usize)?,
            with,
            step,
        })
    }
}

/// Whether a hit at `speed` px/s is kept when `held` hits are kept already: fast enough to
/// show, and the list has room.
pub(crate) fn kept(speed: f32, held: usize) -> bool {
    speed >= HIT_SPEED && held < MAX_HITS
}
