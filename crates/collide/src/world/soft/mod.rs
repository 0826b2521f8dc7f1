//! Soft contacts: the second contact solver, sequential impulses with soft constraints, the
//! method of Box2D v3's "soft step" (Catto, "Solver2D", 2024), written for this world.
//!
//! One world step is one sub-step. It applies gravity to the velocities, finds the contacts
//! once (one broad-phase call with each ball's box grown along its motion, so contacts are
//! *speculative*: a pair closer than the distance it can close this step is a contact with a
//! positive separation `s`), and then:
//!
//! 1. **warm start**: each contact kept from the last step (matched by its pair) applies its
//!    accumulated normal impulse again;
//! 2. **solve** (`collision_iterations` passes): `Δλ = −m·k_m·(v_n + b) − k_i·λ`, `λ ≥ 0`, with
//!    the soft bias `b = max(β·s, −push_speed)` for an overlap, `b = s/h` for a gap;
//! 3. **integrate** the positions with the solved velocities;
//! 4. **relax** (twice as many passes): the same without the soft bias (`b = 0`, `k_m = 1`, `k_i = 0`
//!    for an overlap), removing the velocity the bias added so pushing out adds no energy;
//! 5. **restitution**: a contact that closed faster than the threshold speed and pushed gets
//!    `v_n = −e·v_n⁻` (its approach speed before the solve; `e > 1` for bumpers);
//! 6. in the swept tunnelling modes, a ball whose move still reaches an obstacle the
//!    contacts missed (a corner met at a glancing angle) stops at the time of impact found by
//!    the mode's search (Box2D's continuous step does the same for fast bodies).
//!
//! The soft constraint is a damped spring of `hertz` and damping ratio `ζ` solved implicitly:
//! with `ω = 2π·hertz`, `a₁ = 2ζ + hω`, `a₂ = hω·a₁`, `a₃ = 1/(1 + a₂)`: bias rate
//! `β = ω/a₁`, mass scale `k_m = a₂·a₃`, impulse scale `k_i = a₃`. At rest it holds a load
//! `W` with an overlap of `W/(m·ω²)`, so the stiffness sets how far a deep pile sinks.
//!
//! Obstacles have infinite mass; a kinematic shape's surface velocity at the contact enters
//! `v_n`. A gate lets a fast ball through as in the push-out (no contact). A group answers its
//! deepest member. Cost: one broad-phase call and one narrow test per pair per step, then
//! `O(contacts)` per pass.
//!
//! The files, one concern each: `find.rs` finds the contacts (narrow phase); `lanes.rs` holds
//! them as arrays and the balls' velocities as body states; `colour.rs` plans the order the
//! lanes are solved in (colour by colour); `scalar.rs` is the kernel, `wide.rs` the same
//! eight lanes at a time (`kernel.rs` picks one); `threads.rs` runs the passes on several threads; `finish.rs`
//! restitution and the swept modes' guard.

mod colour;
mod find;
mod finish;
mod kernel;
mod lanes;
mod scalar;
mod threads;
#[cfg(target_arch = "x86_64")]
mod wide;

use super::body::BodyPair;
use super::contacts::{ConstraintColour, Kept, SoftContact};
use super::context::{Frame, StepContext};
use super::sleepers::Wakes;
use crate::balls::BallSet;
use crate::geom::{clamp_speed, Aabb, Ball};
use crate::tunnel::Tunnelling;
use colour::Plan;
use find::Finder;
use glam::Vec2;
use lanes::{Bodies, BodyState, Lanes, Pass, Softness, SPECULATIVE_RADII};
use threads::Job;

/// Relax passes per solve pass. A deep pile's velocities converge in the relax passes: with
/// as many as the solve makes (6 and 6), the 10,000-ball box pile kept jittering at 4–12 px/s
/// rms and never fell asleep; with twice as many it is still by 5 s (`bench-peers`' pile).
const RELAX_PER_SOLVE: u32 = 2;

/// Most threads the passes run on.
pub(super) const MAX_THREADS: usize = 64;

/// The soft solver's state: the step's contacts, as found and as lanes, the plan of their
/// order, the body states, and the impulses kept for the next step's warm start.
#[derive(Clone, Debug, Default)]
pub(super) struct SoftStage {
    contacts: Vec<SoftContact>,
    plan: Plan,
    lanes: Lanes,
    states: Vec<BodyState>,
    /// The step's jobs (kept: a settled step allocates nothing).
    jobs: Vec<Job>,
    /// Last step's impulses, in the order of their pairs ([`BodyPair::key`]).
    pub(super) kept: Vec<Kept>,
}

impl SoftStage {
    /// The last step's contacts, each with the normal impulse it was solved to.
    pub(super) fn contacts(&self) -> impl Iterator<Item = (&SoftContact, f32, ConstraintColour)> {
        let colours = (0..self.contacts.len()).map(|k| self.plan.colour_of(k));
        self.contacts
            .iter()
            .zip(self.lanes.impulses(&self.contacts))
            .zip(colours)
            .map(|((c, i), k)| (c, i, k))
    }

    /// The velocity part of the move: gravity, for the awake balls.
    pub(super) fn accelerate(balls: &mut BallSet, cx: &StepContext) {
        let g = Vec2::new(0.0, -cx.settings.gravity);
        let (balls, rests) = balls.with_rests();
        for (b, _) in balls.iter_mut().zip(rests).filter(|(_, r)| !r.asleep) {
            b.vel = clamp_speed(b.vel + g * cx.dt);
        }
    }

    /// A ball's box for the step's broad-phase call: grown along its motion this step and by
    /// the speculative reach.
    pub(super) fn ball_box(b: &Ball, dt: f32) -> Aabb {
        let r = b.radius.max(0.0);
        let reach = r + r * SPECULATIVE_RADII;
        Aabb::new(b.pos, b.pos + b.vel * dt).expanded(reach)
    }

    /// One sub-step with soft contacts over the step's pairs `bodies` (see the module
    /// notes), after [`SoftStage::accelerate`] and the broad phase; `starts` are where the
    /// balls began the step; sleepers touched wake through `wakes`.
    pub(super) fn solve(
        &mut self,
        w: &mut Frame,
        (bodies, starts): (&[BodyPair], &[Vec2]),
        wakes: &mut Wakes,
        cx: &mut StepContext,
    ) {
        let dt = cx.dt;
        let soft = cx.settings.soft.sanitized();
        let mut f = Finder {
            balls: &mut *w.balls,
            shapes: w.shapes,
            groups: w.groups,
            bodies,
            wakes,
            cx,
        };
        let t0 = f.cx.now();
        f.soft_contacts(&mut self.contacts, (dt, &soft));
        let (ns, t0) = f.cx.lap(t0);
        f.cx.tally.stages.narrow += ns;
        let spare = f.balls.len() as u32;
        self.plan.coloured(&self.contacts, f.balls.len());
        self.lanes
            .prepare(&self.contacts, &self.plan.order, (&self.kept, spare));
        lanes::load_bodies(&mut self.states, f.balls);
        let k = Softness::new(soft.hertz, soft.damping, dt);
        let iterations = f.cx.iterations();
        let solve = Job::Pass(Pass::Solve(k, soft.push_speed, dt));
        let relax = Job::Pass(Pass::Relax(dt));
        let mut jobs = std::mem::take(&mut self.jobs);
        jobs.clear();
        jobs.push(Job::Pass(Pass::Warm));
        jobs.extend(std::iter::repeat_n(solve, iterations as usize));
        jobs.push(Job::Integrate(dt));
        jobs.extend(std::iter::repeat_n(
            relax,
            (iterations * RELAX_PER_SOLVE) as usize,
        ));
        let (ns, t0) = f.cx.lap(t0);
        f.cx.tally.stages.prepare += ns;
        let threads = f.cx.settings.threads.clamp(1, MAX_THREADS);
        // WebAssembly has no threads here; the passes give the same bits on one.
        #[cfg(target_arch = "wasm32")]
        let threads = threads.min(1);
        let relaxing = jobs.len() - (iterations * RELAX_PER_SOLVE) as usize - 1;
        self.run_jobs(&jobs[..relaxing], f.balls, threads);
        let (ns, t0) = f.cx.lap(t0);
        f.cx.tally.stages.solve += ns;
        self.run_jobs(&jobs[relaxing..], f.balls, threads);
        let (ns, t0) = f.cx.lap(t0);
        f.cx.tally.stages.relax += ns;
        self.jobs = jobs;
        let (l, states) = (&mut self.lanes, &mut self.states[..]);
        let at = (soft.restitution_speed, iterations);
        finish::restitute((l, states), &self.contacts, at, f.cx);
        lanes::store_bodies(&self.states, f.balls);
        if f.cx.settings.tunnelling != Tunnelling::Off {
            finish::continuous(&mut f, starts);
        }
        self.lanes.kept(&self.contacts, &mut self.kept);
        let pushed = self.lanes.max_push.iter().filter(|&&p| p > 0.0).count();
        f.cx.tally.collisions += pushed as u64;
        f.cx.tally.stages.restitution += f.cx.lap(t0).0;
    }

    /// The jobs in order, on `threads` threads (the same bits on any number).
    fn run_jobs(&mut self, jobs: &[Job], balls: &mut BallSet, threads: usize) {
        if threads > 1 {
            let lanes = (&mut self.lanes, &mut self.states[..]);
            return threads::run(lanes, &self.plan.ranges, balls, (jobs, threads));
        }
        for job in jobs {
            match *job {
                Job::Pass(pass) => self.run(pass),
                Job::Integrate(dt) => {
                    lanes::integrate_states(&mut Bodies::new(&mut self.states), balls, dt)
                }
            }
        }
    }

    /// One pass over every range of the plan, in order: a colour eight lanes at a time where
    /// the CPU can, else lane by lane (the same bits).
    fn run(&mut self, pass: Pass) {
        let wide = kernel::wide();
        let (mut l, mut states) = (self.lanes.view(), Bodies::new(&mut self.states));
        for r in &self.plan.ranges {
            kernel::pass(&mut l, &mut states, (r.lanes.clone(), r.kind, wide), pass);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::lanes::Softness;

    #[test]
    fn softness_tends_to_rigid_as_stiffness_grows() {
        let k = Softness::new(1.0e6, 10.0, 1.0 / 240.0);
        assert!(k.mass_scale > 0.999 && k.impulse_scale < 1e-3);
        let k = Softness::new(30.0, 1.0, 1.0 / 240.0);
        assert!(k.mass_scale > 0.0 && k.mass_scale < 1.0);
        assert!((k.mass_scale + k.impulse_scale - 1.0).abs() < 1e-6);
    }
}
