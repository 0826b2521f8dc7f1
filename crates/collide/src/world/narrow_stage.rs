//! The narrow phase as a stage of the world: the one file of `world/` that asks the narrow
//! phase (`crate::narrow`) and the swept searches (`crate::tunnel`) anything, and the owner
//! of the step's contact list.
//!
//! Every contact, impact and touch the world's stages need is one of the tests below: the
//! push-out's contact of a pair and its wall side, the soft contacts' reached contacts, the
//! swept modes' impacts, sleep's touch, the meter's depth, the probe's touch and Fill's
//! clearance. Each is the narrow phase's function called with the same numbers as before it
//! was gathered here, so no float of any answer moves.
//!
//! The contact list ([`PairContact`], read through `World::contacts`) holds the contacts
//! the solver answered in the last step, each with its collision iteration: with the
//! push-out, each iteration's in pair order, as each pair was tested (where the responses
//! before it left the balls, as the course's method asks), then the walls' last word
//! (numbered after the last iteration); with soft contacts, the contacts of the frame's
//! search (iteration 0), kept for its sub-steps. The swept modes answer impacts, not
//! contacts (`World::step_impacts`), and leave it empty. A viewer may draw it; a removed
//! ball's contacts leave it and the later balls are renumbered as the ball table says.

pub(super) use crate::narrow::{Contact, GroupTests, Impact};
/// A swept move as the impact searches read it (the swept tests' own form).
pub(super) use crate::tunnel::SweptBall;

use crate::balls::Removed;
use crate::geom::{Ball, Geometry, Group, Shape};
use crate::narrow;
use crate::response::ContactWith;
use crate::tunnel::{self, Tunnelling};
use glam::Vec2;

/// One contact the solver answered in the last step (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairContact {
    /// The collision iteration that answered it (from 0).
    pub iteration: u32,
    /// The ball (its index in `World::balls`).
    pub ball: u32,
    /// What it touches.
    pub with: ContactWith,
    /// The contact point (px).
    pub point: Vec2,
    /// Unit normal from what it touches towards the ball.
    pub normal: Vec2,
    /// How deep the two overlap (px; negative: a gap the soft contacts foresaw).
    pub depth: f32,
}

/// The stage's state: the contact list and the iteration being written.
#[derive(Clone, Debug, Default)]
pub(super) struct NarrowStage {
    contacts: Vec<PairContact>,
    iteration: u32,
}

impl NarrowStage {
    /// The contact list (see the module notes).
    pub(super) fn contacts(&self) -> &[PairContact] {
        &self.contacts
    }

    /// The contacts added from now on are collision iteration `k`'s; the list is written
    /// afresh at iteration 0.
    pub(super) fn begin_iteration(&mut self, k: u32) {
        if k == 0 {
            self.contacts.clear();
        }
        self.iteration = k;
    }

    /// The list becomes `found`: the soft contacts of a frame's search.
    pub(super) fn keep_found(&mut self, found: impl Iterator<Item = PairContact>) {
        self.contacts.clear();
        self.contacts.extend(found);
    }

    /// Adds the contact of `ball` with `with` that the solver answered.
    pub(super) fn add(&mut self, ball: u32, with: ContactWith, c: &Contact) {
        self.contacts.push(PairContact {
            iteration: self.iteration,
            ball,
            with,
            point: c.point,
            normal: c.normal,
            depth: c.depth,
        });
    }

    /// Applies the remap of a removal: the gone ball's contacts go, the later balls move
    /// down one.
    pub(super) fn ball_left(&mut self, gone: &Removed) {
        let moved = |b: u32| gone.moved(b as usize).map(|k| k as u32);
        self.contacts.retain_mut(|c| {
            let with = match c.with {
                ContactWith::Ball(o) => moved(o).map(ContactWith::Ball),
                shape => Some(shape),
            };
            match (moved(c.ball), with) {
                (Some(b), Some(with)) => {
                    (c.ball, c.with) = (b, with);
                    true
                }
                _ => false,
            }
        });
    }

    /// Forgets the list (every ball left, or a restored world).
    pub(super) fn forget(&mut self) {
        self.contacts.clear();
    }
}

/// A ball as a test reads it: its centre and radius (px), and its velocity relative to what
/// it meets (px/s; a gate judges it).
#[derive(Clone, Copy, Debug)]
pub(super) struct Disc {
    pub(super) centre: Vec2,
    pub(super) radius: f32,
    pub(super) vel: Vec2,
}

/// The contact of disc `d` with obstacle `shape` (a group by its deepest member) and the
/// elasticity of what it touches.
pub(super) fn ball_obstacle(
    d: Disc,
    shape: &Shape,
    groups: &[Group],
    tests: &mut GroupTests,
) -> Option<(Contact, f32)> {
    narrow::contact_ball_obstacle((d.centre, d.radius, d.vel), shape, groups, tests)
}

/// [`ball_obstacle`] with flat faces measured in f64: the soft contacts' test.
pub(super) fn ball_obstacle_fine(
    d: Disc,
    shape: &Shape,
    groups: &[Group],
    tests: &mut GroupTests,
) -> Option<(Contact, f32)> {
    narrow::contact_ball_obstacle_fine((d.centre, d.radius, d.vel), shape, groups, tests)
}

/// Whether disc `d` touches obstacle `shape` (the narrow phase's contact test).
pub(super) fn touches_obstacle(d: Disc, shape: &Shape, groups: &[Group]) -> bool {
    let mut scratch = GroupTests::default();
    ball_obstacle(d, shape, groups, &mut scratch).is_some()
}

/// The contact of a ball at `a` of radius `ra` with one at `b` of radius `rb` (normal from
/// `b` towards `a`).
pub(super) fn ball_ball(a: Vec2, ra: f32, b: Vec2, rb: f32) -> Option<Contact> {
    narrow::contact_ball_ball(a, ra, b, rb)
}

/// Whether balls `a` and `b` touch now.
pub(super) fn balls_touch(a: &Ball, b: &Ball) -> bool {
    ball_ball(a.pos, a.radius, b.pos, b.radius).is_some()
}

/// Contact `c` of a ball now at `now` (radius `r`) with the fixed wall `a`–`b`, turned to
/// keep the ball on the side it started the step on (`start`).
pub(super) fn kept_side(c: Contact, r: f32, start: Vec2, now: Vec2, a: Vec2, b: Vec2) -> Contact {
    narrow::keep_side(c, r, start, now, a, b)
}

/// Whether a still disc at `p` of radius `r` touches `geom` (Fill's clearance).
pub(super) fn disc_touches(p: Vec2, r: f32, geom: &Geometry) -> bool {
    narrow::contact_ball_shape(p, r, Vec2::ZERO, geom).is_some()
}

/// The mode's search of sweep `s` against one geometry; its member tests are added to
/// `tests`.
pub(super) fn impact_geometry(
    mode: Tunnelling,
    fractions: u32,
    s: SweptBall,
    geom: &Geometry,
    tests: &mut u64,
) -> Option<Impact> {
    tunnel::impact_ball_shape(mode, fractions, s, geom, tests)
}

/// The mode's search of sweep `s` against obstacle `shape` (a group by its hull, then its
/// earliest member), with the elasticity of what it hits; group tests go to `tests`, the
/// members' searches to `members`.
pub(super) fn impact_obstacle(
    mode: Tunnelling,
    fractions: u32,
    s: SweptBall,
    shape: &Shape,
    groups: &[Group],
    tests: &mut GroupTests,
    members: &mut u64,
) -> Option<(Impact, f32)> {
    let impact = |g: &Geometry| impact_geometry(mode, fractions, s, g, members);
    narrow::impact_ball_obstacle(s.start, s.radius, s.moved, shape, groups, tests, impact)
}

/// The exact time of impact of two moving balls: the one at `a` of radius `ra` moving by
/// `da`, the one at `b` of radius `rb` by `db`.
pub(super) fn impact_balls(
    a: Vec2,
    ra: f32,
    da: Vec2,
    b: Vec2,
    rb: f32,
    db: Vec2,
) -> Option<Impact> {
    narrow::toi_ball_ball(a, ra, da, b, rb, db)
}

/// The exact time of impact of sweep `s` (its `vel` unused: the move itself) with `geom`.
pub(super) fn impact_shape(s: SweptBall, geom: &Geometry) -> Option<Impact> {
    narrow::toi_ball_shape(s.start, s.radius, s.moved, s.vel, geom)
}

/// The shapes a test of obstacle `shape` meets: a group's members, else the shape itself.
pub(super) fn members<'a>(shape: &'a Shape, groups: &'a [Group]) -> &'a [Shape] {
    narrow::parts_of(shape, groups)
}

/// `d` made unit length, or `fallback` when it has none (the narrow phase's rule).
pub(super) fn unit_or(d: Vec2, fallback: Vec2) -> Vec2 {
    narrow::normalized_or(d, fallback)
}
