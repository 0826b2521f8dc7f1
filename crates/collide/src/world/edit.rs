//! Editing the world by hand between steps: picking a ball at a point, moving or throwing
//! it, launching a ball from anywhere. The app turns mouse gestures into these calls, applied
//! between frames, so a run stays deterministic given the same calls in the same order.

use super::{BallId, World};
use crate::geom::{clamp_speed, Ball};
use glam::Vec2;
use rand::Rng;

impl World {
    /// The ball under point `p` (px), by id: the one whose centre is nearest among those
    /// within `radius + slop` of `p` (slop in px helps pick small balls); on a tie the later
    /// one, which is drawn on top.
    pub fn ball_at(&self, p: Vec2, slop: f32) -> Option<BallId> {
        self.place_at(p, slop).and_then(|i| self.balls.id(i))
    }

    /// [`World::ball_at`] by place in [`World::balls`].
    fn place_at(&self, p: Vec2, slop: f32) -> Option<usize> {
        let mut best: Option<(usize, f32)> = None;
        for (i, b) in self.balls.iter().enumerate() {
            let reach = b.radius + slop.max(0.0);
            let d2 = (b.pos - p).length_squared();
            // Early out: outside the ball's reach (squared distances, no root).
            if d2 > reach * reach {
                continue;
            }
            if best.is_none_or(|(_, bd2)| d2 <= bd2) {
                best = Some((i, d2));
            }
        }
        best.map(|(i, _)| i)
    }

    /// Puts ball `i` at `pos` (px) with velocity `vel` (px/s, clamped to the speed limit);
    /// false if there is no ball `i` or a value is not finite.
    pub(crate) fn set_ball_motion(&mut self, i: usize, pos: Vec2, vel: Vec2) -> bool {
        let Some(b) = self.balls.get_mut(i) else {
            return false;
        };
        if !pos.is_finite() || !vel.is_finite() {
            return false;
        }
        let was = (b.pos, b.radius);
        b.pos = pos;
        b.vel = clamp_speed(vel);
        // A hand wakes the ball and the sleepers it leaves or reaches.
        self.balls.wake_ball(i);
        self.balls.wake_near(was.0, was.1, was.1);
        self.balls.wake_near(pos, was.1, was.1);
        // A hand moved a ball: no impact is measured across the move.
        self.rules.scene.transfer.forget();
        true
    }

    /// Launches a ball now at `pos` (px) with velocity `vel` (px/s): radius and elasticity
    /// from the settings, colour from the seeded generator; counts as launched. Returns its
    /// index.
    pub(crate) fn launch_at(&mut self, pos: Vec2, vel: Vec2) -> usize {
        let r = self.settings.ball_radius.max(0.0);
        let color = self.rng.gen::<u32>();
        let e = self.settings.ball_elasticity;
        self.balls
            .push(Ball::new(pos, clamp_speed(vel), r, e, color));
        self.counters.launched += 1;
        self.balls.len() - 1
    }

    /// The energy and momentum of the balls, with the potential measured from the bottom of
    /// the play area at the current gravity.
    pub fn energy(&self) -> crate::energy::Energy {
        crate::energy::Energy::of(&self.balls, self.settings.gravity, self.bounds.min.y)
    }
}

#[cfg(test)]
mod tests {
    use crate::world::{Ball, World};
    use glam::Vec2;

    fn empty() -> World {
        crate::world::step::empty_world(7)
    }

    #[test]
    fn ball_at_picks_the_nearest_ball_within_reach() {
        let mut w = empty();
        let a = w.add_ball(Ball::new(Vec2::new(100.0, 100.0), Vec2::ZERO, 10.0, 1.0, 0));
        let b = w.add_ball(Ball::new(Vec2::new(115.0, 100.0), Vec2::ZERO, 10.0, 1.0, 0));
        assert_eq!(w.ball_at(Vec2::new(104.0, 100.0), 0.0), Some(a));
        assert_eq!(w.ball_at(Vec2::new(112.0, 100.0), 0.0), Some(b));
        assert_eq!(w.ball_at(Vec2::new(100.0, 112.0), 0.0), None);
        assert_eq!(w.ball_at(Vec2::new(100.0, 112.0), 3.0), Some(a));
    }

    #[test]
    fn ball_at_prefers_the_later_ball_on_a_tie() {
        let mut w = empty();
        let p = Vec2::new(50.0, 50.0);
        w.add_ball(Ball::new(p, Vec2::ZERO, 5.0, 1.0, 0));
        let later = w.add_ball(Ball::new(p, Vec2::ZERO, 5.0, 1.0, 0));
        assert_eq!(w.ball_at(p, 0.0), Some(later));
    }

    #[test]
    fn set_ball_motion_moves_only_existing_balls_with_finite_values() {
        let mut w = empty();
        w.add_ball(Ball::new(Vec2::ZERO, Vec2::ZERO, 5.0, 1.0, 0));
        assert!(w.set_ball_motion(0, Vec2::new(3.0, 4.0), Vec2::new(-1.0, 2.0)));
        assert_eq!(w.balls()[0].pos, Vec2::new(3.0, 4.0));
        assert_eq!(w.balls()[0].vel, Vec2::new(-1.0, 2.0));
        assert!(!w.set_ball_motion(1, Vec2::ZERO, Vec2::ZERO));
        assert!(!w.set_ball_motion(0, Vec2::NAN, Vec2::ZERO));
        assert_eq!(w.balls()[0].pos, Vec2::new(3.0, 4.0));
    }

    #[test]
    fn launch_at_is_deterministic_for_a_seed() {
        let (mut a, mut b) = (empty(), empty());
        for w in [&mut a, &mut b] {
            w.launch_at(Vec2::new(500.0, 500.0), Vec2::new(300.0, 100.0));
            w.launch_at(Vec2::new(400.0, 600.0), Vec2::new(-200.0, 0.0));
            for _ in 0..120 {
                w.step();
            }
        }
        assert_eq!(a.state_hash(), b.state_hash());
        assert_eq!(a.balls()[1].color, b.balls()[1].color);
        assert_eq!(a.counters().launched, 2);
    }
}
