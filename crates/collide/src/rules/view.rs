//! The hook between the world's step and its rules: the [`Moment`]s at which the rules act,
//! and the [`WorldView`] they see then.

use crate::balls::{BallId, BallSet};
use crate::geom::{Ball, Group, Shape};
use crate::response::Hit;

/// When in [`crate::World::step`] the rules act (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Moment {
    /// Before anything else.
    Start,
    /// After a queued ball was launched.
    Launched,
    /// After the kinematic shapes turned.
    Turned,
    /// After the balls moved (in the soft solver, after its whole step).
    Moved,
    /// After the collision iterations and the rebounds were measured; the step's hits start
    /// at `first_hit`.
    Collided {
        /// Index of the first hit recorded this step.
        first_hit: usize,
    },
}

/// What the rules may read and change of the world during a step.
pub(crate) struct WorldView<'a> {
    /// The balls.
    pub balls: &'a mut BallSet,
    /// The obstacles: statics, then kinematic shapes from `first_moving`.
    pub shapes: &'a mut [Shape],
    /// Index of the first kinematic shape.
    pub first_moving: usize,
    /// The shape groups' members.
    pub groups: &'a mut [Group],
    /// The impacts recorded and not yet drained.
    pub hits: &'a mut Vec<Hit>,
    /// Balls waiting to be launched.
    pub pending_launches: &'a mut u32,
    /// The world's seeded generator.
    pub rng: &'a mut rand_chacha::ChaCha12Rng,
    /// Elasticity of new balls.
    pub ball_elasticity: f32,
    /// Length of the step (s).
    pub dt: f32,
    /// Removes ball `i` as [`crate::World::remove_ball`] does, waking the sleepers near it;
    /// returns the id it had (the rules drop their own strings of it).
    pub take_ball: &'a mut dyn FnMut(&mut BallSet, usize) -> BallId,
}

impl WorldView<'_> {
    /// Takes every ball for which `inside` holds, in index order, each as
    /// [`crate::World::remove_ball`] does; tells `taken` the id each had. Returns how many.
    pub(crate) fn take_balls(
        &mut self,
        inside: impl Fn(&Ball) -> bool,
        mut taken: impl FnMut(BallId),
    ) -> u32 {
        let (mut i, mut n) = (0, 0);
        while i < self.balls.len() {
            if inside(&self.balls[i]) {
                let id = (self.take_ball)(self.balls, i);
                taken(id);
                n += 1;
            } else {
                i += 1;
            }
        }
        n
    }
}
