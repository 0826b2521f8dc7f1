//! The world's side of the rules (`crate::rules`): reading and setting them, and the hook the
//! step calls at each [`Moment`], which shows the rules the world through a [`WorldView`].

use super::context::StepContext;
use super::World;
use crate::geom::{Ball, Motion};
use crate::rules::{Control, GameRules, Moment, PlayState, Rules, Tether, WorldView};
use glam::Vec2;

impl World {
    /// The scene's rules (tethers, friction, pockets, rain).
    pub fn rules(&self) -> &Rules {
        &self.rules.scene
    }

    /// Replaces the rules; tethers naming balls that do not exist are dropped and the
    /// numbers are made sane (finite, non-negative).
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules.scene = rules.sanitized(self.balls.len());
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
        self.rules.scene.tethers.push(Tether {
            ball: ball as u32,
            anchor,
            length: length.max(0.0),
        });
        true
    }

    /// The table's rules (drain, serve, bonus).
    pub fn game_rules(&self) -> &GameRules {
        &self.rules.game
    }

    /// Sets the table's rules (scene building, tests).
    pub fn set_game_rules(&mut self, rules: GameRules) {
        self.rules.game = rules;
    }

    /// True when any shape is a flipper or plunger, or the table has rules: a game.
    pub fn is_game(&self) -> bool {
        self.rules.game.active()
            || self.shapes[self.first_moving..]
                .iter()
                .any(|s| matches!(s.motion, Motion::Flipper { .. } | Motion::Plunger { .. }))
    }

    /// The game state: held controls, score, lost balls.
    pub fn play(&self) -> &PlayState {
        &self.rules.play
    }

    /// Presses (`down`) or releases a control; it acts from the next step on.
    pub fn set_control(&mut self, control: Control, down: bool) {
        self.rules.play.held[control.index()] = down;
    }

    /// Lets the rules act at `moment` of the step `cx` (whose hits they read).
    pub(super) fn rules_at(&mut self, moment: Moment, cx: &mut StepContext) {
        let (wakes, kept) = (&mut self.stages.sleep.wakes, &mut self.stages.soft.kept);
        let (pairs, sweep) = (&mut self.stages.pairs, &mut self.stages.sweep);
        let n_shapes = self.shapes.len();
        // A ball the rules take leaves as World::remove_ball takes it.
        let mut take_ball = |balls: &mut Vec<Ball>, i: usize| {
            let b = balls[i];
            wakes.wake_near(balls, b.pos, b.radius, b.radius);
            balls.remove(i);
            kept.clear();
            pairs.ball_left(i, n_shapes);
            sweep.ball_left(i);
        };
        let mut view = WorldView {
            balls: &mut self.balls,
            shapes: &mut self.shapes,
            first_moving: self.first_moving,
            groups: &mut self.groups,
            hits: &mut cx.hits,
            pending_launches: &mut self.stages.launch.pending,
            rng: &mut self.rng,
            ball_elasticity: cx.settings.ball_elasticity,
            dt: cx.dt,
            take_ball: &mut take_ball,
        };
        self.rules.at(moment, &mut view);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty() -> World {
        crate::world::step::empty_world(3)
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

    #[test]
    fn the_drain_takes_a_ball_as_remove_ball_does() {
        let mut w = empty();
        w.settings.gravity = 0.0;
        // Ball 0 is in the drain; ball 1 hangs on a string beside it.
        w.add_ball(Ball::new(Vec2::new(500.0, 20.0), Vec2::ZERO, 5.0, 1.0, 0));
        w.add_ball(Ball::new(Vec2::new(100.0, 500.0), Vec2::ZERO, 5.0, 1.0, 0));
        assert!(w.tether(1, Vec2::new(100.0, 600.0), None));
        let drain = crate::geom::Aabb::new(Vec2::new(400.0, 0.0), Vec2::new(600.0, 50.0));
        w.set_game_rules(GameRules {
            drain: Some(drain),
            ..GameRules::default()
        });
        w.step();
        assert_eq!((w.balls().len(), w.play().lost), (1, 1));
        let balls: Vec<u32> = w.rules().tethers.iter().map(|t| t.ball).collect();
        assert_eq!(balls, vec![0], "the string follows its ball to index 0");
    }
}
