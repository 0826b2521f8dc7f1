//! Typed references to what a ball meets: an obstacle ([`ShapeIx`]) or another ball
//! ([`BallIx`]), as [`Body`], and a candidate pair of a ball with one of them ([`BodyPair`]).
//! The broad phase works in one number space (obstacles, then balls); the pairs stage
//! (`pairs.rs`) turns its pairs into these once, and every later stage reads them.

use crate::balls::Removed;
use crate::response::ContactWith;

/// An obstacle, by index into the world's shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct ShapeIx(pub(super) u32);

/// A ball, by index into the world's balls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) struct BallIx(pub(super) u32);

impl ShapeIx {
    /// The index into the shapes.
    pub(super) fn ix(self) -> usize {
        self.0 as usize
    }
}

impl BallIx {
    /// Ball `i`.
    pub(super) fn of(i: usize) -> Self {
        Self(i as u32)
    }

    /// The index into the balls.
    pub(super) fn ix(self) -> usize {
        self.0 as usize
    }
}

/// What a ball meets: an obstacle or another ball.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Body {
    Shape(ShapeIx),
    Ball(BallIx),
}

impl From<Body> for ContactWith {
    fn from(b: Body) -> Self {
        match b {
            Body::Shape(s) => ContactWith::Shape(s.0),
            Body::Ball(o) => ContactWith::Ball(o.0),
        }
    }
}

/// A candidate pair: a ball and what it may touch. Of two balls, `ball` is the lower.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct BodyPair {
    pub(super) ball: BallIx,
    pub(super) other: Body,
}

impl BodyPair {
    /// The pair once ball `gone` has left and every later ball moved down one place, or
    /// `None` when it was one of the two. The order of the pairs kept is kept.
    pub(super) fn without(self, gone: &Removed) -> Option<Self> {
        let moved = |b: BallIx| gone.moved(b.ix()).map(BallIx::of);
        let other = match self.other {
            Body::Shape(s) => Body::Shape(s),
            Body::Ball(o) => Body::Ball(moved(o)?),
        };
        Some(Self {
            ball: moved(self.ball)?,
            other,
        })
    }

    /// The order the broad phase reports pairs in: every obstacle pair (by obstacle, then
    /// ball) before every ball pair (by the lower ball, then the higher).
    pub(super) fn key(&self) -> (bool, u32, u32) {
        match self.other {
            Body::Shape(s) => (false, s.0, self.ball.0),
            Body::Ball(o) => (true, self.ball.0, o.0),
        }
    }

    /// The obstacle of an obstacle pair.
    pub(super) fn shape(&self) -> Option<ShapeIx> {
        match self.other {
            Body::Shape(s) => Some(s),
            Body::Ball(_) => None,
        }
    }

    /// The other ball of a ball pair.
    pub(super) fn other_ball(&self) -> Option<BallIx> {
        match self.other {
            Body::Ball(o) => Some(o),
            Body::Shape(_) => None,
        }
    }
}
