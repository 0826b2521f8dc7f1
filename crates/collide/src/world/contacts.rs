//! The soft solver's contacts: one per touching or nearly touching pair, found once a step,
//! and the impulses kept for the next step's warm start (`soft/` solves them; the impulses
//! being solved live in its lanes).

use super::body::{BallIx, Body, BodyPair};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// One contact of the soft solver.
#[derive(Clone, Copy, Debug)]
pub(super) struct SoftContact {
    /// The ball.
    pub(super) ball: BallIx,
    /// What it touches: an obstacle or another ball.
    pub(super) other: Body,
    pub(super) normal: Vec2,
    pub(super) point: Vec2,
    /// Separation when found (px, negative for an overlap).
    pub(super) sep: f32,
    /// Effective mass along the normal.
    pub(super) mass: f32,
    pub(super) inv_a: f32,
    pub(super) inv_b: f32,
    /// Radii (lever arms) and inverse moments of inertia; zero for an obstacle.
    pub(super) ra: f32,
    pub(super) rb: f32,
    pub(super) inv_ia: f32,
    pub(super) inv_ib: f32,
    /// Effective masses along the tangent (with the spins) and for rolling.
    pub(super) tangent_mass: f32,
    pub(super) rolling_mass: f32,
    /// Normal velocity before the solve (px/s, negative when closing).
    pub(super) approach: f32,
    pub(super) e: f32,
    /// The obstacle's surface velocity at the contact (zero for a ball).
    pub(super) surface: Vec2,
    /// The faster of its balls' speeds when found, or measured again at a later sub-step of
    /// its frame (px/s).
    pub(super) speed: f32,
    /// Whether the contact carried a load that makes its spring stiffer (`soft/lanes.rs`):
    /// its lanes get the extra relax passes.
    pub(super) firm: bool,
}

/// A contact's accumulated impulse kept for the next step's warm start.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeptImpulse {
    /// The pair, in the world's pair space (as the broad phase reports it).
    pub pair: (u32, u32),
    /// Accumulated normal impulse.
    pub impulse: f32,
    /// Accumulated friction impulse.
    #[serde(default)]
    pub friction: f32,
    /// Accumulated rolling-resistance impulse.
    #[serde(default)]
    pub rolling: f32,
}

/// A soft contact of a frame in progress as saved: what the narrow phase found (the masses
/// come again from the balls).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SavedContact {
    /// The pair, in the world's pair space (as the broad phase reports it).
    pub pair: (u32, u32),
    /// From the other towards the ball.
    pub normal: Vec2,
    /// On the other (px).
    pub point: Vec2,
    /// Separation when found (px).
    pub sep: f32,
    /// Normal velocity when found (px/s); zero once it rebounded.
    pub approach: f32,
    /// Combined elasticity.
    pub e: f32,
    /// The obstacle's surface velocity at the contact (px/s).
    pub surface: Vec2,
    /// Whether it carried a load that made its spring stiffer when found.
    #[serde(default)]
    pub firm: bool,
}

/// The soft contacts of a frame in progress (found at its first sub-step, serving the
/// others), saved so that a restored world solves the rest of the frame as the saved one
/// would have.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SavedFrame {
    /// Sub-steps the contacts still serve.
    pub left: u32,
    /// Each ball's position when they were found (px).
    pub found_at: Vec<Vec2>,
    /// The box of each ball's path they were found for (px).
    pub paths: Vec<crate::geom::Aabb>,
    /// The broad phase's pairs of that search, in the world's pair space.
    pub pairs: Vec<(u32, u32)>,
    /// The contacts, in pair order.
    pub contacts: Vec<SavedContact>,
}

impl SoftContact {
    /// A contact of `ball` with `other` whose values are plain (unit normal up, unit masses
    /// and radii), for tests.
    #[cfg(test)]
    pub(super) fn plain(ball: BallIx, other: Body) -> Self {
        SoftContact {
            ball,
            other,
            normal: Vec2::Y,
            point: Vec2::ZERO,
            sep: 0.0,
            mass: 1.0,
            inv_a: 1.0,
            inv_b: 1.0,
            ra: 1.0,
            rb: 1.0,
            inv_ia: 1.0,
            inv_ib: 1.0,
            tangent_mass: 1.0,
            rolling_mass: 1.0,
            approach: 0.0,
            e: 0.0,
            surface: Vec2::ZERO,
            speed: 0.0,
            firm: false,
        }
    }

    /// The contact's pair.
    pub(super) fn pair(&self) -> BodyPair {
        BodyPair {
            ball: self.ball,
            other: self.other,
        }
    }
}

/// A contact's impulses kept for the next step, by its typed pair ([`KeptImpulse`] is the
/// saved form).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Kept {
    pub(super) pair: BodyPair,
    pub(super) impulse: f32,
    pub(super) friction: f32,
    pub(super) rolling: f32,
}

/// A soft contact of the last step as a viewer sees it (`World::solver_contacts`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverContact {
    /// The ball (an index into the world's balls).
    pub ball: usize,
    /// What it touches.
    pub other: crate::response::ContactWith,
    /// The contact point on the other (px).
    pub point: Vec2,
    /// The normal, from the other towards the ball.
    pub normal: Vec2,
    /// The accumulated normal impulse of the step (mass · px/s, ≥ 0).
    pub impulse: f32,
    /// The constraint colour the solver gave it (see [`ConstraintColour`]).
    pub colour: ConstraintColour,
}

/// The group of contacts a soft contact was solved with (graph colouring, Box2D v3's
/// `constraint_graph.c`): no two contacts of a colour share a ball, so a colour is solved
/// eight lanes at a time or on several threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstraintColour {
    /// One of the colours of contacts between two balls, solved first (0 first).
    Balls(u8),
    /// One of the colours of contacts with obstacles, solved after every ball colour, the
    /// first one last so that the walls have the last word.
    Obstacles(u8),
    /// The overflow: contacts that found no free colour, solved one at a time.
    Overflow,
}
