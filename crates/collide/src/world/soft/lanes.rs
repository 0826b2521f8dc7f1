//! Contacts as data: the step's soft contacts prepared once into arrays, one array a field
//! (normal, separation, masses, lever arms, friction, accumulated impulses), in the order the
//! solver visits them, and the balls' velocities in arrays of their own ([`BodyState`], as
//! Box2D's `b2BodyState`), solved there and written back once (Catto, "Solver2D", 2024).
//!
//! The order is the plan's (`colour.rs`): colour by colour, each colour padded to a multiple
//! of [`WIDTH`] lanes with lanes that name the spare body (slot `n`, all zero) and carry no
//! mass, so a wide kernel reads eight whole lanes at a time and the padding changes nothing.
//! Cost: `O(contacts)` to fill, `O(balls)` to load and store the bodies.

use crate::balls::BallSet;
use crate::geom::{clamp_speed, Ball};
use crate::world::contacts::{Kept, SoftContact};
use glam::Vec2;

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
    /// A spring of `hertz` and damping ratio `zeta` over a sub-step of `h` seconds.
    pub(super) fn new(hertz: f32, zeta: f32, h: f32) -> Self {
        let omega = std::f32::consts::TAU * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Self {
            bias_rate: omega / a1,
            mass_scale: a2 * a3,
            impulse_scale: a3,
        }
    }
}

/// A contact with an obstacle is never softer than this many hertz per sub-step rate
/// (Box2D caps its contact stiffness at a quarter of the sub-step rate): however soft the
/// balls are made, the walls hold a deep pile by a fraction of a radius and no ball is
/// pushed through one.
pub(super) const WALL_HERTZ_PER_RATE: f32 = 0.25;

/// The soft constraints of the two kinds of contact: between balls, and with an obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Springs {
    pub(super) balls: Softness,
    pub(super) walls: Softness,
}

impl Springs {
    /// Springs of `hertz` and damping ratio `zeta` over a sub-step of `h` seconds, the walls'
    /// at least [`WALL_HERTZ_PER_RATE`] of the sub-step rate.
    pub(super) fn new(hertz: f32, zeta: f32, h: f32) -> Self {
        let walls = hertz.max(WALL_HERTZ_PER_RATE / h);
        Self {
            balls: Softness::new(hertz, zeta, h),
            walls: Softness::new(walls, zeta, h),
        }
    }
}

/// What one pass over the lanes does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Pass {
    /// Applies the accumulated impulses of the contacts kept from the last step.
    Warm,
    /// Solves with the soft bias: the springs, their push-out speed cap (px/s), the sub-step
    /// (s).
    Solve(Springs, f32, f32),
    /// Solves without the bias (the sub-step, s): takes back the velocity the bias added.
    Relax(f32),
}

/// A ball's velocity state while the solver runs: velocity (px/s), spin (rad/s) and its move
/// since the step began (px). 32 bytes, one wide register.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(32))]
pub(super) struct BodyState {
    pub(super) vx: f32,
    pub(super) vy: f32,
    pub(super) w: f32,
    pub(super) _pad0: f32,
    pub(super) dx: f32,
    pub(super) dy: f32,
    pub(super) _pad1: [f32; 2],
}

/// Loads every ball's velocity and spin, its move since the contacts were found (from
/// `found_at`, the same length as `balls`), and the spare body at the end.
pub(super) fn load_bodies(states: &mut Vec<BodyState>, balls: &[Ball], found_at: &[Vec2]) {
    states.clear();
    states.extend(balls.iter().zip(found_at).map(|(b, at)| {
        let moved = b.pos - *at;
        BodyState {
            vx: b.vel.x,
            vy: b.vel.y,
            w: b.spin,
            dx: moved.x,
            dy: moved.y,
            ..BodyState::default()
        }
    }));
    states.push(BodyState::default());
}

/// Moves the awake balls by their solved velocities over `dt` s and keeps each one's move
/// since the contacts were found (at `found_at`).
pub(super) fn integrate_states(
    states: &mut Bodies,
    (balls, found_at): (&mut BallSet, &[Vec2]),
    dt: f32,
) {
    let (balls, rests) = balls.with_rests();
    for (i, (b, at)) in balls.iter_mut().zip(found_at).enumerate() {
        if rests[i].asleep {
            continue;
        }
        let mut s = states.get(i as u32);
        let to = b.pos + Vec2::new(s.vx, s.vy) * dt;
        let moved = to - *at;
        (s.dx, s.dy) = (moved.x, moved.y);
        states.set(i as u32, s);
        b.pos = to;
    }
}

/// Writes the velocities and spins back into the balls, each speed capped.
pub(super) fn store_bodies(states: &[BodyState], balls: &mut [Ball]) {
    for (b, s) in balls.iter_mut().zip(states) {
        b.vel = clamp_speed(Vec2::new(s.vx, s.vy));
        b.spin = s.w;
    }
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
    pub(super) inv_a: Vec<f32>,
    pub(super) inv_b: Vec<f32>,
    pub(super) ra: Vec<f32>,
    pub(super) rb: Vec<f32>,
    pub(super) inv_ia: Vec<f32>,
    pub(super) inv_ib: Vec<f32>,
    pub(super) tangent_mass: Vec<f32>,
    pub(super) rolling_mass: Vec<f32>,
    pub(super) mu: Vec<f32>,
    pub(super) rolling_reach: Vec<f32>,
    /// An obstacle's surface velocity (px/s); zero for a ball.
    pub(super) sx: Vec<f32>,
    pub(super) sy: Vec<f32>,
    pub(super) impulse: Vec<f32>,
    pub(super) max_push: Vec<f32>,
    pub(super) friction: Vec<f32>,
    pub(super) rolling: Vec<f32>,
    /// 1 where the lane's pair was kept from the last step (warm-started), else 0.
    pub(super) warm: Vec<f32>,
    /// The lane of each contact in the step's list.
    pub(super) lane_of: Vec<u32>,
    /// The kept impulses of each contact's pair, while preparing (`prepare.rs`).
    pub(super) kept_of: Vec<u32>,
}

impl Lanes {
    /// The lanes again for the next sub-step of their frame: every contact warm-starts from
    /// the impulses it was solved to, and no push is counted yet.
    pub(super) fn rearm(&mut self) {
        for (w, &src) in self.warm.iter_mut().zip(&self.src) {
            *w = if src == NO_BODY { 0.0 } else { 1.0 };
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

    pub(super) fn kept(&self, contacts: &[SoftContact], out: &mut Vec<Kept>) {
        out.clear();
        out.extend(contacts.iter().zip(&self.lane_of).map(|(c, &l)| {
            let l = l as usize;
            Kept {
                pair: c.pair(),
                impulse: self.impulse[l],
                friction: self.friction[l],
                rolling: self.rolling[l],
            }
        }));
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
    pub(super) inv_a: &'a [f32],
    pub(super) inv_b: &'a [f32],
    pub(super) ra: &'a [f32],
    pub(super) rb: &'a [f32],
    pub(super) inv_ia: &'a [f32],
    pub(super) inv_ib: &'a [f32],
    pub(super) tangent_mass: &'a [f32],
    pub(super) rolling_mass: &'a [f32],
    pub(super) mu: &'a [f32],
    pub(super) rolling_reach: &'a [f32],
    pub(super) sx: &'a [f32],
    pub(super) sy: &'a [f32],
    pub(super) warm: &'a [f32],
    pub(super) impulse: &'a mut [f32],
    pub(super) max_push: &'a mut [f32],
    pub(super) friction: &'a mut [f32],
    pub(super) rolling: &'a mut [f32],
}

impl LaneView<'_> {
    /// Lanes in the run.
    #[cfg(target_arch = "x86_64")]
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
            inv_a: &self.inv_a,
            inv_b: &self.inv_b,
            ra: &self.ra,
            rb: &self.rb,
            inv_ia: &self.inv_ia,
            inv_ib: &self.inv_ib,
            tangent_mass: &self.tangent_mass,
            rolling_mass: &self.rolling_mass,
            mu: &self.mu,
            rolling_reach: &self.rolling_reach,
            sx: &self.sx,
            sy: &self.sy,
            warm: &self.warm,
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

    /// State `i` as eight floats (`vx vy w · dx dy · ·`), 32-byte aligned (for the wide
    /// kernel).
    #[cfg(target_arch = "x86_64")]
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
