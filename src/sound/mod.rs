//! Sound: every impact the world records is heard, as the original toy's were (its dialog
//! had a Mute box).
//!
//! - `synth.rs`: one impact's voice, made in code from the kind of shape hit and the speed.
//! - `mixer.rs`: voices capped and mixed, the rest as a hum, a limiter: never clips.
//! - `device.rs`, `alsa.rs`: live output on a thread of its own, through the system's ALSA
//!   library loaded at run time; without one, or without a device, the toy runs silent and
//!   the panel says why.
//! - `wav.rs`: `--sound-out FILE.wav` writes the run's sound, synthesised from the impacts on
//!   simulated time (each at the end of its step), so it is the same on every run.
//!
//! Sound only reads what the world recorded ([`collide::world::Hit`]); it never changes the
//! simulation.

#[cfg(not(target_arch = "wasm32"))]
pub mod alsa;
#[cfg(not(target_arch = "wasm32"))]
pub mod device;
/// In a browser the output is the page's Web Audio, run from the frame.
#[cfg(target_arch = "wasm32")]
#[path = "web.rs"]
pub mod device;
pub mod mixer;
pub mod synth;
pub mod wav;

use collide::world::{Hit, HitWith};
use collide::{Geometry, World};
use mixer::Mixer;
use std::path::Path;
use synth::{Impact, Kind, RATE};

/// The volume a first run starts with (0..=1).
pub const DEFAULT_VOLUME: f32 = 0.7;

/// The environment variable naming the ALSA device to play on (default "default").
#[cfg(not(target_arch = "wasm32"))]
pub const DEVICE_VAR: &str = "CMT_AUDIO_DEVICE";

/// The window's sound: the live output (if any), the recording for `--sound-out` (if asked),
/// the settings, and the simulated clock the impacts are timed on.
pub struct Sound {
    output: Option<device::Output>,
    /// Why there is no live output.
    silent: Option<String>,
    /// Every frame's impacts, on simulated time, for `--sound-out`.
    recorded: Option<Vec<Vec<Impact>>>,
    muted: bool,
    volume: f32,
    /// The world's steps and the simulated time (s) at the last [`Sound::hear`].
    steps: u64,
    time: f64,
}

impl Sound {
    /// Sound with no live output (yet): headless runs, and the window before it opens one.
    pub fn new(muted: bool, volume: f32) -> Sound {
        Sound {
            output: None,
            silent: Some("off in runs with --frames (see --sound-out)".into()),
            recorded: None,
            muted,
            volume: clean_volume(volume),
            steps: 0,
            time: 0.0,
        }
    }

    /// Opens the audio device ([`DEVICE_VAR`], else "default") and starts playing; where
    /// that fails the toy runs silent, and [`Sound::status`] says why (also on stderr).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open_device(&mut self) {
        let name = std::env::var(DEVICE_VAR).unwrap_or_else(|_| "default".into());
        match alsa::Pcm::open(alsa::LIBRARIES, &name, RATE, device::LATENCY_US) {
            Ok(pcm) => {
                self.output = Some(device::Output::start(pcm, self.volume, self.muted));
                self.silent = None;
            }
            Err(e) => {
                eprintln!("sound: {e}; running silent");
                self.silent = Some(e);
            }
        }
    }

    /// In a browser: the page's Web Audio, which plays after the page's first click or key.
    #[cfg(target_arch = "wasm32")]
    pub fn open_device(&mut self) {
        self.output = Some(device::Output::start(self.volume, self.muted));
        self.silent = None;
    }

    /// Keeps every impact from now on for [`Sound::write_wav`].
    pub fn record(&mut self) {
        self.recorded = Some(Vec::new());
    }

    /// Sets mute and the volume (0..=1).
    pub fn set(&mut self, muted: bool, volume: f32) {
        let volume = clean_volume(volume);
        if (muted, volume) != (self.muted, self.volume) {
            (self.muted, self.volume) = (muted, volume);
            if let Some(out) = &self.output {
                out.gain(volume, muted);
            }
        }
    }

    /// Whether the sound is muted: the one place mute is kept (the panel, M and the saved
    /// settings read it here).
    pub fn muted(&self) -> bool {
        self.muted
    }

    /// The volume (0..=1).
    pub fn volume(&self) -> f32 {
        self.volume
    }

    /// One line for the panel: where the sound goes, or why there is none.
    pub fn status(&self) -> String {
        if let Some(why) = self.output.as_ref().and_then(device::Output::failure) {
            return format!("Sound: stopped ({why})");
        }
        match (&self.output, &self.silent) {
            (Some(_), _) if self.muted => "Sound: muted".into(),
            #[cfg(target_arch = "wasm32")]
            (Some(out), _) if out.waiting() => "Sound: click the page to hear it".into(),
            #[cfg(target_arch = "wasm32")]
            (Some(_), _) => format!("Sound: the browser's, {:.1} kHz", RATE as f32 / 1000.0),
            #[cfg(not(target_arch = "wasm32"))]
            (Some(_), _) => {
                let name = std::env::var(DEVICE_VAR).unwrap_or_else(|_| "default".into());
                format!("Sound: ALSA {name}, {:.1} kHz", RATE as f32 / 1000.0)
            }
            (None, Some(why)) if why.starts_with("no audio") => "Sound: no audio device".into(),
            (None, Some(why)) => format!("Sound: {why}"),
            (None, None) => "Sound: off".into(),
        }
    }

    /// Why there is no live sound (the panel's hover text), if there is none.
    pub fn silent_because(&self) -> Option<&str> {
        self.silent.as_deref()
    }

    /// Takes the impacts `hits` the world recorded since the last call (their step tells when),
    /// sends them to the device timed within the frame (at `time_scale` simulated seconds per
    /// real second), and keeps them on simulated time when recording.
    pub fn hear(&mut self, world: &World, hits: &[Hit], time_scale: f64) {
        let dt = world.step_seconds();
        let steps = world.steps();
        #[cfg(target_arch = "wasm32")]
        if let Some(out) = &self.output {
            out.pump();
        }
        let before = self.time;
        // The world restarted or was rewound when its steps went back: time goes on from here.
        self.time += steps.saturating_sub(self.steps) as f64 * dt;
        self.steps = steps;
        if hits.is_empty() {
            return;
        }
        let batch: Vec<Impact> = hits
            .iter()
            .map(|h| Impact {
                // The end of the hit's step.
                time: self.time - steps.saturating_sub(h.step + 1) as f64 * dt,
                speed: h.speed,
                kind: kind_of(world, h),
                // Its place in the list: a ball gone since has the first tone.
                tone: world.ball_index(h.ball).map_or(0, |i| i as u32),
            })
            .collect();
        if let Some(out) = &self.output {
            let scale = if time_scale > 0.0 { time_scale } else { 1.0 };
            let live = batch
                .iter()
                .map(|i| Impact {
                    time: ((i.time - before) / scale).max(0.0),
                    ..*i
                })
                .collect();
            out.impacts(live);
        }
        if let Some(rec) = &mut self.recorded {
            rec.push(batch);
        }
    }

    /// The recorded impacts' sound from time 0 to the simulated time now, at the volume and
    /// mute now, as a WAV file at `path`.
    pub fn write_wav(&self, path: &Path) -> Result<(), String> {
        let batches = self.recorded.as_deref().unwrap_or(&[]);
        let samples = render(batches, self.time, self.volume, self.muted);
        wav::write(path, &samples, RATE)
    }
}

/// A volume in 0..=1 (a non-number is silence).
fn clean_volume(v: f32) -> f32 {
    if v.is_finite() {
        v.clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// What hit `h` hit, as a sound: balls click; gates, scoring targets and kicking shapes have
/// their own; everything else is a wall.
pub fn kind_of(world: &World, h: &Hit) -> Kind {
    let HitWith::Shape(s) = h.with else {
        return Kind::Ball;
    };
    let Some(shape) = world.shapes().get(s as usize) else {
        return Kind::Wall;
    };
    if matches!(shape.geom, Geometry::Gate { .. }) {
        Kind::Gate
    } else if world.play().shape(s as usize).target.is_some() {
        Kind::Target
    } else if shape.elasticity > 1.0 || world.play().shape(s as usize).kick > 0.0 {
        Kind::Bumper
    } else {
        Kind::Wall
    }
}

/// The samples of `batches` (impacts on simulated time from 0) up to `seconds`: each batch is
/// queued once the mixer's clock reaches its first impact, as live output queues a frame's.
pub fn render(batches: &[Vec<Impact>], seconds: f64, volume: f32, muted: bool) -> Vec<f32> {
    let total = (seconds.max(0.0) * RATE as f64).round() as usize;
    let mut out = vec![0.0f32; total];
    let mut mixer = Mixer::new();
    mixer.set_gain(volume, muted);
    let sample_of = |t: f64| (t.max(0.0) * RATE as f64).round() as usize;
    for batch in batches {
        let first = batch.iter().map(|i| sample_of(i.time)).min().unwrap_or(0);
        let upto = first.min(total);
        let from = (mixer.clock() as usize).min(upto);
        mixer.render(&mut out[from..upto]);
        mixer.queue(batch, 0);
    }
    let from = (mixer.clock() as usize).min(total);
    mixer.render(&mut out[from..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table with one ball launched, stepped `frames` frames, heard frame by frame.
    fn table_run(frames: u32, muted: bool) -> (Sound, Vec<f64>) {
        let scene = collide::Scene::builtin("table").expect("built in");
        let mut world = scene.build(1);
        world.launch(1);
        let mut sound = Sound::new(muted, 1.0);
        sound.record();
        let mut times = Vec::new();
        for _ in 0..frames {
            for _ in 0..world.settings().motion_iterations {
                world.step();
            }
            let hits: Vec<Hit> = world.drain_hits().collect();
            let dt = world.step_seconds();
            times.extend(hits.iter().map(|h| (h.step + 1) as f64 * dt));
            sound.hear(&world, &hits, 1.0);
        }
        (sound, times)
    }

    fn rms(s: &[f32]) -> f32 {
        (s.iter().map(|x| x * x).sum::<f32>() / s.len().max(1) as f32).sqrt()
    }

    #[test]
    fn a_launch_sounds_at_its_impacts_and_is_silent_away_from_them() {
        let (sound, times) = table_run(180, false);
        assert!(times.len() >= 3, "{} impacts in 3 s", times.len());
        let batches = sound.recorded.as_deref().unwrap();
        let samples = render(batches, sound.time, 1.0, false);
        assert_eq!(samples.len(), 3 * RATE as usize);
        let window = |t: f64, len: f64| {
            let a = ((t * RATE as f64) as usize).min(samples.len());
            let b = (((t + len) * RATE as f64) as usize).min(samples.len());
            rms(&samples[a..b])
        };
        for &t in &times {
            assert!(window(t, 0.02) > 0.01, "quiet at the impact at {t:.3} s");
        }
        // Before the first impact and half a second after the last: silence.
        let first = times[0];
        assert!(first > 0.05, "first impact at {first}");
        assert!(window(0.0, first - 0.01) == 0.0);
        let last = times.iter().fold(0.0f64, |m, &t| m.max(t));
        if last + 0.6 < 3.0 {
            assert!(window(last + 0.5, 0.1) < 1e-3);
        }
    }

    #[test]
    fn muted_the_recording_is_silence() {
        let (sound, times) = table_run(120, true);
        assert!(!times.is_empty());
        let samples = render(sound.recorded.as_deref().unwrap(), sound.time, 1.0, true);
        assert!(samples.iter().all(|&s| s == 0.0));
    }

    #[test]
    fn the_status_says_why_there_is_no_sound() {
        let mut s = Sound::new(false, 0.5);
        s.silent = Some("no audio device (default: No such file or directory)".into());
        assert_eq!(s.status(), "Sound: no audio device");
        s.silent = Some("no audio library (libasound.so.2: not found)".into());
        assert_eq!(s.status(), "Sound: no audio device");
    }
}
