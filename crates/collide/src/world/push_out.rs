//! The course's contact solver (Parberry, Collision Math Toy): move the balls, then for each
//! collision iteration ask the broad phase for candidate pairs and answer each pair in order
//! with the narrow phase and the push-out response ([`crate::response`]); in the discrete
//! mode the obstacles get the last word in one more pass.

use super::body::{BallIx, Body, ShapeIx};
use super::{Tally, World};
use crate::geom::clamp_speed;
use crate::geom::Geometry;
use crate::narrow::{contact_ball_ball, contact_ball_obstacle, keep_side, GroupTests};
use crate::response::respond_ball_ball;
use crate::response::{record, Hit, HitWith};
use crate::rules::Moment;
use crate::tunnel::Tunnelling;

impl World {
    /// The course's step: move, then the collision iterations of push-out responses, then
    /// the wall pass (discrete) or the settling of overlaps (swept modes).
    pub(super) fn push_out_step(&mut self, dt: f32, tally: &mut Tally) {
        self.move_balls(dt);
        self.rules_at(Moment::Moved);
        for _ in 0..self.settings.collision_iterations.clamp(1, 64) {
            if !self.collide_once(tally) {
                break;
            }
        }
        self.end_sweep();
        if self.settings.tunnelling == Tunnelling::Off {
            self.walls_last(tally);
        } else {
            self.settle_overlaps(tally);
        }
    }

    /// One collision iteration; false when a swept iteration changed no path (nothing left
    /// to do this step).
    fn collide_once(&mut self, tally: &mut Tally) -> bool {
        self.collide_once_broad(tally);
        if self.settings.tunnelling != Tunnelling::Off {
            return self.sweep_pairs(tally);
        }
        for k in 0..self.bodies.len() {
            let p = self.bodies[k];
            tally.full_tests += 1;
            tally.impact_tests += 1;
            let hit = match p.other {
                Body::Shape(s) => self.collide_ball_shape(p.ball, s, tally),
                Body::Ball(o) => self.collide_ball_ball(p.ball, o),
            };
            tally.collisions += hit as u64;
        }
        true
    }

    /// The broad phase of a collision iteration: the balls' boxes (paths, in the swept
    /// modes), candidate pairs into `self.pairs`, counted and timed; verified when asked.
    /// False when there are no balls.
    fn collide_once_broad(&mut self, tally: &mut Tally) -> bool {
        self.aabbs.truncate(self.shapes.len());
        self.push_ball_boxes();
        self.find_pairs_of_boxes(true, tally);
        tally.iterations += 1;
        !self.balls.is_empty()
    }

    /// Discrete mode: the obstacles get the last word. After the collision iterations, one
    /// more broad-phase call finds the balls touching obstacles where the balls are now, and
    /// those pairs are tested once more, so a ball that the crowd's push-outs carried into a
    /// wall in the last iteration ends the step outside it (on the side it started the step
    /// on, see [`keep_side`]). Its broad-phase work and tests are counted like an iteration's.
    fn walls_last(&mut self, tally: &mut Tally) {
        let mut pass = Tally::default();
        if !self.collide_once_broad(&mut pass) {
            return;
        }
        for k in 0..self.bodies.len() {
            let p = self.bodies[k];
            let Some(s) = p.shape() else {
                break;
            };
            pass.full_tests += 1;
            let hit = self.collide_ball_shape(p.ball, s, &mut pass);
            tally.collisions += hit as u64;
        }
        tally.wall_pass += pass.broad;
        tally.wall_pass_tests += pass.full_tests;
        tally.add_cache(&pass);
        tally.missed += pass.missed;
        tally.extra += pass.extra;
    }

    fn collide_ball_shape(&mut self, bi: BallIx, si: ShapeIx, tally: &mut Tally) -> bool {
        let (bi, si) = (bi.ix(), si.ix());
        let start = self.sweep_start(bi);
        let (shape, ball) = (&self.shapes[si], &self.balls[bi]);
        // The gate judges the ball's speed relative to the gate's own motion.
        let v = ball.vel - shape.velocity_at(ball.pos, self.settings.rotate);
        let mut tests = GroupTests::default();
        let found =
            contact_ball_obstacle((ball.pos, ball.radius, v), shape, &self.groups, &mut tests);
        tally.add_group(tests);
        let Some((mut c, e)) = found else {
            return false;
        };
        // A wall keeps a ball on the side it started the step on (a crowd's push-outs can
        // carry a centre over a wall between two tests).
        if let (Geometry::Segment { a, b }, false) = (shape.geom, shape.is_kinematic()) {
            c = keep_side(c, ball.radius, start, ball.pos, a, b);
        }
        self.answer_shape_contact(bi, si, &c, e);
        true
    }

    fn collide_ball_ball(&mut self, bi: BallIx, bj: BallIx) -> bool {
        let (bi, bj) = (bi.ix(), bj.ix());
        let (a, b) = (&self.balls[bi], &self.balls[bj]);
        // Normal from the higher-indexed ball to the lower one.
        let Some(c) = contact_ball_ball(a.pos, a.radius, b.pos, b.radius) else {
            return false;
        };
        self.wake_pair(bi, bj);
        let (lo, hi) = self.balls.split_at_mut(bj);
        let (a, b) = (&mut lo[bi], &mut hi[0]);
        let e = a.elasticity * b.elasticity * self.settings.elasticity_scale;
        let speed = respond_ball_ball(a, b, &c, e);
        a.vel = clamp_speed(a.vel);
        b.vel = clamp_speed(b.vel);
        let with = (bi as u32, HitWith::Ball(bj as u32));
        record(
            &mut self.hits,
            Hit::new((c.point, c.normal), speed, e, with, self.steps),
        );
        true
    }
}
