//! The world: obstacles, balls, the broad phase, and the fixed step.
//!
//! One [`World::step`] is one motion iteration of `1 / (60 · motion_iterations)` s:
//! launch a queued ball if the lane is clear, turn kinematic shapes, apply gravity and move the
//! balls (semi-implicit Euler), then `collision_iterations` times: box every shape, ask the
//! broad phase for candidate pairs (sorted), and for each pair run the narrow phase and the
//! response in that order (`world/push_out.rs`, or the soft contacts of `world/soft.rs`). The
//! scene's rules act at fixed moments of the step (`crate::rules`, through
//! `world/rules.rs`). Everything depends only on the scene, the seed and the settings.
//!
//! With a tunnelling mode other than [`Tunnelling::Off`](crate::Tunnelling::Off) the collision
//! iterations are swept instead (see `world/sweep.rs`): the broad phase boxes each ball's path
//! this step, each ball answers its earliest impact at the moment it happens and goes on for
//! the rest of the step, and iterations stop once no path changed. Shape groups are tested
//! hull first (`world/groups.rs`).

mod cache;
mod counters;
mod edit;
mod fill;
mod groups;
mod meter;
mod push_out;
mod rules;
mod settings;
mod settle;
mod sleep;
mod soft;
mod state;
mod sweep;

pub use crate::geom::{Ball, MAX_SPEED};
pub use crate::response::{Hit, HitWith, HIT_SPEED};
pub use counters::{Counters, Tally};
pub use fill::Filled;
pub use meter::OverlapMeter;
pub use settings::Settings;
pub use sleep::SleepSettings;
pub use soft::{KeptImpulse, SoftSettings, Solver};
pub use state::{RngState, StateError, WorldState};
pub use sweep::SweptImpact;

use crate::broad::{BroadInput, BroadKind, BroadPhase, Pair};
use crate::geom::{clamp_speed, Aabb, Geometry, Group, Shape};
use crate::response::record;
use crate::rules::Moment;
use glam::Vec2;
use rand::{Rng, SeedableRng};
use std::f32::consts::TAU;

/// The world's generator: ChaCha12, the algorithm of rand 0.8's `StdRng` (same stream for a
/// seed), named directly so its position can be saved and restored (`world/state.rs`).
type WorldRng = rand_chacha::ChaCha12Rng;

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

    /// This world with balls launched from `launcher`.
    pub fn with_launcher(mut self, launcher: Launcher) -> Self {
        self.launcher = launcher;
        self
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
