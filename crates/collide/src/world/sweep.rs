//! The swept collision iteration of the tunnelling modes (see [`crate::tunnel`]).
//!
//! Each ball's path still to be checked this step runs from `from` (where `rest` seconds of
//! the step remain) to its current position. One iteration: the broad phase gets the boxes of
//! these paths; every candidate pair runs the mode's swept test, and each ball keeps its
//! earliest impact (the one leaving the most time). Then each ball with an impact is put where
//! it hit, answered, and sent on with its new velocity for the time left; that new path is
//! checked by the next iteration. Ball–ball impacts use relative motion over the time both
//! paths share and are answered only when each ball is the other's earliest impact.
//!
//! Invariant kept at the end of the step: a ball whose last path was never checked (the
//! iterations ran out) is left at its last impact, so a ball never ends a step beyond a shape
//! it was not tested against. A path whose earliest impact was with a ball that had an
//! earlier one of its own was not checked past that impact either (a wall behind the ball
//! may lie on it), so it counts as unchecked too. Kinematic shapes are held still during a
//! step; the ball moves relative to the surface under it.

use super::body::{BallIx, Body, ShapeIx};
use super::step::{Best, SweptImpact};
use super::{Ball, Tally, World};
use crate::geom::clamp_speed;
use crate::geom::{Aabb, Geometry};
use crate::narrow::{impact_ball_obstacle, normalized_or, toi_ball_ball, Contact, GroupTests};
use crate::response::respond_ball_ball;
use crate::response::{record, Hit, HitWith};
use crate::tunnel::{impact_ball_shape, Tunnelling};
use glam::Vec2;

impl World {
    /// Each ball's position at the start of the last step (in every mode).
    pub fn step_starts(&self) -> &[Vec2] {
        &self.sweep.starts
    }

    /// Where ball `b` started this step (its position now if it was added during the step).
    pub(super) fn sweep_start(&self, b: usize) -> Vec2 {
        self.sweep
            .starts
            .get(b)
            .copied()
            .unwrap_or(self.balls[b].pos)
    }

    /// The impacts answered in the last step, in order (swept modes only).
    pub fn step_impacts(&self) -> &[SweptImpact] {
        &self.sweep.impacts
    }

    /// Records where each ball starts the step, before it moves.
    pub(super) fn begin_sweep(&mut self, dt: f32) {
        let s = &mut self.sweep;
        let n = self.balls.len();
        s.starts.clear();
        s.starts.extend(self.balls.iter().map(|b| b.pos));
        s.impacts.clear();
        s.from.clear();
        s.from.extend_from_slice(&s.starts);
        s.rest.clear();
        s.rest.resize(n, dt);
        s.changed.clear();
        s.changed.resize(n, false);
    }

    /// The balls' boxes for the broad phase: the ball itself when Off, else its path's box.
    pub(super) fn push_ball_boxes(&mut self) {
        if self.settings.tunnelling == Tunnelling::Off {
            self.aabbs.extend(self.balls.iter().map(Ball::aabb));
            return;
        }
        let from = &self.sweep.from;
        self.aabbs
            .extend(self.balls.iter().enumerate().map(|(i, b)| {
                let f = from.get(i).copied().unwrap_or(b.pos);
                Aabb::new(f, b.pos).expanded(b.radius)
            }));
    }

    /// Leaves a ball whose last path went unchecked at its last impact.
    pub(super) fn end_sweep(&mut self) {
        if self.settings.tunnelling == Tunnelling::Off {
            return;
        }
        for (b, ball) in self.balls.iter_mut().enumerate() {
            if self.sweep.changed.get(b) == Some(&true) {
                ball.pos = self.sweep.from[b];
            }
        }
    }

    /// Swept tests of the candidate pairs, then the earliest impact of each ball answered.
    /// True when some ball's path changed.
    pub(super) fn sweep_pairs(&mut self, tally: &mut Tally) -> bool {
        self.sweep.best.clear();
        self.sweep.best.resize(self.balls.len(), None);
        self.sweep.changed.fill(false);
        for k in 0..self.bodies.len() {
            let p = self.bodies[k];
            tally.full_tests += 1;
            match p.other {
                Body::Shape(s) => self.sweep_ball_shape(p.ball.ix(), s, tally),
                Body::Ball(o) => self.sweep_ball_ball(p.ball.ix(), o.ix(), tally),
            }
        }
        let mut any = false;
        for b in 0..self.balls.len() {
            let answered = self.answer_earliest(b);
            tally.collisions += answered as u64;
            any |= answered;
        }
        any
    }

    fn sweep_ball_shape(&mut self, bi: usize, si: ShapeIx, tally: &mut Tally) {
        let (ball, shape) = (self.balls[bi], &self.shapes[si.ix()]);
        let (from, rest) = (self.sweep.from[bi], self.sweep.rest[bi]);
        let u = shape.velocity_at(from, self.settings.rotate);
        // Relative motion: the shape held still, the ball moving by the difference.
        let path = (from, ball.radius, ball.pos - from - u * rest, ball.vel - u);
        let (mode, n) = (self.settings.tunnelling, self.settings.linear_fractions);
        let mut tests = GroupTests::default();
        let mut members = 0;
        let impact = |g: &Geometry| impact_ball_shape(mode, n, path, g, &mut members);
        let (c, r, d, _) = path;
        let found = impact_ball_obstacle((c, r, d), shape, &self.groups, &mut tests, impact);
        tally.add_group(tests);
        tally.impact_tests += members;
        if let Some((impact, elasticity)) = found {
            let left = rest * (1.0 - impact.t);
            let with = Body::Shape(si);
            self.offer(
                bi,
                Best {
                    left,
                    with,
                    impact,
                    elasticity,
                },
            );
        }
    }

    /// Ball against ball over the time both paths share, by relative motion.
    fn sweep_ball_ball(&mut self, i: usize, j: usize, tally: &mut Tally) {
        let w = self.sweep.rest[i].min(self.sweep.rest[j]);
        let (bi, bj) = (self.balls[i], self.balls[j]);
        let (ci, cj) = (self.at_left(i, w), self.at_left(j, w));
        let (di, dj) = (bi.pos - ci, bj.pos - cj);
        let mode = self.settings.tunnelling;
        let found = if mode == Tunnelling::Exact {
            tally.impact_tests += 1;
            toi_ball_ball(ci, bi.radius, di, cj, bj.radius, dj)
        } else {
            // Ball j held still at its window start, ball i moving by the difference.
            let still = Geometry::Circle {
                c: cj,
                r: bj.radius,
            };
            let path = (ci, bi.radius, di - dj, bi.vel - bj.vel);
            let n = self.settings.linear_fractions;
            impact_ball_shape(mode, n, path, &still, &mut tally.impact_tests)
        };
        if let Some(impact) = found {
            let left = w * (1.0 - impact.t);
            for (me, other) in [(i, j), (j, i)] {
                let with = Body::Ball(BallIx::of(other));
                self.offer(
                    me,
                    Best {
                        left,
                        with,
                        impact,
                        elasticity: 1.0,
                    },
                );
            }
        }
    }

    /// Keeps `best` for ball `b` if it is earlier than what it has.
    fn offer(&mut self, b: usize, best: Best) {
        let slot = &mut self.sweep.best[b];
        if slot.is_none_or(|s| best.left > s.left) {
            *slot = Some(best);
        }
    }

    /// Where ball `b` is on its path when `left` seconds of the step remain.
    fn at_left(&self, b: usize, left: f32) -> Vec2 {
        let (from, rest, to) = (self.sweep.from[b], self.sweep.rest[b], self.balls[b].pos);
        if rest > 0.0 {
            to - (to - from) * (left / rest).clamp(0.0, 1.0)
        } else {
            to
        }
    }

    /// Answers ball `b`'s earliest impact, if any; true when it did.
    fn answer_earliest(&mut self, b: usize) -> bool {
        let Some(best) = self.sweep.best[b] else {
            return false;
        };
        match best.with {
            Body::Shape(si) => {
                let from = self.sweep.from[b];
                let ball = &mut self.balls[b];
                ball.pos = from + (ball.pos - from) * best.impact.t;
                let at = ball.pos;
                self.answer_shape_contact(b, si.ix(), &best.impact.contact, best.elasticity);
                self.log_impact(b, at, best.impact.contact.point);
                self.go_on(b, best.left);
                true
            }
            Body::Ball(o) => {
                let o = o.ix();
                // Answered once, from the lower index, and only if it is `o`'s earliest too.
                let mutual = self.sweep.best[o]
                    .is_some_and(|x| x.with == Body::Ball(BallIx::of(b)) && x.left == best.left);
                if o < b || !mutual {
                    // Not answered here: the rest of b's path (a wall behind this ball, say)
                    // went unchecked, so it counts as unchecked until an iteration clears it.
                    self.sweep.changed[b] = true;
                    return false;
                }
                self.answer_balls(b, o, best);
                true
            }
        }
    }

    /// Puts balls `i < j` where they meet and answers their impact. Pushing overlapping balls
    /// apart is a move like any other: each ball's next path runs from where they met through
    /// the push, so the next iteration tests the push against the walls (a crowd cannot push a
    /// ball through a wall, and a push left unchecked is undone by [`World::end_sweep`]).
    fn answer_balls(&mut self, i: usize, j: usize, best: Best) {
        let (pi, pj) = (self.at_left(i, best.left), self.at_left(j, best.left));
        let (lo, hi) = self.balls.split_at_mut(j);
        let (a, b) = (&mut lo[i], &mut hi[0]);
        (a.pos, b.pos) = (pi, pj);
        let normal = normalized_or(pi - pj, best.impact.contact.normal);
        let contact = Contact {
            point: pj + normal * b.radius,
            normal,
            depth: (a.radius + b.radius - (pi - pj).length()).max(0.0),
        };
        let e = a.elasticity * b.elasticity * self.settings.elasticity_scale;
        let speed = respond_ball_ball(a, b, &contact, e);
        a.vel = clamp_speed(a.vel);
        b.vel = clamp_speed(b.vel);
        let with = (i as u32, HitWith::Ball(j as u32));
        let hit = Hit::new((contact.point, contact.normal), speed, e, with, self.steps);
        record(&mut self.hits, hit);
        self.log_impact(i, pi, contact.point);
        self.log_impact(j, pj, contact.point);
        self.go_on(i, best.left);
        self.go_on(j, best.left);
        self.sweep.from[i] = pi;
        self.sweep.from[j] = pj;
    }

    fn log_impact(&mut self, b: usize, centre: Vec2, point: Vec2) {
        let ball = b as u32;
        self.sweep.impacts.push(SweptImpact {
            ball,
            centre,
            point,
        });
    }

    /// Sends ball `b` on from where it is, with its velocity, for the `left` seconds remaining.
    fn go_on(&mut self, b: usize, left: f32) {
        let ball = &mut self.balls[b];
        self.sweep.from[b] = ball.pos;
        self.sweep.rest[b] = left;
        ball.pos += ball.vel * left;
        self.sweep.changed[b] = true;
    }
}
