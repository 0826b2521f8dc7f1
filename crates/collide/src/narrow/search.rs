//! Impact searches that work with any shape, given only a contact test (Schwarzl 2012, "Linear
//! Impact Search" and "Binary Impact Search").
//!
//! - Linear: test the ball at `n + 1` evenly spaced places along its move (`t = k/n`) and
//!   stop at the first contact. Cost `n + 1` tests; a shape thinner than the spacing between
//!   samples minus the ball's diameter can be jumped over.
//! - Binary: wrap the move in an envelope circle (centre at the middle of the move, radius
//!   `r + |move|/2`). If the envelope misses the shape, the whole move does. Otherwise halve
//!   the move and look at the first half, then the second, down to a minimum move of
//!   `max(r/4, 1/32)` px, as in the seed. At that size the ball itself is tested at the end of
//!   the piece. Cost: about `2·log2(|move| / min)` tests for a clean hit, two for a clean miss.
//!
//! Both report only contacts the ball is moving into (`d·normal < 0`): a contact being left
//! is passed by, so a ball bouncing away from a wall is not stopped again.
//!
//! Tolerance of the binary search: the impact it reports lies at most `min_move` along the
//! move after the exact one (never before); it misses only grazes, where the part of the move
//! in contact is shorter than `2·min_move`.

use super::{Contact, Impact};
use glam::Vec2;

/// Deepest recursion of the binary search: 2²⁴ pieces is beyond any move a world makes.
const MAX_DEPTH: u32 = 24;

/// The smallest piece of a move the binary search splits (px): a quarter of the radius, but at
/// least 1/32 px so that a zero radius still ends.
pub fn binary_min_move(r: f32) -> f32 {
    (r.max(0.0) / 4.0).max(1.0 / 32.0)
}

/// Linear impact search: the ball starting at `c` and moving by `d`, tested at `fractions + 1`
/// places with `contact(centre)`. Adds the tests run to `tests`.
pub(crate) fn linear_impact_search(
    c: Vec2,
    d: Vec2,
    fractions: u32,
    tests: &mut u64,
    contact: &mut dyn FnMut(Vec2) -> Option<Contact>,
) -> Option<Impact> {
    let n = fractions.max(1);
    for k in 0..=n {
        let t = k as f32 / n as f32;
        *tests += 1;
        if let Some(hit) = moving_in(contact(c + d * t), d) {
            return Some(Impact { t, contact: hit });
        }
    }
    None
}

/// Binary impact search: the ball (`c`, radius `r`) moving by `d`; `contact(centre)` tests
/// the ball, `envelope(centre, radius)` tells whether a circle touches the shape (it must
/// never say no when the circle overlaps it). Adds the tests run to `tests`.
pub(crate) fn binary_impact_search(
    c: Vec2,
    r: f32,
    d: Vec2,
    tests: &mut u64,
    contact: &mut dyn FnMut(Vec2) -> Option<Contact>,
    envelope: &mut dyn FnMut(Vec2, f32) -> bool,
) -> Option<Impact> {
    *tests += 1;
    if let Some(hit) = moving_in(contact(c), d) {
        return Some(Impact {
            t: 0.0,
            contact: hit,
        });
    }
    let mut s = Search {
        c,
        r: r.max(0.0),
        d,
        min_move: binary_min_move(r),
        tests,
        contact,
        envelope,
    };
    s.halve(0.0, 1.0, 0)
}

/// The state of one binary search.
struct Search<'a> {
    c: Vec2,
    r: f32,
    d: Vec2,
    min_move: f32,
    tests: &'a mut u64,
    contact: &'a mut dyn FnMut(Vec2) -> Option<Contact>,
    envelope: &'a mut dyn FnMut(Vec2, f32) -> bool,
}

impl Search<'_> {
    /// The first impact in the piece `[t0, t1]` of the move.
    fn halve(&mut self, t0: f32, t1: f32, depth: u32) -> Option<Impact> {
        let (a, b) = (self.c + self.d * t0, self.c + self.d * t1);
        let len = (b - a).length();
        *self.tests += 1;
        // Early out: the envelope of this piece misses, so every place in it does.
        if !(self.envelope)((a + b) * 0.5, self.r + len * 0.5) {
            return None;
        }
        if len < self.min_move || depth >= MAX_DEPTH {
            *self.tests += 1;
            let hit = moving_in((self.contact)(b), self.d)?;
            return Some(Impact {
                t: t1,
                contact: hit,
            });
        }
        let mid = (t0 + t1) * 0.5;
        self.halve(t0, mid, depth + 1)
            .or_else(|| self.halve(mid, t1, depth + 1))
    }
}

/// The contact, if the move `d` goes into it.
fn moving_in(hit: Option<Contact>, d: Vec2) -> Option<Contact> {
    hit.filter(|h| d.dot(h.normal) < 0.0)
}
