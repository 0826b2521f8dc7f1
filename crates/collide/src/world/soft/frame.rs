//! Contacts found once a frame: as Box2D v3 does (`b2Collide` and `b2PrepareContactsTask`
//! once a step, its sub-steps solving the same constraints), the contacts found at a frame's
//! first sub-step serve every sub-step of the frame. Each pair's box and speculative reach
//! cover the whole frame's motion, and each sub-step measures a contact's separation from
//! where the balls were when it was found: `s = s₀ + (d_a − d_b)·n`, `d` a ball's move since
//! then (Catto, "Solver2D", 2024).
//!
//! A contact found with a gap that its approach closes within the frame would meet its
//! surface at a point it only foresaw (the normal of a curve, or of two balls passing at an
//! angle, turns along the way), and so would one whose sides slide past each other by more
//! than a fraction of a radius (a ball grazing the inside of an arc), so contacts among which
//! one is arriving or sliding fast serve one sub-step.
//!
//! The kept contacts describe the world only while nothing but the solver moves it, so they
//! are found again at the next sub-step when anything else has changed: a ball added,
//! removed, moved, pushed, woken or put to sleep by anyone else (a rule, the sleep stage, a
//! hand, an edit), a kinematic shape turned, or a setting that shapes the motion changed.
//! What the last sub-step left is kept to compare with: `O(balls)` a sub-step, against a
//! broad-phase call and a narrow test per pair saved.
//!
//! The contacts cover the moves they were found for: each ball's path over the frame at its
//! velocity then, give or take [`DRIFT_RADII`] of its radius (gravity bends the path by
//! `g·T²/2`, 0.06 px over a frame of the pile). A ball that strays further (struck, or
//! striking something new) might meet a ball its contacts do not name, so the next sub-step
//! finds them again; in a settled pile none strays and a frame needs one search.
//!
//! Invariant: while contacts are kept, `found_at` holds every ball's position when they were
//! found, and when they serve more than one sub-step `paths` holds the box of its path, one
//! entry a ball.

use crate::balls::{BallSet, Rest};
use crate::geom::{Aabb, Ball, Shape};
use crate::world::body::Body;
use crate::world::contacts::SoftContact;
use crate::world::settings::Settings;
use glam::Vec2;

/// How far a ball may stray from the path its contacts were found for, as a fraction of its
/// radius; the broad phase's boxes are grown by as much.
pub(super) const DRIFT_RADII: f32 = 0.05;

/// How far (as a fraction of the smaller radius) the two sides of a contact may move past
/// each other over the span its contacts serve: beyond, the surface under the ball turns (a
/// curve's normal, a passing ball's) too far for the normal it was found with, so the frame's
/// contacts serve one sub-step.
pub(super) const SLIDE_RADII: f32 = 0.25;

/// Whether contact `c` (found with separation `c.sep`) closes a gap wider than the drift
/// within `span` s at the speed it approaches.
pub(super) fn arriving(c: &SoftContact, span: f32) -> bool {
    let r = if c.rb > 0.0 { c.ra.min(c.rb) } else { c.ra };
    c.sep > r * DRIFT_RADII && -c.approach * span >= c.sep
}

/// Whether the two sides of contact `c`, moving past each other at `speed` (px/s), move
/// farther than [`SLIDE_RADII`] of the smaller radius within `span` s.
pub(super) fn sliding(c: &SoftContact, speed: f32, span: f32) -> bool {
    let r = if c.rb > 0.0 { c.ra.min(c.rb) } else { c.ra };
    speed * span > r * SLIDE_RADII
}

/// Whether the two sides of contact `c` may be [`sliding`] within `span` s, told from the
/// contact alone: two balls move past each other no faster than twice the faster one's
/// speed (`c.speed`, as found), so below that bound they are not sliding, with no need to
/// read the balls. An obstacle's side moves as the obstacle does, which the contact does not
/// hold: always maybe. The bound is wider than the worst rounding of the exact speed (a
/// few units in the last place), so it never says no where [`sliding`] says yes.
pub(super) fn may_slide(c: &SoftContact, span: f32) -> bool {
    let Body::Ball(_) = c.other else {
        return true;
    };
    let r = if c.rb > 0.0 { c.ra.min(c.rb) } else { c.ra };
    let bound = c.speed * 2.0002;
    // A NaN anywhere says maybe.
    let (moved, room) = (bound * span, r * SLIDE_RADII);
    moved > room || moved.is_nan() || room.is_nan()
}

/// The approach speeds of the kept `contacts` again, from the balls' velocities at the start
/// of this sub-step (gravity applied, as when they were found): restitution answers the
/// speed a contact closes at now, not when it was found (a dropped ball gains
/// `g·h` a sub-step). A contact that has rebounded in the frame (approach 0) keeps 0.
pub(super) fn approach_again(contacts: &mut [SoftContact], balls: &[Ball]) {
    for c in contacts.iter_mut() {
        let a = balls[c.ball.ix()].vel;
        let (b, speed) = match c.other {
            Body::Ball(o) => (balls[o.ix()].vel, balls[o.ix()].vel.length()),
            Body::Shape(_) => (c.surface, 0.0),
        };
        c.speed = a.length().max(speed);
        if c.approach != 0.0 {
            c.approach = (a - b).dot(c.normal);
        }
    }
}

/// A ball as the solver left it: position, velocity, spin, radius, mass (bits) and sleep.
type Left = ([u32; 7], bool);

/// The frame's kept contacts' bookkeeping (the contacts themselves are the stage's).
#[derive(Clone, Debug, Default)]
pub(super) struct FrameKeep {
    /// Sub-steps the kept contacts still serve (0: find them at the next sub-step).
    left: u32,
    /// Where each ball was when the contacts were found (px).
    pub(super) found_at: Vec<Vec2>,
    /// The box of each ball's centre on the path the contacts were found for (px).
    paths: Vec<Aabb>,
    /// The balls as the last sub-step left them.
    balls: Vec<Left>,
    /// The kinematic shapes as the last sub-step saw them.
    moving: Vec<Shape>,
    /// The settings the contacts were found with (threads aside).
    settings: Option<Settings>,
}

/// What a ball left at the end of a sub-step, bit for bit: its motion and whether it sleeps.
fn left_of(b: &Ball, r: &Rest) -> Left {
    let bits = [b.pos.x, b.pos.y, b.vel.x, b.vel.y, b.spin, b.radius, b.mass].map(f32::to_bits);
    (bits, r.asleep)
}

/// The settings that shape the motion: all but the threads.
fn motion_settings(s: &Settings) -> Settings {
    let mut s = s.clone();
    s.threads = 1;
    s.parallel_from = 0;
    s
}

impl FrameKeep {
    /// Whether this sub-step must find its contacts: the frame's are used up, or something
    /// besides the solver changed the balls, the kinematic `moving` shapes or the settings.
    pub(super) fn must_find(&self, balls: &BallSet, moving: &[Shape], settings: &Settings) -> bool {
        self.left == 0
            || balls.len() != self.balls.len()
            || self.moving.as_slice() != moving
            || self.settings.as_ref() != Some(&motion_settings(settings))
            || balls
                .iter()
                .zip(balls.rests())
                .zip(&self.balls)
                .any(|((b, r), l)| left_of(b, r) != *l)
    }

    /// Contacts were found where `balls` are now, for their paths over `span` s, to serve
    /// `sub_steps` sub-steps.
    pub(super) fn found(&mut self, balls: &[Ball], sub_steps: u32, span: f32, settings: &Settings) {
        self.left = sub_steps;
        self.found_at.clear();
        self.found_at.extend(balls.iter().map(|b| b.pos));
        self.paths.clear();
        // Contacts for one sub-step are found again at the next: no path to keep to.
        if sub_steps > 1 {
            self.paths.extend(balls.iter().map(|b| {
                Aabb::new(b.pos, b.pos + b.vel * span).expanded(b.radius.max(0.0) * DRIFT_RADII)
            }));
        }
        self.settings = Some(motion_settings(settings));
    }

    /// A sub-step ended: one fewer left, none when an awake ball strayed from its path
    /// (returns whether one did); what it left is kept to compare with.
    pub(super) fn sub_step_done(&mut self, balls: &BallSet, moving: &[Shape]) -> bool {
        let strayed = self.left > 1
            && balls
                .iter()
                .zip(balls.rests())
                .zip(&self.paths)
                .any(|((b, r), p)| !r.asleep && !p.contains(b.pos));
        self.left = if strayed {
            0
        } else {
            self.left.saturating_sub(1)
        };
        // With none left the next sub-step finds them whatever it compares.
        if self.left > 0 {
            self.remember(balls, moving);
        }
        strayed
    }

    /// Keeps `balls` and the kinematic `moving` shapes to compare the next sub-step's with.
    fn remember(&mut self, balls: &BallSet, moving: &[Shape]) {
        self.balls.clear();
        self.balls
            .extend(balls.iter().zip(balls.rests()).map(|(b, r)| left_of(b, r)));
        self.moving.clear();
        self.moving.extend_from_slice(moving);
    }

    /// Sub-steps left, where the balls were and the boxes of their paths: what a saved state
    /// keeps of a frame in progress.
    pub(super) fn saved(&self) -> (u32, &[Vec2], &[Aabb]) {
        (self.left, &self.found_at, &self.paths)
    }

    /// A frame in progress restored (`saved`), as the last sub-step left `balls`, the kinematic
    /// `moving` shapes and `settings`.
    pub(super) fn restore(
        &mut self,
        left: u32,
        found_at: &[Vec2],
        paths: &[Aabb],
        balls: &BallSet,
        moving: &[Shape],
        settings: &Settings,
    ) {
        self.left = left;
        self.found_at = found_at.to_vec();
        self.paths = paths.to_vec();
        self.settings = Some(motion_settings(settings));
        self.remember(balls, moving);
    }

    /// Forgets the kept contacts: the next sub-step finds its own.
    pub(super) fn forget(&mut self) {
        self.left = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ball(x: f32) -> Ball {
        Ball::new(Vec2::new(x, 10.0), Vec2::ZERO, 3.0, 0.0, 0)
    }

    #[test]
    fn a_contact_that_may_not_slide_is_never_sliding() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut told = 0;
        for _ in 0..200_000 {
            let mut v = || {
                let scale = 10f32.powf(rng.gen_range(-3.0..3.0));
                Vec2::new(rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)) * scale
            };
            let (va, vb) = (v(), v());
            let span = rng.gen_range(0.001..0.1);
            let c = SoftContact {
                ra: rng.gen_range(0.5..8.0),
                rb: rng.gen_range(0.5..8.0),
                speed: va.length().max(vb.length()),
                ..SoftContact::plain(
                    crate::world::body::BallIx(0),
                    Body::Ball(crate::world::body::BallIx(1)),
                )
            };
            let exact = sliding(&c, (va - vb).length(), span);
            assert!(may_slide(&c, span) || !exact, "{va} {vb} {span}");
            told += usize::from(!may_slide(&c, span));
        }
        assert!(told > 10_000, "the bound tells too few apart: {told}");
        let nan = SoftContact {
            speed: f32::NAN,
            ..SoftContact::plain(
                crate::world::body::BallIx(0),
                Body::Ball(crate::world::body::BallIx(1)),
            )
        };
        assert!(may_slide(&nan, 0.01));
    }

    #[test]
    fn kept_contacts_serve_until_the_frame_ends_or_something_else_moves() {
        let (balls, s) = (
            BallSet::from_balls(vec![ball(10.0), ball(20.0)]),
            Settings::default(),
        );
        let mut k = FrameKeep::default();
        assert!(k.must_find(&balls, &[], &s));
        k.found(&balls, 2, 0.01, &s);
        k.sub_step_done(&balls, &[]);
        assert!(!k.must_find(&balls, &[], &s));
        let mut threads = s.clone();
        threads.threads = 4;
        threads.parallel_from = 1;
        assert!(!k.must_find(&balls, &[], &threads));
        let mut moved = balls.clone();
        moved[1].pos.x += 0.5;
        assert!(k.must_find(&moved, &[], &s));
        let fewer = BallSet::from_balls(balls[..1].to_vec());
        assert!(k.must_find(&fewer, &[], &s));
        let mut gravity = s.clone();
        gravity.gravity += 1.0;
        assert!(k.must_find(&balls, &[], &gravity));
        k.sub_step_done(&balls, &[]);
        assert!(k.must_find(&balls, &[], &s));
    }

    #[test]
    fn a_ball_that_strays_from_its_path_has_the_contacts_found_again() {
        let (mut balls, s) = (
            BallSet::from_balls(vec![ball(10.0), ball(20.0)]),
            Settings::default(),
        );
        balls[0].vel = Vec2::new(100.0, 0.0);
        let mut k = FrameKeep::default();
        k.found(&balls, 4, 0.01, &s);
        balls[0].pos.x += 0.9; // within its path (1 px over the span)
        assert!(!k.sub_step_done(&balls, &[]));
        assert!(!k.must_find(&balls, &[], &s));
        balls[1].pos.y -= 0.2; // a still ball pushed beyond the drift
        assert!(k.sub_step_done(&balls, &[]));
        assert!(k.must_find(&balls, &[], &s));
    }
}
