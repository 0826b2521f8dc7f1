//! Finding the soft contacts: each of the step's pairs tested once in the narrow phase with
//! the ball grown by its speculative reach (what the pair can close this step, plus a margin),
//! so a contact may have a positive separation; a sleeper touched wakes. Each contact carries
//! what the solver needs and never recomputes: normal, point, separation, masses, lever arms,
//! friction, elasticity, approach speed. Cost: one narrow test per pair.

use super::lanes::SPECULATIVE_RADII;
use crate::balls::BallSet;
use crate::geom::{Ball, Group, Shape};
use crate::narrow::{contact_ball_ball, contact_ball_obstacle_fine, Contact, GroupTests};
use crate::world::body::{BallIx, Body, BodyPair, ShapeIx};
use crate::world::contacts::SoftContact;
use crate::world::context::StepContext;
use crate::world::settings::SoftSettings;
use crate::world::sleepers::Wakes;
use glam::Vec2;

/// One sub-step's view of the world: the balls and obstacles, the step's pairs, where the
/// balls began the step, the wakes, and the step's context.
pub(super) struct Finder<'a> {
    pub(super) balls: &'a mut BallSet,
    pub(super) shapes: &'a [Shape],
    pub(super) groups: &'a [Group],
    pub(super) bodies: &'a [BodyPair],
    pub(super) wakes: &'a mut Wakes,
    pub(super) cx: &'a mut StepContext,
}

impl Finder<'_> {
    /// The contacts of the step's pairs, woken sleepers included, into `contacts`.
    pub(super) fn soft_contacts(
        &mut self,
        contacts: &mut Vec<SoftContact>,
        at: (f32, &SoftSettings),
    ) {
        contacts.clear();
        for k in 0..self.bodies.len() {
            let p = self.bodies[k];
            self.cx.tally.full_tests += 1;
            self.cx.tally.impact_tests += 1;
            let c = match p.other {
                Body::Shape(s) => self.soft_contact_shape(p.ball, s, at),
                Body::Ball(o) => self.soft_contact_balls(p.ball, o, at),
            };
            contacts.extend(c);
        }
    }

    /// The speculative reach of a pair: what the two can close this step, plus a margin.
    fn reach(&self, closing: f32, r: f32, dt: f32) -> f32 {
        closing * dt + r * SPECULATIVE_RADII
    }

    /// Whether contact `c`, found with a longer reach, is within the reach of a step of
    /// `dt` s (what the pair can close in it, plus the margin).
    pub(super) fn within_reach(&self, c: &SoftContact, dt: f32) -> bool {
        let a = &self.balls[c.ball.ix()];
        let (closing, r) = match c.other {
            Body::Ball(o) => {
                let b = &self.balls[o.ix()];
                ((a.vel - b.vel).length(), a.radius.min(b.radius))
            }
            Body::Shape(s) => {
                let v = self.shapes[s.ix()].velocity_at(a.pos, self.cx.settings.rotate);
                ((a.vel - v).length(), a.radius)
            }
        };
        c.sep < self.reach(closing, r, dt)
    }

    fn soft_contact_balls(
        &mut self,
        bi: BallIx,
        bj: BallIx,
        (dt, soft): (f32, &SoftSettings),
    ) -> Option<SoftContact> {
        let (a, b) = (self.balls[bi.ix()], self.balls[bj.ix()]);
        let reach = self.reach((a.vel - b.vel).length(), a.radius.min(b.radius), dt);
        let c = contact_ball_ball(a.pos, a.radius + reach, b.pos, b.radius)?;
        self.wakes
            .wake_pair(self.balls.with_rests().1, bi.ix(), bj.ix());
        let e = a.elasticity * b.elasticity * self.cx.settings.elasticity_scale;
        let approach = (a.vel - b.vel).dot(c.normal);
        Some(new_contact(
            (bi, Body::Ball(bj)),
            (&c, reach - c.depth, approach),
            (&a, Some(&b)),
            (e, soft),
            Vec2::ZERO,
        ))
    }

    fn soft_contact_shape(
        &mut self,
        bi: BallIx,
        si: ShapeIx,
        (dt, soft): (f32, &SoftSettings),
    ) -> Option<SoftContact> {
        let ball = self.balls[bi.ix()];
        let shape = self.shapes[si.ix()];
        let rotating = self.cx.settings.rotate;
        let surface_at_ball = shape.velocity_at(ball.pos, rotating);
        let reach = self.reach((ball.vel - surface_at_ball).length(), ball.radius, dt);
        let (c, shape_e) = self.reached_contact(bi.ix(), si.ix(), ball.radius + reach)?;
        let surface = shape.velocity_at(c.point, rotating);
        let approach = (ball.vel - surface).dot(c.normal);
        let e = ball.elasticity * shape_e * self.cx.settings.elasticity_scale;
        Some(new_contact(
            (bi, Body::Shape(si)),
            (&c, reach - c.depth, approach),
            (&ball, None),
            (e, soft),
            surface,
        ))
    }

    /// The contact of ball `bi`, grown to radius `r`, with obstacle `si` (a group's deepest
    /// member, hull first), and the elasticity of what it touches. Flat faces are measured in
    /// f64: far from the ends of a long wall the f32 distance rounds by 1e-4 px, a phantom gap
    /// the speculative contact would close, creeping a slow ball into the wall.
    fn reached_contact(&mut self, bi: usize, si: usize, r: f32) -> Option<(Contact, f32)> {
        let ball = &self.balls[bi];
        let shape = &self.shapes[si];
        let v = ball.vel - shape.velocity_at(ball.pos, self.cx.settings.rotate);
        let mut tests = GroupTests::default();
        let found = contact_ball_obstacle_fine((ball.pos, r, v), shape, self.groups, &mut tests);
        self.cx.tally.add_group(tests);
        found
    }
}

/// A contact of ball `a` (`ids.0`) with ball `b` or an obstacle (`None`), `ids.1` being
/// the other.
pub(super) fn new_contact(
    ids: (BallIx, Body),
    (c, sep, approach): (&Contact, f32, f32),
    (a, b): (&Ball, Option<&Ball>),
    (e, soft): (f32, &SoftSettings),
    surface: Vec2,
) -> SoftContact {
    let inertia = |b: &Ball| 1.0 / (0.5 * b.mass * b.radius * b.radius).max(1e-12);
    let (inv_a, ra, inv_ia) = (1.0 / a.mass, a.radius, inertia(a));
    let (inv_b, rb, inv_ib) = b.map_or((0.0, 0.0, 0.0), |b| (1.0 / b.mass, b.radius, inertia(b)));
    let k_t = inv_a + inv_b + ra * ra * inv_ia + rb * rb * inv_ib;
    SoftContact {
        ball: ids.0,
        other: ids.1,
        normal: c.normal,
        point: c.point,
        sep,
        mass: 1.0 / (inv_a + inv_b),
        inv_a,
        inv_b,
        ra,
        rb,
        inv_ia,
        inv_ib,
        tangent_mass: 1.0 / k_t,
        rolling_mass: 1.0 / (inv_ia + inv_ib),
        mu: soft.friction,
        rolling_reach: soft.rolling * if rb > 0.0 { ra.min(rb) } else { ra },
        approach,
        e,
        surface,
    }
}
