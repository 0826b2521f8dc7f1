//! A frame in progress saved and restored: the contacts found at a frame's first sub-step
//! serve the others (`frame.rs`), so a state saved between two of them keeps them
//! ([`SavedFrame`]: the narrow phase's findings, where the balls were, the boxes of their
//! paths and the broad phase's pairs) and a restored world solves the rest of the frame as
//! the saved one would have, bit for bit. The masses and lanes come again from the balls,
//! and the impulses from the kept ones (which the lanes held after the last sub-step).

use super::find::new_contact;
use super::SoftStage;
use crate::balls::BallSet;
use crate::geom::Shape;
use crate::narrow::Contact;
use crate::world::body::{Body, BodyPair};
use crate::world::contacts::{SavedContact, SavedFrame, SoftContact};
use crate::world::pairs::{decode, encode};
use crate::world::settings::Settings;

impl SoftStage {
    /// The frame in progress, when the next sub-step would go on with its contacts (nothing
    /// but the solver moved `balls` since); `pairs` are the broad phase's of its search.
    pub(crate) fn saved_frame(
        &self,
        (balls, moving): (&BallSet, &[Shape]),
        settings: &Settings,
        (pairs, n_shapes): (&[BodyPair], usize),
    ) -> Option<SavedFrame> {
        if self.keep.must_find(balls, moving, settings) {
            return None;
        }
        let n = n_shapes as u32;
        let (left, found_at, paths) = self.keep.saved();
        let contact = |c: &SoftContact| SavedContact {
            pair: encode(&c.pair(), n),
            normal: c.normal,
            point: c.point,
            sep: c.sep,
            approach: c.approach,
            e: c.e,
            surface: c.surface,
        };
        Some(SavedFrame {
            left,
            found_at: found_at.to_vec(),
            paths: paths.to_vec(),
            pairs: pairs.iter().map(|p| encode(p, n)).collect(),
            contacts: self.contacts.iter().map(contact).collect(),
        })
    }

    /// Restores frame `f` (checked by [`frame_problem`]) over `balls` and the kinematic
    /// `moving` shapes, after the kept impulses; returns the broad phase's pairs it had.
    pub(crate) fn restore_frame(
        &mut self,
        f: &SavedFrame,
        (balls, moving): (&BallSet, &[Shape]),
        (settings, n_shapes): (&Settings, usize),
    ) -> Vec<BodyPair> {
        let soft = settings.soft.sanitized();
        let n = n_shapes as u32;
        self.contacts.clear();
        for c in &f.contacts {
            let Some(p) = decode(c.pair, n) else { continue };
            let a = &balls[p.ball.ix()];
            let b = match p.other {
                Body::Ball(o) => Some(&balls[o.ix()]),
                Body::Shape(_) => None,
            };
            let found = Contact {
                point: c.point,
                normal: c.normal,
                depth: 0.0,
            };
            let at = (&found, c.sep, c.approach);
            let contact = new_contact((p.ball, p.other), at, (a, b), (c.e, &soft), c.surface);
            self.contacts.push(contact);
        }
        self.plan.coloured(&self.contacts, balls.len());
        let spare = balls.len() as u32;
        self.lanes
            .prepare(&self.contacts, &self.plan.order, (&self.kept, spare));
        let saved = (f.left, &f.found_at[..], &f.paths[..]);
        self.keep.restore(saved, (balls, moving), settings);
        f.pairs.iter().filter_map(|&p| decode(p, n)).collect()
    }
}

/// What is wrong with frame `f` for a world of `balls` balls and `shapes` obstacles, if
/// anything: a list of the wrong length, a number not finite, or a pair naming a body it
/// lacks.
pub(crate) fn frame_problem(f: &SavedFrame, balls: usize, shapes: usize) -> Option<String> {
    if f.found_at.len() != balls || f.paths.len() != balls {
        return Some(format!(
            "found_at and paths must have one entry a ball ({balls})"
        ));
    }
    let finite = |v: glam::Vec2| v.is_finite();
    let contact_ok = |c: &SavedContact| {
        finite(c.normal)
            && finite(c.point)
            && finite(c.surface)
            && c.sep.is_finite()
            && c.approach.is_finite()
            && c.e.is_finite()
    };
    let path_ok = |p: &crate::geom::Aabb| finite(p.min) && finite(p.max);
    if !(f.found_at.iter().all(|&v| finite(v))
        && f.paths.iter().all(path_ok)
        && f.contacts.iter().all(contact_ok))
    {
        return Some("every number must be finite".into());
    }
    let bodies = (balls + shapes) as u32;
    let pairs = f.pairs.iter().chain(f.contacts.iter().map(|c| &c.pair));
    pairs
        .map(|&(i, j)| (i, j))
        .find(|&(i, j)| i >= j || j >= bodies || j < shapes as u32)
        .map(|(i, j)| format!("pair ({i}, {j}) names no ball of the world"))
}
