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

use super::body::{BallIx, Body, BodyPair, ShapeIx};
use super::context::{Frame, StepContext};
use super::narrow_stage::{
    impact_balls, impact_geometry, impact_obstacle, unit_or, Contact, GroupTests, Impact, SweptBall,
};
use super::Ball;
use crate::balls::Removed;
use crate::geom::{Aabb, Geometry};
use crate::response::{answer_ball_ball, answer_ball_obstacle, ContactWith, Struck};
use crate::tunnel::Tunnelling;
use glam::Vec2;

/// One answered impact of the last step, for drawing swept paths.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweptImpact {
    /// The ball.
    pub ball: u32,
    /// Its centre when it hit (px).
    pub centre: Vec2,
    /// The contact point found (px).
    pub point: Vec2,
}

/// Per-ball state of the swept iterations, kept between steps to avoid allocating.
#[derive(Clone, Debug, Default)]
pub(super) struct SweepStage {
    from: Vec<Vec2>,
    rest: Vec<f32>,
    changed: Vec<bool>,
    best: Vec<Option<Best>>,
    impacts: Vec<SweptImpact>,
}

/// A ball's earliest impact so far in this iteration.
#[derive(Clone, Copy, Debug)]
struct Best {
    /// Seconds of the step left at the impact (larger is earlier).
    left: f32,
    with: Body,
    impact: Impact,
    /// Elasticity of the shape (a group's member) hit.
    elasticity: f32,
}

impl SweepStage {
    /// The impacts answered in the last step, in order.
    pub(super) fn impacts(&self) -> &[SweptImpact] {
        &self.impacts
    }

    /// Applies the remap of a removal: the gone ball's impacts go, the later balls' move
    /// down one.
    pub(super) fn ball_left(&mut self, gone: &Removed) {
        self.impacts
            .retain_mut(|h| match gone.moved(h.ball as usize) {
                Some(b) => {
                    h.ball = b as u32;
                    true
                }
                None => false,
            });
    }

    /// Starts the step's paths where the ball table says each ball `starts` it.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
    pub(super) fn begin(&mut self, starts: &[Vec2], dt: f32) {
        let n = starts.len();
        self.impacts.clear();
        self.from.clear();
        self.from.extend_from_slice(starts);
        self.rest.clear();
        self.rest.resize(n, dt);
        self.changed.clear();
        self.changed.resize(n, false);
    }

    /// Ball `i`'s box for the broad phase: the ball itself when Off, else its path's box.
    pub(super) fn ball_box(&self, mode: Tunnelling, i: usize, b: &Ball) -> Aabb {
        if mode == Tunnelling::Off {
            return b.aabb();
        }
        let f = self.from.get(i).copied().unwrap_or(b.pos);
        Aabb::new(f, b.pos).expanded(b.radius)
    }

    /// Leaves a ball whose last path went unchecked at its last impact.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
    pub(super) fn end(&mut self, balls: &mut [Ball], mode: Tunnelling) {
        if mode == Tunnelling::Off {
            return;
        }
        for (b, ball) in balls.iter_mut().enumerate() {
            if self.changed.get(b) == Some(&true) {
                ball.pos = self.from[b];
            }
        }
    }

    /// One swept collision iteration over the pairs `bodies`: see [`Sweep::pairs`].
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
    pub(super) fn iterate(
        &mut self,
        w: &mut Frame,
        bodies: &[BodyPair],
        cx: &mut StepContext,
    ) -> bool {
        Sweep { st: self, w, cx }.pairs(bodies)
    }
}

/// A swept iteration's view: the stage's state, the world, the step's context.
struct Sweep<'a, 'w> {
    st: &'a mut SweepStage,
    w: &'a mut Frame<'w>,
    cx: &'a mut StepContext,
}

impl Sweep<'_, '_> {
    /// Swept tests of the candidate pairs, then the earliest impact of each ball answered.
    /// True when some ball's path changed.
    fn pairs(&mut self, bodies: &[BodyPair]) -> bool {
        self.st.best.clear();
        self.st.best.resize(self.w.balls.len(), None);
        self.st.changed.fill(false);
        for p in bodies {
            self.cx.tally.full_tests += 1;
            match p.other {
                Body::Shape(s) => self.sweep_ball_shape(p.ball.ix(), s),
                Body::Ball(o) => self.sweep_ball_ball(p.ball.ix(), o.ix()),
            }
        }
        let mut any = false;
        for b in 0..self.w.balls.len() {
            let answered = self.answer_earliest(b);
            self.cx.tally.collisions += answered as u64;
            any |= answered;
        }
        any
    }

    fn sweep_ball_shape(&mut self, bi: usize, si: ShapeIx) {
        let (ball, shape) = (self.w.balls[bi], &self.w.shapes[si.ix()]);
        let (from, rest) = (self.st.from[bi], self.st.rest[bi]);
        let u = shape.velocity_at(from, self.cx.settings.rotate);
        // Relative motion: the shape held still, the ball moving by the difference.
        let path = SweptBall {
            start: from,
            radius: ball.radius,
            moved: ball.pos - from - u * rest,
            vel: ball.vel - u,
        };
        let (mode, n) = (
            self.cx.settings.tunnelling,
            self.cx.settings.linear_fractions,
        );
        let mut tests = GroupTests::default();
        let mut members = 0;
        let groups = self.w.groups;
        let found = impact_obstacle(mode, n, path, shape, groups, &mut tests, &mut members);
        self.cx.tally.add_group(tests);
        self.cx.tally.impact_tests += members;
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
    fn sweep_ball_ball(&mut self, i: usize, j: usize) {
        let w = self.st.rest[i].min(self.st.rest[j]);
        let (bi, bj) = (self.w.balls[i], self.w.balls[j]);
        let (ci, cj) = (self.at_left(i, w), self.at_left(j, w));
        let (di, dj) = (bi.pos - ci, bj.pos - cj);
        let mode = self.cx.settings.tunnelling;
        let found = if mode == Tunnelling::Exact {
            self.cx.tally.impact_tests += 1;
            impact_balls(ci, bi.radius, di, cj, bj.radius, dj)
        } else {
            // Ball j held still at its window start, ball i moving by the difference.
            let still = Geometry::Circle {
                c: cj,
                r: bj.radius,
            };
            let path = SweptBall {
                start: ci,
                radius: bi.radius,
                moved: di - dj,
                vel: bi.vel - bj.vel,
            };
            let n = self.cx.settings.linear_fractions;
            impact_geometry(mode, n, path, &still, &mut self.cx.tally.impact_tests)
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
        let slot = &mut self.st.best[b];
        if slot.is_none_or(|s| best.left > s.left) {
            *slot = Some(best);
        }
    }

    /// Where ball `b` is on its path when `left` seconds of the step remain.
    fn at_left(&self, b: usize, left: f32) -> Vec2 {
        let (from, rest, to) = (self.st.from[b], self.st.rest[b], self.w.balls[b].pos);
        if rest > 0.0 {
            to - (to - from) * (left / rest).clamp(0.0, 1.0)
        } else {
            to
        }
    }

    /// Answers ball `b`'s earliest impact, if any; true when it did.
    fn answer_earliest(&mut self, b: usize) -> bool {
        let Some(best) = self.st.best[b] else {
            return false;
        };
        match best.with {
            Body::Shape(si) => {
                let from = self.st.from[b];
                let ball = &mut self.w.balls[b];
                ball.pos = from + (ball.pos - from) * best.impact.t;
                let at = ball.pos;
                let shape = &self.w.shapes[si.ix()];
                let contact = &best.impact.contact;
                let s = &self.cx.settings;
                let (scale, rotate) = (s.elasticity_scale, s.rotate);
                let e = best.elasticity;
                let (speed, e) = answer_ball_obstacle(ball, shape, contact, e, scale, rotate);
                let with = (b as u32, ContactWith::Shape(si.0));
                let hit = Struck::new(contact.point, contact.normal, speed, e, with.0, with.1);
                self.cx.record(hit);
                self.log_impact(b, at, best.impact.contact.point);
                self.go_on(b, best.left);
                true
            }
            Body::Ball(o) => {
                let o = o.ix();
                // Answered once, from the lower index, and only if it is `o`'s earliest too.
                let mutual = self.st.best[o]
                    .is_some_and(|x| x.with == Body::Ball(BallIx::of(b)) && x.left == best.left);
                if o < b || !mutual {
                    // Not answered here: the rest of b's path (a wall behind this ball, say)
                    // went unchecked, so it counts as unchecked until an iteration clears it.
                    self.st.changed[b] = true;
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
    /// ball through a wall, and a push left unchecked is undone by [`SweepStage::end`]).
    fn answer_balls(&mut self, i: usize, j: usize, best: Best) {
        let (pi, pj) = (self.at_left(i, best.left), self.at_left(j, best.left));
        let (lo, hi) = self.w.balls.split_at_mut(j);
        let (a, b) = (&mut lo[i], &mut hi[0]);
        (a.pos, b.pos) = (pi, pj);
        let normal = unit_or(pi - pj, best.impact.contact.normal);
        let contact = Contact {
            point: pj + normal * b.radius,
            normal,
            depth: (a.radius + b.radius - (pi - pj).length()).max(0.0),
        };
        let e = a.elasticity * b.elasticity * self.cx.settings.elasticity_scale;
        let speed = answer_ball_ball(a, b, &contact, e);
        let with = (i as u32, ContactWith::Ball(j as u32));
        let hit = Struck::new(contact.point, contact.normal, speed, e, with.0, with.1);
        self.cx.record(hit);
        self.log_impact(i, pi, contact.point);
        self.log_impact(j, pj, contact.point);
        self.go_on(i, best.left);
        self.go_on(j, best.left);
        self.st.from[i] = pi;
        self.st.from[j] = pj;
    }

    fn log_impact(&mut self, b: usize, centre: Vec2, point: Vec2) {
        let ball = b as u32;
        self.st.impacts.push(SweptImpact {
            ball,
            centre,
            point,
        });
    }

    /// Sends ball `b` on from where it is, with its velocity, for the `left` seconds remaining.
    fn go_on(&mut self, b: usize, left: f32) {
        let ball = &mut self.w.balls[b];
        self.st.from[b] = ball.pos;
        self.st.rest[b] = left;
        ball.pos += ball.vel * left;
        self.st.changed[b] = true;
    }
}
