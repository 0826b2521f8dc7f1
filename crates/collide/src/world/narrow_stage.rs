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
//!
//! The list's second part is the frame's end ([`FrameEndContacts`], read through
//! `World::frame_end_contacts`, each contact numbered [`PairContact::FRAME_END`]): at the end
//! of each frame (the last of its `motion_iterations` steps, what the window shows) the
//! contacts touching then, with every solver and mode, tested where the balls ended. The
//! pairs stage finds their pairs (`PairsStage::frame_end`): those with a ball awake at the
//! step's last broad-phase call (with soft contacts that call's own pairs, whose boxes
//! cover the frame's motion; after the push-out, which moves balls after its last call, a
//! search where the balls are now), and those among that call's sleepers and between them
//! and the obstacles, which the broad phase never pairs. The sleepers do not move, so their
//! part is tested again only when the pairs stage found it again (the sleepers changed or
//! one woke) and kept as it was between. The overlap meter (`meter.rs`) reads this part
//! only. A removal renumbers it as the rest; a restore or a world emptied of balls empties
//! it (no contact names a ball that is not there), and the sleepers' part comes back when
//! the pairs stage finds it again (the meter keeps its figure of that part till then).

pub(super) use crate::narrow::{Contact, GroupTests, Impact};
/// A swept move as the impact searches read it (the swept tests' own form).
pub(super) use crate::tunnel::SweptBall;

use super::body::{runs_by_kind, Body, BodyPair};
use crate::balls::Removed;
use crate::geom::{Ball, Geometry, Group, Shape};
use crate::narrow;
use crate::response::ContactWith;
use crate::tunnel::{self, Tunnelling};
use crate::workers;
use glam::Vec2;

/// Contacts from which a search's list is written on the step's threads.
const KEEP_PARALLEL_FROM: usize = 4096;

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

impl PairContact {
    /// The iteration number of every contact of the frame's end ([`FrameEndContacts`]).
    pub const FRAME_END: u32 = u32::MAX;
}

/// The contacts touching at the end of the last frame, in two parts (see the module notes).
#[derive(Clone, Copy, Debug)]
pub struct FrameEndContacts<'a> {
    /// The contacts of the balls awake at the frame's last broad-phase call: with the
    /// obstacles, with each other and with the sleepers, in the order their pairs were found.
    pub awake: &'a [PairContact],
    /// The contacts among the balls asleep at that call and between them and the obstacles,
    /// in the order their pairs were found.
    pub asleep: &'a [PairContact],
}

/// The pairs the frame's end is tested over, as the pairs stage found them.
pub(super) struct FrameEndPairs<'a> {
    /// The pairs with a ball awake at the step's last broad-phase call.
    pub(super) awake: &'a [BodyPair],
    /// What became of the sleepers' part.
    pub(super) asleep: AsleepPairs<'a>,
}

/// The sleepers' part of a frame's end, as the pairs stage found it.
pub(super) enum AsleepPairs<'a> {
    /// No ball slept at the step's last broad-phase call.
    None,
    /// As last found: the sleepers did not change and none woke.
    Kept,
    /// Found again: the pairs among the sleepers and between them and the obstacles.
    Found(&'a [BodyPair]),
}

/// What the frame's end is tested against: the balls, the obstacles and their groups, and
/// whether kinematic shapes turn (a gate judges a ball's velocity relative to its own).
pub(super) struct EndWorld<'a> {
    pub(super) balls: &'a [Ball],
    pub(super) shapes: &'a [Shape],
    pub(super) groups: &'a [Group],
    pub(super) rotating: bool,
    /// Threads the contacts may be found on.
    pub(super) threads: usize,
    /// The ball pairs' test several at a time, where the machine has the vectors for it.
    pub(super) ball_blocks: Option<EndBlocks>,
}

/// The frame's end's test of the whole blocks of ball pairs at the start of `pairs` among
/// `balls`, their contacts appended to `out` in order (the scalar test's bits); returns how
/// many pairs it took, the rest left to the scalar test. The soft solver's widths give it
/// (`soft/find/blocks.rs`).
pub(super) type EndBlocks = fn(&[Ball], &[BodyPair], &mut Vec<PairContact>) -> usize;

/// Pairs from which the frame's end is found on the step's threads.
const PARALLEL_END: usize = 8192;

/// The stage's state: the contact list, the iteration being written, and the frame's end.
#[derive(Clone, Debug, Default)]
pub(super) struct NarrowStage {
    contacts: Vec<PairContact>,
    iteration: u32,
    end_awake: Vec<PairContact>,
    end_asleep: Vec<PairContact>,
    /// How many times the sleepers' part of the frame's end was written afresh.
    asleep_writes: u64,
    /// Each thread's part of the frame's end as it is found (kept between frames).
    end_parts: Vec<Vec<PairContact>>,
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

    /// The list becomes `found(0..n)`: the soft contacts of a frame's search, written on up
    /// to `threads` threads.
    pub(super) fn keep_found(
        &mut self,
        n: usize,
        threads: usize,
        found: impl Fn(usize) -> PairContact + Sync,
    ) {
        workers::map_indices_into(threads, n, KEEP_PARALLEL_FROM, &mut self.contacts, found);
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
        for list in [
            &mut self.contacts,
            &mut self.end_awake,
            &mut self.end_asleep,
        ] {
            renumber(list, gone);
        }
    }

    /// Forgets the list with its frame's end (every ball left, or a restored world).
    pub(super) fn forget(&mut self) {
        self.contacts.clear();
        self.end_awake.clear();
        self.end_asleep.clear();
    }

    /// Writes the frame's end: the contacts of `found`'s pairs touching in `w` (the
    /// sleepers' part only when found again or gone).
    pub(super) fn write_frame_end(&mut self, w: &EndWorld, found: FrameEndPairs) {
        let parts = &mut self.end_parts;
        match found.asleep {
            AsleepPairs::Kept => {}
            AsleepPairs::None => {
                self.end_asleep.clear();
                self.asleep_writes += 1;
            }
            AsleepPairs::Found(pairs) => {
                self.end_asleep.clear();
                end_contacts_into(w, pairs, parts, &mut self.end_asleep);
                self.asleep_writes += 1;
            }
        }
        self.end_awake.clear();
        end_contacts_into(w, found.awake, parts, &mut self.end_awake);
    }

    /// The frame's end (see the module notes).
    pub(super) fn frame_end(&self) -> FrameEndContacts<'_> {
        FrameEndContacts {
            awake: &self.end_awake,
            asleep: &self.end_asleep,
        }
    }

    /// How many times the sleepers' part of the frame's end was written afresh: while it
    /// stays, the part is as written (a removal may have renumbered it, a restore emptied it).
    pub(super) fn asleep_writes(&self) -> u64 {
        self.asleep_writes
    }
}

/// Applies the remap of a removal to `list`: the gone ball's contacts go, the later balls
/// move down one.
fn renumber(list: &mut Vec<PairContact>, gone: &Removed) {
    let moved = |b: u32| gone.moved(b as usize).map(|k| k as u32);
    list.retain_mut(|c| {
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

/// Appends to `out` the contacts of `pairs` touching in `w`, in order, each run of one kind
/// by a loop of its own ([`runs_by_kind`]).
fn end_contacts_into(
    w: &EndWorld,
    pairs: &[BodyPair],
    parts: &mut Vec<Vec<PairContact>>,
    out: &mut Vec<PairContact>,
) {
    for (shapes, run) in runs_by_kind(pairs) {
        match shapes {
            true => workers::filter_map_into(w.threads, run, PARALLEL_END, parts, out, |p| {
                end_shape_contact(w, p)
            }),
            false => workers::lists_into(
                w.threads,
                run.len(),
                PARALLEL_END,
                parts,
                out,
                |at, list| {
                    let pairs = &run[at];
                    let done = w
                        .ball_blocks
                        .map_or(0, |blocks| blocks(w.balls, pairs, list));
                    list.extend(pairs[done..].iter().filter_map(|p| end_ball_contact(w, p)));
                },
            ),
        }
    }
}

/// The contact of ball pair `p` in `w` if its two touch (`None` for an obstacle pair).
#[inline(always)]
fn end_ball_contact(w: &EndWorld, p: &BodyPair) -> Option<PairContact> {
    let Body::Ball(o) = p.other else {
        return None;
    };
    let (b, other) = (&w.balls[p.ball.ix()], &w.balls[o.ix()]);
    let c = ball_ball(b.pos, b.radius, other.pos, other.radius)?;
    Some(end_of(p, ContactWith::Ball(o.0), c))
}

/// The contact of obstacle pair `p` in `w` if its two touch, with the ball's velocity
/// relative to the obstacle (group tests not counted; `None` for a ball pair).
fn end_shape_contact(w: &EndWorld, p: &BodyPair) -> Option<PairContact> {
    let Body::Shape(s) = p.other else {
        return None;
    };
    let (b, shape) = (&w.balls[p.ball.ix()], &w.shapes[s.ix()]);
    let disc = Disc {
        centre: b.pos,
        radius: b.radius,
        vel: b.vel - shape.velocity_at(b.pos, w.rotating),
    };
    let mut scratch = GroupTests::default();
    let (c, _) = ball_obstacle(disc, shape, w.groups, &mut scratch)?;
    Some(end_of(p, ContactWith::Shape(s.0), c))
}

/// Pair `p`'s contact `c` with `with` as the frame's end lists it.
#[inline(always)]
fn end_of(p: &BodyPair, with: ContactWith, c: Contact) -> PairContact {
    PairContact {
        iteration: PairContact::FRAME_END,
        ball: p.ball.0,
        with,
        point: c.point,
        normal: c.normal,
        depth: c.depth,
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
