//! Playing a table (pinball): the controls drive flippers and plungers, hits score and light
//! targets, bumpers kick, the drain takes balls, and a new ball is served when none is left.
//!
//! Hooked into [`World::step`] at three points: [`World::prepare_play`] before anything moves
//! (serve), [`World::drive_controls`] where kinematic shapes turn (flippers and plungers move by
//! the held controls, whatever the rotate setting, and keep their true velocity over the step
//! so the response adds the right surface velocity), and [`World::finish_play`] after the
//! collision iterations (score, kick, drain). Everything reads only the world's state and the
//! held controls, so a game replays bit for bit. Cost: one pass over the moving shapes and over
//! the step's hits; lighting a target scans the shapes once.

use super::{clamp_speed, HitWith, World, MAX_HITS};
use crate::geom::{Geometry, Motion, Shape};
use crate::play::GameRules;
use glam::Vec2;
use std::f32::consts::TAU;

impl World {
    /// The table's rules (drain, serve, bonus).
    pub fn game_rules(&self) -> &GameRules {
        &self.game
    }

    /// Sets the table's rules (scene building, tests).
    pub fn set_game_rules(&mut self, rules: GameRules) {
        self.game = rules;
    }

    /// True when any shape is a flipper or plunger, or the table has rules: a game.
    pub fn is_game(&self) -> bool {
        self.game.active()
            || self.shapes[self.first_moving..]
                .iter()
                .any(|s| matches!(s.motion, Motion::Flipper { .. } | Motion::Plunger { .. }))
    }

    /// Before a step: keep the hit list from filling up when nobody drains it (scoring reads
    /// this step's hits), and queue a served ball when the table is empty.
    pub(super) fn prepare_play(&mut self) {
        if !self.game.active() {
            return;
        }
        if self.hits.len() > MAX_HITS / 2 {
            self.hits.drain(..MAX_HITS / 4);
        }
        if self.game.serve && self.balls.is_empty() && self.pending_launches == 0 {
            self.pending_launches = 1;
        }
    }

    /// Moves flippers and plungers one step of `dt` seconds by the held controls.
    pub(super) fn drive_controls(&mut self, dt: f32) {
        let held = self.play.held;
        let mut moved_group = false;
        for s in &mut self.shapes[self.first_moving..] {
            let moved = match s.motion {
                Motion::Flipper {
                    raised,
                    speed,
                    control,
                    ..
                } => turn_flipper(s, held[control.index()], raised, speed, dt),
                Motion::Plunger {
                    travel,
                    pull_speed,
                    stiffness,
                    control,
                    ..
                } => slide_plunger(s, held[control.index()], travel, pull_speed, stiffness, dt),
                _ => false,
            };
            moved_group |= moved && matches!(s.geom, Geometry::Group { .. });
        }
        if moved_group {
            self.pose_controlled_groups();
        }
    }

    /// Puts the members of every flipper and plunger group in their group's pose.
    fn pose_controlled_groups(&mut self) {
        for s in &mut self.shapes[self.first_moving..] {
            let Geometry::Group { id, .. } = s.geom else {
                continue;
            };
            if !matches!(s.motion, Motion::Flipper { .. } | Motion::Plunger { .. }) {
                continue;
            }
            let Some(g) = self.groups.get_mut(id as usize) else {
                continue;
            };
            for m in &mut g.members {
                m.set_angle(s.angle);
                m.set_pull(s.play.pull);
            }
            s.geom = Geometry::Group { id, hull: g.hull() };
        }
    }

    /// After the collision iterations: score and kick the hits from `first_hit` on, then take
    /// the balls in the drain.
    pub(super) fn finish_play(&mut self, first_hit: usize) {
        for k in first_hit..self.hits.len() {
            let h = self.hits[k];
            let HitWith::Shape(si) = h.with else {
                continue;
            };
            let Some(owner) = self.scoring_shape(si as usize) else {
                continue;
            };
            self.award(owner);
            let kick = self.shapes[owner].play.kick;
            if let Some(ball) = self.balls.get_mut(h.ball as usize) {
                kick_ball(&mut ball.vel, h.normal, kick);
            }
        }
        self.drain_balls();
    }

    /// The shape whose points a hit on shape `si` earns: a guard point's owner, else itself.
    fn scoring_shape(&self, si: usize) -> Option<usize> {
        let s = self.shapes.get(si)?;
        let owner = match s.guard_of {
            Some(g) if s.play.points == 0 => g as usize,
            _ => si,
        };
        let p = &self.shapes.get(owner)?.play;
        (p.points > 0 || p.kick > 0.0 || p.target.is_some()).then_some(owner)
    }

    /// Adds shape `si`'s points and lights its target; a full bank earns the bonus and resets.
    fn award(&mut self, si: usize) {
        let p = self.shapes[si].play;
        self.play.score += p.points as u64;
        let Some(t) = p.target else {
            return;
        };
        for s in &mut self.shapes {
            if s.play.target == Some(t) {
                s.play.lit = true;
            }
        }
        let targets = || self.shapes.iter().filter(|s| s.play.target.is_some());
        if targets().all(|s| s.play.lit) {
            self.play.score += self.game.bank_bonus as u64;
            for s in &mut self.shapes {
                s.play.lit = false;
            }
        }
    }

    /// Removes the balls whose centre is in the drain, counting them lost.
    fn drain_balls(&mut self) {
        let Some(drain) = self.game.drain else {
            return;
        };
        let before = self.balls.len();
        self.balls.retain(|b| !drain.contains(b.pos));
        self.play.lost += (before - self.balls.len()) as u32;
    }
}

/// Turns a flipper towards `raised` (held) or 0 (released) by at most one step of `speed`
/// rev/s; its spin is the angle actually turned over `dt`. True when it moved.
fn turn_flipper(s: &mut Shape, held: bool, raised: f32, speed: f32, dt: f32) -> bool {
    let target = if held { raised } else { 0.0 };
    let most = speed.abs() * TAU * dt;
    let turn = (target - s.angle).clamp(-most, most);
    let turn = if turn.is_finite() { turn } else { 0.0 };
    s.play.spin = if dt > 0.0 { turn / dt } else { 0.0 };
    if turn == 0.0 {
        return false;
    }
    s.set_angle(s.angle + turn);
    // Land exactly on the end stop so rest and raised poses repeat bit for bit.
    if (s.angle - target).abs() < 1e-6 {
        s.set_angle(target);
    }
    true
}

/// Pulls a plunger back while held; released, fires it home at `stiffness` × the distance it
/// was pulled when let go. Its pull rate is the distance actually moved over `dt`. True when
/// it moved.
fn slide_plunger(
    s: &mut Shape,
    held: bool,
    travel: f32,
    pull_speed: f32,
    stiffness: f32,
    dt: f32,
) -> bool {
    let from = s.play.pull;
    let to = if held {
        (from + pull_speed * dt).min(travel)
    } else if from > 0.0 {
        // Just released (not yet moving forward): the spring's speed is set by the pull.
        let speed = if s.play.pull_rate < 0.0 {
            -s.play.pull_rate
        } else {
            stiffness * from
        };
        (from - speed.max(1.0) * dt).max(0.0)
    } else {
        0.0
    };
    let to = if to.is_finite() { to.max(0.0) } else { 0.0 };
    // The firing speed carries through the stroke in pull_rate; the last step reports what
    // it really moved.
    s.play.pull_rate = if dt > 0.0 { (to - from) / dt } else { 0.0 };
    if to == from {
        s.play.pull_rate = 0.0;
        return false;
    }
    s.set_pull(to);
    true
}

/// Makes the velocity leave along `n` at `kick` px/s at least.
fn kick_ball(vel: &mut Vec2, n: Vec2, kick: f32) {
    if kick <= 0.0 {
        return;
    }
    let vn = vel.dot(n);
    if vn < kick {
        *vel = clamp_speed(*vel + n * (kick - vn));
    }
}
