//! The rules a world plays by beside the physics: a scene's strings, friction, pockets and
//! rain, the cradle's read-out, and a played table's serve, flippers, score and drain.
//!
//! The world owns one `RuleBook` and its step hands it a `WorldView` — the balls, the
//! obstacles, the step's hits, the launch queue and the random generator, nothing of the
//! broad phase or the solvers — at five moments of [`crate::World::step`], in this order:
//!
//! ```text
//! Start      the table serves a ball when none is left (pinball.rs)
//!            (the world launches a queued ball)
//! Launched   the next wave of rain (rain.rs)
//!            (the world turns its kinematic shapes)
//! Turned     the held controls drive flippers and plungers (pinball.rs)
//!            (the world moves the balls)
//! Moved      strings hold (strings.rs); the push-out's collision iterations follow
//!            (the world measures the rebounds)
//! Collided   hits score and kick, the drain takes balls (pinball.rs); strings hold, friction
//!            slows the balls, pockets take them (pockets.rs); the cradle meter (cradle.rs)
//! ```
//!
//! The moments are where the rules acted when they were part of the world's step, so runs are
//! the same bit for bit: the serve must come before the launch it queues, rain draws from the
//! generator after a launch does, and flippers move with the other kinematic shapes. Every
//! rule reads only the view and its own state, so a game replays exactly.

mod cradle;
mod pinball;
mod pockets;
mod rain;
mod strings;
mod view;

pub use crate::geom::Control;
pub use cradle::{Transfer, TransferMeter};
pub use pinball::{GameRules, PlayState, ShapePlay};
pub use pockets::Pocket;
pub use rain::Rain;
pub use strings::Tether;
pub(crate) use view::{Moment, WorldView};

use crate::geom::Ball;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// The rules a scene sets beyond obstacles and settings: strings, friction, pockets, rain,
/// and what they have counted. Plain data, so a saved state carries it.
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
    pub transfer: TransferMeter,
}

impl Rules {
    /// These rules with tethers naming balls not in `balls` dropped and every number made
    /// sane (finite, non-negative).
    pub(crate) fn sanitized(mut self, balls: &crate::balls::BallSet) -> Self {
        self.tethers
            .retain(|t| balls.index(t.ball).is_ok() && t.anchor.is_finite());
        for t in &mut self.tethers {
            t.length = finite_or_zero(t.length);
        }
        self.friction = finite_or_zero(self.friction);
        self.pockets.retain(|p| p.centre.is_finite());
        for p in &mut self.pockets {
            p.radius = finite_or_zero(p.radius);
        }
        self
    }

    /// Drops the tether of ball `id`, which left the world.
    pub(crate) fn ball_removed(&mut self, id: crate::balls::BallId) {
        strings::ball_removed(&mut self.tethers, id);
    }

    /// Forgets what belongs to the balls (strings, rain still to fall) when they are cleared.
    pub(crate) fn balls_cleared(&mut self) {
        self.tethers.clear();
        self.rain = None;
    }
}

/// Everything the world plays by beside the physics: the scene's rules, the played table's
/// rules and the play so far. Owned by the world; see the module notes for when it acts.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct RuleBook {
    /// Strings, friction, pockets, rain, the cradle meter.
    pub scene: Rules,
    /// The drain, the serve, the bonus.
    pub game: GameRules,
    /// Held controls, score, lost balls.
    pub play: PlayState,
}

impl RuleBook {
    /// Acts at `moment` of the step on the world seen through `w`.
    pub(crate) fn at(&mut self, moment: Moment, w: &mut WorldView) {
        match moment {
            Moment::Start => pinball::serve(&self.game, w),
            Moment::Launched => rain::fall(&mut self.scene.rain, w),
            Moment::Turned => pinball::drive(&self.play, w),
            Moment::Moved => strings::hold(&self.scene.tethers, w.balls),
            Moment::Collided { first_hit } => {
                let tethers = &mut self.scene.tethers;
                pinball::finish(&self.game, &mut self.play, first_hit, w, |id| {
                    strings::ball_removed(tethers, id)
                });
                self.after_collisions(w);
            }
        }
    }

    /// The scene's rules after the collision iterations: strings, friction, pockets, and the
    /// cradle meter.
    fn after_collisions(&mut self, w: &mut WorldView) {
        let rules = &mut self.scene;
        strings::hold(&rules.tethers, w.balls);
        slow_down(rules.friction, w.dt, w.balls);
        pockets::take(&rules.pockets, w, |id| {
            strings::ball_removed(&mut rules.tethers, id);
            rules.pocketed += 1;
        });
        if !rules.tethers.is_empty() {
            rules.transfer.measure(&rules.tethers, w.balls, w.dt);
        }
    }
}

/// Friction: a deceleration `f` (px/s²) on every ball's speed, `|v| ← max(0, |v| − f·dt)`,
/// never reversing it; a ball slower than `f·dt` stops exactly.
fn slow_down(friction: f32, dt: f32, balls: &mut [Ball]) {
    let drop = friction * dt;
    if drop <= 0.0 {
        return;
    }
    for b in balls {
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

fn finite_or_zero(x: f32) -> f32 {
    if x.is_finite() {
        x.max(0.0)
    } else {
        0.0
    }
}
