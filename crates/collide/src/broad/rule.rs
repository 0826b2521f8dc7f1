//! The rules of thumb for the broad phases' size parameters: what they read of the balls in
//! play ([`BallSizes`]), what a rule gives ([`Rule`]: the value "Auto" sets, why, and the
//! values a sweep measures), and the arithmetic the rules share. Each rule itself is declared
//! with its parameter in the algorithm's own file ([`ParamInfo`](super::ParamInfo)).

use crate::geom::Aabb;

/// What the rules read of the balls in play (px).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BallSizes {
    /// Balls in play (0: the sizes are the next ball's).
    pub count: usize,
    /// Of those, the balls the broad phase is given: the awake ones (a sleeping ball is a
    /// static box to it, never sized for nor paired with another sleeper).
    pub given: usize,
    /// Mean diameter (px).
    pub mean_diameter: f32,
    /// The largest box side of a ball the broad phase is given (px): its diameter, or the
    /// longer side of the largest box it was last given (swept in the swept modes, grown by
    /// the pair cache); 0 when it is given none (every ball sleeps).
    pub largest: f32,
    /// The largest ball's diameter, asleep or not (px): where a sweep's values start when
    /// the broad phase is given no ball.
    pub largest_ball: f32,
    /// Mean distance a ball moves in one step (px).
    pub mean_step: f32,
    /// The play area, the quadtree's root (px).
    pub world: Aabb,
}

impl BallSizes {
    /// True when there are balls but every one sleeps: the broad phase is given none.
    pub fn none_given(&self) -> bool {
        self.count > 0 && self.given == 0
    }

    /// The side the sweeps' values start from (px): the largest box given, or without one
    /// the largest ball's diameter (what the balls will need when they wake).
    pub(crate) fn sweep_base(&self) -> f32 {
        if self.none_given() {
            self.largest_ball
        } else {
            self.largest
        }
    }
}

/// A parameter's rule of thumb for the balls in play.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// What the rule says, in a sentence.
    pub says: &'static str,
    /// Where it comes from.
    pub source: &'static str,
    /// The value "Auto" sets (the parameter's own 0 where it has an automatic setting).
    pub auto: f32,
    /// What that value means for these balls, with the numbers.
    pub auto_why: String,
    /// The rule's value in the parameter's units, to mark on a sweep (`None` where the rule is
    /// a choice the broad phase makes every call).
    pub value: Option<f32>,
    /// The values a sweep measures, increasing.
    pub sweep: Vec<f32>,
}

/// What a rule computes for the balls in play: a [`Rule`] without the words its parameter
/// declares.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleValues {
    /// The value "Auto" sets.
    pub auto: f32,
    /// What that value means for these balls, with the numbers.
    pub auto_why: String,
    /// The rule's value to mark on a sweep, if it has one.
    pub value: Option<f32>,
    /// The values a sweep measures, increasing.
    pub sweep: Vec<f32>,
}

/// Why a size was chosen without a ball: every ball sleeps.
pub(crate) const NONE_GIVEN: &str =
    "every ball sleeps, and a sleeping ball is a static box to the broad phase, not a ball it \
     is given";

/// Largest size parameter the grids accept (px).
const MAX_SIZE: f32 = 2048.0;

/// `factors` × `base` made whole numbers by `whole`, within 1..=2048, without repeats.
pub(crate) fn multiples(base: f32, factors: &[f32], whole: fn(f32) -> f32) -> Vec<f32> {
    let mut v: Vec<f32> = factors
        .iter()
        .map(|k| whole(k * base).clamp(1.0, MAX_SIZE))
        .collect();
    v.dedup();
    v
}

/// The smallest power of two at or above `x` (and at least `floor`), at most 2048.
pub(crate) fn power_of_two_at_least(x: f32, floor: f32) -> f32 {
    let mut c = floor;
    while c < x && c < MAX_SIZE {
        c *= 2.0;
    }
    c
}
