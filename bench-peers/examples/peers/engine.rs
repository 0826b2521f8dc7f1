//! What the bench asks of every engine: step a frame, hand back its balls, say how many are
//! awake, how far its walls have turned and how deep they are.

use collide::Ball;

/// A ball as every engine reports it: centre (px), velocity (px/s), radius (px).
#[derive(Clone, Copy, Debug)]
pub struct Disc {
    pub pos: [f32; 2],
    pub vel: [f32; 2],
    pub r: f32,
}

impl Disc {
    /// The toy's ball `b` as a disc.
    pub fn of(b: &Ball) -> Self {
        Self {
            pos: b.pos.into(),
            vel: b.vel.into(),
            r: b.radius,
        }
    }
}

/// One engine under test, on its own number of threads.
pub trait Engine {
    /// Advances one frame of 1/60 s (all its sub-steps).
    fn frame(&mut self);
    /// The balls now, in the order they were given.
    fn discs(&self) -> Vec<Disc>;
    /// How many balls are awake.
    fn awake(&self) -> usize;
    /// How far the walls have turned from their starting pose (rad, counter-clockwise).
    fn turned(&self) -> f32;
    /// How deep its walls are behind their faces (px; 0 for bare segments).
    fn wall_depth(&self) -> f32 {
        0.0
    }
    /// Where its time went since the last call, stage by stage, where the engine says
    /// (the toy's profile, with `--trace`).
    fn profile_since(&mut self) -> Option<String> {
        None
    }
}
