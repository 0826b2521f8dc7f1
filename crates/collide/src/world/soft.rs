//! Soft contacts: the second contact solver, sequential impulses with soft constraints, the
//! method of Box2D v3's "soft step" (Catto, "Solver2D", 2024), written for this world.
//!
//! One world step is one sub-step. It applies gravity to the velocities, finds the contacts
//! once (one broad-phase call with each ball's box grown along its motion, so contacts are
//! *speculative*: a pair closer than the distance it can close this step is a contact with a
//! positive separation `s`), and then:
//!
//! 1. **warm start**: each contact kept from the last step (matched by its pair) applies its
//!    accumulated normal impulse again;
//! 2. **solve** (`collision_iterations` passes): `Δλ = −m·k_m·(v_n + b) − k_i·λ`, `λ ≥ 0`, with
//!    the soft bias `b = max(β·s, −push_speed)` for an overlap, `b = s/h` for a gap;
//! 3. **integrate** the positions with the solved velocities;
//! 4. **relax** (as many passes): the same without the soft bias (`b = 0`, `k_m = 1`, `k_i = 0`
//!    for an overlap), removing the velocity the bias added so pushing out adds no energy;
//! 5. **restitution**: a contact that closed faster than the threshold speed and pushed gets
//!    `v_n = −e·v_n⁻` (its approach speed before the solve; `e > 1` for bumpers);
//! 6. in the swept tunnelling modes, a ball whose move still reaches an obstacle the
//!    contacts missed (a corner met at a glancing angle) stops at the time of impact found by
//!    the mode's search (Box2D's continuous step does the same for fast bodies).
//!
//! The soft constraint is a damped spring of `hertz` and damping ratio `ζ` solved implicitly:
//! with `ω = 2π·hertz`, `a₁ = 2ζ + hω`, `a₂ = hω·a₁`, `a₃ = 1/(1 + a₂)`: bias rate
//! `β = ω/a₁`, mass scale `k_m = a₂·a₃`, impulse scale `k_i = a₃`. At rest it holds a load
//! `W` with an overlap of `W/(m·ω²)`, so the stiffness sets how far a deep pile sinks.
//!
//! Obstacles have infinite mass; a kinematic shape's surface velocity at the contact enters
//! `v_n`. A gate lets a fast ball through as in the push-out (no contact). A group answers its
//! deepest member. Cost: one broad-phase call and one narrow test per pair per step, then
//! `O(contacts)` per pass.

use super::body::{BallIx, Body, BodyPair, ShapeIx};
use super::contacts::{Kept, SoftContact};
use super::context::{Frame, StepContext};
use super::settings::SoftSettings;
use super::sleepers::Wakes;
use crate::geom::{clamp_speed, Aabb, Ball, Group, Shape};
use crate::narrow::{contact_ball_ball, contact_ball_obstacle_fine, parts_of, Contact, GroupTests};
use crate::response::{Hit, HIT_SPEED};
use crate::tunnel::{impact_ball_shape, Tunnelling};
use glam::Vec2;

/// The soft constraint's coefficients for a sub-step of `h` seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Softness {
    bias_rate: f32,
    mass_scale: f32,
    impulse_scale: f32,
}

impl Softness {
    fn new(hertz: f32, zeta: f32, h: f32) -> Self {
        let omega = std::f32::consts::TAU * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

/// Extra reach of a speculative contact beyond the motion, as a fraction of the radius.
const SPECULATIVE_RADII: f32 = 0.1;

/// The soft solver's state: the step's contacts, and the impulses kept for the next step's
/// warm start.
#[derive(Clone, Debug, Default)]
pub(super) struct SoftStage {
    contacts: Vec<SoftContact>,
    /// Last step's impulses, in the order of their pairs ([`BodyPair::key`]).
    pub(super) kept: Vec<Kept>,
}

impl SoftStage {
    /// The last step's contacts, as solved.
    pub(super) fn contacts(&self) -> &[SoftContact] {
        &self.contacts
    }

    /// The velocity part of the move: gravity, for the awake balls.
    pub(super) fn accelerate(balls: &mut [Ball], cx: &StepContext) {
        let g = Vec2::new(0.0, -cx.settings.gravity);
        for b in balls.iter_mut().filter(|b| !b.asleep) {
            b.vel = clamp_speed(b.vel + g * cx.dt);
        }
    }

    /// A ball's box for the step's broad-phase call: grown along its motion this step and by
    /// the speculative reach.
    pub(super) fn ball_box(b: &Ball, dt: f32) -> Aabb {
        let r = b.radius.max(0.0);
        let reach = r + r * SPECULATIVE_RADII;
        Aabb::new(b.pos, b.pos + b.vel * dt).expanded(reach)
    }

    /// One sub-step with soft contacts over the step's pairs `bodies` (see the module
    /// notes), after [`SoftStage::accelerate`] and the broad phase; `starts` are where the
    /// balls began the step; sleepers touched wake through `wakes`.
    pub(super) fn solve(
        &mut self,
        w: &mut Frame,
        (bodies, starts): (&[BodyPair], &[Vec2]),
        wakes: &mut Wakes,
        cx: &mut StepContext,
    ) {
        let mut s = Solve {
            balls: &mut w.balls[..],
            shapes: w.shapes,
            groups: w.groups,
            bodies,
            starts,
            wakes,
            cx,
        };
        let st = self;
        let dt = s.cx.dt;
        let soft = s.cx.settings.soft.sanitized();
        s.soft_contacts(st, (dt, &soft));
        s.warm_start(st);
        let k = Softness::new(soft.hertz, soft.damping, dt);
        let iterations = s.cx.iterations();
        for _ in 0..iterations {
            s.solve_contacts(st, Some((k, soft.push_speed)), dt);
        }
        for b in s.balls.iter_mut().filter(|b| !b.asleep) {
            b.pos += b.vel * dt;
        }
        for _ in 0..iterations {
            s.solve_contacts(st, None, dt);
        }
        s.restitute(st, soft.restitution_speed, iterations);
        if s.cx.settings.tunnelling != Tunnelling::Off {
            s.soft_continuous();
        }
        st.kept.clear();
        st.kept.extend(st.contacts.iter().map(|c| Kept {
            pair: c.pair(),
            impulse: c.impulse,
            friction: c.friction_impulse,
            rolling: c.rolling_impulse,
        }));
        s.cx.tally.collisions += st.contacts.iter().filter(|c| c.max_push > 0.0).count() as u64;
    }
}

/// One sub-step's view of the world: the balls and obstacles, the step's pairs, where the
/// balls began the step, the wakes, and the step's context.
struct Solve<'a> {
    balls: &'a mut [Ball],
    shapes: &'a [Shape],
    groups: &'a [Group],
    bodies: &'a [BodyPair],
    starts: &'a [Vec2],
    wakes: &'a mut Wakes,
    cx: &'a mut StepContext,
}

impl Solve<'_> {
    /// Where ball `b` began the step.
    fn start(&self, b: usize) -> Vec2 {
        self.starts.get(b).copied().unwrap_or(self.balls[b].pos)
    }

    /// The contacts of the step's pairs, woken sleepers included.
    fn soft_contacts(&mut self, st: &mut SoftStage, at: (f32, &SoftSettings)) {
        st.contacts.clear();
        for k in 0..self.bodies.len() {
            let p = self.bodies[k];
            self.cx.tally.full_tests += 1;
            self.cx.tally.impact_tests += 1;
            let c = match p.other {
                Body::Shape(s) => self.soft_contact_shape(p.ball, s, at),
                Body::Ball(o) => self.soft_contact_balls(p.ball, o, at),
            };
            st.contacts.extend(c);
        }
    }

    /// The speculative reach of a pair: what the two can close this step, plus a margin.
    fn reach(&self, closing: f32, r: f32, dt: f32) -> f32 {
        closing * dt + r * SPECULATIVE_RADII
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
        self.wakes.wake_pair(self.balls, bi.ix(), bj.ix());
        let e = a.elasticity * b.elasticity * self.cx.settings.elasticity_scale;
        let approach = (a.vel - b.vel).dot(c.normal);
        Some(self.new_contact(
            (bi, Body::Ball(bj)),
            (&c, reach - c.depth, approach),
            (&a, Some(&b)),
            (e, soft),
            Vec2::ZERO,
        ))
    }

    /// A contact of ball `a` (`ids.0`) with ball `b` or an obstacle (`None`), `ids.1` being
    /// the other.
    fn new_contact(
        &self,
        ids: (BallIx, Body),
        (c, sep, approach): (&Contact, f32, f32),
        (a, b): (&super::Ball, Option<&super::Ball>),
        (e, soft): (f32, &SoftSettings),
        surface: Vec2,
    ) -> SoftContact {
        let inertia = |b: &super::Ball| 1.0 / (0.5 * b.mass * b.radius * b.radius).max(1e-12);
        let (inv_a, ra, inv_ia) = (1.0 / a.mass, a.radius, inertia(a));
        let (inv_b, rb, inv_ib) =
            b.map_or((0.0, 0.0, 0.0), |b| (1.0 / b.mass, b.radius, inertia(b)));
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
            impulse: 0.0,
            max_push: 0.0,
            friction_impulse: 0.0,
            rolling_impulse: 0.0,
            mu: soft.friction,
            rolling_reach: soft.rolling * if rb > 0.0 { ra.min(rb) } else { ra },
            approach,
            e,
            surface,
        }
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
        Some(self.new_contact(
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

    /// Applies last step's impulses to the contacts of the same pairs.
    fn warm_start(&mut self, st: &mut SoftStage) {
        let mut k = 0;
        for c in &mut st.contacts {
            let key = c.pair().key();
            while k < st.kept.len() && st.kept[k].pair.key() < key {
                k += 1;
            }
            if k < st.kept.len() && st.kept[k].pair.key() == key {
                c.impulse = st.kept[k].impulse;
                c.friction_impulse = st.kept[k].friction;
                c.rolling_impulse = st.kept[k].rolling;
                let p = c.normal * c.impulse;
                self.push_pair(c, p);
                self.push_tangent(c, c.friction_impulse);
                self.push_rolling(c, c.rolling_impulse);
            }
        }
    }

    /// Adds impulse `p` (along the normal, onto the ball) to both bodies of contact `c`.
    fn push_pair(&mut self, c: &SoftContact, p: Vec2) {
        self.balls[c.ball.ix()].vel += p * c.inv_a;
        if let Body::Ball(o) = c.other {
            self.balls[o.ix()].vel -= p * c.inv_b;
        }
    }

    /// Adds tangent impulse `l` (along `perp(n)`, onto the ball at its contact point).
    fn push_tangent(&mut self, c: &SoftContact, l: f32) {
        let p = c.normal.perp() * l;
        let a = &mut self.balls[c.ball.ix()];
        a.vel += p * c.inv_a;
        a.spin -= c.ra * l * c.inv_ia;
        if let Body::Ball(o) = c.other {
            let b = &mut self.balls[o.ix()];
            b.vel -= p * c.inv_b;
            b.spin -= c.rb * l * c.inv_ib;
        }
    }

    /// Adds angular impulse `l` against the ball's roll (the other ball gets the opposite).
    fn push_rolling(&mut self, c: &SoftContact, l: f32) {
        self.balls[c.ball.ix()].spin += l * c.inv_ia;
        if let Body::Ball(o) = c.other {
            self.balls[o.ix()].spin -= l * c.inv_ib;
        }
    }

    /// The relative tangent velocity at contact `c` (along `perp(n)`), spins included:
    /// the ball's contact point is at `−r_a·n`, the other ball's at `+r_b·n`.
    fn tangent_speed(&self, c: &SoftContact) -> f32 {
        let a = &self.balls[c.ball.ix()];
        let t = c.normal.perp();
        let (vb, wb) = match c.other {
            Body::Ball(o) => (self.balls[o.ix()].vel, self.balls[o.ix()].spin),
            Body::Shape(_) => (c.surface, 0.0),
        };
        (a.vel - vb).dot(t) - a.spin * c.ra - wb * c.rb
    }

    /// Friction and rolling resistance of contact `k`, bounded by its normal impulse.
    fn solve_friction(&mut self, st: &mut SoftStage, k: usize) {
        let c = st.contacts[k];
        let limit = c.mu * c.impulse;
        let vt = self.tangent_speed(&c);
        let new = (c.friction_impulse - c.tangent_mass * vt).clamp(-limit, limit);
        let dl = new - c.friction_impulse;
        st.contacts[k].friction_impulse = new;
        self.push_tangent(&c, dl);
        if c.rolling_reach <= 0.0 {
            return;
        }
        let wa = self.balls[c.ball.ix()].spin;
        let wb = match c.other {
            Body::Ball(o) => self.balls[o.ix()].spin,
            Body::Shape(_) => 0.0,
        };
        let limit = c.rolling_reach * c.impulse;
        let new = (c.rolling_impulse - c.rolling_mass * (wa - wb)).clamp(-limit, limit);
        let dl = new - c.rolling_impulse;
        st.contacts[k].rolling_impulse = new;
        self.push_rolling(&c, dl);
    }

    /// The relative normal velocity of contact `c` now.
    fn normal_speed(&self, c: &SoftContact) -> f32 {
        let other = match c.other {
            Body::Ball(o) => self.balls[o.ix()].vel,
            Body::Shape(_) => c.surface,
        };
        (self.balls[c.ball.ix()].vel - other).dot(c.normal)
    }

    /// The separation of contact `c` now: as found, plus the bodies' moves along the normal
    /// since (obstacles hold still within a step).
    fn separation(&self, c: &SoftContact) -> f32 {
        let moved = |b: usize| self.balls[b].pos - self.start(b);
        let mut d = moved(c.ball.ix());
        if let Body::Ball(o) = c.other {
            d -= moved(o.ix());
        }
        c.sep + d.dot(c.normal)
    }

    /// One pass over the contacts: with the soft bias `(softness, push speed)`, or the relax
    /// pass without it.
    fn solve_contacts(&mut self, st: &mut SoftStage, bias: Option<(Softness, f32)>, h: f32) {
        for k in 0..st.contacts.len() {
            let c = st.contacts[k];
            let s = self.separation(&c);
            let (b, mass_scale, impulse_scale) = match bias {
                // A gap: close it this step at most (speculative).
                _ if s > 0.0 => (s / h, 1.0, 0.0),
                Some((soft, push)) => (
                    (soft.bias_rate * s).max(-push),
                    soft.mass_scale,
                    soft.impulse_scale,
                ),
                None => (0.0, 1.0, 0.0),
            };
            let vn = self.normal_speed(&c);
            let d = -c.mass * mass_scale * (vn + b) - impulse_scale * c.impulse;
            let new = (c.impulse + d).max(0.0);
            let applied = new - c.impulse;
            let c = &mut st.contacts[k];
            c.impulse = new;
            c.max_push = c.max_push.max(applied);
            let c = *c;
            self.push_pair(&c, c.normal * applied);
            self.solve_friction(st, k);
        }
    }

    /// Restitution after the solve: contacts that closed faster than `threshold` and pushed
    /// leave at `e` times their approach speed; each answered one is recorded as a hit.
    ///
    /// `passes` passes, as the solve makes: two contacts of one ball at one place (an arc and
    /// the guard point at its end) with different normals each ask for their own rebound,
    /// and one pass gives the ball both, the second on top of the first, so it leaves faster
    /// than it came. Later passes take back the impulse a contact no longer needs (down to
    /// none), so the ball leaves as the contacts together allow.
    fn restitute(&mut self, st: &mut SoftStage, threshold: f32, passes: u32) {
        for pass in 0..passes {
            for k in 0..st.contacts.len() {
                let c = st.contacts[k];
                if c.approach > -threshold || c.max_push <= 0.0 {
                    continue;
                }
                let vn = self.normal_speed(&c);
                let d = -c.mass * (vn + c.e * c.approach);
                let new = (c.impulse + d).max(0.0);
                st.contacts[k].impulse = new;
                self.push_pair(&c, c.normal * (new - c.impulse));
                if pass == 0 {
                    self.record_soft_hit(&c);
                }
            }
        }
        for b in self.balls.iter_mut() {
            b.vel = clamp_speed(b.vel);
        }
    }

    fn record_soft_hit(&mut self, c: &SoftContact) {
        if -c.approach < HIT_SPEED {
            return;
        }
        let hit = Hit::new(
            (c.point, c.normal),
            -c.approach,
            c.e,
            (c.ball.0, c.other.into()),
            self.cx.step,
        );
        self.cx.record(hit);
    }

    /// The swept modes' guard: a ball whose move this step reaches an obstacle stops at the
    /// first impact the mode's search finds (its velocity is left to the next step's contact).
    fn soft_continuous(&mut self) {
        let mode = self.cx.settings.tunnelling;
        let fractions = self.cx.settings.linear_fractions.clamp(1, 64);
        for k in 0..self.bodies.len() {
            let p = self.bodies[k];
            let Some(si) = p.shape() else {
                break;
            };
            let bi = p.ball.ix();
            let start = self.start(bi);
            let ball = self.balls[bi];
            let d = ball.pos - start;
            // Moves shorter than the speculative reach are the contacts' business.
            if d.length_squared() <= (ball.radius * SPECULATIVE_RADII).powi(2) {
                continue;
            }
            let shape = &self.shapes[si.ix()];
            let v = ball.vel - shape.velocity_at(start, self.cx.settings.rotate);
            let tests = &mut self.cx.tally.impact_tests;
            let hit = parts_of(shape, self.groups)
                .iter()
                .filter_map(|m| {
                    impact_ball_shape(mode, fractions, (start, ball.radius, d, v), &m.geom, tests)
                })
                // Only a move into the surface deeper than the speculative reach: a ball
                // resting or sliding on a surface meets it at once, and is the contacts'.
                .filter(|i| {
                    i.contact.depth <= 0.0
                        && i.t < 1.0
                        && -d.dot(i.contact.normal) > ball.radius * SPECULATIVE_RADII
                })
                .min_by(|a, b| a.t.total_cmp(&b.t));
            if let Some(hit) = hit {
                self.balls[bi].pos = start + d * hit.t;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn softness_tends_to_rigid_as_stiffness_grows() {
        let k = Softness::new(1.0e6, 10.0, 1.0 / 240.0);
        assert!(k.mass_scale > 0.999 && k.impulse_scale < 1e-3);
        let k = Softness::new(30.0, 1.0, 1.0 / 240.0);
        assert!(k.mass_scale > 0.0 && k.mass_scale < 1.0);
        assert!((k.mass_scale + k.impulse_scale - 1.0).abs() < 1e-6);
    }
}
