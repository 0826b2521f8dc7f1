//! The world's side of the rules (`crate::rules`): reading and setting them, and the hook the
//! step calls at each [`Moment`], which shows the rules the world through a [`WorldView`].

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

    /// Lets the rules act at `moment` of the step.
    pub(super) fn rules_at(&mut self, moment: Moment) {
        let dt = self.step_seconds() as f32;
        let (sleep, woken, kept) = (&mut self.sleep, &mut self.woken, &mut self.soft.kept);
        // A ball the rules take leaves as World::remove_ball takes it.
        let mut take_ball = |balls: &mut Vec<Ball>, i: usize| {
            let b = balls[i];
            sleep.wake_near(balls, woken, b.pos, b.radius, b.radius);
            balls.remove(i);
            kept.clear();
        };
        let mut view = WorldView {
            balls: &mut self.balls,
            shapes: &mut self.shapes,
            first_moving: self.first_moving,
            groups: &mut self.groups,
            hits: &mut self.hits,
            pending_launches: &mut self.pending_launches,
            rng: &mut self.rng,
            ball_elasticity: self.settings.ball_elasticity,
            dt,
            take_ball: &mut take_ball,
        };
        self.rules.at(moment, &mut view);
    }
}
