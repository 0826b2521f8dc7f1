//! The world: obstacles, balls, the broad phase, and the fixed step.
//!
//! One [`World::step`] is one motion iteration of `1 / (60 · motion_iterations)` s:
//! launch a queued ball if the lane is clear, turn kinematic shapes, apply gravity and move the
//! balls (semi-implicit Euler), then `collision_iterations` times: box every shape, ask the
//! broad phase for candidate pairs (sorted), and for each pair run the narrow phase and the
//! response in that order. Everything depends only on the scene, the seed and the settings.
//!
//! With a tunnelling mode other than [`Tunnelling::Off`] the collision iterations are swept
//! instead (see `world/sweep.rs`): the broad phase boxes each ball's path this step, each ball
//! answers its earliest impact at the moment it happens and goes on for the rest of the step,
//! and iterations stop once no path changed. Shape groups are tested hull first
//! (`world/groups.rs`).

mod cache;
mod edit;
mod groups;
mod meter;
mod rules;
mod settle;
mod sleep;
mod soft;
mod sweep;

pub use meter::OverlapMeter;
pub use sleep::SleepSettings;
pub use soft::{KeptImpulse, SoftSettings, Solver};

pub use sweep::SweptImpact;

use crate::geom::clamp_speed;
pub use crate::geom::{Ball, MAX_SPEED};
use crate::response::record;
pub use crate::response::{Hit, HitWith, HIT_SPEED};
use crate::rules::Moment;

use crate::broad::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair};
use crate::geom::{Aabb, Geometry, Group, Shape};
use crate::narrow::{contact_ball_ball, contact_ball_shape, keep_side};
use crate::response::{respond_ball_ball, respond_ball_obstacle};
use crate::tunnel::Tunnelling;
use glam::Vec2;
use rand::{Rng, SeedableRng};
/// The world's generator: ChaCha12, the algorithm of rand 0.8's `StdRng` (same stream for a
/// seed), named directly so its position can be saved and restored (`world/state.rs`).
type WorldRng = rand_chacha::ChaCha12Rng;
use std::f32::consts::TAU;

mod fill;
pub use fill::Filled;
mod state;
pub use state::{RngState, WorldState};

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
}

fn yes() -> bool {
    true
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
        }
    }
}

/// Work counts of one period (a step, or one simulated second).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Collision iterations run.
    pub iterations: u64,
    /// Broad-phase work.
    pub broad: BroadCounters,
    /// Narrow-phase tests run (one per candidate pair).
    pub full_tests: u64,
    /// Narrow-phase tests that found contact.
    pub collisions: u64,
    /// Time spent in the broad phase (ns), when a clock is set.
    pub broad_nanos: u64,
    /// With verification on: pairs brute force found that the broad phase did not.
    pub missed: u64,
    /// With verification on: pairs the broad phase reported that brute force did not.
    pub extra: u64,
    /// Ball–shape tests of the tunnelling mode: one per pair when Off, the places sampled by
    /// linear search, envelopes and places by binary search, closed forms when exact; group
    /// members included.
    pub impact_tests: u64,
    /// Group hulls tested.
    pub hull_tests: u64,
    /// The discrete mode's last pass against the obstacles after the collision iterations
    /// (see `walls_last`): its broad-phase work, kept apart from the iterations' figures so
    /// that per-iteration counts stay comparable with the seeds'.
    pub wall_pass: BroadCounters,
    /// Ball–obstacle tests of that last pass.
    pub wall_pass_tests: u64,
    /// Hull tests that missed, sparing the group's member tests.
    pub hull_rejections: u64,
    /// Pair cache: broad-phase calls made with grown boxes (their box tests are in `broad`).
    pub cache_queries: u64,
    /// Pair cache: broad-phase calls answered from the kept pairs, without the broad phase.
    pub cache_served: u64,
    /// Pair cache: pairs the grown queries returned (kept for the calls that follow).
    pub cache_pairs: u64,
    /// Pair cache: its own box tests: one per box checked against its grown box, one per
    /// kept pair filtered, and a re-boxed ball's tests against every box.
    pub cache_tests: u64,
    /// Pair cache: balls that left their grown box and were re-boxed without a query.
    pub cache_moved: u64,
    /// Pair cache: calls passed straight to the broad phase while the cache stood aside
    /// (too many of its recent calls had to query; `world/cache.rs`). Their work is in
    /// `broad`, as with the cache off.
    pub cache_passed: u64,
    /// Sleep: box tests of moving kinematic shapes against sleepers (to wake them).
    pub sleep_tests: u64,
    /// Sleep: balls woken.
    pub wakeups: u64,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, o: Self) {
        self.iterations += o.iterations;
        self.broad += o.broad;
        self.full_tests += o.full_tests;
        self.collisions += o.collisions;
        self.broad_nanos += o.broad_nanos;
        self.missed += o.missed;
        self.extra += o.extra;
        self.impact_tests += o.impact_tests;
        self.hull_tests += o.hull_tests;
        self.wall_pass += o.wall_pass;
        self.wall_pass_tests += o.wall_pass_tests;
        self.hull_rejections += o.hull_rejections;
        self.sleep_tests += o.sleep_tests;
        self.wakeups += o.wakeups;
        self.add_cache(&o);
    }
}

impl Tally {
    /// Adds `o`'s pair-cache counters.
    fn add_cache(&mut self, o: &Tally) {
        self.cache_queries += o.cache_queries;
        self.cache_served += o.cache_served;
        self.cache_pairs += o.cache_pairs;
        self.cache_tests += o.cache_tests;
        self.cache_moved += o.cache_moved;
        self.cache_passed += o.cache_passed;
    }
}

impl Tally {
    /// Per collision iteration: `(aabb tests, pairs, repeats dropped, broad µs)`.
    pub fn per_iteration(&self) -> (f64, f64, f64, f64) {
        let n = self.iterations.max(1) as f64;
        (
            self.broad.aabb_tests as f64 / n,
            self.broad.pairs as f64 / n,
            self.broad.repeats_dropped as f64 / n,
            self.broad_nanos as f64 / n / 1000.0,
        )
    }
}

/// The counters the panel shows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Counters {
    /// Everything since the scene was loaded.
    pub total: Tally,
    /// The last step.
    pub last_step: Tally,
    /// The last complete simulated second.
    pub last_second: Tally,
    /// The simulated second in progress.
    current_second: Tally,
    steps_in_second: u32,
    /// Whether a simulated second has completed, so `last_second` holds one.
    full_second: bool,
    /// Balls launched since the last clear.
    pub launched: u64,
    /// Co-located balls: sitting at the same place as another (centres closer than half the
    /// smaller radius). Not the overlap of touching balls, which is [`Counters::overlap`].
    pub co_located: u32,
    /// How deep the touching pairs overlap at the end of the last step.
    pub overlap: OverlapMeter,
    /// Balls asleep at the end of the last step.
    pub asleep: u32,
    /// Balls whose centre is outside the play area.
    pub strays: u32,
}

/// Where new balls enter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Launcher {
    /// Start point of a launched ball (px).
    pub pos: Vec2,
    /// Unit launch direction.
    pub dir: Vec2,
}

/// A simulation of balls among obstacles.
pub struct World {
    /// Settings (read every step; change them freely).
    pub settings: Settings,
    shapes: Vec<Shape>,
    first_moving: usize,
    balls: Vec<Ball>,
    bounds: Aabb,
    launcher: Launcher,
    pending_launches: u32,
    rng: WorldRng,
    broad: Box<dyn BroadPhase>,
    statics_version: u64,
    aabbs: Vec<Aabb>,
    pairs: Vec<Pair>,
    verify_scratch: Vec<Pair>,
    /// Balls marked by `count_overlaps`, kept so a step allocates nothing.
    overlap_scratch: Vec<u32>,
    counters: Counters,
    hits: Vec<Hit>,
    steps: u64,
    clock: Option<fn() -> u64>,
    groups: Vec<Group>,
    sweep: sweep::SweepState,
    settle: settle::SettleState,
    rules: crate::rules::RuleBook,
    cache: cache::PairCache,
    soft: soft::SoftState,
    sleep: sleep::SleepState,
    meter: meter::MeterState,
    /// Balls woken since the last step's count.
    woken: u64,
}

impl World {
    /// A world of the given obstacles (any order; statics are put first), play area, launcher
    /// and seed, with brute force as the broad phase.
    pub fn new(shapes: Vec<Shape>, bounds: Aabb, launcher: Launcher, seed: u64) -> Self {
        let shapes = statics_first(shapes);
        let first_moving = shapes
            .iter()
            .position(|s| s.is_kinematic())
            .unwrap_or(shapes.len());
        Self {
            settings: Settings::default(),
            shapes,
            first_moving,
            balls: Vec::new(),
            bounds,
            launcher,
            pending_launches: 0,
            rng: WorldRng::seed_from_u64(seed),
            broad: BroadKind::Brute.create(),
            statics_version: next_statics_version(),
            aabbs: Vec::new(),
            pairs: Vec::new(),
            verify_scratch: Vec::new(),
            overlap_scratch: Vec::new(),
            counters: Counters::default(),
            hits: Vec::new(),
            steps: 0,
            clock: None,
            groups: Vec::new(),
            sweep: sweep::SweepState::default(),
            settle: settle::SettleState::default(),
            rules: crate::rules::RuleBook::default(),
            cache: cache::PairCache::default(),
            soft: soft::SoftState::default(),
            sleep: sleep::SleepState::default(),
            meter: meter::MeterState::default(),
            woken: 0,
        }
    }

    /// Obstacles: statics `[0, first_moving)`, then kinematic shapes.
    pub fn shapes(&self) -> &[Shape] {
        &self.shapes
    }

    /// Index of the first kinematic shape.
    pub fn first_moving(&self) -> usize {
        self.first_moving
    }

    /// The balls.
    pub fn balls(&self) -> &[Ball] {
        &self.balls
    }

    /// The play area (px).
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }

    /// Where balls are launched from.
    pub fn launcher(&self) -> Launcher {
        self.launcher
    }

    /// Balls waiting to be launched.
    pub fn pending_launches(&self) -> u32 {
        self.pending_launches
    }

    /// The counters.
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// What the panel shows as "the last second": the last complete simulated second, and
    /// until one has completed, the second in progress (just after a load, and for as long as
    /// a simulated second takes: half a minute with 100,000 balls in slow motion). Returns
    /// the tally and the factor that turns its counts into rates per simulated second: 1 for
    /// a complete second, `steps per second / steps so far` for the one in progress.
    pub fn recent_second(&self) -> (&Tally, f64) {
        let c = &self.counters;
        if c.full_second || c.steps_in_second == 0 {
            (&c.last_second, 1.0)
        } else {
            let factor = self.steps_per_second() as f64 / c.steps_in_second as f64;
            (&c.current_second, factor)
        }
    }

    /// Whether the pair cache is standing aside for now, passing calls straight to the broad
    /// phase because most of its recent calls had to query (`world/cache.rs`).
    pub fn pair_cache_resting(&self) -> bool {
        self.settings.pair_cache && self.cache.resting()
    }

    /// The broad phase in use.
    pub fn broad(&self) -> &dyn BroadPhase {
        self.broad.as_ref()
    }

    /// The broad phase in use, for setting its parameters.
    pub fn broad_mut(&mut self) -> &mut dyn BroadPhase {
        self.cache.invalidate();
        self.broad.as_mut()
    }

    /// Switches the broad phase. The simulation is unaffected (all return the same pairs).
    pub fn set_broad_phase(&mut self, kind: BroadKind) {
        if self.broad.kind() != kind {
            self.broad = kind.create();
            self.cache.invalidate();
        }
    }

    /// Replaces the broad phase with a configured instance.
    pub fn set_broad_phase_boxed(&mut self, broad: Box<dyn BroadPhase>) {
        self.broad = broad;
        self.cache.invalidate();
    }

    /// The candidate pairs of the last collision iteration.
    pub fn last_pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// The boxes of the last collision iteration (obstacles, then balls).
    pub fn last_aabbs(&self) -> &[Aabb] {
        &self.aabbs
    }

    /// A function returning nanoseconds from any fixed origin, used only to time the broad
    /// phase for the counters (the library never reads a clock by itself).
    pub fn set_clock(&mut self, clock: fn() -> u64) {
        self.clock = Some(clock);
    }

    /// Steps run since the scene was loaded.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Length of one step (s) at the current motion iterations.
    pub fn step_seconds(&self) -> f64 {
        1.0 / self.steps_per_second() as f64
    }

    /// Physics steps per simulated second: 60 × motion iterations.
    pub fn steps_per_second(&self) -> u32 {
        60 * self.settings.motion_iterations.clamp(1, 64)
    }

    /// Queues `n` balls for launch; they enter one at a time as the launch point clears.
    pub fn launch(&mut self, n: u32) {
        self.pending_launches = self.pending_launches.saturating_add(n);
    }

    /// Removes every ball and cancels queued launches.
    pub fn clear(&mut self) {
        self.balls.clear();
        self.pending_launches = 0;
        self.counters.launched = 0;
        self.counters.co_located = 0;
        self.soft.kept.clear();
        self.counters.strays = 0;
        self.pairs.clear();
        self.rules.scene.balls_cleared();
    }

    /// Adds a ball directly (scenes, tests, benchmarks).
    pub fn add_ball(&mut self, ball: Ball) {
        self.balls.push(ball);
    }

    /// Removes ball `i` (keeps the order of the others).
    pub fn remove_ball(&mut self, i: usize) {
        if i < self.balls.len() {
            let b = self.balls[i];
            self.wake_near(b.pos, b.radius, b.radius);
            self.balls.remove(i);
            self.rules.scene.ball_removed(i);
            self.soft.kept.clear();
        }
    }

    /// Takes the impacts recorded since the last call.
    pub fn drain_hits(&mut self) -> std::vec::Drain<'_, Hit> {
        self.hits.drain(..)
    }

    /// Runs one motion iteration.
    pub fn step(&mut self) {
        let dt = self.step_seconds() as f32;
        self.rules_at(Moment::Start);
        let first_hit = self.hits.len();
        self.launch_next();
        self.rules_at(Moment::Launched);
        self.turn_kinematics(dt);
        self.rules_at(Moment::Turned);
        // Obstacles move only above (turning, flippers and plungers): box them once per step.
        self.aabbs.clear();
        self.aabbs.extend(self.shapes.iter().map(Shape::aabb));
        self.begin_sweep(dt);
        let mut tally = Tally::default();
        self.sleep_before_step(&mut tally);
        if self.settings.solver == Solver::Soft {
            self.soft_step(dt, &mut tally);
            self.rules_at(Moment::Moved);
        } else {
            self.push_out_step(dt, &mut tally);
        }
        self.measure_rebounds(first_hit);
        self.rules_at(Moment::Collided { first_hit });
        self.sleep_after_step(dt);
        self.count_after_step(tally);
        self.steps += 1;
    }

    /// The course's step: move, then the collision iterations of push-out responses, then
    /// the wall pass (discrete) or the settling of overlaps (swept modes).
    fn push_out_step(&mut self, dt: f32, tally: &mut Tally) {
        self.move_balls(dt);
        self.rules_at(Moment::Moved);
        for _ in 0..self.settings.collision_iterations.clamp(1, 64) {
            if !self.collide_once(tally) {
                break;
            }
        }
        self.end_sweep();
        if self.settings.tunnelling == Tunnelling::Off {
            self.walls_last(tally);
        } else {
            self.settle_overlaps(tally);
        }
    }

    fn launch_next(&mut self) {
        if self.pending_launches == 0 {
            return;
        }
        let r = self.settings.ball_radius.max(0.0);
        let at = self.launcher.pos;
        let clear = self
            .balls
            .iter()
            .all(|b| (b.pos - at).length_squared() >= (b.radius + r) * (b.radius + r));
        if !clear {
            return;
        }
        // A little spread so that balls launched together do not retrace one path.
        let speed = self.settings.launch_speed * self.rng.gen_range(0.97..=1.03);
        let dir = self
            .launcher
            .dir
            .rotate(Vec2::from_angle(self.rng.gen_range(-0.01..=0.01)));
        let color = self.rng.gen::<u32>();
        let ball = Ball::new(at, dir * speed, r, self.settings.ball_elasticity, color);
        self.balls.push(ball);
        self.pending_launches -= 1;
        self.counters.launched += 1;
    }

    fn turn_kinematics(&mut self, dt: f32) {
        if !self.settings.rotate {
            return;
        }
        for s in &mut self.shapes[self.first_moving..] {
            if let crate::geom::Motion::Kinematic { speed, .. } = s.motion {
                let angle = (s.angle + speed * TAU * dt).rem_euclid(TAU);
                s.set_angle(angle);
            }
        }
        self.turn_groups();
    }

    fn move_balls(&mut self, dt: f32) {
        let g = Vec2::new(0.0, -self.settings.gravity);
        for b in self.balls.iter_mut().filter(|b| !b.asleep) {
            b.vel = clamp_speed(b.vel + g * dt);
            b.pos += b.vel * dt;
        }
    }

    /// One collision iteration; false when a swept iteration changed no path (nothing left
    /// to do this step).
    fn collide_once(&mut self, tally: &mut Tally) -> bool {
        self.collide_once_broad(tally);
        if self.settings.tunnelling != Tunnelling::Off {
            return self.sweep_pairs(tally);
        }
        let n_shapes = self.shapes.len();
        for k in 0..self.pairs.len() {
            let (i, j) = self.pairs[k];
            tally.full_tests += 1;
            tally.impact_tests += 1;
            let hit = if (i as usize) < n_shapes {
                self.collide_ball_shape(j as usize - n_shapes, i as usize, tally)
            } else {
                self.collide_ball_ball(i as usize - n_shapes, j as usize - n_shapes)
            };
            tally.collisions += hit as u64;
        }
        true
    }

    /// The broad phase of a collision iteration: the balls' boxes (paths, in the swept
    /// modes), candidate pairs into `self.pairs`, counted and timed; verified when asked.
    /// False when there are no balls.
    fn collide_once_broad(&mut self, tally: &mut Tally) -> bool {
        self.aabbs.truncate(self.shapes.len());
        self.push_ball_boxes();
        self.find_pairs_of_boxes(true, tally);
        tally.iterations += 1;
        !self.balls.is_empty()
    }

    /// Discrete mode: the obstacles get the last word. After the collision iterations, one
    /// more broad-phase call finds the balls touching obstacles where the balls are now, and
    /// those pairs are tested once more, so a ball that the crowd's push-outs carried into a
    /// wall in the last iteration ends the step outside it (on the side it started the step
    /// on, see [`keep_side`]). Its broad-phase work and tests are counted like an iteration's.
    fn walls_last(&mut self, tally: &mut Tally) {
        let n_shapes = self.shapes.len() as u32;
        let mut pass = Tally::default();
        if !self.collide_once_broad(&mut pass) {
            return;
        }
        for k in 0..self.pairs.len() {
            let (i, j) = self.pairs[k];
            if i >= n_shapes {
                break;
            }
            pass.full_tests += 1;
            let hit = self.collide_ball_shape((j - n_shapes) as usize, i as usize, &mut pass);
            tally.collisions += hit as u64;
        }
        tally.wall_pass += pass.broad;
        tally.wall_pass_tests += pass.full_tests;
        tally.add_cache(&pass);
        tally.missed += pass.missed;
        tally.extra += pass.extra;
    }

    fn collide_ball_shape(&mut self, bi: usize, si: usize, tally: &mut Tally) -> bool {
        if matches!(self.shapes[si].geom, Geometry::Group { .. }) {
            return self.collide_ball_group(bi, si, tally);
        }
        let start = self.sweep_start(bi);
        let shape = &self.shapes[si];
        let ball = &mut self.balls[bi];
        let rotating = self.settings.rotate;
        // The gate judges the ball's speed relative to the gate's own motion.
        let surface_at_ball = shape.velocity_at(ball.pos, rotating);
        let Some(mut c) = contact_ball_shape(
            ball.pos,
            ball.radius,
            ball.vel - surface_at_ball,
            &shape.geom,
        ) else {
            return false;
        };
        // A wall keeps a ball on the side it started the step on (a crowd's push-outs can
        // carry a centre over a wall between two tests).
        if let (Geometry::Segment { a, b }, false) = (shape.geom, shape.is_kinematic()) {
            c = keep_side(c, ball.radius, start, ball.pos, a, b);
        }
        let e = ball.elasticity * shape.elasticity * self.settings.elasticity_scale;
        let speed = respond_ball_obstacle(ball, &c, e, shape.velocity_at(c.point, rotating));
        ball.vel = clamp_speed(ball.vel);
        record(
            &mut self.hits,
            Hit {
                point: c.point,
                speed,
                rebound: 0.0,
                e,
                normal: c.normal,
                ball: bi as u32,
                with: HitWith::Shape(si as u32),
            },
        );
        true
    }

    fn collide_ball_ball(&mut self, bi: usize, bj: usize) -> bool {
        let (a, b) = (&self.balls[bi], &self.balls[bj]);
        // Normal from the higher-indexed ball to the lower one.
        let Some(c) = contact_ball_ball(a.pos, a.radius, b.pos, b.radius) else {
            return false;
        };
        self.wake_pair(bi, bj);
        let (lo, hi) = self.balls.split_at_mut(bj);
        let (a, b) = (&mut lo[bi], &mut hi[0]);
        let e = a.elasticity * b.elasticity * self.settings.elasticity_scale;
        let speed = respond_ball_ball(a, b, &c, e);
        a.vel = clamp_speed(a.vel);
        b.vel = clamp_speed(b.vel);
        record(
            &mut self.hits,
            Hit {
                point: c.point,
                speed,
                rebound: 0.0,
                e,
                normal: c.normal,
                ball: bi as u32,
                with: HitWith::Ball(bj as u32),
            },
        );
        true
    }

    /// Fills in the rebound speed of the hits recorded this step (from `first`), from the
    /// velocities the step ended with: `(v_ball - v_surface)·n`, the other ball's velocity
    /// standing in for the surface's in a ball–ball hit.
    fn measure_rebounds(&mut self, first: usize) {
        let rotate = self.settings.rotate;
        for h in self.hits.iter_mut().skip(first) {
            let Some(ball) = self.balls.get(h.ball as usize) else {
                continue;
            };
            let surface = match h.with {
                HitWith::Shape(s) => self.shapes[s as usize].velocity_at(h.point, rotate),
                HitWith::Ball(o) => self.balls.get(o as usize).map_or(Vec2::ZERO, |b| b.vel),
            };
            h.rebound = (ball.vel - surface).dot(h.normal);
        }
    }

    fn count_after_step(&mut self, mut tally: Tally) {
        tally.wakeups = std::mem::take(&mut self.woken);
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
        let strays = self
            .balls
            .iter()
            .filter(|b| !self.bounds.contains(b.pos))
            .count() as u32;
        self.counters.strays = strays;
        self.counters.co_located = self.count_co_located();
        self.measure_overlap();
        self.counters.asleep = self.asleep_count() as u32;
    }

    /// Balls whose centre is within half the smaller radius of another ball's centre, found
    /// among the last candidate pairs (co-located balls always have overlapping boxes).
    fn count_co_located(&mut self) -> u32 {
        let n_shapes = self.shapes.len() as u32;
        let mut marked = std::mem::take(&mut self.overlap_scratch);
        marked.clear();
        for &(i, j) in self.pairs.iter().filter(|p| p.0 >= n_shapes) {
            let (a, b) = (
                &self.balls[(i - n_shapes) as usize],
                &self.balls[(j - n_shapes) as usize],
            );
            let close = 0.5 * a.radius.min(b.radius);
            if (a.pos - b.pos).length_squared() < close * close || a.pos == b.pos {
                marked.push(i);
                marked.push(j);
            }
        }
        marked.sort_unstable();
        marked.dedup();
        let count = marked.len() as u32;
        self.overlap_scratch = marked;
        count
    }

    /// A hash of the state, bit exact: every ball's position and velocity, every kinematic
    /// angle and plunger pull (FNV-1a, 64 bit).
    pub fn state_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |x: u32| {
            for byte in x.to_le_bytes() {
                h ^= byte as u64;
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        eat(self.balls.len() as u32);
        for b in &self.balls {
            for v in [b.pos.x, b.pos.y, b.vel.x, b.vel.y] {
                eat(v.to_bits());
            }
        }
        for s in &self.shapes[self.first_moving..] {
            eat(s.angle.to_bits());
            if matches!(s.motion, crate::geom::Motion::Plunger { .. }) {
                eat(s.play.pull.to_bits());
            }
        }
        if self.settings.solver == Solver::Soft {
            for b in &self.balls {
                eat(b.spin.to_bits());
            }
        }
        if self.sleep_enabled() {
            for b in &self.balls {
                eat(b.asleep as u32);
                eat(b.slow_for.to_bits());
                eat(b.sleep_group);
            }
        }
        h
    }

    /// True when every ball's position and velocity is finite.
    pub fn all_finite(&self) -> bool {
        self.balls
            .iter()
            .all(|b| b.pos.is_finite() && b.vel.is_finite())
    }

    /// The kind of geometry of obstacle `i`.
    pub fn shape_geometry(&self, i: usize) -> Option<&Geometry> {
        self.shapes.get(i).map(|s| &s.geom)
    }
}

/// The shapes reordered statics first (stable), each `guard_of` renumbered to follow the
/// shape it guards (an index out of range is dropped).
fn statics_first(shapes: Vec<Shape>) -> Vec<Shape> {
    let mut order: Vec<usize> = (0..shapes.len()).collect();
    order.sort_by_key(|&i| shapes[i].is_kinematic());
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

/// Compares `pairs` with brute force's pairs for the same input (both sorted): returns
/// `(missed, extra)`.
fn verified(input: &BroadInput, pairs: &[Pair], scratch: &mut Vec<Pair>) -> (u64, u64) {
    crate::broad::brute::brute_pairs(input, scratch);
    let (mut i, mut j, mut missed, mut extra) = (0, 0, 0u64, 0u64);
    while i < scratch.len() || j < pairs.len() {
        match (scratch.get(i), pairs.get(j)) {
            (Some(a), Some(b)) if a == b => (i, j) = (i + 1, j + 1),
            (Some(a), Some(b)) if a < b => (i, missed) = (i + 1, missed + 1),
            (Some(_), None) => (i, missed) = (i + 1, missed + 1),
            _ => (j, extra) = (j + 1, extra + 1),
        }
    }
    (missed, extra)
}

/// A number no other world has used, so a broad phase moved between worlds rebuilds statics.
fn next_statics_version() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}
