//! Finding the soft contacts: each of the step's pairs tested once in the narrow phase with
//! the ball grown by its speculative reach (what the pair can close this step, plus a margin),
//! so a contact may have a positive separation. A sleeper wakes when the contact closes on it
//! faster than the sleep speed (a hit); an awake ball merely resting or rolling on it leaves
//! it asleep, and the contact holds the ball as on a wall: the sleeper's side has no inverse
//! mass, as a static body's in Box2D, so the solver never moves it. Each contact carries
//! what the solver needs and never recomputes: normal, point, separation, masses, lever arms,
//! friction, elasticity, approach speed. Cost: one narrow test per pair, the pairs shared by
//! the step's threads.

use super::kernel::Width;
use super::lanes::{BodyState, SPECULATIVE_RADII};
use crate::balls::{BallSet, Columns, Rest};
use crate::geom::{Ball, Group, Shape};
use crate::workers;
use crate::world::body::{runs_by_kind, BallIx, Body, BodyPair, ShapeIx};
use crate::world::contacts::SoftContact;
use crate::world::context::StepContext;
use crate::world::narrow_stage::{ball_ball, ball_obstacle_fine, Contact, Disc, GroupTests};
use glam::Vec2;

mod blocks;
mod width;
pub(super) use blocks::end_blocks_for;
use blocks::{push_within, Blocks};
pub(super) use width::FindWide;

/// One sub-step's view of the world: the balls and obstacles, the step's pairs, where the
/// balls began the step, and the step's context.
pub(super) struct Finder<'a> {
    pub(super) balls: &'a mut BallSet,
    pub(super) shapes: &'a [Shape],
    pub(super) groups: &'a [Group],
    pub(super) bodies: &'a [BodyPair],
    pub(super) cx: &'a mut StepContext,
}

/// Pairs below which the narrow phase keeps to one thread (starting a part costs more than
/// the tests it would share).
const PARALLEL_FROM: usize = 4096;

/// One thread's part of the narrow phase: its pairs' contacts (the first part's go straight
/// into the step's list), the ball pairs it found hitting a sleeper, and its groups' tests.
/// Kept by the stage, so a steady step allocates nothing.
#[derive(Clone, Debug, Default)]
pub(super) struct NarrowPart {
    contacts: Vec<SoftContact>,
    wakes: Vec<(BallIx, BallIx)>,
    tests: GroupTests,
}

/// What a pair's test reads: the balls, their rest, the obstacles and groups, and the
/// settings that enter a contact.
#[derive(Clone, Copy)]
struct Reads<'a> {
    balls: &'a [Ball],
    rests: &'a [Rest],
    shapes: &'a [Shape],
    groups: &'a [Group],
    rotate: bool,
    elasticity_scale: f32,
    /// A contact closing faster than this (px/s) on a sleeper wakes it: the sleep speed.
    wake_speed: f32,
}

impl Finder<'_> {
    /// The contacts of the step's pairs, woken sleepers included, into `contacts`, in pair
    /// order. The pairs are cut into runs (`parts`, a few a thread, `workers::parts`); each run's
    /// contacts follow the one before's, and the sleepers they hit are woken afterwards in
    /// the same order, so any thread count gives the one thread's list. Never inlined: the
    /// page's engine optimizes a step in pieces sooner (see `World::step`).
    #[inline(never)]
    pub(super) fn soft_contacts(
        &mut self,
        contacts: &mut Vec<SoftContact>,
        parts: &mut Vec<NarrowPart>,
        span: f32,
    ) {
        contacts.clear();
        let n = self.bodies.len();
        let threads = match n >= PARALLEL_FROM {
            true => workers::usable(self.cx.settings.threads),
            false => 1,
        };
        let cuts = workers::parts(threads);
        parts.resize_with(cuts, NarrowPart::default);
        for p in parts.iter_mut() {
            p.contacts.clear();
            p.wakes.clear();
            p.tests = GroupTests::default();
        }
        let reads = Reads {
            balls: self.balls,
            rests: self.balls.rests(),
            shapes: self.shapes,
            groups: self.groups,
            rotate: self.cx.settings.rotate,
            elasticity_scale: self.cx.settings.elasticity_scale,
            wake_speed: self.cx.settings.sleep.speed,
        };
        let (first, rest) = parts.split_at_mut(1);
        let first = &mut first[0];
        if threads == 1 {
            // Nothing to cut, nothing to allocate.
            let found = (&mut *contacts, &mut first.wakes, &mut first.tests);
            reads.contacts_of(self.bodies, span, found);
        } else {
            let run = |t: usize| &self.bodies[t * n / cuts..(t + 1) * n / cuts];
            let mut jobs = Vec::with_capacity(cuts);
            jobs.push((&mut *contacts, &mut first.wakes, &mut first.tests, run(0)));
            for (t, p) in rest.iter_mut().enumerate() {
                jobs.push((&mut p.contacts, &mut p.wakes, &mut p.tests, run(t + 1)));
            }
            workers::each(threads, &mut jobs, |_, (out, wakes, tests, pairs)| {
                reads.contacts_of(pairs, span, (out, wakes, tests));
            });
        }
        if threads > 1 {
            join_parts(contacts, &parts[1..], threads);
        }
        for p in parts.iter() {
            self.cx.tally.add_group(p.tests);
        }
        let Columns { rests, wakes, .. } = self.balls.columns_mut();
        let mut woke = false;
        for &(i, j) in parts.iter().flat_map(|p| &p.wakes) {
            wakes.wake_pair(rests, i.ix(), j.ix());
            woke = true;
        }
        if woke {
            woken_masses(contacts, self.balls);
        }
        self.cx.tally.full_tests += n as u64;
        self.cx.tally.impact_tests += n as u64;
    }

    /// Whether contact `c`, found with a longer reach, is within the reach of a step of
    /// `dt` s (what the pair can close in it, plus the margin).
    pub(super) fn within_reach(&self, c: &SoftContact, dt: f32) -> bool {
        let (closing, r) = self.relative_speed(c);
        c.sep < reach(closing, r, dt)
    }

    /// The speed (px/s) at which contact `c`'s two sides move relative to each other, and
    /// the smaller radius.
    pub(super) fn relative_speed(&self, c: &SoftContact) -> (f32, f32) {
        let a = &self.balls[c.ball.ix()];
        match c.other {
            Body::Ball(o) => {
                let b = &self.balls[o.ix()];
                ((a.vel - b.vel).length(), a.radius.min(b.radius))
            }
            Body::Shape(s) => {
                let v = self.shapes[s.ix()].velocity_at(a.pos, self.cx.settings.rotate);
                ((a.vel - v).length(), a.radius)
            }
        }
    }
}

/// Appends the contacts of `parts` to `contacts`, in order, each part copied on one of up
/// to `threads` threads (the list of 100-byte contacts is a megabyte or two in a pile).
fn join_parts(contacts: &mut Vec<SoftContact>, parts: &[NarrowPart], threads: usize) {
    let at = contacts.len();
    let more: usize = parts.iter().map(|p| p.contacts.len()).sum();
    contacts.reserve(more);
    let mut rest = &mut contacts.spare_capacity_mut()[..more];
    let mut copies = Vec::with_capacity(parts.len());
    for p in parts {
        let (to, tail) = std::mem::take(&mut rest).split_at_mut(p.contacts.len());
        copies.push((to, &p.contacts[..]));
        rest = tail;
    }
    workers::each(threads, &mut copies, |_, (to, from)| {
        for (t, c) in to.iter_mut().zip(from.iter()) {
            t.write(*c);
        }
    });
    // SAFETY: the `more` slots past `at` were each written above (the parts' lengths sum to
    // `more`, and every part's slots were written by the one job that copied it).
    unsafe { contacts.set_len(at + more) }
}

/// The speculative reach of a pair: what the two can close this step, plus a margin.
fn reach(closing: f32, r: f32, dt: f32) -> f32 {
    closing * dt + r * SPECULATIVE_RADII
}

/// Where a run of the narrow phase puts what it finds: contacts, ball pairs touching a
/// sleeper, group tests.
type Found<'a> = (
    &'a mut Vec<SoftContact>,
    &'a mut Vec<(BallIx, BallIx)>,
    &'a mut GroupTests,
);

impl Reads<'_> {
    /// The contacts of `pairs`, in their order, each run of one kind by a loop of its own
    /// ([`runs_by_kind`]).
    fn contacts_of(&self, pairs: &[BodyPair], span: f32, found: Found) {
        let (out, wakes, tests) = found;
        for (shapes, run) in runs_by_kind(pairs) {
            match shapes {
                true => self.shape_contacts(run, span, out, tests),
                false => self.ball_contacts(run, span, out, wakes),
            }
        }
    }

    /// The contacts of `pairs`, all of a ball with an obstacle, in their order.
    #[inline(never)]
    fn shape_contacts(
        &self,
        pairs: &[BodyPair],
        span: f32,
        out: &mut Vec<SoftContact>,
        tests: &mut GroupTests,
    ) {
        for p in pairs {
            if let Body::Shape(s) = p.other {
                out.extend(self.contact_shape(p.ball, s, span, tests));
            }
        }
    }

    /// The contacts of `pairs`, all of two balls, in their order; a pair that hits a sleeper
    /// goes to `wakes` (resting on it, rolling over it does not).
    #[inline(never)]
    fn ball_contacts(
        &self,
        pairs: &[BodyPair],
        span: f32,
        out: &mut Vec<SoftContact>,
        wakes: &mut Vec<(BallIx, BallIx)>,
    ) {
        self.ball_contacts_with(super::kernel::wide(), pairs, span, out, wakes);
    }

    /// [`Self::ball_contacts`] with the blocks of width `width`.
    #[inline(always)]
    fn ball_contacts_with(
        &self,
        width: Width,
        pairs: &[BodyPair],
        span: f32,
        out: &mut Vec<SoftContact>,
        wakes: &mut Vec<(BallIx, BallIx)>,
    ) {
        // Room for every pair's contact and wake first, so the loop holds no call (a push
        // that may grow the list is one): the browser's engine spilled the loop's values
        // around it at every pair.
        out.reserve(pairs.len());
        wakes.reserve(pairs.len());
        // Whole blocks of eight with the machine's vectors (`find/blocks.rs`), the rest here.
        let done = Blocks {
            balls: self.balls,
            rests: self.rests,
            elasticity_scale: self.elasticity_scale,
            span,
            out: &mut *out,
            wakes: &mut *wakes,
            scalar: &mut |i, j| self.contact_balls(i, j, span),
        }
        .widest_blocks(width, pairs);
        for p in &pairs[done..] {
            if let Body::Ball(o) = p.other {
                if let Some((c, hit)) = self.contact_balls(p.ball, o, span) {
                    push_within(out, c);
                    if hit {
                        push_within(wakes, (p.ball, o));
                    }
                }
            }
        }
    }

    /// The contact of balls `bi` and `bj`, if any, and whether it hits a sleeper (one of the
    /// two sleeps and it closes faster than the wake speed); a sleeper it does not hit keeps
    /// no inverse mass in it.
    fn contact_balls(&self, bi: BallIx, bj: BallIx, span: f32) -> Option<(SoftContact, bool)> {
        let dt = span;
        let (a, b) = (self.balls[bi.ix()], self.balls[bj.ix()]);
        let reach = reach((a.vel - b.vel).length(), a.radius.min(b.radius), dt);
        let c = ball_ball(a.pos, a.radius + reach, b.pos, b.radius)?;
        let e = a.elasticity * b.elasticity * self.elasticity_scale;
        let approach = (a.vel - b.vel).dot(c.normal);
        let asleep = (self.rests[bi.ix()].asleep, self.rests[bj.ix()].asleep);
        let hit = (asleep.0 || asleep.1) && approach < -self.wake_speed;
        let still = (asleep.0 && !hit, asleep.1 && !hit);
        let closing = Closing {
            a: Held::new(&a, still.0),
            approach,
            e,
        };
        let met = Reached::Ball(bj, Held::new(&b, still.1));
        let contact = new_contact(&Meeting::reached(bi, met, &c, reach, closing));
        Some((contact, hit))
    }

    fn contact_shape(
        &self,
        bi: BallIx,
        si: ShapeIx,
        span: f32,
        tests: &mut GroupTests,
    ) -> Option<SoftContact> {
        let dt = span;
        let ball = self.balls[bi.ix()];
        let shape = &self.shapes[si.ix()];
        let surface_at_ball = shape.velocity_at(ball.pos, self.rotate);
        let reach = reach((ball.vel - surface_at_ball).length(), ball.radius, dt);
        let (c, shape_e) = self.reached_contact(&ball, shape, ball.radius + reach, tests)?;
        let surface = shape.velocity_at(c.point, self.rotate);
        let approach = (ball.vel - surface).dot(c.normal);
        let e = ball.elasticity * shape_e * self.elasticity_scale;
        let closing = Closing {
            a: Held::new(&ball, false),
            approach,
            e,
        };
        let met = Reached::Obstacle(si, surface);
        Some(new_contact(&Meeting::reached(bi, met, &c, reach, closing)))
    }

    /// The contact of `ball`, grown to radius `r`, with obstacle `shape` (a group's deepest
    /// member, hull first), and the elasticity of what it touches. Flat faces are measured in
    /// f64: far from the ends of a long wall the f32 distance rounds by 1e-4 px, a phantom gap
    /// the speculative contact would close, creeping a slow ball into the wall.
    fn reached_contact(
        &self,
        ball: &Ball,
        shape: &Shape,
        r: f32,
        tests: &mut GroupTests,
    ) -> Option<(Contact, f32)> {
        let disc = Disc {
            centre: ball.pos,
            radius: r,
            vel: ball.vel - shape.velocity_at(ball.pos, self.rotate),
        };
        ball_obstacle_fine(disc, shape, self.groups, tests)
    }
}

/// A ball of a contact, with whether it sleeps (a sleeper's side has no inverse mass: the
/// solver holds the other ball on it and never moves it).
#[derive(Clone, Copy)]
pub(super) struct Held<'a> {
    pub ball: &'a Ball,
    pub asleep: bool,
}

impl<'a> Held<'a> {
    pub(super) fn new(ball: &'a Ball, asleep: bool) -> Self {
        Held { ball, asleep }
    }
}

/// What a soft contact is made from: ball `ball` met `other`, the narrow phase's `found`
/// contact at separation `sep` (px) closing at `approach` (px/s); its balls `a` and `b`
/// (`None` for an obstacle), restitution `e` and the surface's velocity there (px/s).
pub(super) struct Meeting<'a> {
    pub ball: BallIx,
    pub other: Body,
    pub found: &'a Contact,
    pub sep: f32,
    pub approach: f32,
    pub a: Held<'a>,
    pub b: Option<Held<'a>>,
    pub e: f32,
    pub surface: Vec2,
}

impl<'a> Meeting<'a> {
    /// Ball `ball` reaching `what` with its disc grown by `reach` px, where the narrow phase
    /// found the contact `found` (so they are `reach − depth` px apart), closing as `closing`
    /// says: the one constructor of the finder's meetings.
    fn reached(
        ball: BallIx,
        what: Reached<'a>,
        found: &'a Contact,
        reach: f32,
        closing: Closing<'a>,
    ) -> Self {
        let (other, b, surface) = match what {
            Reached::Ball(o, held) => (Body::Ball(o), Some(held), Vec2::ZERO),
            Reached::Obstacle(s, surface) => (Body::Shape(s), None, surface),
        };
        Self {
            ball,
            other,
            found,
            sep: reach - found.depth,
            approach: closing.approach,
            a: closing.a,
            b,
            e: closing.e,
            surface,
        }
    }
}

/// What a ball's grown disc reached: another ball, held as it is, or an obstacle whose
/// surface moves at the given velocity (px/s) at the contact.
enum Reached<'a> {
    Ball(BallIx, Held<'a>),
    Obstacle(ShapeIx, Vec2),
}

/// How a meeting closes: the ball that reached, held as it is, the closing speed (px/s,
/// negative when approaching) and the restitution.
struct Closing<'a> {
    a: Held<'a>,
    approach: f32,
    e: f32,
}

/// The soft contact of meeting `m`.
pub(super) fn new_contact(m: &Meeting) -> SoftContact {
    let (c, sep, approach, e, surface) = (m.found, m.sep, m.approach, m.e, m.surface);
    let (a, b) = (m.a, m.b);
    let mut contact = SoftContact {
        ball: m.ball,
        other: m.other,
        normal: c.normal,
        point: c.point,
        sep,
        mass: 0.0,
        inv_a: 0.0,
        inv_b: 0.0,
        ra: 0.0,
        rb: 0.0,
        inv_ia: 0.0,
        inv_ib: 0.0,
        tangent_mass: 0.0,
        rolling_mass: 0.0,
        approach,
        e,
        surface,
        speed: a
            .ball
            .vel
            .length()
            .max(b.map_or(0.0, |b| b.ball.vel.length())),
        firm: false,
    };
    set_masses(&mut contact, a, b);
    contact
}

/// Sets contact `c`'s masses and lever arms from its balls (`b` `None` for an obstacle), each
/// with whether it sleeps, by the rule the solver's body states take theirs by
/// ([`BodyState::masses`]).
fn set_masses(c: &mut SoftContact, a: Held, b: Option<Held>) {
    let inverses = |h: Held| {
        let (inv_m, inv_i, r) = BodyState::masses(h.ball, h.asleep);
        (inv_m, r, inv_i)
    };
    let (inv_a, ra, inv_ia) = inverses(a);
    let (inv_b, rb, inv_ib) = b.map_or((0.0, 0.0, 0.0), inverses);
    let k_t = inv_a + inv_b + ra * ra * inv_ia + rb * rb * inv_ib;
    (c.inv_a, c.inv_b, c.ra, c.rb, c.inv_ia, c.inv_ib) = (inv_a, inv_b, ra, rb, inv_ia, inv_ib);
    c.mass = 1.0 / (inv_a + inv_b);
    c.tangent_mass = 1.0 / k_t;
    c.rolling_mass = 1.0 / (inv_ia + inv_ib);
}

/// After a hit woke sleepers, gives them their masses back in the other contacts found
/// while they slept (a ball another rests on, say), so every contact of this step sees the
/// balls awake or asleep as the solver will.
fn woken_masses(contacts: &mut [SoftContact], balls: &BallSet) {
    for c in contacts.iter_mut() {
        let Body::Ball(o) = c.other else { continue };
        let (i, j) = (c.ball.ix(), o.ix());
        let (a, b) = (balls.asleep(i), balls.asleep(j));
        if (c.inv_a == 0.0 && !a) || (c.inv_b == 0.0 && !b) {
            let held = (Held::new(&balls[i], a), Held::new(&balls[j], b));
            set_masses(c, held.0, Some(held.1));
        }
    }
}

/// The contacts and wakes of `pairs` (all of two balls of `balls`, resting as `rests` say)
/// as the soft narrow phase finds them, with width `width`'s blocks and the scalar test for
/// the rest (`Width::Scalar`: all scalar): the check that every width gives the scalar bits
/// (`agree.rs`). `scale` is the elasticity scale, `wake_speed` the sleep speed (px/s).
pub(super) fn ball_pairs_with(
    width: Width,
    (balls, rests): (&[Ball], &[Rest]),
    pairs: &[BodyPair],
    span: f32,
    (scale, wake_speed): (f32, f32),
) -> (Vec<SoftContact>, Vec<(BallIx, BallIx)>) {
    let reads = Reads {
        balls,
        rests,
        shapes: &[],
        groups: &[],
        rotate: false,
        elasticity_scale: scale,
        wake_speed,
    };
    let (mut out, mut wakes) = (Vec::new(), Vec::new());
    reads.ball_contacts_with(width, pairs, span, &mut out, &mut wakes);
    (out, wakes)
}
