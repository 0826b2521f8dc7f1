//! Contacts as data: the step's soft contacts prepared once into arrays, one array a field
//! (normal, separation, effective masses, spring, accumulated impulses), in the order the
//! solver visits them, and the balls' velocities in arrays of their own ([`BodyState`], as
//! Box2D's `b2BodyState`), solved there and written back once (Catto, "Solver2D", 2024). What
//! belongs to a ball rather than to a contact (its inverse mass and inertia, its radius: the
//! lever arm) is read from its body state, and what is the same for every contact (the
//! friction coefficient, the rolling reach per radius) is one value, so a lane carries
//! twelve floats and its two bodies' numbers.
//!
//! The order is the plan's (`colour.rs`): colour by colour, each colour padded to a multiple
//! of [`WIDTH`] lanes with lanes that name the spare body (slot `n`, all zero) and carry no
//! mass, so a wide kernel reads eight whole lanes at a time and the padding changes nothing.
//! Cost: `O(contacts)` to fill, `O(balls)` to load and store the bodies.

use crate::balls::{BallSet, Rest};
use crate::geom::{clamp_speed, Ball};
use crate::workers;
use crate::world::contacts::{Kept, SoftContact};
use crate::world::settings::SoftSettings;
use glam::Vec2;

/// Lanes (or contacts, or balls, for the other loops of the step's preparing and
/// finishing) below which the fill and those loops keep to one thread.
pub(super) const PARALLEL_FROM: usize = 8192;

/// Lanes a wide kernel solves at once (AVX2: eight `f32`).
pub(super) const WIDTH: usize = 8;

/// The body slot of "no body": an obstacle's side of a contact.
pub(super) const NO_BODY: u32 = u32::MAX;

/// Extra reach of a speculative contact beyond the motion, as a fraction of the radius.
pub(super) const SPECULATIVE_RADII: f32 = 0.1;

/// The soft constraint's coefficients for a sub-step of `h` seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Softness {
    pub(super) bias_rate: f32,
    pub(super) mass_scale: f32,
    pub(super) impulse_scale: f32,
}

impl Softness {
    #[cfg(test)]
    /// A spring of `hertz` and damping ratio `zeta` over a sub-step of `h` seconds.
    pub(super) fn new(hertz: f32, zeta: f32, h: f32) -> Self {
        Self::of_omega(std::f32::consts::TAU * hertz, zeta, h)
    }

    /// A spring of angular frequency `omega` (rad/s) and damping ratio `zeta` over a sub-step
    /// of `h` seconds.
    pub(super) fn of_omega(omega: f32, zeta: f32, h: f32) -> Self {
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self {
            bias_rate: omega / a1,
            mass_scale: 1.0 - a3,
            impulse_scale: a3,
        }
    }
}

/// A contact with an obstacle is never softer than this many hertz per sub-step rate
/// (Box2D caps its contact stiffness at a quarter of the sub-step rate): however soft the
/// balls are made, the walls hold a deep pile by a fraction of a radius and no ball is
/// pushed through one.
pub(super) const WALL_HERTZ_PER_RATE: f32 = 0.25;

/// How deep, as a fraction of the smaller radius, a loaded contact sinks at rest before its
/// spring is made stiffer (see [`Springs::of`]).
pub(super) const FIRM_RADII: f32 = 0.005;

/// The stiffest a loaded contact's spring is made, as a multiple of its frequency.
pub(super) const FIRMEST: f32 = 4.0;

/// Over-relaxation of the relax passes but the last, for the firm contacts between two balls
/// (a loaded pile at rest, see [`Springs::of`]): each moves such a contact's normal impulse
/// this many times the step that would meet its constraint alone (successive
/// over-relaxation; Gauss–Seidel is 1, and it converges below 2), so a deep pile's velocities
/// settle in far fewer passes. Every other contact takes plain steps, and the last pass is
/// plain Gauss–Seidel: a hit is solved as before, the walls (solved last) keep the last word,
/// and the velocities a step leaves are a plain pass's.
pub(super) const RELAX_OVER: f32 = 1.8;

/// One kind of contact's spring: its `ω²` (rad²/s²) and its softness over the sub-step.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Spring {
    omega2: f32,
    soft: Softness,
}

/// The soft constraints of the two kinds of contact, between balls and with an obstacle, over
/// a sub-step of `h` seconds, each made stiffer where it carries a load (see [`Springs::of`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Springs {
    balls: Spring,
    walls: Spring,
    h: f32,
    /// Contacts whose balls are slower than this (px/s) rest (see [`Springs::of`]).
    slow: f32,
}

impl Springs {
    /// Springs of `hertz` and damping ratio `zeta` over a sub-step of `h` seconds, the walls'
    /// at least [`WALL_HERTZ_PER_RATE`] of the sub-step rate.
    pub(super) fn new(hertz: f32, zeta: f32, h: f32) -> Self {
        let spring = |hz: f32| {
            let omega = std::f32::consts::TAU * hz;
            Spring {
                omega2: omega * omega,
                soft: Softness::of_omega(omega, zeta, h),
            }
        };
        Self {
            balls: spring(hertz),
            walls: spring(hertz.max(WALL_HERTZ_PER_RATE / h)),
            h,
            slow: 0.0,
        }
    }

    /// A contact's own spring (between balls or with an obstacle, `rb` zero) and the load
    /// that would sink it [`FIRM_RADII`] of the smaller radius at an `ω²` of one.
    fn spring_of(&self, mass: f32, radii: (f32, f32)) -> (&Spring, f32) {
        let (ra, rb) = radii;
        let (spring, small) = match rb > 0.0 {
            true => (&self.balls, ra.min(rb)),
            false => (&self.walls, ra),
        };
        (spring, self.h * mass * FIRM_RADII * small)
    }

    /// Whether a contact is firm (see [`Springs::of`]).
    pub(super) fn firm(&self, load: f32, speed: f32, mass: f32, radii: (f32, f32)) -> bool {
        let (spring, held) = self.spring_of(mass, radii);
        speed < self.slow && held > 0.0 && held.is_finite() && load > held * spring.omega2
    }

    /// The same springs, with contacts whose balls are slower than `speed` (px/s) at rest.
    pub(super) fn resting_below(self, speed: f32) -> Self {
        Self {
            slow: speed,
            ..self
        }
    }

    /// The over-relaxation of a contact's relax passes ([`RELAX_OVER`] or 1): whether it is
    /// `firm` (see [`Springs::of`]) and between two balls (`ball`).
    pub(super) fn over(firm: bool, ball: bool) -> f32 {
        match firm && ball {
            true => RELAX_OVER,
            false => 1.0,
        }
    }

    /// The softness of a contact of normal mass `mass` between balls of radii `ra` and `rb`
    /// (`rb` zero for an obstacle) that carried a normal impulse `load` last sub-step, the
    /// faster of its balls moving at `speed` (px/s), and whether it is made stiffer (firm).
    ///
    /// At rest a spring of `ω` holds a load `W` with an overlap of `W/(m·ω²)`, so a deep
    /// pile's bottom sinks in proportion to the pile's height. A contact whose load would sink
    /// it further than [`FIRM_RADII`] of the smaller radius gets the `ω` that holds it there,
    /// up to [`FIRMEST`] times its own: the pile's lower layers stiffer, its surface as soft as
    /// set. Its damping ratio grows with `ω`, so its bias rate `β = ω/(2ζ + hω)` stays its own
    /// spring's and it pushes out no faster; only its give `k_i = 1/(1 + hω²/β)` shrinks. The
    /// load is the last sub-step's, so a contact finds its stiffness as the pile settles, and
    /// only a contact at rest is made stiffer (its balls slower than the restitution speed):
    /// a hit's brief load stiffens nothing, and a stirred pile carries a jolt no further than
    /// it did.
    pub(super) fn of(&self, load: (f32, f32), mass: f32, radii: (f32, f32)) -> (Softness, bool) {
        let firm = self.firm(load.0, load.1, mass, radii);
        (self.softness(firm, load.0, mass, radii), firm)
    }

    /// [`Springs::of`]'s softness for a contact already known to be `firm` or not.
    pub(super) fn softness(&self, firm: bool, load: f32, mass: f32, radii: (f32, f32)) -> Softness {
        let (spring, held) = self.spring_of(mass, radii);
        if !firm {
            return spring.soft;
        }
        // The `ω²` that holds the load within the reach.
        let omega2 = (load / held).min(FIRMEST * FIRMEST * spring.omega2);
        let rate = spring.soft.bias_rate;
        let give = 1.0 / (1.0 + self.h * omega2 / rate);
        Softness {
            bias_rate: rate,
            mass_scale: 1.0 - give,
            impulse_scale: give,
        }
    }
}

/// What one pass over the lanes does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Pass {
    /// Applies the accumulated impulses of the contacts kept from the last step.
    Warm,
    /// Solves with each lane's soft bias: the push-out speed cap (px/s), the sub-step (s).
    Solve(f32, f32),
    /// Solves without the bias (the sub-step, s), over-relaxed where the lanes say so if set
    /// (see [`RELAX_OVER`]): takes back the velocity the bias added.
    Relax(f32, bool),
}

/// A ball's state while the solver runs: velocity (px/s), spin (rad/s) and its move since
/// the step began (px), which the passes solve and read, and its inverse mass, inverse
/// inertia and radius as the step's contacts see it (zero inverses for a sleeper), which they
/// only read. The contacts' lanes name their balls and read these here, where each gather
/// brings them with the velocities, rather than carrying six more arrays a lane. 32 bytes,
/// one wide register, each on a cache line of its own
/// (64 bytes apart): on several threads, two balls solved by different threads never share
/// a line. Packed two to a line, the ten thousand balls of the box pile, whose indices the
/// fill shuffles, had the two threads writing the same lines all through the passes: two
/// threads took as long as one (`docs/benchmarks.md`, "Where a frame goes, by thread"). The
/// page runs on one thread, so there they are packed, two to a line: half the memory the
/// passes gather from.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(not(target_arch = "wasm32"), repr(C, align(64)))]
#[cfg_attr(target_arch = "wasm32", repr(C, align(32)))]
pub(super) struct BodyState {
    pub(super) vx: f32,
    pub(super) vy: f32,
    pub(super) w: f32,
    pub(super) inv_m: f32,
    pub(super) dx: f32,
    pub(super) dy: f32,
    pub(super) inv_i: f32,
    pub(super) r: f32,
}

impl BodyState {
    /// Ball `b`'s inverse mass, inverse inertia and radius as its contacts see it (`find.rs`'s
    /// `set_masses` takes them from here): zero inverses when it sleeps.
    pub(super) fn masses(b: &Ball, asleep: bool) -> (f32, f32, f32) {
        if asleep {
            return (0.0, 0.0, b.radius);
        }
        let inertia = 0.5 * b.mass * b.radius * b.radius;
        (1.0 / b.mass, 1.0 / inertia.max(1e-12), b.radius)
    }
}

/// Loads every ball's velocity and spin and its move since the contacts were found (from
/// `found_at`, the same length as `balls`), and the spare body at the end, on up to `threads`
/// threads. With `masses` (a sub-step that found its contacts), each ball's masses and radius
/// too, from `rests` (a sleeper's inverses are zero); without, they stay as the sub-step that
/// found the contacts left them, as the contacts saw them (a ball that fell asleep since is
/// still solved as they saw it).
pub(super) fn load_bodies(
    states: &mut Vec<BodyState>,
    (balls, rests): (&[Ball], &[Rest]),
    found_at: &[Vec2],
    masses: bool,
    threads: usize,
) {
    let n = balls.len().min(found_at.len()).min(rests.len());
    let masses = masses || states.len() != n + 1;
    if masses {
        states.clear();
        states.resize(n + 1, BodyState::default());
    }
    workers::chunks(threads, &mut states[..n], PARALLEL_FROM, |start, run| {
        let from = balls[start..].iter().zip(&found_at[start..]);
        for ((s, (b, at)), rest) in run.iter_mut().zip(from).zip(&rests[start..]) {
            let moved = b.pos - *at;
            let (inv_m, inv_i, r) = match masses {
                true => BodyState::masses(b, rest.asleep),
                false => (s.inv_m, s.inv_i, s.r),
            };
            *s = BodyState {
                vx: b.vel.x,
                vy: b.vel.y,
                w: b.spin,
                inv_m,
                dx: moved.x,
                dy: moved.y,
                inv_i,
                r,
            };
        }
    });
}

/// Moves the awake balls by their solved velocities over `dt` s and keeps each one's move
/// since the contacts were found (at `found_at`).
pub(super) fn integrate_states(
    states: &mut Bodies,
    balls: &mut BallSet,
    found_at: &[Vec2],
    dt: f32,
) {
    let (balls, rests) = balls.with_rests();
    integrate_run(states, &mut BallRun::whole(balls, rests, found_at), dt);
}

/// A run of the balls: the balls from index `start`, with their rests and where each was
/// when the contacts were found; the move of the positions is cut into such runs, one a
/// thread.
pub(super) struct BallRun<'a> {
    pub(super) start: usize,
    pub(super) balls: &'a mut [Ball],
    pub(super) rests: &'a [Rest],
    pub(super) found_at: &'a [Vec2],
}

impl<'a> BallRun<'a> {
    /// Every ball as one run.
    pub(super) fn whole(balls: &'a mut [Ball], rests: &'a [Rest], found_at: &'a [Vec2]) -> Self {
        BallRun {
            start: 0,
            balls,
            rests,
            found_at,
        }
    }

    /// The run cut into `parts` runs of about equal length, in order.
    pub(super) fn cut(self, parts: usize) -> Vec<BallRun<'a>> {
        let n = self.balls.len();
        let (mut balls, mut rests, mut found_at) = (self.balls, self.rests, self.found_at);
        let mut start = self.start;
        (0..parts)
            .map(|t| {
                let len = (t + 1) * n / parts - t * n / parts;
                let (b, rest_b) = std::mem::take(&mut balls).split_at_mut(len);
                let (r, rest_r) = rests.split_at(len.min(rests.len()));
                let (f, rest_f) = found_at.split_at(len.min(found_at.len()));
                (balls, rests, found_at) = (rest_b, rest_r, rest_f);
                let run = BallRun {
                    start,
                    balls: b,
                    rests: r,
                    found_at: f,
                };
                start += len;
                run
            })
            .collect()
    }
}

/// [`integrate_states`] for the balls of `run`.
pub(super) fn integrate_run(states: &mut Bodies, run: &mut BallRun, dt: f32) {
    let rests = run.rests;
    for (k, (b, at)) in run.balls.iter_mut().zip(run.found_at).enumerate() {
        if rests[k].asleep {
            continue;
        }
        let i = run.start + k;
        let mut s = states.get(i as u32);
        let to = b.pos + Vec2::new(s.vx, s.vy) * dt;
        let moved = to - *at;
        (s.dx, s.dy) = (moved.x, moved.y);
        states.set(i as u32, s);
        b.pos = to;
    }
}

/// Writes the velocities and spins back into the balls, each speed capped.
pub(super) fn store_bodies(states: &[BodyState], balls: &mut [Ball], threads: usize) {
    workers::chunks(threads, balls, PARALLEL_FROM, |start, run| {
        for (b, s) in run.iter_mut().zip(&states[start..]) {
            b.vel = clamp_speed(Vec2::new(s.vx, s.vy));
            b.spin = s.w;
        }
    });
}

/// The step's contacts as arrays, in the plan's order (see the module notes).
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Lanes {
    /// The contact in the step's list (pair order) of each lane; `NO_BODY` for padding.
    pub(super) src: Vec<u32>,
    /// Body slots: the ball, and the other ball or `NO_BODY` (an obstacle).
    pub(super) a: Vec<u32>,
    pub(super) b: Vec<u32>,
    pub(super) nx: Vec<f32>,
    pub(super) ny: Vec<f32>,
    /// Separation when found (px).
    pub(super) sep: Vec<f32>,
    pub(super) mass: Vec<f32>,
    pub(super) tangent_mass: Vec<f32>,
    pub(super) rolling_mass: Vec<f32>,
    /// Every lane's friction coefficient, and its rolling reach as a fraction of its smaller
    /// ball's radius (its ball's, with an obstacle): the settings' when the contacts were
    /// found, the same for every contact, so no lane carries them (the kernels work each
    /// lane's reach out from its bodies' radii).
    pub(super) mu: f32,
    pub(super) reach_per_radius: f32,
    /// An obstacle's surface velocity (px/s); zero for a ball.
    pub(super) sx: Vec<f32>,
    pub(super) sy: Vec<f32>,
    pub(super) impulse: Vec<f32>,
    pub(super) max_push: Vec<f32>,
    pub(super) friction: Vec<f32>,
    pub(super) rolling: Vec<f32>,
    /// The soft bias rate and impulse scale of each lane's spring (its mass scale is one
    /// less the impulse scale), from its load (`Springs::of`).
    pub(super) rate: Vec<f32>,
    pub(super) give: Vec<f32>,
    /// The over-relaxation of each lane's relax passes (`Springs::over`).
    pub(super) over: Vec<f32>,
    /// 1 where the lane's pair was kept from the last step (warm-started), else 0.
    pub(super) warm: Vec<f32>,
    /// The lane of each contact in the step's list.
    pub(super) lane_of: Vec<u32>,
    /// The kept impulses of each contact's pair, while preparing (`prepare.rs`).
    pub(super) kept_of: Vec<u32>,
}

impl Lanes {
    /// Takes the friction coefficient and the rolling reach per radius of `soft`, the
    /// settings the contacts about to be prepared were found with.
    pub(super) fn take_coefficients(&mut self, soft: &SoftSettings) {
        (self.mu, self.reach_per_radius) = (soft.friction, soft.rolling);
    }

    /// The lanes again for the next sub-step of their frame: every contact warm-starts from
    /// the impulses it was solved to, with the spring its load calls for (`springs`), and no
    /// push is counted yet.
    pub(super) fn rearm(&mut self, springs: &Springs, contacts: &[SoftContact]) {
        for (w, &src) in self.warm.iter_mut().zip(&self.src) {
            *w = if src == NO_BODY { 0.0 } else { 1.0 };
        }
        for k in 0..self.len() {
            let contact = contacts.get(self.src[k] as usize);
            let load = (self.impulse[k], contact.map_or(0.0, |c| c.speed));
            let radii = contact.map_or((0.0, 0.0), |c| (c.ra, c.rb));
            let (soft, firm) = springs.of(load, self.mass[k], radii);
            (self.rate[k], self.give[k]) = (soft.bias_rate, soft.impulse_scale);
            self.over[k] = Springs::over(firm, self.b[k] != NO_BODY);
        }
        self.max_push.fill(0.0);
    }

    /// Number of lanes, padding included.
    pub(super) fn len(&self) -> usize {
        self.src.len()
    }

    /// The impulses to keep for the next step, in the order of the contacts (pair order).
    /// The normal impulse each of `contacts` ended the step with.
    pub(super) fn impulses<'a>(
        &'a self,
        contacts: &'a [SoftContact],
    ) -> impl Iterator<Item = f32> + 'a {
        contacts
            .iter()
            .zip(&self.lane_of)
            .map(|(_, &l)| self.impulse[l as usize])
    }

    pub(super) fn kept(&self, contacts: &[SoftContact], out: &mut Vec<Kept>, threads: usize) {
        let kept = |c: &SoftContact, l: u32| {
            let l = l as usize;
            Kept {
                pair: c.pair(),
                impulse: self.impulse[l],
                friction: self.friction[l],
                rolling: self.rolling[l],
            }
        };
        let n = contacts.len().min(self.lane_of.len());
        workers::map_indices_into(threads, n, PARALLEL_FROM, out, |k| {
            kept(&contacts[k], self.lane_of[k])
        });
    }
}

/// A run of lanes as the kernels see it: the lanes `[start, end)` of [`Lanes`], the fields
/// the passes only read, and the impulses they solve, each its own slice (so the runs of one
/// colour can go to several threads, each with its own).
pub(super) struct LaneView<'a> {
    pub(super) a: &'a [u32],
    pub(super) b: &'a [u32],
    pub(super) nx: &'a [f32],
    pub(super) ny: &'a [f32],
    pub(super) sep: &'a [f32],
    pub(super) mass: &'a [f32],
    pub(super) tangent_mass: &'a [f32],
    pub(super) rolling_mass: &'a [f32],
    pub(super) mu: f32,
    pub(super) reach_per_radius: f32,
    pub(super) sx: &'a [f32],
    pub(super) sy: &'a [f32],
    pub(super) warm: &'a [f32],
    pub(super) rate: &'a [f32],
    pub(super) give: &'a [f32],
    pub(super) over: &'a [f32],
    pub(super) impulse: &'a mut [f32],
    pub(super) max_push: &'a mut [f32],
    pub(super) friction: &'a mut [f32],
    pub(super) rolling: &'a mut [f32],
}

impl LaneView<'_> {
    /// Lanes in the run.
    #[cfg(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    pub(super) fn len(&self) -> usize {
        self.a.len()
    }
}

impl Lanes {
    /// Every lane as one run (no allocation: the step's passes ask for it every time).
    pub(super) fn view(&mut self) -> LaneView<'_> {
        LaneView {
            a: &self.a,
            b: &self.b,
            nx: &self.nx,
            ny: &self.ny,
            sep: &self.sep,
            mass: &self.mass,
            tangent_mass: &self.tangent_mass,
            rolling_mass: &self.rolling_mass,
            mu: self.mu,
            reach_per_radius: self.reach_per_radius,
            sx: &self.sx,
            sy: &self.sy,
            warm: &self.warm,
            rate: &self.rate,
            give: &self.give,
            over: &self.over,
            impulse: &mut self.impulse,
            max_push: &mut self.max_push,
            friction: &mut self.friction,
            rolling: &mut self.rolling,
        }
    }
}

/// The body states the kernels read and write, shared by the threads of one solve.
///
/// Sharing is sound because of the colouring's promise: within a colour no two lanes name one
/// ball, the colours are separated by a barrier, each colour's runs go to the threads in
/// whole blocks, and its padding (which names the spare body) lies in its last block, so one
/// thread alone touches any state between two barriers.
#[derive(Clone, Copy)]
pub(super) struct Bodies<'a> {
    ptr: *mut BodyState,
    len: usize,
    _owner: std::marker::PhantomData<&'a mut [BodyState]>,
}

// SAFETY: see the type's notes; a `Bodies` is only copied to another thread through `share`.
unsafe impl Send for Bodies<'_> {}

impl<'a> Bodies<'a> {
    /// The states of `states`, held for `'a`.
    pub(super) fn new(states: &'a mut [BodyState]) -> Self {
        Self {
            ptr: states.as_mut_ptr(),
            len: states.len(),
            _owner: std::marker::PhantomData,
        }
    }

    /// Another handle on the same states, for another thread.
    ///
    /// # Safety
    /// The threads holding handles must never touch one state between two synchronisations
    /// (the colouring's promise, see the type's notes).
    pub(super) unsafe fn share(&self) -> Self {
        *self
    }

    /// State `i`.
    pub(super) fn get(&self, i: u32) -> BodyState {
        assert!((i as usize) < self.len);
        // SAFETY: in bounds; no other thread writes state `i` now (the type's notes).
        unsafe { *self.ptr.add(i as usize) }
    }

    /// State `i` as eight floats (`vx vy w inv_m dx dy inv_i r`), 32-byte aligned (for the
    /// wide kernel).
    #[cfg(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))]
    pub(super) fn row(&self, i: u32) -> *mut f32 {
        assert!((i as usize) < self.len);
        // SAFETY: in bounds; the caller keeps the type's rule on who touches state `i`.
        unsafe { self.ptr.add(i as usize).cast::<f32>() }
    }

    /// Sets state `i`.
    pub(super) fn set(&mut self, i: u32, s: BodyState) {
        assert!((i as usize) < self.len);
        // SAFETY: in bounds; no other thread reads or writes state `i` now (the type's notes).
        unsafe { *self.ptr.add(i as usize) = s }
    }
}
