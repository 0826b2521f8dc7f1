//! Mixing the impacts' voices into one signal that never clips, whatever the number of balls.
//!
//! - A batch of impacts (one frame's) gives at most [`MAX_NEW`] voices, the loudest; at most
//!   [`MAX_VOICES`] sound at once, and a new voice takes the place of the faintest one only
//!   if it is louder. Choosing the loudest is a selection, `O(n)` in the batch, so a frame of
//!   thousands of impacts costs microseconds.
//! - Every impact left out feeds the hum: a low rumble (filtered noise and a low tone) whose
//!   level follows the energy of the impacts it stands for, so a settling pile of 10,000
//!   balls hums instead of rattling a thousand clicks into noise.
//! - The sum goes through the volume, then a peak limiter with an instant attack (the gain is
//!   `LIMIT / peak` whenever the followed peak passes [`LIMIT`]) and a 100 ms release, so no
//!   sample ever exceeds [`LIMIT`] in magnitude.
//!
//! Everything runs on the mixer's sample clock: the same impacts queued at the same samples
//! give the same output, bit for bit (the recorder in `sound/record.rs` depends on it).

use super::synth::{loudness, Impact, Voice, RATE};

/// Most voices sounding at once.
pub const MAX_VOICES: usize = 32;
/// Most new voices one batch (a frame's impacts) starts.
pub const MAX_NEW: usize = 12;
/// Largest magnitude of an output sample.
pub const LIMIT: f32 = 0.89;
/// Level of the voices' sum before the volume: room for a few loud voices at once.
const MASTER: f32 = 0.45;

/// The mixer: voices, the ones waiting for their start, the hum, and the limiter.
#[derive(Clone, Debug)]
pub struct Mixer {
    /// The next sample to render.
    clock: u64,
    voices: Vec<Voice>,
    /// Voices not started yet, by start sample.
    waiting: Vec<Voice>,
    /// Energy the hum is to take in at a sample, by sample.
    hum_waiting: Vec<(u64, f32)>,
    hum: Hum,
    /// Volume times not muted.
    gain: f32,
    /// The limiter's followed peak.
    peak: f32,
    /// Voices started and impacts left to the hum, since the start.
    pub started: u64,
    pub hummed: u64,
}

/// The rumble standing for the impacts that got no voice of their own.
#[derive(Clone, Debug, Default)]
struct Hum {
    /// Energy in store; decays with a 0.12 s time constant.
    energy: f32,
    /// Its level now (smoothed), a one-pole low-pass of noise, the phase of its tone.
    level: f32,
    low: f32,
    phase: f32,
    noise: u32,
}

impl Hum {
    /// How much of the level one impact's loudness² adds to the store.
    const PER_IMPACT: f32 = 0.02;

    fn next(&mut self) -> f32 {
        self.energy *= HUM_DECAY;
        // The level follows √energy through a 5 ms smoothing, saturating at 1.
        let target = (self.energy.sqrt()).min(1.0);
        self.level += (target - self.level) * 0.005;
        if self.level < 1e-5 {
            return 0.0;
        }
        self.noise = self
            .noise
            .wrapping_mul(1_664_525)
            .wrapping_add(1_013_904_223);
        let white = (self.noise >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0;
        // One-pole low-pass at about 250 Hz: 1 − e^(−2π·250/44100) ≈ 0.035.
        self.low += (white - self.low) * 0.035;
        self.phase =
            (self.phase + std::f32::consts::TAU * 70.0 / RATE as f32) % std::f32::consts::TAU;
        0.5 * self.level * (2.5 * self.low + 0.4 * self.phase.sin())
    }
}

/// The hum's energy factor per sample: e^(−1 / (0.12 s · RATE)).
const HUM_DECAY: f32 = 0.999_811;
/// The limiter's release factor per sample: e^(−1 / (0.1 s · RATE)).
const RELEASE: f32 = 0.999_773;

impl Default for Mixer {
    fn default() -> Self {
        Self::new()
    }
}

impl Mixer {
    /// A silent mixer at sample 0, at full volume.
    pub fn new() -> Self {
        Mixer {
            clock: 0,
            voices: Vec::with_capacity(MAX_VOICES),
            waiting: Vec::new(),
            hum_waiting: Vec::new(),
            hum: Hum {
                noise: 0x2545_f491,
                ..Hum::default()
            },
            gain: 1.0,
            peak: 0.0,
            started: 0,
            hummed: 0,
        }
    }

    /// The next sample to render.
    pub fn clock(&self) -> u64 {
        self.clock
    }

    /// Voices sounding now.
    #[cfg(test)]
    pub fn voices(&self) -> usize {
        self.voices.len()
    }

    /// Sets the volume (0..=1) and mute.
    pub fn set_gain(&mut self, volume: f32, muted: bool) {
        let v = if volume.is_finite() {
            volume.clamp(0.0, 1.0)
        } else {
            0.0
        };
        self.gain = if muted { 0.0 } else { v };
    }

    /// Queues a batch of impacts, each at `origin + time · RATE` samples (never before the
    /// clock): the loudest [`MAX_NEW`] get voices, the rest feed the hum.
    pub fn queue(&mut self, batch: &[Impact], origin: u64) {
        let at = |i: &Impact| {
            let t = if i.time.is_finite() {
                i.time.max(0.0)
            } else {
                0.0
            };
            (origin + (t * RATE as f64).round() as u64).max(self.clock)
        };
        let mut order: Vec<(f32, usize)> = batch
            .iter()
            .enumerate()
            .map(|(k, i)| (loudness(i.speed), k))
            .collect();
        // Loudest first; ties by position, so the choice is the same every time.
        let by_loudness =
            |a: &(f32, usize), b: &(f32, usize)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
        if order.len() > MAX_NEW {
            order.select_nth_unstable_by(MAX_NEW - 1, by_loudness);
        }
        let mut hum = Vec::new();
        for (rank, &(loud, k)) in order.iter().enumerate() {
            let start = at(&batch[k]);
            if rank < MAX_NEW {
                self.waiting.push(Voice::new(&batch[k], start));
            } else {
                hum.push((start, loud * loud));
                self.hummed += 1;
            }
        }
        // The impacts of one step share a sample: one entry each for the hum.
        hum.sort_by_key(|h| h.0);
        for (start, e) in hum {
            match self.hum_waiting.iter_mut().find(|h| h.0 == start) {
                Some(h) => h.1 += e,
                None => self.hum_waiting.push((start, e)),
            }
        }
        // Latest first, so the next to start is at the end.
        self.waiting
            .sort_by(|a, b| b.start.cmp(&a.start).then(b.peak.total_cmp(&a.peak)));
        self.hum_waiting.sort_by_key(|h| std::cmp::Reverse(h.0));
    }

    /// Renders the next `out.len()` samples.
    pub fn render(&mut self, out: &mut [f32]) {
        for s in out.iter_mut() {
            self.start_due();
            let mut sum = self.hum.next();
            for v in &mut self.voices {
                sum += v.next();
            }
            *s = self.limited(sum * MASTER * self.gain);
            self.clock += 1;
            if self.clock.is_multiple_of(256) {
                self.voices.retain(|v| !v.done());
            }
        }
    }

    /// Starts the voices and hum energy due at the clock.
    fn start_due(&mut self) {
        while self.hum_waiting.last().is_some_and(|h| h.0 <= self.clock) {
            let (_, e) = self.hum_waiting.pop().expect("checked");
            self.hum.energy += e * Hum::PER_IMPACT;
        }
        while self.waiting.last().is_some_and(|v| v.start <= self.clock) {
            let v = self.waiting.pop().expect("checked");
            self.admit(v);
        }
    }

    /// A voice takes a free place, or the faintest one's if it is louder; else its energy
    /// goes to the hum.
    fn admit(&mut self, v: Voice) {
        if self.voices.len() < MAX_VOICES {
            self.voices.push(v);
            self.started += 1;
            return;
        }
        let (k, faintest) = self
            .voices
            .iter()
            .enumerate()
            .map(|(k, v)| (k, v.level()))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .expect("MAX_VOICES > 0");
        if v.peak > faintest {
            self.voices[k] = v;
            self.started += 1;
        } else {
            self.hum.energy += v.peak * v.peak * Hum::PER_IMPACT;
            self.hummed += 1;
        }
    }

    /// The limiter: follows the peak with an instant attack and scales it down to [`LIMIT`].
    fn limited(&mut self, x: f32) -> f32 {
        let x = if x.is_finite() { x } else { 0.0 };
        self.peak = x.abs().max(self.peak * RELEASE);
        if self.peak > LIMIT {
            // The clamp takes the rounding of the division: `x · LIMIT / |x|` may land one
            // unit above LIMIT.
            (x * (LIMIT / self.peak)).clamp(-LIMIT, LIMIT)
        } else {
            x
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::synth::Kind;
    use super::*;

    fn hits(n: usize, speed: f32, spread_s: f64) -> Vec<Impact> {
        let kinds = [
            Kind::Wall,
            Kind::Ball,
            Kind::Bumper,
            Kind::Gate,
            Kind::Target,
        ];
        (0..n)
            .map(|k| Impact {
                time: spread_s * k as f64 / n.max(1) as f64,
                speed,
                kind: kinds[k % kinds.len()],
                tone: k as u32,
            })
            .collect()
    }

    fn peak(samples: &[f32]) -> f32 {
        samples.iter().fold(0.0f32, |m, s| m.max(s.abs()))
    }

    #[test]
    fn ten_thousand_loud_impacts_stay_under_the_limit_with_the_voices_capped() {
        let mut m = Mixer::new();
        let mut out = vec![0.0; RATE as usize / 60];
        let mut loudest = 0.0f32;
        // Two seconds of frames, each with 10,000 impacts at full speed.
        for _ in 0..120 {
            m.queue(&hits(10_000, 5000.0, 1.0 / 60.0), m.clock());
            m.render(&mut out);
            assert!(m.voices() <= MAX_VOICES, "{} voices", m.voices());
            assert!(out.iter().all(|s| s.is_finite()));
            loudest = loudest.max(peak(&out));
        }
        assert!(loudest <= LIMIT, "peak {loudest}");
        // It is sound, not silence: the voices and the hum are there.
        assert!(loudest > 0.3, "peak {loudest}");
        assert!(
            m.hummed > 100 * m.started / 2,
            "{} hummed, {} voices",
            m.hummed,
            m.started
        );
    }

    #[test]
    fn one_batch_starts_at_most_max_new_voices_the_loudest() {
        let mut m = Mixer::new();
        let mut batch = hits(100, 100.0, 0.0);
        batch[37].speed = 3000.0;
        m.queue(&batch, 0);
        assert_eq!(m.waiting.len(), MAX_NEW);
        assert_eq!(m.hummed, 100 - MAX_NEW as u64);
        let loudest = m.waiting.iter().map(|v| v.peak).fold(0.0, f32::max);
        let expected = Voice::new(&batch[37], 0).peak;
        assert_eq!(loudest, expected);
    }

    #[test]
    fn muted_is_silent_and_volume_scales() {
        let render = |volume: f32, muted: bool| {
            let mut m = Mixer::new();
            m.set_gain(volume, muted);
            m.queue(&hits(3, 300.0, 0.01), 100);
            let mut out = vec![0.0; 4410];
            m.render(&mut out);
            out
        };
        assert!(render(1.0, true).iter().all(|&s| s == 0.0));
        let (full, half) = (render(1.0, false), render(0.5, false));
        assert!(peak(&full) > 0.01);
        assert!((peak(&half) - 0.5 * peak(&full)).abs() < 1e-4);
        // Nothing before the first impact's sample.
        assert!(full[..100].iter().all(|&s| s == 0.0));
    }

    #[test]
    fn the_same_impacts_give_the_same_samples() {
        let run = || {
            let mut m = Mixer::new();
            let mut all = Vec::new();
            for f in 0..30 {
                m.queue(&hits(50 + f, 200.0 + 40.0 * f as f32, 0.016), m.clock());
                let mut out = vec![0.0; 735];
                m.render(&mut out);
                all.extend(out);
            }
            all
        };
        assert_eq!(run(), run());
    }
}
