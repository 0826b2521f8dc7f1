//! The saved forms of a ball and an obstacle ([`SavedBall`], [`SavedShape`]): what a saved
//! state has always written for each, gathered from where the world now keeps it. A ball's
//! rest is the sleep stage's (kept beside the ball in the world's ball table), a shape's worth
//! and light the pinball rules' ([`ShapePlay`], by shape index); a file names them on the
//! ball and the shape, as it did when they were fields of both, so states saved before load
//! as they are and states saved now read the same.

use crate::balls::Rest;
use crate::geom::{Ball, Geometry, Motion, Shape};
use crate::rules::ShapePlay;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A ball as a saved state writes it: the body, then its rest (asleep, still time, group).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedBall {
    /// Centre (px).
    pub pos: Vec2,
    /// Velocity (px/s).
    pub vel: Vec2,
    /// Radius (px).
    pub radius: f32,
    /// Mass, `radius²`.
    pub mass: f32,
    /// Elasticity of the ball.
    pub elasticity: f32,
    /// Colour index.
    pub color: u32,
    /// Asleep (the sleep stage's).
    #[serde(default)]
    pub asleep: bool,
    /// Seconds the ball has been slower than the sleep speed (the sleep stage's).
    #[serde(default)]
    pub slow_for: f32,
    /// The group it fell asleep with (the sleep stage's).
    #[serde(default)]
    pub sleep_group: u32,
    /// Angular velocity (rad/s, counter-clockwise).
    #[serde(default)]
    pub spin: f32,
}

impl SavedBall {
    /// The saved form of `b` resting as `rest`.
    pub(crate) fn of(b: &Ball, rest: &Rest) -> Self {
        Self {
            pos: b.pos,
            vel: b.vel,
            radius: b.radius,
            mass: b.mass,
            elasticity: b.elasticity,
            color: b.color,
            asleep: rest.asleep,
            slow_for: rest.slow_for,
            sleep_group: rest.group,
            spin: b.spin,
        }
    }

    /// The ball and its rest.
    pub(crate) fn parts(&self) -> (Ball, Rest) {
        let ball = Ball {
            pos: self.pos,
            vel: self.vel,
            radius: self.radius,
            mass: self.mass,
            elasticity: self.elasticity,
            color: self.color,
            spin: self.spin,
        };
        let rest = Rest {
            asleep: self.asleep,
            slow_for: self.slow_for,
            group: self.sleep_group,
        };
        (ball, rest)
    }
}

/// An obstacle as a saved state writes it: the shape, and under `play` its worth and light in
/// a game with a flipper's spin and a plunger's pull.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedShape {
    /// Current geometry.
    pub geom: Geometry,
    /// Geometry at angle 0.
    pub base: Geometry,
    /// Coefficient of restitution.
    pub elasticity: f32,
    /// Static or kinematic.
    pub motion: Motion,
    /// Current rotation angle about the pivot (rad).
    pub angle: f32,
    /// For a guard point: the index of the shape it guards.
    pub guard_of: Option<u32>,
    /// Its worth and light (the pinball rules') and its spin and pull (the shape's).
    #[serde(default)]
    pub(crate) play: SavedPlay,
}

/// The `play` of a [`SavedShape`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct SavedPlay {
    /// Points a hit scores.
    pub points: u32,
    /// Least speed a hit sends the ball away with (px/s).
    pub kick: f32,
    /// Its target's number.
    pub target: Option<u32>,
    /// A target hit and not yet reset.
    pub lit: bool,
    /// A flipper's angular velocity over the last step (rad/s).
    pub spin: f32,
    /// How far a plunger is pulled back (px).
    pub pull: f32,
    /// The rate the pull changed at over the last step (px/s).
    pub pull_rate: f32,
}

impl SavedShape {
    /// The saved form of shape `s`, worth `p` in a game.
    pub(crate) fn of(s: &Shape, p: ShapePlay) -> Self {
        Self {
            geom: s.geom,
            base: s.base,
            elasticity: s.elasticity,
            motion: s.motion,
            angle: s.angle,
            guard_of: s.guard_of,
            play: SavedPlay {
                points: p.points,
                kick: p.kick,
                target: p.target,
                lit: p.lit,
                spin: s.spin,
                pull: s.pull,
                pull_rate: s.pull_rate,
            },
        }
    }

    /// The shape and its worth in a game.
    pub(crate) fn parts(&self) -> (Shape, ShapePlay) {
        let mut shape = Shape::new(self.base, self.elasticity, self.motion);
        shape.geom = self.geom;
        shape.angle = self.angle;
        shape.guard_of = self.guard_of;
        let p = &self.play;
        (shape.spin, shape.pull, shape.pull_rate) = (p.spin, p.pull, p.pull_rate);
        let play = ShapePlay {
            points: p.points,
            kick: p.kick,
            target: p.target,
            lit: p.lit,
        };
        (shape, play)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ball_saved_with_its_rest_on_it_reads_back_into_both() {
        let text = "(pos: (1.0, 2.0), vel: (3.0, 4.0), radius: 5.0, mass: 25.0, elasticity: 0.9, \
                    color: 7, asleep: true, slow_for: 0.5, sleep_group: 3, spin: 0.25)";
        let saved: SavedBall = ron::from_str(text).expect("the form files have always written");
        let (ball, rest) = saved.parts();
        assert_eq!(
            (ball.pos, ball.vel, ball.spin),
            (Vec2::new(1.0, 2.0), Vec2::new(3.0, 4.0), 0.25)
        );
        assert_eq!(
            rest,
            Rest {
                asleep: true,
                slow_for: 0.5,
                group: 3
            }
        );
        assert_eq!(SavedBall::of(&ball, &rest), saved);
        // Written before sleep existed: awake.
        let old = "(pos: (1.0, 2.0), vel: (0.0, 0.0), radius: 5.0, mass: 25.0, elasticity: 0.9, color: 7)";
        let (_, rest) = ron::from_str::<SavedBall>(old).expect("reads").parts();
        assert_eq!(rest, Rest::default());
    }

    #[test]
    fn a_shape_saved_with_its_play_on_it_reads_back_into_the_shape_and_the_rules() {
        let text = "(geom: Point(p: (1.0, 2.0)), base: Point(p: (1.0, 2.0)), elasticity: 0.5, \
                    motion: Static, angle: 0.0, guard_of: Some(4), play: (points: 100, kick: 0.0, \
                    target: Some(2), lit: true, spin: 0.0, pull: 3.0, pull_rate: -1.0))";
        let saved: SavedShape = ron::from_str(text).expect("the form files have always written");
        let (shape, play) = saved.parts();
        assert_eq!(
            (shape.guard_of, shape.pull, shape.pull_rate),
            (Some(4), 3.0, -1.0)
        );
        let worth = ShapePlay {
            points: 100,
            kick: 0.0,
            target: Some(2),
            lit: true,
        };
        assert_eq!(play, worth);
        assert_eq!(SavedShape::of(&shape, play), saved);
        // Written before games existed: worth nothing.
        let old = "(geom: Point(p: (1.0, 2.0)), base: Point(p: (1.0, 2.0)), elasticity: 0.5, \
                   motion: Static, angle: 0.0, guard_of: None)";
        let (_, play) = ron::from_str::<SavedShape>(old).expect("reads").parts();
        assert_eq!(play, ShapePlay::default());
    }
}
