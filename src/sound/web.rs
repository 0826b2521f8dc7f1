//! Live sound in a browser (built for `wasm32-unknown-unknown` in place of `device.rs`, with
//! the same interface): no thread, so the mixer runs in the frame. Each frame renders periods
//! of [`PERIOD`] samples until [`AHEAD`] seconds are queued ahead of what the browser plays,
//! and hands them to the page (`web/page.js`, Web Audio), which plays them one after another.
//! Browsers play nothing before the page's first click or key; until then nothing is queued
//! and the panel says why.

use super::mixer::Mixer;
use super::synth::{Impact, RATE};
use crate::web::page;
use std::cell::RefCell;

/// Samples per period handed to the page: about 23 ms.
const PERIOD: usize = 1024;
/// Sound queued ahead of what plays (s): enough for a frame of 50 ms between two fills.
const AHEAD: f64 = 0.12;

/// The page's output: the mixer, run from the frame.
pub struct Output {
    mixer: RefCell<Mixer>,
}

impl Output {
    /// An output at this volume (0..=1) and mute.
    pub fn start(volume: f32, muted: bool) -> Output {
        let mut mixer = Mixer::new();
        mixer.set_gain(volume, muted);
        Output {
            mixer: RefCell::new(mixer),
        }
    }

    /// Renders what the page needs to stay [`AHEAD`] seconds ahead.
    pub fn pump(&self) {
        let Some(mut ahead) = page::audio_ahead() else {
            return;
        };
        let mut block = vec![0.0f32; PERIOD];
        let mut mixer = self.mixer.borrow_mut();
        while ahead < AHEAD {
            mixer.render(&mut block);
            page::audio_push(&block, RATE);
            ahead += PERIOD as f64 / RATE as f64;
        }
    }

    /// Queues a frame's impacts after what is queued already; dropped while the browser
    /// plays nothing (before the first click).
    pub fn impacts(&self, batch: Vec<Impact>) {
        if page::audio_ahead().is_some() && !batch.is_empty() {
            let mut mixer = self.mixer.borrow_mut();
            let now = mixer.clock();
            mixer.queue(&batch, now);
        }
    }

    /// Sets the volume and mute.
    pub fn gain(&self, volume: f32, muted: bool) {
        self.mixer.borrow_mut().set_gain(volume, muted);
    }

    /// A page's output does not fail; before the first click it waits (see [`Output::waiting`]).
    pub fn failure(&self) -> Option<String> {
        None
    }

    /// The browser plays nothing yet: the page has had no click or key.
    pub fn waiting(&self) -> bool {
        page::audio_ahead().is_none()
    }
}
