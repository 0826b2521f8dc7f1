//! `--headless --frames N`: the run without a window, through the same stepper and recorder
//! as the window's, printing the summary line at the end, and on standard error where the
//! physics time went by stage (the page shows it under the summary line).

use crate::cli::{Args, LastFrames};
use crate::clock::Instant;
use crate::sound::Sound;
use crate::start::Source;
use collide::{Scene, Stepper, World};

/// `--headless --frames N`: N frames of 1/60 s through the same stepper and the recorder,
/// no window.
pub fn run(args: &Args, start: (Source, Scene, World)) {
    let (source, _, mut world) = start;
    let frames = args.frames.unwrap_or(0);
    let mut tape = source.tape(&world);
    let mut stepper = Stepper::default();
    let start = Instant::now();
    let mut last = LastFrames::default();
    let mut progress = Progress::new(frames);
    // Only a run that writes its sound takes the world's impacts (taking them changes nothing
    // of the simulation either way).
    let mut sound = args.sound_out.as_ref().map(|_| {
        let mut s = Sound::new(args.mute, crate::sound::DEFAULT_VOLUME);
        s.record();
        s
    });
    for frame in 0..frames {
        let t = Instant::now();
        stepper.advance_with(1.0 / 60.0, &mut world, |w| tape.step(w));
        last.push(t.elapsed().as_secs_f64() * 1000.0);
        if let Some(s) = &mut sound {
            let hits: Vec<_> = world.drain_hits().collect();
            s.hear(&world, &hits, 1.0);
        }
        progress.tell(frame + 1, last.mean());
    }
    let secs = start.elapsed().as_secs_f64();
    let fps = if secs > 0.0 {
        frames as f64 / secs
    } else {
        0.0
    };
    let ms = secs * 1000.0 / frames.max(1) as f64;
    println!(
        "{}",
        crate::cli::summary(frames, &world, fps, (ms, last.mean()))
    );
    if let Some(line) = profile_line(&world, frames, ms) {
        eprintln!("{line}");
        if let Some(line) = threads_line(&world, frames) {
            eprintln!("{line}");
        }
    }
    let sound_written = match (&sound, &args.sound_out) {
        (Some(s), Some(path)) => s.write_wav(path),
        _ => Ok(()),
    };
    let written = crate::start::write_outputs(args, &source, &mut tape, &world);
    if let Err(e) = written.and(sound_written) {
        eprintln!("error: {e}");
        crate::platform::exit(2);
    }
}

/// The physics time of the run by stage, ms a frame (the side panel's Profile line, over the
/// whole run): the broad phase's pairs, the soft contacts' stages, sleep and the meter, and
/// the rest of the step; `None` when the world kept no stage times.
fn profile_line(world: &World, frames: u64, ms: f64) -> Option<String> {
    let stages = world.counters().total.profile();
    let per = |ns: u64| ns as f64 / 1e6 / frames.max(1) as f64;
    let counted: f64 = stages.iter().map(|s| per(s.nanos)).sum();
    if counted == 0.0 {
        return None;
    }
    let shown: Vec<String> = stages
        .iter()
        .filter(|s| s.nanos > 0)
        .map(|s| format!("{} {:.2}", s.name, per(s.nanos)))
        .collect();
    Some(format!(
        "profile (ms a frame over the run): {}, other {:.2}",
        shown.join(", "),
        (ms - counted).max(0.0)
    ))
}

/// The run's stages by thread, when it ran on more than one: each thread's busy time and
/// its time waiting for the others or absent, ms a frame.
fn threads_line(world: &World, frames: u64) -> Option<String> {
    let t = &world.counters().total;
    let threads = t.profiled_threads();
    if threads < 2 {
        return None;
    }
    let stages = t.profile();
    let per = |ns: u64| ns as f64 / 1e6 / frames.max(1) as f64;
    let each: Vec<String> = (0..threads)
        .map(|k| {
            let busy: u64 = stages.iter().map(|s| s.spread.busy[k]).sum();
            let idle: u64 = stages.iter().map(|s| s.spread.idle[k] + s.absent(k)).sum();
            let who = if k == 0 {
                "caller".into()
            } else {
                format!("worker {k}")
            };
            format!("{who} {:.2} busy / {:.2} waiting", per(busy), per(idle))
        })
        .collect();
    Some(format!("by thread (ms a frame): {}", each.join(", ")))
}

/// A run that takes a while says how far it is on stderr, every [`Progress::EVERY`] seconds,
/// so a long run is never silent (stdout keeps its one summary line).
struct Progress {
    frames: u64,
    start: Instant,
    last: Instant,
}

impl Progress {
    const EVERY: f64 = 2.0;

    fn new(frames: u64) -> Self {
        let now = Instant::now();
        Progress {
            frames,
            start: now,
            last: now,
        }
    }

    /// After frame `done`, whose recent physics took `ms` ms a frame.
    fn tell(&mut self, done: u64, ms: f64) {
        if done < self.frames && self.last.elapsed().as_secs_f64() >= Self::EVERY {
            self.last = Instant::now();
            eprintln!(
                "frame {done} of {}: physics {ms:.1} ms a frame, {:.0} s so far",
                self.frames,
                self.start.elapsed().as_secs_f64()
            );
        }
    }
}
