//! The toy under test: its soft contacts and grid broad phase (as the app's Fill of more than
//! 1,000 balls), every setting its default but the thread count, turning shapes turning.

use crate::engine::{Disc, Engine};
use crate::setup::Setup;
use collide::{BroadKind, World};

/// The toy's world and its frame in steps.
pub struct Toy {
    world: World,
    steps: u32,
    /// The profile's totals at the last `profile_since` (with a clock: `--trace`).
    profiled: Option<collide::world::Tally>,
}

impl Toy {
    /// The toy on `threads` threads with `setup`'s balls.
    pub fn new(setup: &Setup, threads: usize, trace: bool) -> Self {
        let mut world = setup.toy_world();
        world.set_broad_phase(BroadKind::Grid);
        world.edit_settings(|s| {
            s.threads = threads;
            s.rotate = true;
        });
        let steps = world.steps_per_second() / 60;
        let profiled = trace.then(|| {
            world.set_clock(nanos);
            collide::world::Tally::default()
        });
        Self {
            world,
            steps,
            profiled,
        }
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

    fn profile_since(&mut self) -> Option<String> {
        let before = self.profiled.as_mut()?;
        let now = self.world.counters().total.profile();
        let line = now
            .iter()
            .zip(before.profile())
            .map(|(s, b)| format!("{} {:.2}", s.name, (s.nanos - b.nanos) as f64 / 60e6))
            .collect::<Vec<_>>()
            .join(", ");
        *before = self.world.counters().total;
        Some(format!("ms a frame: {line}"))
    }
}

/// The toy's clock with `--trace` (ns since the first call).
fn nanos() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_nanos() as u64
}
