//! The toy under test: its soft contacts and grid broad phase (as the app's Fill of more than
//! 1,000 balls), every setting its default but the thread count, turning shapes turning.

use crate::engine::{Disc, Engine};
use crate::setup::Setup;
use collide::{BroadKind, World};

/// The toy's world and its frame in steps.
pub struct Toy {
    world: World,
    steps: u32,
}

impl Toy {
    /// The toy on `threads` threads with `setup`'s balls.
    pub fn new(setup: &Setup, threads: usize) -> Self {
        let mut world = setup.toy_world();
        world.set_broad_phase(BroadKind::Grid);
        world.edit_settings(|s| {
            s.threads = threads;
            s.rotate = true;
        });
        let steps = world.steps_per_second() / 60;
        Self { world, steps }
    }
}

impl Engine for Toy {
    fn frame(&mut self) {
        for _ in 0..self.steps {
            self.world.step();
        }
    }

    fn discs(&self) -> Vec<Disc> {
        self.world.balls().iter().map(Disc::of).collect()
    }

    fn awake(&self) -> usize {
        self.world.balls().len() - self.world.asleep_count()
    }

    fn turned(&self) -> f32 {
        self.world.shapes().first().map_or(0.0, |s| s.angle)
    }
}
