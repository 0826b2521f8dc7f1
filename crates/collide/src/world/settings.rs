//! The settings a user changes while the world runs: iterations, gravity, elasticity, the
//! next ball, the tunnelling mode, the pair cache, the contact solver and sleep.

use crate::response::HIT_SPEED;
use crate::tunnel::Tunnelling;
use serde::{Deserialize, Serialize};

/// Settings the user changes while the world runs.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Settings {
    /// Motion iterations per 1/60 s frame (1–64): physics rate is 60 × this.
    pub motion_iterations: u32,
    /// Collision iterations per motion iteration (1–64).
    pub collision_iterations: u32,
    /// Gravity (px/s², pointing down). May be 0.
    pub gravity: f32,
    /// Multiplies every combined elasticity.
    pub elasticity_scale: f32,
    /// Kinematic shapes turn while this is on.
    pub rotate: bool,
    /// Radius of the next launched ball (px).
    pub ball_radius: f32,
    /// Launch speed of the next ball (px/s).
    pub launch_speed: f32,
    /// Elasticity of launched balls.
    pub ball_elasticity: f32,
    /// Also run brute force every collision iteration and count the pairs the broad phase
    /// missed or added (both stay 0 for a correct broad phase). Costs a brute-force pass.
    pub verify: bool,
    /// How moving balls are tested (Off: discrete tests at the end of each step).
    pub tunnelling: Tunnelling,
    /// Fractions of the move the linear impact search tests (1–64; it tests `n + 1` places).
    pub linear_fractions: u32,
    /// Keep candidate pairs across collision iterations and steps (`world/cache.rs`): the
    /// broad phase is asked with grown boxes and asked again only when some box has left its
    /// grown box; each iteration filters the kept pairs. The same pairs in the same order, so
    /// the same simulation; fewer broad-phase box tests, counted apart (`Tally::cache_*`).
    #[serde(default = "yes")]
    pub pair_cache: bool,
    /// Which contact solver answers the contacts.
    #[serde(default)]
    pub solver: Solver,
    /// The soft solver's stiffness, damping, push-out speed and restitution threshold.
    #[serde(default)]
    pub soft: SoftSettings,
    /// When balls fall asleep.
    #[serde(default)]
    pub sleep: SleepSettings,
    /// Threads the soft contacts run on (narrow phase, preparing, passes; 1 to 64): the same simulation, bit for bit,
    /// on any number; only the time differs.
    #[serde(default = "one")]
    pub threads: usize,
    /// Balls in play from which a step uses its [`Settings::threads`]: below, sharing the
    /// work costs more than it saves, and the step keeps to the calling thread (the same
    /// bits either way). [`PARALLEL_FROM`] unless set.
    #[serde(default = "parallel_from")]
    pub parallel_from: usize,
}

/// Balls in play from which a step uses more than one thread, unless set
/// ([`Settings::parallel_from`]): the crossover measured on the box pile
/// (`collide-lab`'s `threads_crossover`, `docs/benchmarks.md`).
pub const PARALLEL_FROM: usize = 4096;

fn parallel_from() -> usize {
    PARALLEL_FROM
}

fn one() -> usize {
    1
}

fn yes() -> bool {
    true
}

impl Settings {
    /// Sub-steps the soft solver's contacts serve once found: a frame's (the motion
    /// iterations) when found once a frame, else one.
    pub(crate) fn contact_sub_steps(&self) -> u32 {
        if self.soft.once_a_frame {
            self.motion_iterations.clamp(1, 64)
        } else {
            1
        }
    }

    /// Whether balls may fall asleep: the sleep setting, or else on with soft contacts.
    pub(crate) fn sleep_on(&self) -> bool {
        self.sleep.enabled.unwrap_or(self.solver == Solver::Soft)
    }

    /// The settings whose change wakes every ball, as bits.
    pub(super) fn motion_key(&self) -> [u32; 12] {
        [
            self.gravity.to_bits(),
            self.elasticity_scale.to_bits(),
            self.motion_iterations,
            self.collision_iterations,
            self.solver as u32,
            self.sleep_on() as u32,
            self.sleep.speed.to_bits(),
            self.sleep.time.to_bits(),
            self.soft.hertz.to_bits(),
            self.soft.damping.to_bits(),
            self.tunnelling as u32,
            self.rotate as u32,
        ]
    }
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            motion_iterations: 4,
            collision_iterations: 6,
            gravity: 300.0,
            elasticity_scale: 1.0,
            rotate: false,
            ball_radius: 10.0,
            launch_speed: 1000.0,
            ball_elasticity: 0.95,
            verify: false,
            tunnelling: Tunnelling::Off,
            linear_fractions: 8,
            pair_cache: true,
            solver: Solver::PushOut,
            soft: SoftSettings::default(),
            sleep: SleepSettings::default(),
            threads: 1,
            parallel_from: PARALLEL_FROM,
        }
    }
}

/// Which contact solver answers the contacts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Solver {
    /// The course's push-out: move the ball out along the normal and reflect its normal
    /// velocity, once per pair per collision iteration.
    #[default]
    PushOut,
    /// Soft contacts: sequential impulses, warm-started, soft bias, relax, restitution.
    Soft,
}

impl Solver {
    /// Both, in menu order.
    pub const ALL: &'static [Solver] = &[Solver::PushOut, Solver::Soft];

    /// Command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Solver::PushOut => "push-out",
            Solver::Soft => "soft",
        }
    }

    /// Menu label.
    pub fn label(self) -> &'static str {
        match self {
            Solver::PushOut => "Push-out (the course's)",
            Solver::Soft => "Soft contacts (Box2D v3)",
        }
    }

    /// Looks up a command-line name.
    pub fn from_name(name: &str) -> Option<Solver> {
        Self::ALL.iter().copied().find(|s| s.name() == name)
    }
}

/// The soft solver's settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SoftSettings {
    /// Contact stiffness (Hz, > 0); a contact at rest under a heavy load is made up to four
    /// times stiffer (the soft solver's `Springs::of`).
    pub hertz: f32,
    /// Contact damping ratio (≥ 0).
    pub damping: f32,
    /// Fastest the soft bias pushes overlapping balls apart (px/s, > 0).
    pub push_speed: f32,
    /// Restitution applies only to contacts closing faster than this (px/s, ≥ 0).
    pub restitution_speed: f32,
    /// Coulomb friction coefficient at every contact (≥ 0); balls spin, so they roll.
    pub friction: f32,
    /// Rolling resistance (≥ 0): the torque opposing a ball's roll, per unit of normal force
    /// and radius; it lets a rolling ball come to rest.
    pub rolling: f32,
    /// Find and prepare the contacts once a frame (Box2D's way: each pair's reach covers the
    /// frame's motion, each sub-step tracks the separation by the balls' moves), rather than
    /// at every sub-step. Anything but the solver moving a ball finds them again at once.
    /// Off by default: with it on, `check` at full size still finds balls grazing a point
    /// whose rebound misses by more than 1 % (the point's normal turns within the frame), and
    /// a 10,000-ball pile slower to sleep (`docs/benchmarks.md`).
    pub once_a_frame: bool,
}

impl Default for SoftSettings {
    fn default() -> Self {
        Self {
            hertz: 240.0,
            damping: 10.0,
            push_speed: 60.0,
            restitution_speed: HIT_SPEED,
            friction: 0.6,
            rolling: 0.05,
            once_a_frame: false,
        }
    }
}

impl SoftSettings {
    /// Clamped into the ranges the panel allows (non-finite values to the defaults).
    pub(crate) fn sanitized(self) -> Self {
        let d = Self::default();
        let pick = |v: f32, lo: f32, hi: f32, def: f32| {
            if v.is_finite() {
                v.clamp(lo, hi)
            } else {
                def
            }
        };
        Self {
            hertz: pick(self.hertz, 1.0, 10_000.0, d.hertz),
            damping: pick(self.damping, 0.0, 100.0, d.damping),
            push_speed: pick(self.push_speed, 0.1, 1.0e5, d.push_speed),
            restitution_speed: pick(self.restitution_speed, 0.0, 1.0e5, d.restitution_speed),
            friction: pick(self.friction, 0.0, 10.0, d.friction),
            rolling: pick(self.rolling, 0.0, 10.0, d.rolling),
            once_a_frame: self.once_a_frame,
        }
    }
}

/// When balls may fall asleep.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SleepSettings {
    /// On, off, or `None`: on with soft contacts, off with the push-out.
    pub enabled: Option<bool>,
    /// Balls slower than this (px/s) count as still; a contact closing on a sleeper faster
    /// than this wakes it.
    pub speed: f32,
    /// Seconds a ball must stay still before it has settled and may sleep, with the settled
    /// balls it touches.
    pub time: f32,
}

impl Default for SleepSettings {
    fn default() -> Self {
        Self {
            enabled: None,
            speed: 5.0,
            time: 0.5,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solver_names_round_trip() {
        for &s in Solver::ALL {
            assert_eq!(Solver::from_name(s.name()), Some(s));
        }
    }
}
