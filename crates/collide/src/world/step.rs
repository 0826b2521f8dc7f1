//! The [`World`]: what it holds, how it is made, and its fixed step (see the notes of
//! `crate::world`): `step()` is the list of the stages it runs, in order; each stage owns its
//! state in its own file and is called from here only.

use super::body::BodyPair;
use super::contacts::{ConstraintColour, SavedFrame, SoftContact};
use super::context::{frame, Frame, FrameOf, StepContext, WorldRng};
use super::counters::{Counters, Tally};
use super::launch::{LaunchStage, Launcher};
use super::meter::MeterStage;
use super::narrow_stage::{EndWorld, FrameEndContacts, NarrowStage, PairContact};
use super::pairs::PairsStage;
use super::probing::{ProbeAsk, ProbeRecord};
use super::push_out;
use super::settings::{Settings, Solver};
use super::settle::SettleStage;
use super::sleep::SleepStage;
use super::soft::SoftStage;
use super::sweep::{SweepStage, SweptImpact};
use crate::balls::{BallId, BallSet};
use crate::broad::{BroadPhase, Pair};
use crate::geom::Ball;
use crate::geom::{Aabb, Group, Shape};
use crate::response::{ContactWith, Hit};
use crate::rules::Moment;
use crate::tunnel::Tunnelling;
use glam::Vec2;
use rand::SeedableRng;
use std::f32::consts::TAU;

/// A simulation of balls among obstacles.
pub struct World {
    /// Settings, read every step; changed through [`World::set_settings`].
    pub(super) settings: Settings,
    /// Obstacles: statics `[0, first_moving)`, then kinematic shapes.
    pub(super) shapes: Vec<Shape>,
    pub(super) first_moving: usize,
    /// The groups that [`crate::geom::Geometry::Group`] shapes refer to by number.
    pub(super) groups: Vec<Group>,
    /// The balls, with their ids (`balls.rs`).
    pub(super) balls: BallSet,
    /// The play area (px).
    pub(super) bounds: Aabb,
    pub(super) rng: WorldRng,
    pub(super) rules: crate::rules::RuleBook,
    pub(super) counters: Counters,
    /// Hits recorded since the last [`World::drain_hits`].
    pub(super) hits: Vec<Hit>,
    /// Steps run since the scene was loaded.
    pub(super) steps: u64,
    /// The clock (ns from any origin) that times the stages for the profile, when the caller
    /// gives one ([`World::set_clock`]): the library never reads a clock by itself.
    pub(super) clock: Option<fn() -> u64>,
    /// What the last [`World::fill_random`] did, if there was one.
    pub(super) last_fill: Option<super::filled::Filled>,
    /// The stages of the step, each with its own state.
    pub(super) stages: Stages,
}

/// The stages of the step, in the order `step()` first runs them; each owns its state in its
/// own file.
#[derive(Default)]
pub(super) struct Stages {
    /// `launch.rs`: the launcher and the balls waiting for it.
    pub(super) launch: LaunchStage,
    /// `pairs.rs`: the broad phase, the pair cache, the sleepers' order, the last pairs.
    pub(super) pairs: PairsStage,
    /// `narrow_stage.rs`: the contact list and its frame's end.
    pub(super) narrow: NarrowStage,
    /// `sleep.rs`: the search for groups that sleep (the wakes are the ball table's).
    pub(super) sleep: SleepStage,
    /// `sweep.rs`: where each ball began the step, and the swept iterations' paths.
    pub(super) sweep: SweepStage,
    /// `soft/`: the soft contacts and the impulses kept for the warm start.
    pub(super) soft: SoftStage,
    /// `settle.rs`: the swept modes' parting of overlaps.
    pub(super) settle: SettleStage,
    /// `meter.rs`: the co-located balls' marks and the overlap meter's sleepers' figure.
    pub(super) meter: MeterStage,
}

impl Stages {
    /// Removes ball `i` (the others keep their order and ids), the one way a ball leaves:
    /// wakes the balls it touched, and every stage that keeps something per ball forgets it
    /// and renumbers the later balls (the other contacts keep their warm start). Returns the
    /// id it had.
    pub(super) fn take_ball(&mut self, balls: &mut BallSet, i: usize, n_shapes: usize) -> BallId {
        let b = balls[i];
        balls.wake_near(b.pos, b.radius, b.radius);
        let gone = balls.remove(i);
        self.soft.ball_left(&gone);
        self.narrow.ball_left(&gone);
        self.pairs.ball_left(&gone, n_shapes);
        self.sweep.ball_left(&gone);
        gone.id
    }
}

impl World {
    /// A world of the given obstacles (any order; statics are put first) with a guard point at
    /// every segment, gate and arc end ([`crate::geom::add_guard_points`]), the play area
    /// `bounds` (px) and the seed of its random numbers; brute force as the broad phase,
    /// default settings, balls launched from the middle of the bottom of the play area straight
    /// up (see [`World::with_launcher`]).
    ///
    /// ```
    /// use collide::{Aabb, Ball, Geometry, Motion, Shape, Vec2, World};
    /// let floor = Geometry::Segment { a: Vec2::new(0.0, 10.0), b: Vec2::new(400.0, 10.0) };
    /// let shapes = vec![Shape::new(floor, 0.5, Motion::Static)];
    /// let mut world = World::new(shapes, Aabb::new(Vec2::ZERO, Vec2::splat(400.0)), 1);
    /// assert_eq!(world.shapes().len(), 3, "the segment and a guard point at each end");
    /// world.add_ball(Ball::new(Vec2::new(200.0, 100.0), Vec2::ZERO, 5.0, 0.5, 0));
    /// for _ in 0..world.steps_per_second() {
    ///     world.step();
    /// }
    /// assert!(world.balls()[0].pos.y >= 15.0 - 0.5, "resting on the floor");
    /// ```
    pub fn new(mut shapes: Vec<Shape>, bounds: Aabb, seed: u64) -> Self {
        crate::geom::add_guard_points(&mut shapes);
        Self::new_unguarded(shapes, bounds, seed)
    }

    /// A world of exactly the given obstacles, with no guard points added (tests and
    /// measurements that place every point themselves); otherwise as [`World::new`].
    pub fn new_unguarded(shapes: Vec<Shape>, bounds: Aabb, seed: u64) -> Self {
        let launcher = Launcher {
            pos: Vec2::new((bounds.min.x + bounds.max.x) * 0.5, bounds.min.y),
            dir: Vec2::Y,
        };
        let shapes = statics_first(shapes);
        let first_moving = shapes
            .iter()
            .position(|s| s.is_kinematic())
            .unwrap_or(shapes.len());
        Self {
            settings: Settings::default(),
            shapes,
            first_moving,
            groups: Vec::new(),
            balls: BallSet::default(),
            bounds,
            rng: WorldRng::seed_from_u64(seed),
            rules: crate::rules::RuleBook::default(),
            counters: Counters::default(),
            hits: Vec::new(),
            steps: 0,
            clock: None,
            last_fill: None,
            stages: Stages {
                launch: LaunchStage::new(launcher),
                ..Stages::default()
            },
        }
    }

    /// Runs one motion iteration, `1 / (60 · motion_iterations)` s: see the module notes for
    /// what it does, in order.
    ///
    /// ```
    /// let run = || {
    ///     let mut world = collide::Scene::builtin("table").expect("built in").build(7);
    ///     world.launch(1);
    ///     for _ in 0..100 {
    ///         world.step();
    ///     }
    ///     world
    /// };
    /// let world = run();
    /// assert_eq!((world.steps(), world.balls().len()), (100, 1));
    /// // The same scene, seed and steps give the same state, bit for bit.
    /// assert_eq!(run().state_hash(), world.state_hash());
    /// ```
    ///
    /// In a WebAssembly build the stages it calls are functions of their own: the pairs
    /// search, the soft sub-step and its search, sleep, the rules, the launch, the turning,
    /// the push-out's and the sweep's parts, settle and the counting are marked
    /// `cfg_attr(target_arch = "wasm32", inline(never))`, and the soft narrow phase and the
    /// meter are never inlined on any target. A browser runs each function in
    /// its baseline compiler until the function is hot, then optimizes it in the background
    /// and uses the optimized code from the next call. With the stages inlined, the step was
    /// one function of 38 KB whose optimizing took 150–220 ms: the first frames of every
    /// stage ran in the baseline code until then. In pieces, the largest takes about 25 ms.
    pub fn step(&mut self) {
        let mut cx = self.step_context();
        #[cfg(not(target_arch = "wasm32"))]
        let _held = crate::workers::hold(cx.settings.threads);
        let dt = cx.dt;
        let mode = cx.settings.tunnelling;
        self.rules_at(Moment::Start, &mut cx);
        let st = &mut self.stages;
        st.launch
            .run(&mut self.balls, &mut self.rng, &cx, &mut self.counters);
        self.rules_at(Moment::Launched, &mut cx);
        self.turn_kinematics(&cx);
        self.rules_at(Moment::Turned, &mut cx);
        let st = &mut self.stages;
        // Obstacles move only above (turning, flippers and plungers): box them once per step.
        st.pairs.box_shapes(&self.shapes);
        self.balls.mark_starts();
        st.sweep.begin(self.balls.starts(), dt);
        st.sleep.before_step(&mut frame!(self), &mut cx);
        if cx.settings.solver == Solver::Soft {
            let find = st.soft.must_find(&frame!(self), &cx);
            SoftStage::accelerate(&mut self.balls, &cx);
            let mut w = frame!(self);
            if find {
                let sub_steps = cx.settings.contact_sub_steps();
                let boxes = |_, b: &Ball| SoftStage::ball_box(b, sub_steps, dt);
                st.pairs.find(&w, boxes, cx.query(true), &mut cx.tally);
            }
            cx.tally.iterations += 1;
            st.soft
                .solve(&mut w, st.pairs.bodies(), find, &mut st.narrow, &mut cx);
            self.rules_at(Moment::Moved, &mut cx);
        } else {
            push_out::move_balls(&mut self.balls, &cx);
            self.rules_at(Moment::Moved, &mut cx);
            let (st, mut w) = (&mut self.stages, frame!(self));
            for k in 0..cx.iterations() {
                let boxes = |i, b: &Ball| st.sweep.ball_box(mode, i, b);
                st.pairs.find(&w, boxes, cx.query(true), &mut cx.tally);
                cx.tally.iterations += 1;
                st.narrow.begin_iteration(k);
                if mode == Tunnelling::Off {
                    let (pairs, narrow) = (st.pairs.bodies(), &mut st.narrow);
                    push_out::iterate(&mut w, pairs, narrow, &mut cx);
                } else if !st.sweep.iterate(&mut w, st.pairs.bodies(), &mut cx) {
                    break; // no path changed
                }
            }
            st.sweep.end(w.balls, mode);
            if mode == Tunnelling::Off {
                // The walls' last word, its broad-phase work counted apart.
                let mut pass = Tally::default();
                st.pairs
                    .find(&w, |_, b| b.aabb(), cx.query(true), &mut pass);
                let (pairs, narrow) = (st.pairs.bodies(), &mut st.narrow);
                push_out::walls_last(&mut w, pairs, narrow, pass, &mut cx);
            } else if w.balls.len() >= 2 {
                let boxes = |_, b: &Ball| SettleStage::ball_box(b);
                st.pairs.find(&w, boxes, cx.query(false), &mut cx.tally);
                cx.tally.iterations += 1;
                st.settle.run(&mut w, st.pairs.bodies(), &mut cx.tally);
            }
        }
        self.measure_rebounds(&mut cx);
        let first_hit = cx.first_hit;
        self.rules_at(Moment::Collided { first_hit }, &mut cx);
        let st = &mut self.stages;
        let t0 = cx.now();
        st.sleep
            .after_step(&mut frame!(self), st.pairs.bodies(), &cx);
        let (sleep_ns, t0) = cx.lap(t0);
        cx.tally.stages.sleep += sleep_ns;
        cx.tally.threads.sleep += crate::workers::spread_of(sleep_ns);
        let woke = self.count_after_step(cx.tally);
        self.measure(&cx, woke, t0);
        self.hits = cx.hits;
        self.steps += 1;
    }

    /// The step's context: its settings (on one thread below `parallel_from` balls), the
    /// hits kept since the last drain, and the clock, which starts timing the stages.
    fn step_context(&mut self) -> StepContext {
        let hits = std::mem::take(&mut self.hits);
        let dt = self.step_seconds() as f32;
        let mut cx = StepContext::new(dt, self.settings.clone(), self.steps, hits);
        if self.balls.len() < cx.settings.parallel_from {
            cx.settings.threads = 1;
        }
        cx.clock = self.clock;
        crate::workers::start_timing(self.clock);
        cx
    }

    /// The meter stage: co-located balls at every step, and at the end of each frame (the
    /// last of its `motion_iterations` steps: what the window shows; `woke`: a sleeper woke
    /// this step) the frame-end pairs (pairs stage), their touching contacts (narrow stage)
    /// and the overlap meter that reads them. It runs after the step's tally is counted, so
    /// its time (from `t0`) goes into the counters directly. Never inlined, as the narrow
    /// phase (`soft/find.rs`).
    #[inline(never)]
    fn measure(&mut self, cx: &StepContext, woke: bool, t0: u64) {
        let (st, c, w) = (&mut self.stages, &mut self.counters, frame!(self));
        let threads = cx.settings.threads;
        c.co_located = st.meter.co_located(w.balls, st.pairs.bodies(), threads);
        let per_frame = u64::from(cx.settings.motion_iterations.clamp(1, 64));
        let frame_end = (self.steps + 1).is_multiple_of(per_frame);
        let push_out = cx.settings.solver == Solver::PushOut;
        if let Some(found) = st
            .pairs
            .frame_end(&w, push_out, woke, frame_end, cx.settings.threads)
        {
            let end = EndWorld {
                balls: &w.balls[..],
                shapes: w.shapes,
                groups: w.groups,
                rotating: cx.settings.rotate,
                threads: cx.settings.threads,
                ball_blocks: SoftStage::end_ball_blocks(),
            };
            st.narrow.write_frame_end(&end, found);
            let writes = st.narrow.asleep_writes();
            c.overlap = st.meter.measure(w.balls, st.narrow.frame_end(), writes);
        }
        let meter_ns = cx.lap(t0).0;
        let spread = crate::workers::spread_of(meter_ns);
        for t in [&mut c.last_step, &mut c.total, &mut c.current_second] {
            t.stages.meter += meter_ns;
            t.threads.meter += spread;
        }
    }

    /// Turns the kinematic shapes (and their groups) by their speed over the step.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
    fn turn_kinematics(&mut self, cx: &StepContext) {
        if !cx.settings.rotate {
            return;
        }
        for s in &mut self.shapes[self.first_moving..] {
            if let crate::geom::Motion::Kinematic { speed, .. } = s.motion {
                let angle = (s.angle + speed * TAU * cx.dt).rem_euclid(TAU);
                s.set_angle(angle);
            }
        }
        self.turn_groups();
    }

    /// Names this step's hits by their balls' ids and fills in their rebound speed, from the
    /// velocities the step ended with: `(v_ball - v_surface)·n`, the other ball's velocity
    /// standing in for the surface's in a ball–ball hit.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
    fn measure_rebounds(&self, cx: &mut StepContext) {
        let rotate = cx.settings.rotate;
        for h in std::mem::take(&mut cx.struck) {
            let Some(ball) = self.balls.get(h.ball as usize) else {
                continue;
            };
            let surface = match h.with {
                ContactWith::Shape(s) => self.shapes[s as usize].velocity_at(h.point, rotate),
                ContactWith::Ball(o) => self.balls.get(o as usize).map_or(Vec2::ZERO, |b| b.vel),
            };
            let rebound = (ball.vel - surface).dot(h.normal);
            cx.hits.extend(h.named(&self.balls, cx.step, rebound));
        }
    }

    /// The counters after a step: its tally into the step, second and total figures, and
    /// the strays and sleepers now; true when a ball woke during the step.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
    fn count_after_step(&mut self, mut tally: Tally) -> bool {
        tally.wakeups = self.balls.take_wake_count();
        let per_second = self.steps_per_second();
        let c = &mut self.counters;
        c.last_step = tally;
        c.total += tally;
        c.current_second += tally;
        c.steps_in_second += 1;
        if c.steps_in_second >= per_second {
            c.last_second = c.current_second;
            c.current_second = Tally::default();
            c.steps_in_second = 0;
            c.full_second = true;
        }
        let bounds = self.bounds;
        c.strays = self
            .balls
            .iter()
            .filter(|b| !bounds.contains(b.pos))
            .count() as u32;
        c.asleep = self.balls.rests().iter().filter(|r| r.asleep).count() as u32;
        tally.wakeups > 0
    }
}

/// An empty 1000 × 1000 px world with the given seed, launching from (10, 10) upwards: the
/// world of the unit tests.
#[cfg(test)]
pub(super) fn empty_world(seed: u64) -> World {
    let bounds = Aabb::new(Vec2::ZERO, Vec2::new(1000.0, 1000.0));
    let launcher = Launcher {
        pos: Vec2::new(10.0, 10.0),
        dir: Vec2::Y,
    };
    World::new(Vec::new(), bounds, seed).with_launcher(launcher)
}

/// The shapes reordered statics first (stable), each `guard_of` renumbered to follow the
/// shape it guards (an index out of range is dropped).
pub(super) fn statics_first(shapes: Vec<Shape>) -> Vec<Shape> {
    let order = statics_order(&shapes);
    let mut new_index = vec![0u32; shapes.len()];
    for (new, &old) in order.iter().enumerate() {
        new_index[old] = new as u32;
    }
    order
        .iter()
        .map(|&old| {
            let mut s = shapes[old];
            s.guard_of = s.guard_of.and_then(|g| new_index.get(g as usize).copied());
            s
        })
        .collect()
}

/// The shapes' indices in the order [`statics_first`] puts them: statics, then the others,
/// each in the order given.
pub(super) fn statics_order(shapes: &[Shape]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..shapes.len()).collect();
    order.sort_by_key(|&i| shapes[i].is_kinematic());
    order
}

/// What the world's other files (its accessors, saved states, edits) ask of the stages: each
/// answer comes from the stage that owns the fact, and only this file names a stage's fields.
impl Stages {
    /// Where balls are launched from.
    pub(super) fn launcher(&self) -> Launcher {
        self.launch.launcher
    }

    /// Balls are launched from `launcher` from now on.
    pub(super) fn set_launcher(&mut self, launcher: Launcher) {
        self.launch.launcher = launcher;
    }

    /// Balls waiting to be launched.
    pub(super) fn pending_launches(&self) -> u32 {
        self.launch.pending
    }

    /// `n` balls wait to be launched.
    pub(super) fn set_pending_launches(&mut self, n: u32) {
        self.launch.pending = n;
    }

    /// Every ball left at once: nothing waits to be launched, no contact or pair is kept.
    pub(super) fn balls_cleared(&mut self) {
        self.launch.pending = 0;
        self.soft.forget_impulses();
        self.pairs.forget_pairs();
        self.narrow.forget();
    }

    /// The broad phase in use.
    pub(super) fn broad(&self) -> &dyn BroadPhase {
        self.pairs.broad.as_ref()
    }

    /// The broad phase in use, for setting its parameters (the pair cache asks it again).
    pub(super) fn broad_mut(&mut self) -> &mut dyn BroadPhase {
        self.pairs.cache.invalidate();
        self.pairs.broad.as_mut()
    }

    /// `broad` answers from now on (the pair cache asks it afresh).
    pub(super) fn set_broad(&mut self, broad: Box<dyn BroadPhase>) {
        self.pairs.broad = broad;
        self.pairs.cache.invalidate();
    }

    /// Whether the pair cache stands aside for now (`world/cache.rs`).
    pub(super) fn pair_cache_resting(&self) -> bool {
        self.pairs.cache.resting()
    }

    /// The longest side of a ball's grown box the pair cache last asked with (px), if any.
    pub(super) fn cached_largest_ball_box(&self) -> Option<f32> {
        self.pairs.cache.largest_ball_box()
    }

    /// The candidate pairs of the last collision iteration.
    pub(super) fn last_pairs(&self) -> &[Pair] {
        self.pairs.raw()
    }

    /// The typed pairs of the last collision iteration.
    pub(super) fn pair_bodies(&self) -> &[BodyPair] {
        self.pairs.bodies()
    }

    /// The boxes of the last collision iteration (obstacles, then balls).
    pub(super) fn last_aabbs(&self) -> &[Aabb] {
        self.pairs.aabbs()
    }

    /// Asks the broad phase to record its work per ball (`None`: stop).
    pub(super) fn set_probe(&mut self, ask: Option<ProbeAsk>) {
        self.pairs.set_probe(ask);
    }

    /// The last broad-phase call made again, probed as now asked (`World::probe_again`).
    pub(super) fn probe_again(&mut self, w: &Frame) -> bool {
        self.pairs.probe_again(w)
    }

    /// The sleepers the last broad-phase call was given as static boxes, by ball index.
    pub(super) fn sleepers(&self) -> &[u32] {
        self.pairs.sleepers()
    }

    /// What the probe recorded, while it is on.
    pub(super) fn probe(&self) -> Option<&ProbeRecord> {
        self.pairs.probing.as_ref().map(|p| &p.record)
    }

    /// The contact list: the contacts the solver answered in the last step.
    pub(super) fn contacts(&self) -> &[PairContact] {
        self.narrow.contacts()
    }

    /// The contact list's frame's end: the contacts touching at the end of the last frame.
    pub(super) fn frame_end_contacts(&self) -> FrameEndContacts<'_> {
        self.narrow.frame_end()
    }

    /// The impacts the swept modes answered in the last step, in order.
    pub(super) fn step_impacts(&self) -> &[SweptImpact] {
        self.sweep.impacts()
    }

    /// The soft contacts of the last step with their normal impulses and colours.
    pub(super) fn soft_contacts(
        &self,
    ) -> impl Iterator<Item = (&SoftContact, f32, ConstraintColour)> {
        self.soft.contacts()
    }

    /// The stages' part of a saved state.
    pub(super) fn saved(&self, n_shapes: usize) -> SavedStages {
        SavedStages {
            pending_launches: self.launch.pending,
            soft_impulses: self.soft.saved_impulses(n_shapes),
            next_sleep_group: self.sleep.next_group,
        }
    }

    /// The stages as `saved` left them, with nothing of a step in progress.
    pub(super) fn restore(&mut self, saved: SavedStages, n_shapes: usize) {
        self.launch.pending = saved.pending_launches;
        self.soft.restore_impulses(&saved.soft_impulses, n_shapes);
        self.sleep = self.sleep.restored(saved.next_sleep_group);
        self.pairs.forget_sleepers();
    }

    /// The soft contacts' frame in progress, if any (`soft/saved.rs`).
    pub(super) fn saved_frame(&self, w: FrameOf, settings: &Settings) -> Option<SavedFrame> {
        self.soft.saved_frame(w, settings, self.pairs.bodies())
    }

    /// Restores the soft contacts' frame in progress and the pairs it was found from.
    pub(super) fn restore_frame(&mut self, f: &SavedFrame, w: FrameOf, settings: &Settings) {
        let pairs = self.soft.restore_frame(f, w, settings);
        self.pairs.restore_bodies(pairs);
    }

    /// Forgets everything a step keeps between steps but the saved state's part.
    pub(super) fn forget_scratch(&mut self) {
        self.pairs.forget_all();
        self.sweep = Default::default();
        self.soft.forget_frame();
        self.narrow.forget();
    }
}

/// The stages' part of a saved state (`state.rs` writes it into the file's fields).
pub(super) struct SavedStages {
    pub(super) pending_launches: u32,
    pub(super) soft_impulses: Vec<super::KeptImpulse>,
    pub(super) next_sleep_group: u32,
}
