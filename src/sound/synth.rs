//! One impact's sound, made in code: two sine partials under an exponential decay, with a
//! short burst of noise for the click of contact. The kind of shape sets the timbre (a wall's
//! low knock, the click of two balls, a bumper's ring, a gate's hollow tick, a target's bell),
//! the impact speed the loudness and a little of the pitch. Everything is plain `f32`
//! arithmetic from the impact alone, so the same impacts give the same samples.

use std::f32::consts::TAU;

/// Samples per second of everything the toy plays or writes.
pub const RATE: u32 = 44_100;

/// What a ball hit, as far as its sound goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A wall: segment, arc, rectangle, point, or a kinematic bar.
    Wall,
    /// Another ball.
    Ball,
    /// A shape that kicks: elasticity above 1, or a bumper's kick.
    Bumper,
    /// A one-way gate.
    Gate,
    /// A target: a pinball target or one of the table's teardrops.
    Target,
}

/// One impact to sound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impact {
    /// When (s), from the origin its batch is queued with (see `Mixer::queue`).
    pub time: f64,
    /// Approach speed (px/s).
    pub speed: f32,
    /// What was hit.
    pub kind: Kind,
    /// Picks one of a few neighbouring pitches, so a run of hits is not one note (the ball's
    /// index will do).
    pub tone: u32,
}

/// Impacts at this speed (px/s) or slower are nearly silent; the world records none below 30.
const QUIET_SPEED: f32 = 30.0;
/// Impacts at this speed (px/s) or faster are at full loudness.
const LOUD_SPEED: f32 = 3000.0;

/// Loudness in 0..=1 of an impact at `speed` px/s: on a log scale from [`QUIET_SPEED`] to
/// [`LOUD_SPEED`], squared, over a floor, so a launch (about 1,000 px/s) is clear and a
/// resting nudge a faint tick.
pub fn loudness(speed: f32) -> f32 {
    if !speed.is_finite() || speed <= 0.0 {
        return 0.0;
    }
    let g = ((speed / QUIET_SPEED).ln() / (LOUD_SPEED / QUIET_SPEED).ln()).clamp(0.0, 1.0);
    0.06 + 0.94 * g * g
}

/// The timbre of one kind: base pitch (Hz), second partial (ratio, level), decay time to
/// 1/e (s), noise level and its decay time (s), and the kind's level in the mix.
struct Timbre {
    pitch: f32,
    partial: (f32, f32),
    decay: f32,
    noise: (f32, f32),
    level: f32,
}

fn timbre(kind: Kind) -> Timbre {
    match kind {
        Kind::Wall => Timbre {
            pitch: 190.0,
            partial: (2.02, 0.35),
            decay: 0.06,
            noise: (0.35, 0.004),
            level: 0.8,
        },
        Kind::Ball => Timbre {
            pitch: 1500.0,
            partial: (2.4, 0.3),
            decay: 0.025,
            noise: (0.25, 0.002),
            level: 0.5,
        },
        Kind::Bumper => Timbre {
            pitch: 330.0,
            partial: (2.76, 0.5),
            decay: 0.3,
            noise: (0.2, 0.004),
            level: 1.0,
        },
        Kind::Gate => Timbre {
            pitch: 760.0,
            partial: (3.0, 0.4),
            decay: 0.05,
            noise: (0.3, 0.003),
            level: 0.7,
        },
        Kind::Target => Timbre {
            pitch: 1046.5,
            partial: (2.76, 0.45),
            decay: 0.5,
            noise: (0.15, 0.003),
            level: 0.9,
        },
    }
}

/// Semitone steps of a pentatonic scale, for [`Impact::tone`].
const STEPS: [f32; 5] = [-5.0, -3.0, 0.0, 2.0, 4.0];

/// Samples of the linear attack: a click-free start.
const ATTACK: u32 = 32;
/// A voice whose level falls below this is finished (about −60 dB).
const SILENT: f32 = 1e-3;

/// One sounding impact.
#[derive(Clone, Debug)]
pub struct Voice {
    /// The sample it starts at (the mixer's clock).
    pub start: u64,
    /// Peak level in 0..=1 (loudness times the kind's level).
    pub peak: f32,
    /// Samples played so far.
    age: u32,
    phase: [f32; 2],
    /// Phase advance per sample (rad).
    step: [f32; 2],
    partial_level: f32,
    /// The envelope now, and its factor per sample.
    env: f32,
    fall: f32,
    noise_env: f32,
    noise_fall: f32,
    noise: u32,
}

impl Voice {
    /// The voice of `impact`, starting at sample `start`.
    pub fn new(impact: &Impact, start: u64) -> Self {
        let t = timbre(impact.kind);
        let loud = loudness(impact.speed);
        let semis = STEPS[(impact.tone % STEPS.len() as u32) as usize];
        // Harder hits ring a little higher (up to a fifth of an octave).
        let pitch = t.pitch * (semis / 12.0).exp2() * (1.0 + 0.2 * loud);
        let per = |secs: f32| (-1.0 / (secs * RATE as f32)).exp();
        let w = TAU / RATE as f32;
        Voice {
            start,
            peak: loud * t.level,
            age: 0,
            phase: [0.0; 2],
            step: [pitch * w, pitch * t.partial.0 * w],
            partial_level: t.partial.1,
            env: 1.0,
            fall: per(t.decay),
            noise_env: t.noise.0,
            noise_fall: per(t.noise.1),
            noise: 0x9e37_79b9 ^ impact.tone.wrapping_mul(0x85eb_ca6b),
        }
    }

    /// Its level now: what stealing it would cut off.
    pub fn level(&self) -> f32 {
        self.peak * self.env
    }

    /// Finished: too faint to hear.
    pub fn done(&self) -> bool {
        self.level() < SILENT
    }

    /// The next sample.
    #[inline]
    pub fn next(&mut self) -> f32 {
        let attack = ((self.age + 1) as f32 / ATTACK as f32).min(1.0);
        self.age = self.age.saturating_add(1);
        let tone = self.phase[0].sin() + self.partial_level * self.phase[1].sin();
        for k in 0..2 {
            self.phase[k] = (self.phase[k] + self.step[k]) % TAU;
        }
        // A xorshift for the click's noise: deterministic, no state outside the voice.
        self.noise ^= self.noise << 13;
        self.noise ^= self.noise >> 17;
        self.noise ^= self.noise << 5;
        let white = self.noise as f32 / u32::MAX as f32 * 2.0 - 1.0;
        let out = self.peak * attack * (self.env * tone + self.noise_env * white);
        self.env *= self.fall;
        self.noise_env *= self.noise_fall;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn impact(kind: Kind, speed: f32) -> Impact {
        Impact {
            time: 0.0,
            speed,
            kind,
            tone: 2,
        }
    }

    #[test]
    fn louder_for_faster_impacts_and_never_above_one() {
        let mut last = 0.0;
        for speed in [30.0, 100.0, 300.0, 1000.0, 3000.0, 1e6] {
            let l = loudness(speed);
            assert!(l >= last && l <= 1.0, "{speed}: {l}");
            last = l;
        }
        assert_eq!(loudness(f32::NAN), 0.0);
        assert_eq!(loudness(-5.0), 0.0);
    }

    #[test]
    fn a_voice_starts_softly_rings_and_dies_away() {
        for kind in [
            Kind::Wall,
            Kind::Ball,
            Kind::Bumper,
            Kind::Gate,
            Kind::Target,
        ] {
            let mut v = Voice::new(&impact(kind, 1000.0), 0);
            let first = v.next().abs();
            let samples: Vec<f32> = (0..RATE * 4).map(|_| v.next()).collect();
            let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
            assert!(first < 0.1 * peak, "{kind:?}: a click at the start");
            assert!(peak > 0.05 && peak <= 1.5, "{kind:?}: peak {peak}");
            assert!(samples.iter().all(|s| s.is_finite()));
            assert!(v.done(), "{kind:?} still sounding after 4 s");
        }
    }

    #[test]
    fn a_ball_click_is_higher_and_shorter_than_a_wall_knock() {
        let (ball, wall) = (
            Voice::new(&impact(Kind::Ball, 800.0), 0),
            Voice::new(&impact(Kind::Wall, 800.0), 0),
        );
        assert!(ball.step[0] > 4.0 * wall.step[0]);
        assert!(ball.fall < wall.fall);
    }
}
