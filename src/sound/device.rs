//! Live sound: a thread of its own runs the mixer and feeds the device, so a frame only
//! sends its impacts down a channel and never waits for audio.
//!
//! The thread renders a period of [`PERIOD`] samples, writes it (blocking while the device's
//! buffer is full, which paces it), and takes in whatever the channel brought meanwhile;
//! impacts are queued at the mixer's clock plus their offset within the frame. A device that
//! takes samples faster than it plays them (ALSA's "null") is paced by the wall clock instead:
//! the thread never runs more than [`AHEAD`] seconds ahead of it. When the device fails the
//! thread ends, and the panel says so.

use super::alsa::Pcm;
use super::mixer::Mixer;
use super::synth::{Impact, RATE};
use crate::clock::Instant;
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Samples per write: about 12 ms.
const PERIOD: usize = 512;
/// Most the rendering may run ahead of the wall clock (s).
const AHEAD: f64 = 0.15;
/// The device's buffer asked for (µs): short enough that a hit is heard with its frame.
pub const LATENCY_US: u32 = 60_000;

/// What the window sends the thread.
enum Msg {
    /// One frame's impacts, timed from the frame's start (s).
    Impacts(Vec<Impact>),
    /// Volume (0..=1) and mute.
    Gain(f32, bool),
}

/// The running output thread.
pub struct Output {
    tx: Sender<Msg>,
    /// Why playback stopped, once it has.
    failed: Arc<Mutex<Option<String>>>,
}

impl Output {
    /// Starts the thread playing through `pcm`.
    pub fn start(pcm: Pcm, volume: f32, muted: bool) -> Output {
        let (tx, rx) = channel();
        let failed = Arc::new(Mutex::new(None));
        let note = Arc::clone(&failed);
        let mut mixer = Mixer::new();
        mixer.set_gain(volume, muted);
        let spawned = std::thread::Builder::new()
            .name("sound".into())
            .spawn(move || {
                if let Err(e) = play(pcm, mixer, rx) {
                    *note.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                }
            });
        if let Err(e) = spawned {
            *failed.lock().unwrap_or_else(|p| p.into_inner()) = Some(e.to_string());
        }
        Output { tx, failed }
    }

    /// Sends a frame's impacts (never blocks).
    pub fn impacts(&self, batch: Vec<Impact>) {
        if !batch.is_empty() {
            let _ = self.tx.send(Msg::Impacts(batch));
        }
    }

    /// Sends the volume and mute.
    pub fn gain(&self, volume: f32, muted: bool) {
        let _ = self.tx.send(Msg::Gain(volume, muted));
    }

    /// Why playback stopped, if it did.
    pub fn failure(&self) -> Option<String> {
        self.failed
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

/// The thread's loop; returns when the window is gone (the channel closed) or on a device
/// error.
fn play(mut pcm: Pcm, mut mixer: Mixer, rx: Receiver<Msg>) -> Result<(), String> {
    let start = Instant::now();
    let mut block = vec![0.0f32; PERIOD];
    let mut pcm_block = vec![0i16; PERIOD];
    loop {
        loop {
            match rx.try_recv() {
                Ok(Msg::Impacts(batch)) => {
                    let now = mixer.clock();
                    mixer.queue(&batch, now);
                }
                Ok(Msg::Gain(v, m)) => mixer.set_gain(v, m),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return Ok(()),
            }
        }
        mixer.render(&mut block);
        for (o, s) in pcm_block.iter_mut().zip(&block) {
            *o = (s * 32767.0).round() as i16;
        }
        pcm.write(&pcm_block)?;
        let ahead = mixer.clock() as f64 / RATE as f64 - start.elapsed().as_secs_f64();
        if ahead > AHEAD {
            std::thread::sleep(Duration::from_secs_f64(ahead - AHEAD * 0.5));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::alsa::LIBRARIES;
    use super::super::synth::Kind;
    use super::*;

    #[test]
    fn the_thread_plays_through_a_device_that_never_blocks_without_running_away() {
        let Ok(pcm) = Pcm::open(LIBRARIES, "null", RATE, LATENCY_US) else {
            return; // no ALSA here
        };
        let out = Output::start(pcm, 1.0, false);
        let hit = Impact {
            time: 0.0,
            speed: 900.0,
            kind: Kind::Wall,
            tone: 0,
        };
        let t = Instant::now();
        for _ in 0..10 {
            out.impacts(vec![hit; 500]);
            std::thread::sleep(Duration::from_millis(16));
        }
        // Sending never waited for the audio.
        assert!(t.elapsed() < Duration::from_secs(2));
        assert_eq!(out.failure(), None);
    }
}
