//! The world's side of the rules (`crate::rules`): reading and setting them, and the hook the
//! step calls at each [`Moment`], which shows the rules the world through a [`WorldView`].

use super::context::StepContext;
use super::World;
use crate::balls::BallSet;
use crate::geom::{Aabb, Motion, Shape};
use crate::rules::{Control, GameRules, Moment, PlayState, Rules, ShapePlay, WorldView};

impl World {
    /// [`World::new`] with what each shape is worth in a game (`plays`, by index into
    /// `shapes`; a shape without one is worth nothing). Each guard point lights with the
    /// target of the shape it guards.
    pub(crate) fn with_plays(
        mut shapes: Vec<Shape>,
        mut plays: Vec<ShapePlay>,
        bounds: Aabb,
        seed: u64,
    ) -> Self {
        crate::geom::add_guard_points(&mut shapes);
        plays.resize(shapes.len(), ShapePlay::default());
        for (i, s) in shapes.iter().enumerate() {
            if let Some(g) = s.guard_of.and_then(|g| plays.get(g as usize).copied()) {
                plays[i].target = g.target;
            }
        }
        let order = super::step::statics_order(&shapes);
        let mut world = Self::new_unguarded(shapes, bounds, seed);
        world.rules.play.shapes = order.iter().map(|&i| plays[i]).collect();
        world
    }

    /// The scene's rules (tethers, friction, pockets, rain).
    pub fn rules(&self) -> &Rules {
        &self.rules.scene
    }

    /// Replaces the rules; tethers naming balls that do not exist are dropped and the
    /// numbers are made sane (finite, non-negative).
    pub(crate) fn set_rules(&mut self, rules: Rules) {
        self.rules.scene = rules.sanitized(&self.balls);
    }

    /// Ties ball `ball` to `anchor` with a string of `length` px (the ball's current distance
    /// when `None`). False if there is no such ball or the values are not finite.
    #[cfg(test)]
    pub(crate) fn tether(&mut self, ball: usize, anchor: glam::Vec2, length: Option<f32>) -> bool {
        let (Some(b), Some(id)) = (self.balls.get(ball), self.balls.id(ball)) else {
            return false;
        };
        let length = length.unwrap_or_else(|| (b.pos - anchor).length());
        if !anchor.is_finite() || !length.is_finite() {
            return false;
        }
        self.rules.scene.tethers.push(crate::rules::Tether {
            ball: id,
            anchor,
            length: length.max(0.0),
        });
        true
    }

    /// Sets the table's rules (scene building, tests).
    pub(crate) fn set_game_rules(&mut self, rules: GameRules) {
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
    pub(crate) fn set_control(&mut self, control: Control, down: bool) {
        self.rules.play.held[control.index()] = down;
    }

    /// Lets the rules act at `moment` of the step `cx` (whose hits they read).
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
    pub(super) fn rules_at(&mut self, moment: Moment, cx: &mut StepContext) {
        // The launcher's count is the view's while the stages take the balls that leave, as
        // World::remove_ball does.
        let mut pending = self.stages.pending_launches();
        let (stages, n_shapes) = (&mut self.stages, self.shapes.len());
        let mut take_ball = |balls: &mut BallSet, i: usize| stages.take_ball(balls, i, n_shapes);
        let mut view = WorldView {
            balls: &mut self.balls,
            shapes: &mut self.shapes,
            first_moving: self.first_moving,
            groups: &mut self.groups,
            hits: &mut cx.hits,
            pending_launches: &mut pending,
            rng: &mut self.rng,
            ball_elasticity: cx.settings.ball_elasticity,
            dt: cx.dt,
            take_ball: &mut take_ball,
        };
        self.rules.at(moment, &mut view);
        self.stages.set_pending_launches(pending);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Ball;
    use crate::world::{BallId, StaleBall};
    use glam::Vec2;

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
    fn removing_a_ball_keeps_the_other_strings_on_their_balls() {
        let mut w = empty();
        let ids: Vec<BallId> = (0..3)
            .map(|k| {
                let at = Vec2::new(100.0 * k as f32, 0.0);
                w.add_ball(Ball::new(at, Vec2::ZERO, 5.0, 1.0, 0))
            })
            .collect();
        for k in 0..3 {
            assert!(w.tether(k, Vec2::new(100.0 * k as f32, 100.0), None));
        }
        w.remove_ball(1);
        let balls: Vec<BallId> = w.rules().tethers.iter().map(|t| t.ball).collect();
        assert_eq!(
            balls,
            vec![ids[0], ids[2]],
            "the same ids, nothing renumbered"
        );
        let i = w.ball_index(ids[2]).unwrap();
        assert_eq!((i, w.balls()[i].pos.x), (1, 200.0));
        assert_eq!(w.rules().tethers[1].anchor, Vec2::new(200.0, 100.0));
        assert!(w.ball(ids[1]).is_err(), "the removed ball's id is stale");
        assert_eq!(w.remove_ball_id(ids[1]), Err(StaleBall(ids[1])));
    }

    #[test]
    fn a_saved_state_names_strung_balls_by_place_and_restores_them() {
        let mut w = empty();
        for k in 0..3 {
            let at = Vec2::new(100.0 * k as f32, 0.0);
            w.add_ball(Ball::new(at, Vec2::ZERO, 5.0, 1.0, 0));
            assert!(w.tether(k, at + Vec2::new(0.0, 100.0), None));
        }
        w.remove_ball(0);
        let state = w.save_state();
        let text = ron::to_string(&state).unwrap();
        let back: crate::world::WorldState = ron::from_str(&text).unwrap();
        let places: Vec<u32> = back.rules.tethers.iter().map(|t| t.ball.slot()).collect();
        assert_eq!(places, vec![0, 1]);
        let mut fresh = empty();
        fresh.restore_state(&back).unwrap();
        for (t, k) in fresh.rules().tethers.iter().zip([1.0f32, 2.0]) {
            assert_eq!(fresh.ball(t.ball).unwrap().pos.x, 100.0 * k);
        }
        assert_eq!(
            fresh.rules().tethers,
            w.rules().tethers,
            "the strings hold the ids they held"
        );
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
        let held = w.ball(w.rules().tethers[0].ball).unwrap();
        assert_eq!(
            held.pos.x, 100.0,
            "the string still holds its ball, now at index 0"
        );
        assert_eq!(w.rules().tethers.len(), 1);
    }
}
