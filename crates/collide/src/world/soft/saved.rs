//! A frame in progress saved and restored: the contacts found at a frame's first sub-step
//! serve the others (`frame.rs`), so a state saved between two of them keeps them
//! ([`SavedFrame`]: the narrow phase's findings, where the balls were, the boxes of their
//! paths and the broad phase's pairs) and a restored world solves the rest of the frame as
//! the saved one would have, bit for bit. The masses and lanes come again from the balls,
//! and the impulses from the kept ones (which the lanes held after the last sub-step).

use super::find::{new_contact, Held, Meeting};
use super::frame::FrameKeep;
use crate::balls::BallSet;
use crate::world::body::{Body, BodyPair};
use crate::world::contacts::{Kept, KeptImpulse, SavedContact, SavedFrame, SoftContact};
use crate::world::narrow_stage::Contact;
use crate::world::pairs::{decode, encode};

/// The frame in progress as saved: its `contacts`, what `keep` knows of where the balls
/// were, and `pairs`, the broad phase's of its search, in a world of `n_shapes` obstacles.
pub(super) fn saved_frame(
    contacts: &[SoftContact],
    keep: &FrameKeep,
    pairs: &[BodyPair],
    n_shapes: usize,
) -> SavedFrame {
    let n = n_shapes as u32;
    let (left, found_at, paths) = keep.saved();
    let contact = |c: &SoftContact| SavedContact {
        pair: encode(&c.pair(), n),
        normal: c.normal,
        point: c.point,
        sep: c.sep,
        approach: c.approach,
        e: c.e,
        surface: c.surface,
        firm: c.firm,
    };
    SavedFrame {
        left,
        found_at: found_at.to_vec(),
        paths: paths.to_vec(),
        pairs: pairs.iter().map(|p| encode(p, n)).collect(),
        contacts: contacts.iter().map(contact).collect(),
    }
}

/// The contacts of frame `f` (checked by [`frame_problem`]) among `balls`, into `out`, with
/// the masses from the balls; returns the broad phase's pairs.
pub(super) fn restored_contacts(
    f: &SavedFrame,
    balls: &BallSet,
    n_shapes: usize,
    out: &mut Vec<SoftContact>,
) -> Vec<BodyPair> {
    let n = n_shapes as u32;
    out.clear();
    for c in &f.contacts {
        let Some(p) = decode(c.pair, n) else { continue };
        let a = Held::new(&balls[p.ball.ix()], balls.asleep(p.ball.ix()));
        let b = match p.other {
            Body::Ball(o) => Some(Held::new(&balls[o.ix()], balls.asleep(o.ix()))),
            Body::Shape(_) => None,
        };
        let found = Contact {
            point: c.point,
            normal: c.normal,
            depth: 0.0,
        };
        let meeting = Meeting {
            ball: p.ball,
            other: p.other,
            found: &found,
            sep: c.sep,
            approach: c.approach,
            a,
            b,
            e: c.e,
            surface: c.surface,
        };
        let mut contact = new_contact(&meeting);
        contact.firm = c.firm;
        out.push(contact);
    }
    f.pairs.iter().filter_map(|&p| decode(p, n)).collect()
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

/// The soft contacts' kept impulses `kept` in their saved form, for a world of `n_shapes`
/// obstacles.
pub(super) fn saved_impulses(kept: &[Kept], n_shapes: usize) -> Vec<KeptImpulse> {
    let saved = |k: &Kept| KeptImpulse {
        pair: encode(&k.pair, n_shapes as u32),
        impulse: k.impulse,
        friction: k.friction,
        rolling: k.rolling,
    };
    kept.iter().map(saved).collect()
}

/// Saved impulses typed for a world of `n_shapes` obstacles; a pair of two obstacles, which
/// no contact has, is dropped.
pub(super) fn kept_of(saved: &[KeptImpulse], n_shapes: usize) -> Vec<Kept> {
    let kept = |k: &KeptImpulse| {
        Some(Kept {
            pair: decode(k.pair, n_shapes as u32)?,
            impulse: k.impulse,
            friction: k.friction,
            rolling: k.rolling,
        })
    };
    saved.iter().filter_map(kept).collect()
}
