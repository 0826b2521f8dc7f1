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

/// `pairs` cut into runs of one kind, in order: `(true, run)` for a run of obstacle pairs,
/// `(false, run)` for one of ball pairs (the broad phase gives every obstacle pair first, so
/// one run of each). A stage that tests each kind by a loop of its own reads them so: the
/// browser's engine allocates registers for a loop as a whole, and one loop holding both
/// kinds spilled the ball pairs' few values at every pair.
pub(super) fn runs_by_kind(pairs: &[BodyPair]) -> impl Iterator<Item = (bool, &[BodyPair])> {
    let of_shape = |p: &BodyPair| p.other_ball().is_none();
    let mut rest = pairs;
    std::iter::from_fn(move || {
        let shapes = of_shape(rest.first()?);
        let n = rest.iter().position(|p| of_shape(p) != shapes);
        let (run, after) = rest.split_at(n.unwrap_or(rest.len()));
        rest = after;
        Some((shapes, run))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runs_by_kind_cover_the_pairs_in_order_each_of_one_kind() {
        let shape = |s, b| BodyPair {
            ball: BallIx(b),
            other: Body::Shape(ShapeIx(s)),
        };
        let ball = |a, b| BodyPair {
            ball: BallIx(a),
            other: Body::Ball(BallIx(b)),
        };
        let pairs = [
            shape(0, 1),
            shape(1, 0),
            ball(0, 1),
            ball(1, 2),
            shape(2, 2),
        ];
        let runs: Vec<(bool, usize)> = runs_by_kind(&pairs).map(|(s, r)| (s, r.len())).collect();
        assert_eq!(runs, [(true, 2), (false, 2), (true, 1)]);
        let joined: Vec<BodyPair> = runs_by_kind(&pairs).flat_map(|(_, r)| r.to_vec()).collect();
        assert_eq!(joined, pairs);
        assert_eq!(runs_by_kind(&[]).count(), 0);
    }
}
