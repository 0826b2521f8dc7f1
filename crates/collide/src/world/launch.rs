//! The launch stage: where new balls enter and how many wait. Each step launches the next
//! waiting ball once the launch point is clear of every ball.

use super::context::{StepContext, WorldRng};
use super::counters::Counters;
use crate::balls::BallSet;
use crate::geom::angle;
use crate::geom::Ball;
use glam::Vec2;
use rand::Rng;

/// Where new balls enter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Launcher {
    /// Start point of a launched ball (px).
    pub pos: Vec2,
    /// Unit launch direction.
    pub dir: Vec2,
}

/// The launcher and the balls waiting for it.
#[derive(Clone, Debug)]
pub(super) struct LaunchStage {
    pub(super) launcher: Launcher,
    /// Balls waiting to be launched.
    pub(super) pending: u32,
}

impl Default for LaunchStage {
    fn default() -> Self {
        Self::new(Launcher {
            pos: Vec2::ZERO,
            dir: Vec2::Y,
        })
    }
}

impl LaunchStage {
    /// No ball waiting at `launcher`.
    pub(super) fn new(launcher: Launcher) -> Self {
        Self {
            launcher,
            pending: 0,
        }
    }

    /// Launches the next waiting ball if the launch point is clear: radius, speed and
    /// elasticity from the step's settings, a little spread and the colour from `rng`.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
    pub(super) fn run(
        &mut self,
        balls: &mut BallSet,
        rng: &mut WorldRng,
        cx: &StepContext,
        counters: &mut Counters,
    ) {
        let settings = &cx.settings;
        if self.pending == 0 {
            return;
        }
        let r = settings.ball_radius.max(0.0);
        let at = self.launcher.pos;
        let clear = balls
            .iter()
            .all(|b| (b.pos - at).length_squared() >= (b.radius + r) * (b.radius + r));
        if !clear {
            return;
        }
        // A little spread so that balls launched together do not retrace one path.
        let speed = settings.launch_speed * rng.gen_range(0.97..=1.03);
        let dir = self
            .launcher
            .dir
            .rotate(angle::from_angle(rng.gen_range(-0.01..=0.01)));
        let color = rng.gen::<u32>();
        let ball = Ball::new(at, dir * speed, r, settings.ball_elasticity, color);
        balls.push(ball);
        self.pending -= 1;
        counters.launched += 1;
    }
}
