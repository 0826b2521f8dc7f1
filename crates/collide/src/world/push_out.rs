//! The course's contact solver (Parberry, Collision Math Toy): move the balls, then for each
//! collision iteration answer the candidate pairs in order with the narrow phase and the
//! push-out response ([`crate::response`]); in the discrete mode the obstacles get the last
//! word in one more pass. `step()` runs the iterations and the broad phase; this file answers
//! one call's pairs. The push-out keeps no state between steps.

use super::body::{BallIx, Body, BodyPair, ShapeIx};
use super::context::{Frame, StepContext};
use super::sleepers::Wakes;
use super::Tally;
use crate::balls::{BallSet, Columns, Rest};
use crate::geom::{clamp_speed, Ball, Geometry, Group, Shape};
use crate::narrow::{contact_ball_ball, contact_ball_obstacle, keep_side, GroupTests};
use crate::response::{answer_ball_ball, answer_ball_obstacle, Hit, HitWith};
use glam::Vec2;

/// The push-out's move: gravity, then semi-implicit Euler, for the awake balls.
pub(super) fn move_balls(balls: &mut BallSet, cx: &StepContext) {
    let g = Vec2::new(0.0, -cx.settings.gravity);
    let (balls, rests) = balls.with_rests();
    for (b, _) in balls.iter_mut().zip(rests).filter(|(_, r)| !r.asleep) {
        b.vel = clamp_speed(b.vel + g * cx.dt);
        b.pos += b.vel * cx.dt;
    }
}

/// One discrete collision iteration: each pair of `bodies` tested and answered in order;
/// `starts` are where the balls began the step (a wall keeps a ball on that side), sleepers
/// touched wake through `wakes`.
pub(super) fn iterate(w: &mut Frame, bodies: &[BodyPair], wakes: &mut Wakes, cx: &mut StepContext) {
    let obstacles = (w.shapes, w.groups);
    let Columns {
        balls,
        rests,
        starts,
    } = w.balls.columns_mut();
    // The rests are read only while someone sleeps (nobody falls asleep here).
    let mut rests = rests.iter().any(|r| r.asleep).then_some(rests);
    for p in bodies {
        cx.tally.full_tests += 1;
        cx.tally.impact_tests += 1;
        let hit = match p.other {
            Body::Shape(s) => {
                let mut tests = GroupTests::default();
                let at = (p.ball, s);
                let hit = collide_ball_shape((balls, obstacles), at, starts, &mut tests, cx);
                cx.tally.add_group(tests);
                hit
            }
            Body::Ball(o) => {
                collide_ball_ball((balls, rests.as_deref_mut()), (p.ball, o), wakes, cx)
            }
        };
        cx.tally.collisions += hit as u64;
    }
}

/// Discrete mode: the obstacles get the last word. After the collision iterations, one
/// more broad-phase call (its work in `pass`) finds the balls touching obstacles where the
/// balls are now, and those pairs (`bodies`) are tested once more, so a ball that the crowd's
/// push-outs carried into a wall in the last iteration ends the step outside it (on the side
/// it started the step on, see [`keep_side`]). Its broad-phase work and tests are counted
/// like an iteration's, apart; with no ball there is nothing to count.
pub(super) fn walls_last(
    w: &mut Frame,
    bodies: &[BodyPair],
    mut pass: Tally,
    cx: &mut StepContext,
) {
    if w.balls.is_empty() {
        return;
    }
    let mut tests = GroupTests::default();
    let obstacles = (w.shapes, w.groups);
    let Columns { balls, starts, .. } = w.balls.columns_mut();
    for p in bodies {
        let Some(s) = p.shape() else {
            break;
        };
        pass.full_tests += 1;
        let hit = collide_ball_shape((balls, obstacles), (p.ball, s), starts, &mut tests, cx);
        cx.tally.collisions += hit as u64;
    }
    let tally = &mut cx.tally;
    tally.wall_pass += pass.broad;
    tally.wall_pass_tests += pass.full_tests;
    tally.add_cache(&pass);
    tally.missed += pass.missed;
    tally.extra += pass.extra;
}

fn collide_ball_shape(
    (balls, (shapes, groups)): (&mut [Ball], (&[Shape], &[Group])),
    (bi, si): (BallIx, ShapeIx),
    starts: &[Vec2],
    tests: &mut GroupTests,
    cx: &mut StepContext,
) -> bool {
    let (shape, ball) = (&shapes[si.ix()], &mut balls[bi.ix()]);
    let start = starts.get(bi.ix()).copied().unwrap_or(ball.pos);
    // The gate judges the ball's speed relative to the gate's own motion.
    let v = ball.vel - shape.velocity_at(ball.pos, cx.settings.rotate);
    let found = contact_ball_obstacle((ball.pos, ball.radius, v), shape, groups, tests);
    let Some((mut c, shape_e)) = found else {
        return false;
    };
    // A wall keeps a ball on the side it started the step on (a crowd's push-outs can
    // carry a centre over a wall between two tests).
    if let (Geometry::Segment { a, b }, false) = (shape.geom, shape.is_kinematic()) {
        c = keep_side(c, ball.radius, start, ball.pos, a, b);
    }
    let how = (cx.settings.elasticity_scale, cx.settings.rotate);
    let (speed, e) = answer_ball_obstacle(ball, shape, &c, shape_e, how);
    let with = (bi.0, HitWith::Shape(si.0));
    cx.record(Hit::new((c.point, c.normal), speed, e, with, cx.step));
    true
}

fn collide_ball_ball(
    (balls, rests): (&mut [Ball], Option<&mut [Rest]>),
    (bi, bj): (BallIx, BallIx),
    wakes: &mut Wakes,
    cx: &mut StepContext,
) -> bool {
    let (i, j) = (bi.ix(), bj.ix());
    let (a, b) = (&balls[i], &balls[j]);
    // Normal from the higher-indexed ball to the lower one.
    let Some(c) = contact_ball_ball(a.pos, a.radius, b.pos, b.radius) else {
        return false;
    };
    if let Some(rests) = rests {
        wakes.wake_pair(rests, i, j);
    }
    let (lo, hi) = balls.split_at_mut(j);
    let (a, b) = (&mut lo[i], &mut hi[0]);
    let e = a.elasticity * b.elasticity * cx.settings.elasticity_scale;
    let speed = answer_ball_ball(a, b, &c, e);
    let with = (bi.0, HitWith::Ball(bj.0));
    cx.record(Hit::new((c.point, c.normal), speed, e, with, cx.step));
    true
}
