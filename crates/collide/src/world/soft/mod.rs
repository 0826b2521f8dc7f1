//! Soft contacts: the second contact solver, sequential impulses with soft constraints, the
//! method of Box2D v3's "soft step" (Catto, "Solver2D", 2024), written for this world.
//!
//! One world step is one sub-step. It applies gravity to the velocities, finds the contacts
//! at a frame's first sub-step (one broad-phase call with each ball's box grown along its
//! motion over the frame, so contacts are *speculative*: a pair closer than the distance it
//! can close in the frame is a contact with a positive separation `s`) and solves the
//! frame's contacts at the others, each measuring `s` by the balls' moves since they were
//! found (`frame.rs`, as Box2D's sub-steps do; at every sub-step when
//! `SoftSettings::once_a_frame` is off), and then:
//!
//! 1. **warm start**: each contact kept from the last step (matched by its pair) applies its
//!    accumulated normal impulse again;
//! 2. **solve** (`collision_iterations` passes): `Δλ = −m·k_m·(v_n + b) − k_i·λ`, `λ ≥ 0`, with
//!    the soft bias `b = max(β·s, −push_speed)` for an overlap, `b = s/h` for a gap;
//! 3. **integrate** the positions with the solved velocities;
//! 4. **relax**: the same without the soft bias (`b = 0`, `k_m = 1`, `k_i = 0` for an
//!    overlap), removing the velocity the bias added so pushing out adds no energy: first
//!    twice as many passes as the solve's over the firm contacts alone (those a load made
//!    stiffer, below), then twice as many over all; the firm contacts between balls are
//!    over-relaxed in every pass but the last (`RELAX_OVER`), so a deep pile settles;
//! 5. **restitution**: a contact that closed faster than the threshold speed and pushed gets
//!    `v_n = −e·v_n⁻` (its approach speed before the solve; `e > 1` for bumpers);
//! 6. in the swept tunnelling modes, a ball whose move still reaches an obstacle the
//!    contacts missed (a corner met at a glancing angle) stops at the time of impact found by
//!    the mode's search (Box2D's continuous step does the same for fast bodies).
//!
//! The soft constraint is a damped spring of `hertz` and damping ratio `ζ` solved implicitly:
//! with `ω = 2π·hertz`, `a₁ = 2ζ + hω`, `a₂ = hω·a₁`, `a₃ = 1/(1 + a₂)`: bias rate
//! `β = ω/a₁`, mass scale `k_m = a₂·a₃`, impulse scale `k_i = a₃`. At rest it holds a load
//! `W` with an overlap of `W/(m·ω²)`, so the stiffness sets how far a deep pile sinks. A
//! contact at rest whose load would sink it more than half a percent of the smaller radius is
//! made stiffer until it does not, up to four times the frequency (`Springs::of`): the lower
//! layers of a deep pile hold firm while its surface stays as soft as set.
//!
//! Obstacles have infinite mass; a kinematic shape's surface velocity at the contact enters
//! `v_n`. A gate lets a fast ball through as in the push-out (no contact). A group answers its
//! deepest member. Cost: one broad-phase call and one narrow test per pair per frame (or step), then
//! `O(contacts)` per pass. A contact with an obstacle is never softer than a quarter of the
//! sub-step rate (`Springs`), so no stiffness pushes a ball through a wall.
//!
//! The files, one concern each: `find.rs` finds the contacts (narrow phase; its ball pairs
//! eight at a time with the machine's vectors in `find/blocks.rs`); `lanes.rs` holds
//! them as arrays and the balls' velocities as body states, `prepare.rs` fills them;
//! `colour.rs` plans the order the lanes are solved in (colour by colour); `scalar.rs` is the
//! kernel, `wide.rs` the same several lanes at a time (AVX-512, AVX2 or WebAssembly's SIMD;
//! `kernel.rs` picks one, `agree.rs` holds each to the scalar kernel's bits); `threads.rs`
//! runs the passes on several threads, claiming blocks of the lanes `shared.rs` hands out;
//! `finish.rs` restitution and the swept modes' guard; `frame.rs` keeps a frame's contacts
//! and says when to find them again; `saved.rs` saves and restores a frame in progress.

mod agree;
#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
mod colour;
mod find;
mod finish;
mod frame;
mod kernel;
mod lanes;
mod prepare;
pub(super) mod saved;
mod scalar;
mod shared;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod simd128;
mod threads;
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
mod wide;

use super::body::BodyPair;
use super::contacts::SavedFrame;
use super::contacts::{ConstraintColour, Kept, SoftContact};
use super::context::{Frame, FrameOf, StepContext};
use super::narrow_stage::{NarrowStage, PairContact};
use super::settings::{Settings, SoftSettings};
use crate::balls::{BallSet, Removed};
use crate::geom::{clamp_speed, Aabb, Ball};
use crate::tunnel::Tunnelling;
use crate::workers;
pub use agree::{soft_kernel, soft_kernels_agree, KernelCheck};
use colour::Plan;
use find::{Finder, NarrowPart};
use frame::FrameKeep;
use glam::Vec2;
use lanes::{Bodies, BodyState, Lanes, Pass, Springs, PARALLEL_FROM, SPECULATIVE_RADII};
use threads::Job;

/// Relax passes per solve pass. A deep pile's velocities converge in the relax passes: with
/// as many as the solve makes (6 and 6), the 10,000-ball box pile kept jittering at 4–12 px/s
/// rms and never fell asleep; with twice as many it is still by 5 s (`bench-peers`' pile).
const RELAX_PER_SOLVE: u32 = 2;

/// Relax passes over the firm contacts alone (those a load made stiffer, the lower layers of
/// a pile) per solve pass, before the relax passes over all. Stiffer springs need more passes
/// to settle; with these the 40,000-ball box pile is asleep by 6 s, and without them it still
/// jittered at 15 s.
const FIRM_PER_SOLVE: u32 = 2;

/// The soft solver's state: the step's contacts, as found and as lanes, the plan of their
/// order, the body states, and the impulses kept for the next step's warm start.
#[derive(Clone, Debug, Default)]
pub(super) struct SoftStage {
    contacts: Vec<SoftContact>,
    /// The narrow phase's runs after the first (a few a thread).
    parts: Vec<NarrowPart>,
    plan: Plan,
    lanes: Lanes,
    states: Vec<BodyState>,
    /// The step's jobs (kept: a settled step allocates nothing), and their schedule on
    /// several threads.
    jobs: Vec<Job>,
    schedule: threads::Schedule,
    /// When the contacts were found, and whether they still serve (`frame.rs`).
    keep: FrameKeep,
    /// Last step's impulses, in the order of their pairs ([`BodyPair::key`]).
    kept: Vec<Kept>,
}

impl SoftStage {
    /// The frame's end's test of ball pairs eight at a time with this machine's vectors
    /// (`find/blocks.rs`), if it has them: the widths live here, with the solver's kernels.
    pub(super) fn end_ball_blocks() -> Option<super::narrow_stage::EndBlocks> {
        find::end_blocks_for(kernel::wide())
    }

    /// The kept impulses in their saved form, for a world of `n_shapes` obstacles.
    pub(super) fn saved_impulses(&self, n_shapes: usize) -> Vec<super::KeptImpulse> {
        saved::saved_impulses(&self.kept, n_shapes)
    }

    /// Keeps the impulses `saved` (for a world of `n_shapes` obstacles) for the next step.
    pub(super) fn restore_impulses(&mut self, saved: &[super::KeptImpulse], n_shapes: usize) {
        self.kept = saved::kept_of(saved, n_shapes);
    }

    /// Forgets every kept impulse (every ball left).
    pub(super) fn forget_impulses(&mut self) {
        self.kept.clear();
    }

    /// Applies the remap of a removal: the gone ball's kept impulses go and the later balls'
    /// are renumbered (they keep their order, so the list stays sorted by pair): the other
    /// contacts keep their warm start.
    pub(super) fn ball_left(&mut self, gone: &Removed) {
        self.kept.retain_mut(|k| match k.pair.without(gone) {
            Some(pair) => {
                k.pair = pair;
                true
            }
            None => false,
        });
    }

    /// Contact `k` of the frame's search as the contact list shows it (iteration 0, the depth
    /// the negated separation).
    pub(super) fn found_contact(&self, k: usize) -> PairContact {
        let c = &self.contacts[k];
        PairContact {
            iteration: 0,
            ball: c.ball.0,
            with: c.other.into(),
            point: c.point,
            normal: c.normal,
            depth: -c.sep,
        }
    }

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

    /// A ball's box for the step's broad-phase call: grown along its motion over the
    /// `sub_steps` of `dt` s its contacts serve and by the speculative reach, and when they
    /// serve more than one, by the drift they allow (`frame.rs`).
    pub(super) fn ball_box(b: &Ball, sub_steps: u32, dt: f32) -> Aabb {
        let r = b.radius.max(0.0);
        let drift = if sub_steps > 1 {
            frame::DRIFT_RADII
        } else {
            0.0
        };
        let reach = r + r * (SPECULATIVE_RADII + drift);
        Aabb::new(b.pos, b.pos + b.vel * (dt * sub_steps as f32)).expanded(reach)
    }

    /// The frame in progress, when the next sub-step would go on with its contacts (nothing
    /// but the solver moved `balls` since); `pairs` are the broad phase's of its search.
    pub(super) fn saved_frame(
        &self,
        w: FrameOf,
        settings: &Settings,
        pairs: &[BodyPair],
    ) -> Option<SavedFrame> {
        if self.keep.must_find(w.balls, w.moving, settings) {
            return None;
        }
        let n_shapes = w.n_shapes;
        Some(saved::saved_frame(
            &self.contacts,
            &self.keep,
            pairs,
            n_shapes,
        ))
    }

    /// Restores frame `f` (checked by [`frame_problem`]) over `balls` and the kinematic
    /// `moving` shapes, after the kept impulses; returns the broad phase's pairs it had.
    pub(super) fn restore_frame(
        &mut self,
        f: &SavedFrame,
        w: FrameOf,
        settings: &Settings,
    ) -> Vec<BodyPair> {
        let (balls, moving) = (w.balls, w.moving);
        let soft = settings.soft.sanitized();
        let n_shapes = w.n_shapes;
        let pairs = saved::restored_contacts(f, balls, n_shapes, &mut self.contacts);
        let threads = settings.threads;
        self.plan
            .coloured(&self.contacts, balls.len(), workers::usable(threads));
        self.lanes.match_kept(&self.contacts, &self.kept, threads);
        let spare = balls.len() as u32;
        // The sub-step that goes on with these contacts rearms them, with its own springs.
        let h = 1.0 / (60.0 * settings.motion_iterations.clamp(1, 64) as f32);
        let springs =
            Springs::new(soft.hertz, soft.damping, h).resting_below(soft.restitution_speed);
        self.lanes.take_coefficients(&soft);
        self.lanes.prepare(
            &self.contacts,
            &springs,
            &self.plan.order,
            &self.kept,
            spare,
            threads,
        );
        let (found_at, paths) = (&f.found_at[..], &f.paths[..]);
        let left = f.left;
        self.keep
            .restore(left, found_at, paths, balls, moving, settings);
        // The masses as the restored contacts see them, from the balls now.
        let (all, rests) = (&balls[..], balls.rests());
        lanes::load_bodies(&mut self.states, (all, rests), found_at, true, threads);
        pairs
    }

    /// Forgets the frame's contacts: the next sub-step finds its own.
    pub(super) fn forget_frame(&mut self) {
        self.keep.forget();
    }

    /// Whether this sub-step finds its contacts (`frame.rs`): the last ones are used up, or
    /// something besides the solver changed the world. Asked before gravity.
    pub(super) fn must_find(&self, w: &Frame, cx: &StepContext) -> bool {
        let moving = &w.shapes[w.first_moving.min(w.shapes.len())..];
        self.keep.must_find(w.balls, moving, &cx.settings)
    }

    /// One sub-step with soft contacts over the step's pairs `bodies` (see the module
    /// notes), after [`SoftStage::accelerate`] and, when `find`, the broad phase (whose
    /// contacts then become the contact list, `narrow`); sleepers touched wake through the
    /// ball table.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
    pub(super) fn solve(
        &mut self,
        w: &mut Frame,
        bodies: &[BodyPair],
        find: bool,
        narrow: &mut NarrowStage,
        cx: &mut StepContext,
    ) {
        let dt = cx.dt;
        let soft = cx.settings.soft.sanitized();
        let moving = &w.shapes[w.first_moving.min(w.shapes.len())..];
        let mut f = Finder {
            balls: &mut *w.balls,
            shapes: w.shapes,
            groups: w.groups,
            bodies,
            cx,
        };
        let t0 = f.cx.now();
        let springs = Springs::new(soft.hertz, soft.damping, dt);
        let springs = springs.resting_below(soft.restitution_speed);
        let t0 = if find {
            self.find(&mut f, &soft, &springs, t0)
        } else {
            frame::approach_again(&mut self.contacts, f.balls);
            self.lanes.rearm(&springs, &self.contacts);
            t0
        };
        let threads = f.cx.settings.threads;
        if !find {
            // A search loads them beside its colouring (`SoftStage::find`).
            let (balls, rests) = (&f.balls[..], f.balls.rests());
            let found_at = &self.keep.found_at;
            lanes::load_bodies(&mut self.states, (balls, rests), found_at, false, threads);
        }
        let iterations = f.cx.iterations();
        let jobs = self.jobs_of(&soft, f.cx);
        let (ns, t0) = f.cx.lap(t0);
        f.cx.tally.stages.prepare += ns;
        f.cx.tally.threads.prepare += workers::spread_of(ns);
        let threads = workers::usable(f.cx.settings.threads);
        let relaxing = jobs.iter().position(|j| matches!(j, Job::Integrate(_)));
        let relaxing = relaxing.unwrap_or(jobs.len());
        self.run_jobs(&jobs[..relaxing], f.balls, threads);
        let (ns, t0) = f.cx.lap(t0);
        f.cx.tally.stages.solve += ns;
        f.cx.tally.threads.solve += workers::spread_of(ns);
        self.run_jobs(&jobs[relaxing..], f.balls, threads);
        let (ns, t0) = f.cx.lap(t0);
        f.cx.tally.stages.relax += ns;
        f.cx.tally.threads.relax += workers::spread_of(ns);
        self.jobs = jobs;
        let (l, states) = (&mut self.lanes, &mut self.states[..]);
        let (speed, contacts) = (soft.restitution_speed, &mut self.contacts);
        let plan = &self.plan;
        finish::restitute(l, states, contacts, speed, iterations, plan, f.cx);
        lanes::store_bodies(&self.states, f.balls, threads);
        if f.cx.settings.tunnelling != Tunnelling::Off {
            finish::continuous(&mut f);
        }
        self.lanes.kept(&self.contacts, &mut self.kept, threads);
        if find {
            let n = self.contacts.len();
            narrow.keep_found(n, threads, |k| self.found_contact(k));
        }
        if self.keep.sub_step_done(f.balls, moving) {
            f.cx.tally.soft_strays += 1;
        }
        // `collisions` counts the narrow phase's contacts, so only the sub-step that found
        // them counts them (once a frame, the others reuse them): candidates that touched
        // never exceed the candidates tested.
        if find {
            let pushed = &self.lanes.max_push;
            let count = |run: std::ops::Range<usize>| {
                pushed[run].iter().filter(|&&p| p > 0.0).count() as u64
            };
            f.cx.tally.collisions += workers::sum(threads, pushed.len(), PARALLEL_FROM, count);
        }
        let ns = f.cx.lap(t0).0;
        f.cx.tally.stages.restitution += ns;
        f.cx.tally.threads.restitution += workers::spread_of(ns);
    }

    /// Finds the contacts of the step's pairs (the narrow phase), plans their order and
    /// prepares the lanes, to serve the sub-steps of a frame (or one); the clock from `t0`
    /// goes to the narrow phase, and the time it ends is returned.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
    fn find(&mut self, f: &mut Finder, soft: &SoftSettings, springs: &Springs, t0: u64) -> u64 {
        let sub_steps = f.cx.settings.contact_sub_steps();
        let span = f.cx.dt * sub_steps as f32;
        f.soft_contacts(&mut self.contacts, &mut self.parts, span);
        // A gap about to close, or a ball sliding fast along a surface, meets it at a point
        // the contact only foresaw (a curve's normal turns along the way): such contacts
        // serve one sub-step.
        // They are then those a sub-step's reach finds, as when found at every sub-step
        // (and so, when contacts serve one sub-step anyway, no contact is fleeting).
        let frame = sub_steps > 1;
        let fleeting = |c: &SoftContact| {
            frame::arriving(c, span)
                || frame::may_slide(c, span) && frame::sliding(c, f.relative_speed(c).0, span)
        };
        let sub_steps = if frame && self.contacts.iter().any(fleeting) {
            let dt = f.cx.dt;
            self.contacts.retain(|c| f.within_reach(c, dt));
            1
        } else {
            sub_steps
        };
        let (ns, t0) = f.cx.lap(t0);
        f.cx.tally.stages.narrow += ns;
        f.cx.tally.threads.narrow += workers::spread_of(ns);
        let spare = f.balls.len() as u32;
        let threads = f.cx.settings.threads;
        self.lanes.match_kept(&self.contacts, &self.kept, threads);
        let (lanes, kept) = (&self.lanes, &self.kept[..]);
        workers::chunks(threads, &mut self.contacts, PARALLEL_FROM, |start, run| {
            for (k, c) in (start..).zip(run) {
                let load = lanes.kept_load(k, kept);
                c.firm = springs.firm(load, c.speed, c.mass, (c.ra, c.rb));
            }
        });
        self.plan_and_load(f, sub_steps, span);
        self.lanes.take_coefficients(soft);
        self.lanes.prepare(
            &self.contacts,
            springs,
            &self.plan.order,
            &self.kept,
            spare,
            threads,
        );
        f.cx.tally.soft_finds += 1;
        t0
    }

    /// The plan of the contacts just found and, beside it, where the balls are now (the
    /// start of the moves the contacts serve) and the solver's body states: the colouring
    /// runs on one thread (each contact's colour waits on those before it), and the rest,
    /// the contacts' regions (two threads) and what reads only the balls, on another where
    /// there are two, so the second thread does not wait through it; then the lanes' order
    /// on the step's threads. Any order gives the same plan and states.
    fn plan_and_load(&mut self, f: &Finder, sub_steps: u32, span: f32) {
        enum Part<'p> {
            Colour(&'p mut colour::Colours),
            Regions(&'p mut colour::Regions),
            Bodies(&'p mut FrameKeep, &'p mut Vec<BodyState>),
        }
        let (balls, settings, contacts) = (&f.balls[..], &f.cx.settings, &self.contacts);
        let rests = f.balls.rests();
        let (usable, n) = (workers::usable(settings.threads), balls.len());
        let regions = colour::in_regions(usable);
        let (colours, regions_of) = self.plan.parts();
        // The colouring first: the thread that claims it has the most to do.
        let mut parts = [
            Part::Colour(colours),
            Part::Regions(regions_of),
            Part::Bodies(&mut self.keep, &mut self.states),
        ];
        // Beside the colouring the states load on one thread; else on the step's.
        let beside = usable > 1 && contacts.len() >= PARALLEL_FROM;
        let load_threads = if beside { 1 } else { usable };
        let run = |_: usize, part: &mut Part| match part {
            Part::Colour(colours) => colours.colour(contacts, n),
            Part::Regions(r) if regions => r.find(contacts),
            Part::Regions(_) => {}
            Part::Bodies(keep, states) => {
                keep.found(balls, sub_steps, span, settings);
                let found_at = &keep.found_at;
                lanes::load_bodies(states, (balls, rests), found_at, true, load_threads);
            }
        };
        match beside {
            true => workers::each(usable, &mut parts, run),
            false => parts.iter_mut().for_each(|p| run(0, p)),
        }
        self.plan.order_lanes(usable);
    }

    /// The sub-step's jobs: warm start, the solve passes, the move, the relax passes.
    fn jobs_of(&mut self, soft: &SoftSettings, cx: &StepContext) -> Vec<Job> {
        let (dt, iterations) = (cx.dt, cx.iterations());
        let solve = Job::Pass(Pass::Solve(soft.push_speed, dt));
        let mut jobs = std::mem::take(&mut self.jobs);
        jobs.clear();
        jobs.push(Job::Pass(Pass::Warm));
        jobs.extend(std::iter::repeat_n(solve, iterations as usize));
        jobs.push(Job::Integrate(dt));
        let over = Pass::Relax(dt, true);
        let firm = (iterations * FIRM_PER_SOLVE) as usize;
        jobs.extend(std::iter::repeat_n(Job::Firm(over), firm));
        let relax = (iterations * RELAX_PER_SOLVE) as usize;
        jobs.extend(std::iter::repeat_n(Job::Pass(over), relax - 1));
        jobs.push(Job::Pass(Pass::Relax(dt, false)));
        jobs
    }

    /// The jobs in order, on `threads` threads (the same bits on any number).
    fn run_jobs(&mut self, jobs: &[Job], balls: &mut BallSet, threads: usize) {
        let found_at = &self.keep.found_at[..];
        if threads > 1 {
            let ranges = (&self.plan.ranges[..], &self.plan.firm[..]);
            let (lanes, states) = (&mut self.lanes, &mut self.states[..]);
            let schedule = &mut self.schedule;
            return threads::run(
                lanes, states, ranges, balls, found_at, jobs, threads, schedule,
            );
        }
        for job in jobs {
            match *job {
                Job::Pass(pass) | Job::Firm(pass) => {
                    let wide = kernel::wide();
                    let (mut l, mut states) = (self.lanes.view(), Bodies::new(&mut self.states));
                    let ranges = match job {
                        Job::Firm(_) => &self.plan.firm,
                        _ => &self.plan.ranges,
                    };
                    for r in ranges {
                        let at = kernel::At {
                            range: r.lanes.clone(),
                            kind: r.kind,
                            width: wide,
                        };
                        kernel::pass(&mut l, &mut states, at, pass);
                    }
                }
                Job::Integrate(dt) => {
                    let mut states = Bodies::new(&mut self.states);
                    lanes::integrate_states(&mut states, balls, found_at, dt)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::lanes::{Softness, Springs, FIRMEST, FIRM_RADII, RELAX_OVER};

    /// The overlap at which a contact of softness `k` and normal mass `m` holds a load `λ`
    /// (per sub-step) at rest: where the solve's step `−m·k_m·β·s − k_i·λ` is zero.
    fn rest_overlap(k: Softness, m: f32, load: f32) -> f32 {
        k.impulse_scale * load / (k.bias_rate * m * k.mass_scale)
    }

    #[test]
    fn a_loaded_contact_at_rest_is_made_just_stiff_enough_to_hold_its_load_within_reach() {
        let h = 1.0 / 240.0;
        let springs = Springs::new(240.0, 10.0, h).resting_below(30.0);
        let (m, r) = (2.0, 3.0);
        let (own, _) = springs.of((0.0, 0.0), m, (r, r));
        assert_eq!(
            own,
            Softness::new(240.0, 10.0, h),
            "no load: its own spring"
        );
        // A light load sinks it less than the reach: its own spring still.
        let light = 0.5 * FIRM_RADII * r * m * h * (std::f32::consts::TAU * 240.0).powi(2);
        assert_eq!(springs.of((light, 0.0), m, (r, r)), (own, false));
        // Sixteen times that sinks it eight times the reach on its own spring; made stiffer, it
        // holds it at the reach, pushing out at its own spring's rate.
        let heavy = 16.0 * light;
        assert!((rest_overlap(own, m, heavy) / (FIRM_RADII * r) - 8.0).abs() < 1e-3);
        let (firm, stiffer) = springs.of((heavy, 0.0), m, (r, r));
        assert!(stiffer);
        assert!((rest_overlap(firm, m, heavy) / (FIRM_RADII * r) - 1.0).abs() < 1e-3);
        assert_eq!(firm.bias_rate, own.bias_rate);
        assert!(firm.impulse_scale < own.impulse_scale);
        // No stiffer than FIRMEST times its frequency: a load far beyond sinks it further.
        let (capped, _) = springs.of((1.0e6 * heavy, 0.0), m, (r, r));
        let at_cap = light * 2.0 * FIRMEST * FIRMEST;
        assert!((rest_overlap(capped, m, at_cap) / (FIRM_RADII * r) - 1.0).abs() < 1e-3);
        // The smaller radius sets the reach between two balls.
        let (small, _) = springs.of((heavy, 0.0), m, (r, r / 3.0));
        assert!(small.impulse_scale < firm.impulse_scale);
    }

    #[test]
    fn only_a_contact_at_rest_is_made_stiffer_or_over_relaxed_and_none_turns_nan() {
        let h = 1.0 / 240.0;
        let springs = Springs::new(240.0, 10.0, h).resting_below(30.0);
        let own = springs.of((0.0, 0.0), 1.0, (3.0, 3.0)).0;
        // A hit: its balls faster than the restitution speed.
        assert_eq!(springs.of((1.0e4, 31.0), 1.0, (3.0, 3.0)), (own, false));
        let (_, firm) = springs.of((1.0e4, 29.0), 1.0, (3.0, 3.0));
        assert!(firm);
        assert_eq!(Springs::over(true, true), RELAX_OVER);
        assert_eq!(Springs::over(true, false), 1.0, "a wall takes plain steps");
        assert_eq!(Springs::over(false, true), 1.0);
        // Padding (no mass), two sleepers (infinite mass), a degenerate radius.
        for (m, r) in [
            (0.0, 3.0),
            (f32::INFINITY, 3.0),
            (1.0, 0.0),
            (f32::NAN, 3.0),
        ] {
            let (k, firm) = springs.of((1.0e4, 0.0), m, (r, r));
            assert!(!firm && k.bias_rate.is_finite() && k.impulse_scale.is_finite());
        }
    }

    #[test]
    fn softness_tends_to_rigid_as_stiffness_grows() {
        let k = Softness::new(1.0e6, 10.0, 1.0 / 240.0);
        assert!(k.mass_scale > 0.999 && k.impulse_scale < 1e-3);
        let k = Softness::new(30.0, 1.0, 1.0 / 240.0);
        assert!(k.mass_scale > 0.0 && k.mass_scale < 1.0);
        assert!((k.mass_scale + k.impulse_scale - 1.0).abs() < 1e-6);
    }
}
