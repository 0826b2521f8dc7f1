//! Fixed-timestep accumulator: frame time goes in, whole physics steps come out.
//!
//! Physics runs at `60 × motion_iterations` Hz whatever the frame rate, so one simulated
//! second is the same sequence of steps at 30 FPS or 240 FPS. A frame longer than
//! `max_frame` seconds is cut to it, so a slow frame cannot make the next one slower (no
//! spiral of death); the simulation then runs slower than real time instead.

use crate::world::World;

/// Feeds a [`World`] with fixed steps from variable frame times.
#[derive(Clone, Debug)]
pub struct Stepper {
    acc: f64,
    /// Longest frame time honoured (s).
    pub max_frame: f64,
    /// Real time is multiplied by this before it is fed (slow motion below 1).
    pub time_scale: f64,
}

impl Default for Stepper {
    fn default() -> Self {
        Self {
            acc: 0.0,
            max_frame: 0.1,
            time_scale: 1.0,
        }
    }
}

impl Stepper {
    /// Adds `frame_seconds` of real time and runs every whole step it pays for; returns the
    /// number of steps run.
    pub fn advance(&mut self, frame_seconds: f64, world: &mut World) -> u32 {
        self.advance_with(frame_seconds, world, World::step)
    }

    /// As [`Stepper::advance`], but each step is run by `step` (which must call
    /// [`World::step`] once): a recorder or replayer (`collide_replay::Tape`) applies its
    /// inputs between steps this way.
    pub fn advance_with(
        &mut self,
        frame_seconds: f64,
        world: &mut World,
        mut step: impl FnMut(&mut World),
    ) -> u32 {
        let frame = if frame_seconds.is_finite() {
            frame_seconds.clamp(0.0, self.max_frame)
        } else {
            0.0
        };
        self.acc += frame * self.time_scale;
        let dt = world.step_seconds();
        // A step is due when the accumulator reaches dt; the tolerance absorbs the rounding of
        // summing many frame times, so 30 frames of 1/30 s run exactly 60·M steps.
        let tolerance = dt * 1e-6;
        let mut steps = 0;
        while self.acc + tolerance >= dt {
            step(world);
            self.acc -= dt;
            steps += 1;
        }
        self.acc = self.acc.max(0.0);
        steps
    }

    /// Time owed to the simulation (s), less than one step.
    pub fn pending(&self) -> f64 {
        self.acc
    }
}
