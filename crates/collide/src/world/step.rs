//! The [`World`]: what it holds, how it is made and read, and its fixed step (see the notes
//! of `crate::world`); beside it the buffers its stages keep between steps.

use super::cache::PairCache;
use super::contacts::SoftState;
use super::counters::{Counters, OverlapMeter, Tally};
use super::pairs::next_statics_version;
use super::settings::{Settings, Solver};
use super::sleepers::SleepState;
use crate::broad::{BroadKind, BroadPhase, Pair};
use crate::geom::Ball;
use crate::geom::{clamp_speed, Aabb, Geometry, Group, Shape};
use crate::narrow::Impact;
use crate::response::{Hit, HitWith};
use crate::rules::Moment;
use glam::Vec2;
use rand::{Rng, SeedableRng};
use std::f32::consts::TAU;

/// The world's generator: ChaCha12, the algorithm of rand 0.8's `StdRng` (same stream for a
/// seed), named directly so its position can be saved and restored (`world/state.rs`).
pub(super) type WorldRng = rand_chacha::ChaCha12Rng;

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
    pub(super) shapes: Vec<Shape>,
    pub(super) first_moving: usize,
    pub(super) balls: Vec<Ball>,
    pub(super) bounds: Aabb,
    pub(super) launcher: Launcher,
    pub(super) pending_launches: u32,
    pub(super) rng: WorldRng,
    pub(super) broad: Box<dyn BroadPhase>,
    pub(super) statics_version: u64,
    pub(super) aabbs: Vec<Aabb>,
    pub(super) pairs: Vec<Pair>,
    /// The pairs typed (`pairs.rs`).
    pub(super) bodies: Vec<super::body::BodyPair>,
    pub(super) verify_scratch: Vec<Pair>,
    /// Balls marked by `count_overlaps`, kept so a step allocates nothing.
    pub(super) overlap_scratch: Vec<u32>,
    pub(super) counters: Counters,
    pub(super) hits: Vec<Hit>,
    pub(super) steps: u64,
    pub(super) clock: Option<fn() -> u64>,
    pub(super) groups: Vec<Group>,
    pub(super) sweep: SweepState,
    pub(super) settle: SettleState,
    pub(super) rules: crate::rules::RuleBook,
    pub(super) cache: PairCache,
    pub(super) soft: SoftState,
    pub(super) sleep: SleepState,
    pub(super) meter: MeterState,
    /// Balls woken since the last step's count.
    pub(super) woken: u64,
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
            bodies: Vec::new(),
            verify_scratch: Vec::new(),
            overlap_scratch: Vec::new(),
            counters: Counters::default(),
            hits: Vec::new(),
            steps: 0,
            clock: None,
            groups: Vec::new(),
            sweep: SweepState::default(),
            settle: SettleState::default(),
            rules: crate::rules::RuleBook::default(),
            cache: PairCache::default(),
            soft: SoftState::default(),
            sleep: SleepState::default(),
            meter: MeterState::default(),
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
        self.bodies.clear();
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

    pub(super) fn move_balls(&mut self, dt: f32) {
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

impl World {
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

    pub(super) fn count_after_step(&mut self, mut tally: Tally) {
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
        let mut marked = std::mem::take(&mut self.overlap_scratch);
        marked.clear();
        for p in &self.bodies {
            let Some(o) = p.other_ball() else {
                continue;
            };
            let (a, b) = (&self.balls[p.ball.ix()], &self.balls[o.ix()]);
            let close = 0.5 * a.radius.min(b.radius);
            if (a.pos - b.pos).length_squared() < close * close || a.pos == b.pos {
                marked.push(p.ball.0);
                marked.push(o.0);
            }
        }
        marked.sort_unstable();
        marked.dedup();
        let count = marked.len() as u32;
        self.overlap_scratch = marked;
        count
    }
}

/// Scratch of the pass, kept between steps to avoid allocating.
#[derive(Clone, Debug, Default)]
pub(super) struct SettleState {
    pub(super) push: Vec<Vec2>,
    pub(super) moved: Vec<f32>,
    pub(super) moves: Vec<Vec2>,
    pub(super) walls: Vec<u32>,
    pub(super) wall_start: Vec<u32>,
    pub(super) fill: Vec<u32>,
}

/// One answered impact of the last step, for drawing swept paths.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweptImpact {
    /// The ball.
    pub ball: u32,
    /// Its centre when it hit (px).
    pub centre: Vec2,
    /// The contact point found (px).
    pub point: Vec2,
}

/// Per-ball state of the swept iterations, kept between steps to avoid allocating.
#[derive(Clone, Debug, Default)]
pub(super) struct SweepState {
    pub(super) from: Vec<Vec2>,
    pub(super) rest: Vec<f32>,
    pub(super) changed: Vec<bool>,
    pub(super) best: Vec<Option<Best>>,
    pub(super) starts: Vec<Vec2>,
    pub(super) impacts: Vec<SweptImpact>,
}

/// A ball's earliest impact so far in this iteration.
#[derive(Clone, Copy, Debug)]
pub(super) struct Best {
    /// Seconds of the step left at the impact (larger is earlier).
    pub(super) left: f32,
    pub(super) with: super::body::Body,
    pub(super) impact: Impact,
    /// Elasticity of the shape (a group's member) hit.
    pub(super) elasticity: f32,
}

/// The meter's own state: the sleepers' part and the grid that measured it.
#[derive(Default)]
pub(super) struct MeterState {
    /// The sleepers measured (ball indices) and what they gave.
    pub(super) sleepers: Vec<u32>,
    /// The push-out's own search of the awake balls' pairs: a grid, the obstacles' and all
    /// boxes in the broad phase's order, the awake balls, the pairs, and the statics the grid
    /// keeps (the world's statics version, the sleepers it saw, the version handed to it).
    pub(super) live_grid: Option<Box<dyn BroadPhase>>,
    pub(super) live_shapes: Vec<Aabb>,
    pub(super) live_boxes: Vec<Aabb>,
    pub(super) live_awake: Vec<u32>,
    pub(super) live_pairs: Vec<Pair>,
    pub(super) live_bodies: Vec<super::body::BodyPair>,
    pub(super) live_statics: (u64, Vec<u32>, u64),
    pub(super) frozen: OverlapMeter,
    pub(super) grid: Option<Box<dyn BroadPhase>>,
    pub(super) boxes: Vec<Aabb>,
    pub(super) pairs: Vec<Pair>,
    pub(super) bodies: Vec<super::body::BodyPair>,
}
