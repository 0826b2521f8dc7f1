//! The Load line's figures, from the app's own clock read once at the start of every frame.
//!
//! A frame runs from its start to the next frame's start, its `next_frame` (where the GL
//! driver may do the frame's drawing) included; the main thread's work and the physics of a
//! frame are set against that same frame's length, so neither share can pass 100 %. The
//! lengths are smoothed, and the frame rate is one over the smoothed length: the frames
//! actually shown, however unevenly they come (a mean of 1 / length would let the short
//! frames between long ones read as hundreds a second).

use crate::state::Load;

/// Weight of the newest frame in the smoothed figures.
const NEWEST: f64 = 0.1;

/// One frame's start (s, on the meter's clock) and what it cost (s).
#[derive(Clone, Copy, Debug)]
struct Frame {
    start: f64,
    cpu: f64,
    physics: f64,
}

/// Smoothed frame length, main thread work and physics time (s), and the frame waiting for
/// the next one's start to know its length.
#[derive(Clone, Copy, Debug, Default)]
pub struct LoadMeter {
    open: Option<Frame>,
    smoothed: Option<(f64, f64, f64)>,
}

impl LoadMeter {
    /// Notes the frame that began at `start` (s, any clock that only moves forward), whose
    /// main thread worked `cpu` s and whose physics took `physics` s; the figures, up to the
    /// frame before it (whose length this start ends).
    pub fn frame(&mut self, start: f64, cpu: f64, physics: f64, slow_motion: bool) -> Load {
        if let Some(f) = self.open.replace(Frame {
            start,
            cpu,
            physics,
        }) {
            let len = (start - f.start).max(1e-6);
            let newest = (len, f.cpu.min(len), f.physics);
            self.smoothed = Some(match self.smoothed {
                None => newest,
                Some(old) => (
                    mix(old.0, newest.0),
                    mix(old.1, newest.1),
                    mix(old.2, newest.2),
                ),
            });
        }
        self.load(slow_motion)
    }

    /// The figures from the smoothed lengths (all zero before a frame has ended).
    fn load(&self, slow_motion: bool) -> Load {
        let Some((len, cpu, physics)) = self.smoothed else {
            return Load {
                slow_motion,
                ..Load::default()
            };
        };
        Load {
            fps: (1.0 / len) as f32,
            cpu: (cpu / len).min(1.0) as f32,
            physics_ms: (physics * 1000.0) as f32,
            physics_share: (physics / len).min(1.0) as f32,
            slow_motion,
        }
    }
}

fn mix(old: f64, new: f64) -> f64 {
    old * (1.0 - NEWEST) + new * NEWEST
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the meter over frames of these lengths and main-thread costs (s), repeated.
    fn run(frames: &[(f64, f64)], times: usize) -> Load {
        let mut meter = LoadMeter::default();
        let (mut clock, mut load) = (0.0, Load::default());
        for &(len, cpu) in frames.iter().cycle().take(frames.len() * times) {
            load = meter.frame(clock, cpu, 0.0005, false);
            clock += len;
        }
        load
    }

    #[test]
    fn uneven_frames_read_as_the_frames_shown_not_the_short_ones() {
        // A 3 ms frame, then a 30 ms one: 2 frames each 33 ms, 60.6 a second (a mean of
        // their rates, 333 and 33 a second, would read 183). The smoothing sways a little
        // with the last frame's length.
        let load = run(&[(0.003, 0.002), (0.030, 0.029)], 200);
        assert!((load.fps - 60.6).abs() < 5.0, "{load:?}");
        assert!((load.cpu - 31.0 / 33.0).abs() < 0.05, "{load:?}");
    }

    #[test]
    fn no_share_passes_the_whole_frame() {
        // A clock reading work longer than the frame it was in (as a coarse clock may).
        let load = run(&[(0.010, 0.025)], 50);
        assert!(load.cpu <= 1.0 && load.physics_share <= 1.0, "{load:?}");
        assert!((load.fps - 100.0).abs() < 1.0, "{load:?}");
    }

    #[test]
    fn the_first_frame_reads_nothing_until_it_ends() {
        let mut meter = LoadMeter::default();
        assert_eq!(meter.frame(5.0, 0.01, 0.0, false).fps, 0.0);
        let load = meter.frame(5.02, 0.01, 0.0, false);
        assert!((load.fps - 50.0).abs() < 0.01, "{load:?}");
        assert!((load.cpu - 0.5).abs() < 0.01, "{load:?}");
    }
}
