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

pub use crate::geom::{Control, ShapePlay};
pub use cradle::{Transfer, TransferMeter};
pub use pinball::{GameRules, PlayState};
pub use pockets::Pocket;
pub use rain::Rain;
pub use strings::Tether;

use crate::geom::{Ball, Group, Shape};
use crate::response::Hit;
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
    /// These rules with tethers naming balls beyond the first `balls` dropped and every
    /// number made sane (finite, non-negative).
    pub fn sanitized(mut self, balls: usize) -> Self {
        let n = balls as u32;
        self.tethers.retain(|t| t.ball < n && t.anchor.is_finite());
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

    /// Renumbers the tethers after ball `i` was removed (its own tether goes).
    pub(crate) fn ball_removed(&mut self, i: usize) {
        let i = i as u32;
        self.tethers.retain(|t| t.ball != i);
        for t in &mut self.tethers {
            if t.ball > i {
                t.ball -= 1;
            }
        }
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

/// When in [`crate::World::step`] the rules act (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Moment {
    /// Before anything else.
    Start,
    /// After a queued ball was launched.
    Launched,
    /// After the kinematic shapes turned.
    Turned,
    /// After the balls moved (in the soft solver, after its whole step).
    Moved,
    /// After the collision iterations and the rebounds were measured; the step's hits start
    /// at `first_hit`.
    Collided {
        /// Index of the first hit recorded this step.
        first_hit: usize,
    },
}

/// What the rules may read and change of the world during a step.
pub(crate) struct WorldView<'a> {
    /// The balls.
    pub balls: &'a mut Vec<Ball>,
    /// The obstacles: statics, then kinematic shapes from `first_moving`.
    pub shapes: &'a mut [Shape],
    /// Index of the first kinematic shape.
    pub first_moving: usize,
    /// The shape groups' members.
    pub groups: &'a mut [Group],
    /// The impacts recorded and not yet drained.
    pub hits: &'a mut Vec<Hit>,
    /// Balls waiting to be launched.
    pub pending_launches: &'a mut u32,
    /// The world's seeded generator.
    pub rng: &'a mut rand_chacha::ChaCha12Rng,
    /// Elasticity of new balls.
    pub ball_elasticity: f32,
    /// Length of the step (s).
    pub dt: f32,
    /// Removes ball `i` as [`crate::World::remove_ball`] does, waking the sleepers near it
    /// (the rules renumber their own strings).
    pub take_ball: &'a mut dyn FnMut(&mut Vec<Ball>, usize),
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
                pinball::finish(&self.game, &mut self.play, first_hit, w);
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
        pockets::take(rules, w);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Aabb;
    use crate::world::{Launcher, World};

    fn empty() -> World {
        let bounds = Aabb::new(Vec2::ZERO, Vec2::new(1000.0, 1000.0));
        let launcher = Launcher {
            pos: Vec2::new(10.0, 10.0),
            dir: Vec2::Y,
        };
        World::new(Vec::new(), bounds, 3).with_launcher(launcher)
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
