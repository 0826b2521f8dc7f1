//! Playing a table (pinball): the controls drive flippers and plungers, hits score and light
//! targets, bumpers kick, the drain takes balls, and a new ball is served when none is left.
//!
//! The game state is [`PlayState`] (held controls, score, lost balls) and the table's
//! [`GameRules`] (drain, serve, bonus); per shape, by index, [`ShapePlay`] holds what a hit is
//! worth and whether a target is lit (a flipper's turn and a plunger's pull are the shape's
//! motion, on [`Shape`]: the physics reads them). It acts at three moments of the step:
//! [`serve`] before anything moves, [`drive`] where kinematic shapes turn (flippers and
//! plungers move by the held controls, whatever the rotate setting, and keep their true
//! velocity over the step so the response adds the right surface velocity), and [`finish`]
//! after the collision iterations (score, kick, drain). Everything reads only the world's
//! state and the held controls, so a game replays bit for bit. Cost: one pass over the moving
//! shapes and over the step's hits; lighting a target scans the shapes once.

use super::WorldView;
use crate::geom::{clamp_speed, Aabb, Geometry, Motion, Shape};
use crate::response::{HitWith, MAX_HITS};
use glam::Vec2;
use serde::{Deserialize, Serialize};
use std::f32::consts::TAU;

/// What the player has done and holds.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayState {
    /// Whether each [`crate::geom::Control`] is held, by [`crate::geom::Control::index`].
    pub held: [bool; 3],
    /// Points scored.
    pub score: u64,
    /// Balls lost down the drain.
    pub lost: u32,
    /// Each shape's worth and light, by shape index (saved with the shapes, see
    /// `world/saved.rs`).
    #[serde(skip)]
    pub(crate) shapes: Vec<ShapePlay>,
}

impl PlayState {
    /// What a hit on shape `i` is worth and whether it is lit (all zero for a shape that takes
    /// no part in the game).
    pub fn shape(&self, i: usize) -> ShapePlay {
        self.shapes.get(i).copied().unwrap_or_default()
    }
}

/// What a shape is worth in a game and whether it is lit: the pinball rules' state of one
/// shape. All zero for shapes that take no part in a game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ShapePlay {
    /// Points a hit adds to [`PlayState::score`].
    pub points: u32,
    /// Least speed (px/s) a hit sends the ball away with along the contact normal (a bumper's
    /// kick); 0 for none.
    pub kick: f32,
    /// For a target: its number. Every shape of one target lights together.
    pub target: Option<u32>,
    /// A target that has been hit and not yet reset.
    pub lit: bool,
}

/// The rules of a played table: where balls are lost, whether a new one is served.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GameRules {
    /// A ball whose centre enters this box is removed and counted in [`PlayState::lost`].
    pub drain: Option<Aabb>,
    /// Serve a new ball at the launcher whenever none is in play or waiting.
    pub serve: bool,
    /// Points added when every target is lit; the targets then go dark again.
    pub bank_bonus: u32,
}

impl GameRules {
    /// True when the table is played at all (a drain or a serve).
    pub(crate) fn active(&self) -> bool {
        self.drain.is_some() || self.serve
    }
}

/// Before a step: keeps the hit list from filling up when nobody drains it (scoring reads
/// this step's hits), and queues a served ball when the table is empty.
pub(super) fn serve(game: &GameRules, w: &mut WorldView) {
    if !game.active() {
        return;
    }
    if w.hits.len() > MAX_HITS / 2 {
        w.hits.drain(..MAX_HITS / 4);
    }
    if game.serve && w.balls.is_empty() && *w.pending_launches == 0 {
        *w.pending_launches = 1;
    }
}

/// Moves flippers and plungers one step by the held controls.
pub(super) fn drive(play: &PlayState, w: &mut WorldView) {
    let (held, dt) = (play.held, w.dt);
    let mut moved_group = false;
    for s in &mut w.shapes[w.first_moving..] {
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
        pose_controlled_groups(w);
    }
}

/// Puts the members of every flipper and plunger group in their group's pose.
fn pose_controlled_groups(w: &mut WorldView) {
    for s in &mut w.shapes[w.first_moving..] {
        let Geometry::Group { id, .. } = s.geom else {
            continue;
        };
        if !matches!(s.motion, Motion::Flipper { .. } | Motion::Plunger { .. }) {
            continue;
        }
        let Some(g) = w.groups.get_mut(id as usize) else {
            continue;
        };
        for m in &mut g.members {
            m.set_angle(s.angle);
            m.set_pull(s.pull);
        }
        s.geom = Geometry::Group { id, hull: g.hull() };
    }
}

/// After the collision iterations: scores and kicks the hits from `first_hit` on, then takes
/// the balls in the drain, telling `taken` each index.
pub(super) fn finish(
    game: &GameRules,
    play: &mut PlayState,
    first_hit: usize,
    w: &mut WorldView,
    taken: impl FnMut(crate::balls::BallId),
) {
    for k in first_hit..w.hits.len() {
        let h = w.hits[k];
        let HitWith::Shape(si) = h.with else {
            continue;
        };
        let Some(owner) = scoring_shape(w.shapes, play, si as usize) else {
            continue;
        };
        award(game, play, owner);
        let kick = play.shape(owner).kick;
        if let Ok(i) = w.balls.index(h.ball) {
            kick_ball(&mut w.balls[i].vel, h.normal, kick);
        }
    }
    drain_balls(game, play, w, taken);
}

/// The shape whose points a hit on shape `si` earns: a guard point's owner, else itself.
fn scoring_shape(shapes: &[Shape], play: &PlayState, si: usize) -> Option<usize> {
    let s = shapes.get(si)?;
    let owner = match s.guard_of {
        Some(g) if play.shape(si).points == 0 => g as usize,
        _ => si,
    };
    shapes.get(owner)?;
    let p = play.shape(owner);
    (p.points > 0 || p.kick > 0.0 || p.target.is_some()).then_some(owner)
}

/// Adds shape `si`'s points and lights its target; a full bank earns the bonus and resets.
fn award(game: &GameRules, play: &mut PlayState, si: usize) {
    let p = play.shape(si);
    play.score += p.points as u64;
    let Some(t) = p.target else {
        return;
    };
    for s in play.shapes.iter_mut() {
        if s.target == Some(t) {
            s.lit = true;
        }
    }
    let mut targets = play.shapes.iter().filter(|s| s.target.is_some());
    if targets.all(|s| s.lit) {
        play.score += game.bank_bonus as u64;
        for s in play.shapes.iter_mut() {
            s.lit = false;
        }
    }
}

/// Removes the balls whose centre is in the drain, counting them lost.
fn drain_balls(
    game: &GameRules,
    play: &mut PlayState,
    w: &mut WorldView,
    taken: impl FnMut(crate::balls::BallId),
) {
    if let Some(drain) = game.drain {
        play.lost += w.take_balls(|b| drain.contains(b.pos), taken);
    }
}

/// Turns a flipper towards `raised` (held) or 0 (released) by at most one step of `speed`
/// rev/s; its spin is the angle actually turned over `dt`. True when it moved.
fn turn_flipper(s: &mut Shape, held: bool, raised: f32, speed: f32, dt: f32) -> bool {
    let target = if held { raised } else { 0.0 };
    let most = speed.abs() * TAU * dt;
    let turn = (target - s.angle).clamp(-most, most);
    let turn = if turn.is_finite() { turn } else { 0.0 };
    s.spin = if dt > 0.0 { turn / dt } else { 0.0 };
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
    let from = s.pull;
    let to = if held {
        (from + pull_speed * dt).min(travel)
    } else if from > 0.0 {
        // Just released (not yet moving forward): the spring's speed is set by the pull.
        let speed = if s.pull_rate < 0.0 {
            -s.pull_rate
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
    s.pull_rate = if dt > 0.0 { (to - from) / dt } else { 0.0 };
    if to == from {
        s.pull_rate = 0.0;
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
