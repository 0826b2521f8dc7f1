//! Tunnelling: what the world does about balls that move farther in one step than the
//! shapes they should hit are thick (Schwarzl 2012, "The Tunneling Problem").
//!
//! - [`Tunnelling::Off`]: the discrete test at the end of each step; only more motion
//!   iterations (shorter steps) help. This is the original toy's behaviour.
//! - [`Tunnelling::Linear`]: the move tested at `n + 1` fixed fractions (`n` =
//!   [`crate::Settings::linear_fractions`]); the cost is fixed, so fast balls still jump thin
//!   walls.
//! - [`Tunnelling::Binary`]: Schwarzl's recursive halving inside an envelope circle, down to
//!   `max(r/4, 1/32)` px.
//! - [`Tunnelling::Exact`]: time of impact in closed form for every shape pair, ball against
//!   ball by relative motion.
//!
//! In the three swept modes the broad phase sees each ball's swept box (its start and end
//! this step, grown by the radius), the earliest impact of each ball is answered at the moment
//! it happens, and the rest of the step goes on from there (see [`crate::world`]).

use crate::geom::Geometry;
use crate::narrow::search::{binary_impact_search, linear_impact_search};
use crate::narrow::{contact_ball_shape, envelope_overlaps, toi_ball_shape, Impact};
use glam::Vec2;

/// How moving balls are tested.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Tunnelling {
    /// Discrete tests at the end of each step.
    #[default]
    Off,
    /// The move tested at fixed fractions.
    Linear,
    /// Recursive halving of the move inside an envelope.
    Binary,
    /// Time of impact in closed form.
    Exact,
}

impl Tunnelling {
    /// Every mode, in menu order.
    pub const ALL: &'static [Tunnelling] = &[
        Tunnelling::Off,
        Tunnelling::Linear,
        Tunnelling::Binary,
        Tunnelling::Exact,
    ];

    /// Command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Tunnelling::Off => "off",
            Tunnelling::Linear => "linear",
            Tunnelling::Binary => "binary",
            Tunnelling::Exact => "exact",
        }
    }

    /// Menu label.
    pub fn label(self) -> &'static str {
        match self {
            Tunnelling::Off => "Off (discrete tests)",
            Tunnelling::Linear => "Linear impact search",
            Tunnelling::Binary => "Binary impact search",
            Tunnelling::Exact => "Exact time of impact",
        }
    }

    /// Looks up a command-line name.
    pub fn from_name(name: &str) -> Option<Tunnelling> {
        Self::ALL.iter().copied().find(|m| m.name() == name)
    }
}

/// A ball's move over a step, as a swept test reads it, relative to the obstacle tested.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweptBall {
    /// Where its centre starts (px).
    pub start: Vec2,
    /// Its radius (px).
    pub radius: f32,
    /// The move of its centre (px).
    pub moved: Vec2,
    /// Its velocity relative to the obstacle (px/s).
    pub vel: Vec2,
}

/// The first impact of `ball`'s move with one obstacle, found the way `mode` says; adds the
/// tests run to `tests` (one per sample, envelope or closed form). `Off` tests only the end
/// of the move.
pub fn impact_ball_shape(
    mode: Tunnelling,
    fractions: u32,
    ball: SweptBall,
    geom: &Geometry,
    tests: &mut u64,
) -> Option<Impact> {
    let SweptBall {
        start: c,
        radius: r,
        moved: d,
        vel: v,
    } = ball;
    let mut contact = |p: Vec2| contact_ball_shape(p, r, v, geom);
    match mode {
        Tunnelling::Off => {
            *tests += 1;
            contact(c + d).map(|contact| Impact { t: 1.0, contact })
        }
        Tunnelling::Linear => linear_impact_search(c, d, fractions, tests, &mut contact),
        Tunnelling::Binary => {
            let mut envelope = |m: Vec2, big_r: f32| envelope_overlaps(m, big_r, v, geom);
            binary_impact_search(c, r, d, tests, &mut contact, &mut envelope)
        }
        Tunnelling::Exact => {
            *tests += 1;
            toi_ball_shape(c, r, d, v, geom)
        }
    }
}
