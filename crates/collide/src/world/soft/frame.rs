//! Contacts found once a frame: as Box2D v3 does (`b2Collide` and `b2PrepareContactsTask`
//! once a step, its sub-steps solving the same constraints), the contacts found at a frame's
//! first sub-step serve every sub-step of the frame. Each pair's box and speculative reach
//! cover the whole frame's motion, and each sub-step measures a contact's separation from
//! where the balls were when it was found: `s = s₀ + (d_a − d_b)·n`, `d` a ball's move since
//! then (Catto, "Solver2D", 2024).
//!
//! The kept contacts describe the world only while nothing but the solver moves it, so they
//! are found again at the next sub-step when anything else has changed: a ball added,
//! removed, moved, pushed, woken or put to sleep by anyone else (a rule, the sleep stage, a
//! hand, an edit), a kinematic shape turned, or a setting that shapes the motion changed.
//! What the last sub-step left is kept to compare with: `O(balls)` a sub-step, against a
//! broad-phase call and a narrow test per pair saved.
//!
//! Invariant: while contacts are kept, `found_at` holds every ball's position when they were
//! found, one entry a ball.

use crate::geom::{Ball, Shape};
use crate::world::settings::Settings;
use glam::Vec2;

/// A ball as the solver left it: position, velocity, spin, radius (bits) and sleep.
type Left = ([u32; 6], bool);

/// The frame's kept contacts' bookkeeping (the contacts themselves are the stage's).
#[derive(Clone, Debug, Default)]
pub(super) struct FrameKeep {
    /// Sub-steps the kept contacts still serve (0: find them at the next sub-step).
    left: u32,
    /// Where each ball was when the contacts were found (px).
    pub(super) found_at: Vec<Vec2>,
    /// The balls as the last sub-step left them.
    balls: Vec<Left>,
    /// The kinematic shapes as the last sub-step saw them.
    moving: Vec<Shape>,
    /// The settings the contacts were found with (threads aside).
    settings: Option<Settings>,
}

fn left_of(b: &Ball) -> Left {
    let bits = [b.pos.x, b.pos.y, b.vel.x, b.vel.y, b.spin, b.radius].map(f32::to_bits);
    (bits, b.asleep)
}

/// The settings that shape the motion: all but the thread count.
fn motion_settings(s: &Settings) -> Settings {
    let mut s = s.clone();
    s.threads = 1;
    s
}

impl FrameKeep {
    /// Whether this sub-step must find its contacts: the frame's are used up, or something
    /// besides the solver changed the balls, the kinematic `moving` shapes or the settings.
    pub(super) fn must_find(&self, balls: &[Ball], moving: &[Shape], settings: &Settings) -> bool {
        self.left == 0
            || balls.len() != self.balls.len()
            || self.moving.as_slice() != moving
            || self.settings.as_ref() != Some(&motion_settings(settings))
            || balls.iter().zip(&self.balls).any(|(b, l)| left_of(b) != *l)
    }

    /// Contacts were found where `balls` are now, to serve `sub_steps` sub-steps.
    pub(super) fn found(&mut self, balls: &[Ball], sub_steps: u32, settings: &Settings) {
        self.left = sub_steps;
        self.found_at.clear();
        self.found_at.extend(balls.iter().map(|b| b.pos));
        self.settings = Some(motion_settings(settings));
    }

    /// A sub-step ended: one fewer left; what it left is kept to compare with.
    pub(super) fn sub_step_done(&mut self, balls: &[Ball], moving: &[Shape]) {
        self.left = self.left.saturating_sub(1);
        self.balls.clear();
        self.balls.extend(balls.iter().map(left_of));
        self.moving.clear();
        self.moving.extend_from_slice(moving);
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
    fn kept_contacts_serve_until_the_frame_ends_or_something_else_moves() {
        let (balls, s) = (vec![ball(10.0), ball(20.0)], Settings::default());
        let mut k = FrameKeep::default();
        assert!(k.must_find(&balls, &[], &s));
        k.found(&balls, 2, &s);
        k.sub_step_done(&balls, &[]);
        assert!(!k.must_find(&balls, &[], &s));
        let mut threads = s.clone();
        threads.threads = 4;
        assert!(!k.must_find(&balls, &[], &threads));
        let mut moved = balls.clone();
        moved[1].pos.x += 0.5;
        assert!(k.must_find(&moved, &[], &s));
        assert!(k.must_find(&balls[..1], &[], &s));
        let mut gravity = s.clone();
        gravity.gravity += 1.0;
        assert!(k.must_find(&balls, &[], &gravity));
        k.sub_step_done(&balls, &[]);
        assert!(k.must_find(&balls, &[], &s));
    }
}
