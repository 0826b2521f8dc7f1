//! The course's contact solver (Parberry, Collision Math Toy): move the balls, then for each
//! collision iteration answer the candidate pairs in order with the narrow phase and the
//! push-out response ([`crate::response`]); in the discrete mode the obstacles get the last
//! word in one more pass. `step()` runs the iterations and the broad phase; this file answers
//! one call's pairs. The push-out keeps no state between steps.

use super::body::{BallIx, Body, BodyPair, ShapeIx};
use super::context::{Frame, StepContext};
use super::narrow_stage::{ball_ball, ball_obstacle, kept_side, Disc, GroupTests, NarrowStage};
use super::Tally;
use crate::balls::{BallSet, Columns, Rest, Wakes};
use crate::geom::{clamp_speed, Ball, Geometry, Group, Shape};
use crate::response::{answer_ball_ball, answer_ball_obstacle, ContactWith, Struck};
use glam::Vec2;

/// The push-out's move: gravity, then semi-implicit Euler, for the awake balls.
#[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
pub(super) fn move_balls(balls: &mut BallSet, cx: &StepContext) {
    let g = Vec2::new(0.0, -cx.settings.gravity);
    let (balls, rests) = balls.with_rests();
    for (b, _) in balls.iter_mut().zip(rests).filter(|(_, r)| !r.asleep) {
        b.vel = clamp_speed(b.vel + g * cx.dt);
        b.pos += b.vel * cx.dt;
    }
}

/// One discrete collision iteration: each pair of `bodies` tested and answered in order,
/// each contact answered added to the contact list (`narrow`, as this iteration's); a wall keeps a ball on the
/// side it began the step on (the ball table's start), sleepers touched wake through the
/// ball table.
#[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
pub(super) fn iterate(
    w: &mut Frame,
    bodies: &[BodyPair],
    narrow: &mut NarrowStage,
    cx: &mut StepContext,
) {
    let mut a = Answer::of(w, narrow, cx);
    for p in bodies {
        a.cx.tally.full_tests += 1;
        a.cx.tally.impact_tests += 1;
        let hit = match p.other {
            Body::Shape(s) => {
                let mut tests = GroupTests::default();
                let hit = a.ball_shape(p.ball, s, &mut tests);
                a.cx.tally.add_group(tests);
                hit
            }
            Body::Ball(o) => a.ball_ball(p.ball, o),
        };
        a.cx.tally.collisions += hit as u64;
    }
}

/// Discrete mode: the obstacles get the last word. After the collision iterations, one
/// more broad-phase call (its work in `pass`) finds the balls touching obstacles where the
/// balls are now, and those pairs (`bodies`) are tested once more, so a ball that the crowd's
/// push-outs carried into a wall in the last iteration ends the step outside it (on the side
/// it started the step on, see [`kept_side`]); their contacts follow the iterations' in the
/// contact list, numbered after the last. Its broad-phase work and tests are counted like an iteration's,
/// apart; with no ball there is nothing to count.
#[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
pub(super) fn walls_last(
    w: &mut Frame,
    bodies: &[BodyPair],
    narrow: &mut NarrowStage,
    mut pass: Tally,
    cx: &mut StepContext,
) {
    if w.balls.is_empty() {
        return;
    }
    let mut tests = GroupTests::default();
    narrow.begin_iteration(cx.iterations());
    let mut a = Answer::of(w, narrow, cx);
    for p in bodies {
        let Some(s) = p.shape() else {
            break;
        };
        pass.full_tests += 1;
        let hit = a.ball_shape(p.ball, s, &mut tests);
        a.cx.tally.collisions += hit as u64;
    }
    let tally = &mut cx.tally;
    tally.wall_pass += pass.broad;
    tally.wall_pass_tests += pass.full_tests;
    tally.add_cache(&pass);
    tally.missed += pass.missed;
    tally.extra += pass.extra;
}

/// What answering one pair reads and writes: the balls, where they began the step and their
/// rests with the wakes, the obstacles, the contact list and the step's context.
struct Answer<'a, 'w> {
    balls: &'w mut [Ball],
    starts: &'w [Vec2],
    /// The rests, given while someone sleeps (nobody falls asleep here).
    rests: Option<&'w mut [Rest]>,
    wakes: &'w mut Wakes,
    shapes: &'w [Shape],
    groups: &'w [Group],
    narrow: &'a mut NarrowStage,
    cx: &'a mut StepContext,
}

impl<'a, 'w> Answer<'a, 'w> {
    /// Answers pairs of the world `w` into the contact list `narrow` in the step `cx`.
    fn of(w: &'w mut Frame<'_>, narrow: &'a mut NarrowStage, cx: &'a mut StepContext) -> Self {
        let Columns {
            balls,
            rests,
            starts,
            wakes,
        } = w.balls.columns_mut();
        Self {
            balls,
            starts,
            rests: rests.iter().any(|r| r.asleep).then_some(rests),
            wakes,
            shapes: w.shapes,
            groups: w.groups,
            narrow,
            cx,
        }
    }

    /// Tests ball `bi` against obstacle `si` and answers a contact; true when they touched.
    fn ball_shape(&mut self, bi: BallIx, si: ShapeIx, tests: &mut GroupTests) -> bool {
        let (shape, ball) = (&self.shapes[si.ix()], &mut self.balls[bi.ix()]);
        let start = self.starts.get(bi.ix()).copied().unwrap_or(ball.pos);
        let rotate = self.cx.settings.rotate;
        // The gate judges the ball's speed relative to the gate's own motion.
        let disc = Disc {
            centre: ball.pos,
            radius: ball.radius,
            vel: ball.vel - shape.velocity_at(ball.pos, rotate),
        };
        let Some((mut c, shape_e)) = ball_obstacle(disc, shape, self.groups, tests) else {
            return false;
        };
        // A wall keeps a ball on the side it started the step on (a crowd's push-outs can
        // carry a centre over a wall between two tests).
        if let (Geometry::Segment { a, b }, false) = (shape.geom, shape.is_kinematic()) {
            c = kept_side(c, ball.radius, start, ball.pos, a, b);
        }
        let scale = self.cx.settings.elasticity_scale;
        let (speed, e) = answer_ball_obstacle(ball, shape, &c, shape_e, scale, rotate);
        let with = ContactWith::Shape(si.0);
        self.narrow.add(bi.0, with, &c);
        let cx = &mut *self.cx;
        cx.record(Struck::new(c.point, c.normal, speed, e, bi.0, with));
        true
    }

    /// Tests balls `bi` and `bj` and answers a contact, waking a sleeper touched; true when
    /// they touched.
    fn ball_ball(&mut self, bi: BallIx, bj: BallIx) -> bool {
        let (i, j) = (bi.ix(), bj.ix());
        let (a, b) = (&self.balls[i], &self.balls[j]);
        // Normal from the higher-indexed ball to the lower one.
        let Some(c) = ball_ball(a.pos, a.radius, b.pos, b.radius) else {
            return false;
        };
        if let Some(rests) = self.rests.as_deref_mut() {
            self.wakes.wake_pair(rests, i, j);
        }
        let (lo, hi) = self.balls.split_at_mut(j);
        let (a, b) = (&mut lo[i], &mut hi[0]);
        let e = a.elasticity * b.elasticity * self.cx.settings.elasticity_scale;
        let speed = answer_ball_ball(a, b, &c, e);
        let with = ContactWith::Ball(bj.0);
        self.narrow.add(bi.0, with, &c);
        let cx = &mut *self.cx;
        cx.record(Struck::new(c.point, c.normal, speed, e, bi.0, with));
        true
    }
}
