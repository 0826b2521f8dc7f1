//! The toy's Fig. 26–28 (Parberry, Collision Math Toy, section 5.4.5): AABB tests per
//! iteration against the number of balls on the table, brute force against the quadtree —
//! here every broad phase.
//!
//! **Setup.** For each `n` of the range (2 … 32) and each algorithm, a fresh world is built
//! from the scene with the same seed; its `n` balls of radius 21 px (the toy's diameter
//! 42 px) are launched, and the launch phase — until the last ball has left the launch point
//! — is run but not counted. Then `seconds` simulated seconds are measured at 60 Hz with one
//! motion and one collision iteration, so one *iteration* is one 1/60 s frame, as the toy's
//! "60 seconds of motion, gathering data 60 times per second". Gravity is 0 by default: the
//! original table is seen from above (its balls only stop once "Z-axis friction" is added).
//! The quadtree runs at 5 levels counting the root (a 16 × 16 grid of 60 × 44 px leaves on
//! the 960 × 704 px table, the toy's "4 levels" counted without the root).
//!
//! **What is counted.** Each row is the world's own counter: every AABB test of the broad
//! phase, ball against obstacle and ball against ball, including the structure's own (for the
//! quadtree, 17 node tests per ball at 5 levels). Every algorithm returns the same pairs, so
//! all runs at one `n` follow the same trajectory; the final state hash is kept to show it.
//!
//! **Toy-comparable counts.** The toy's figures look like leaf tests without node tests
//! (17 node tests per ball alone would exceed its "slightly less than 3 times the number of
//! balls"), and its brute force like ball–ball tests only (beating the quadtree by 5 at 32
//! balls with the quadtree near 3 · 32 puts brute force near 32 · 31 / 2 = 496). So each
//! quadtree run also records a [`LeafRow`]: with `k` balls and `o` obstacles in a leaf (each
//! shape listed in every leaf its world-clamped box overlaps, the quadtree's own rule), the
//! ball–ball tests `Σ k(k − 1)/2` and the leaf tests `Σ k·o + k(k − 1)/2` (what the quadtree
//! tests in its leaves, without descending the tree), next to brute force's `n(n − 1)/2`.

use super::fit::{linear_fit, LinearFit};
use collide::broad::{BroadCounters, BroadInput, BroadKind};
use collide::geom::Aabb;
use collide::scene::Scene;
use collide::world::World;
use collide::{DebugDraw, Prim};

/// The toy's ball radius (px): "a diameter of 42 pixels".
pub const TOY_RADIUS: f32 = 21.0;
/// Quadtree levels counting the root giving the toy's 60 × 44 px leaves on the table.
pub const TOY_LEVELS: u32 = 5;
/// The toy's fitted slope for the quadtree: "slightly less than 3 times the number of balls".
pub const TOY_SLOPE: f64 = 3.0;
/// The toy's R² for that fit.
pub const TOY_R2: f64 = 0.996;
/// Ball count from which the toy's quadtree wins.
pub const TOY_CROSSOVER: u32 = 6;
/// The toy's brute force ÷ quadtree at 32 balls.
pub const TOY_FACTOR_AT_32: f64 = 5.0;
/// Most simulated seconds spent launching before the measurement starts.
const MAX_LAUNCH_SECONDS: u32 = 120;

/// What to run.
#[derive(Clone, Debug)]
pub struct SweepConfig {
    /// Fewest balls.
    pub min_balls: u32,
    /// Most balls.
    pub max_balls: u32,
    /// Simulated seconds measured per run (60 frames each).
    pub seconds: u32,
    /// Ball radius (px).
    pub radius: f32,
    /// Gravity (px/s²).
    pub gravity: f32,
    /// Quadtree levels counting the root.
    pub quadtree_levels: u32,
    /// The algorithms.
    pub kinds: Vec<BroadKind>,
    /// Seed of every world.
    pub seed: u64,
}

impl Default for SweepConfig {
    fn default() -> Self {
        Self {
            min_balls: 2,
            max_balls: 32,
            seconds: 60,
            radius: TOY_RADIUS,
            gravity: 0.0,
            quadtree_levels: TOY_LEVELS,
            kinds: BroadKind::ALL.to_vec(),
            seed: 1,
        }
    }
}

/// One algorithm at one ball count.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepRow {
    /// The algorithm.
    pub kind: BroadKind,
    /// Balls on the table.
    pub balls: u32,
    /// Obstacles on the table (guard points included).
    pub obstacles: u32,
    /// Iterations measured.
    pub iterations: u64,
    /// AABB tests per iteration (mean).
    pub tests_per_iteration: f64,
    /// Candidate pairs per iteration (mean).
    pub pairs_per_iteration: f64,
    /// Balls outside the table at the end.
    pub strays: u32,
    /// The world's state hash at the end.
    pub state_hash: u64,
}

/// The toy-comparable ball–ball counts at one ball count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LeafRow {
    /// Balls on the table.
    pub balls: u32,
    /// Brute force's ball–ball tests per iteration, `n(n − 1)/2`.
    pub brute_ball_tests: f64,
    /// Ball–ball tests inside quadtree leaves per iteration (mean of `Σ k(k − 1)/2`).
    pub leaf_ball_tests: f64,
    /// All tests inside quadtree leaves per iteration, balls against obstacles and balls
    /// (mean of `Σ k·o + k(k − 1)/2`); no node tests.
    pub leaf_tests: f64,
}

/// Everything a sweep measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sweep {
    /// One row per algorithm and ball count.
    pub rows: Vec<SweepRow>,
    /// One row per ball count (from the quadtree runs).
    pub leaf_rows: Vec<LeafRow>,
}

/// How one algorithm did over the sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct KindSummary {
    /// The algorithm.
    pub kind: BroadKind,
    /// Least-squares line of tests per iteration against balls.
    pub fit: Option<LinearFit>,
    /// Tests per iteration at the largest ball count.
    pub at_max: f64,
    /// Brute force's tests ÷ this algorithm's at the largest ball count.
    pub brute_factor_at_max: f64,
    /// Smallest ball count from which this algorithm does fewer tests than brute force at
    /// every larger count of the sweep; `None` if it is not below at the largest.
    pub overtakes_brute_at: Option<u32>,
}

/// Runs the sweep on `scene`; `progress` gets the fraction done.
pub fn run(scene: &Scene, config: &SweepConfig, progress: &mut dyn FnMut(f32)) -> Sweep {
    let mut steps = Steps::new(scene.clone(), config.clone());
    while let Some(done) = steps.step() {
        progress(done);
    }
    steps.sweep
}

/// The sweep one run at a time: each [`Steps::step`] runs the next algorithm at the next
/// ball count (ball counts in turn, every algorithm at each), so a caller without threads (a
/// page) can run it between frames and show its progress.
pub struct Steps {
    scene: Scene,
    config: SweepConfig,
    /// Runs done.
    done: usize,
    /// What they measured.
    pub sweep: Sweep,
}

impl Steps {
    /// The sweep of `config` on `scene`, nothing run yet.
    pub fn new(scene: Scene, config: SweepConfig) -> Self {
        Self {
            scene,
            config,
            done: 0,
            sweep: Sweep::default(),
        }
    }

    /// Runs the next run and returns the fraction of the sweep done, or `None` when every run
    /// is done.
    pub fn step(&mut self) -> Option<f32> {
        let kinds = self.config.kinds.len();
        let counts = (self.config.min_balls..=self.config.max_balls).count();
        let total = counts * kinds;
        if self.done >= total {
            return None;
        }
        let n = self.config.min_balls + (self.done / kinds) as u32;
        let kind = self.config.kinds[self.done % kinds];
        let (row, leaf) = run_one(&self.scene, &self.config, kind, n);
        self.sweep.rows.push(row);
        self.sweep.leaf_rows.extend(leaf);
        self.done += 1;
        Some(self.done as f32 / total as f32)
    }
}

/// A world of `n` balls of the configured radius, launched and in play, with `kind`.
pub fn launched_world(scene: &Scene, config: &SweepConfig, kind: BroadKind, n: u32) -> World {
    let mut world = scene.build(config.seed);
    let mut broad = kind.create();
    if kind == BroadKind::Quadtree {
        let _ = broad.set_param("levels", config.quadtree_levels as f32);
    }
    world.set_broad_phase_boxed(broad);
    let mut s = world.settings().clone();
    (s.motion_iterations, s.collision_iterations) = (1, 1);
    (s.ball_radius, s.gravity) = (config.radius, config.gravity);
    // Every iteration asks the broad phase, as the figures reproduced do.
    s.pair_cache = false;
    world.set_settings(s);
    world.launch(n);
    for _ in 0..MAX_LAUNCH_SECONDS * 60 {
        if world.pending_launches() == 0 {
            break;
        }
        world.step();
    }
    world
}

/// One measured run; the leaf row only for the quadtree.
fn run_one(
    scene: &Scene,
    config: &SweepConfig,
    kind: BroadKind,
    n: u32,
) -> (SweepRow, Option<LeafRow>) {
    let mut world = launched_world(scene, config, kind, n);
    let before = world.counters().total;
    let mut leaves = (kind == BroadKind::Quadtree).then(|| LeafCounter::new(&world, config));
    for _ in 0..config.seconds * 60 {
        world.step();
        if let Some(l) = leaves.as_mut() {
            l.count(&world);
        }
    }
    let after = world.counters().total;
    let iterations = after.iterations - before.iterations;
    let per = |a: u64, b: u64| (a - b) as f64 / iterations.max(1) as f64;
    let row = SweepRow {
        kind,
        balls: n,
        obstacles: world.shapes().len() as u32,
        iterations,
        tests_per_iteration: per(after.broad.aabb_tests, before.broad.aabb_tests),
        pairs_per_iteration: per(after.broad.pairs, before.broad.pairs),
        strays: world.counters().strays,
        state_hash: world.state_hash(),
    };
    let leaf = leaves.map(|l| LeafRow {
        balls: n,
        brute_ball_tests: (n as f64) * (n as f64 - 1.0) / 2.0,
        leaf_ball_tests: l.ball_ball as f64 / l.frames.max(1) as f64,
        leaf_tests: (l.ball_ball + l.ball_obstacle) as f64 / l.frames.max(1) as f64,
    });
    (row, leaf)
}

/// The boxes a broad phase outlines when drawn: for the quadtree, its leaves.
struct LeafBoxes(Vec<Aabb>);

impl DebugDraw for LeafBoxes {
    fn draw(&mut self, prim: Prim) {
        if let Prim::Rect { aabb, .. } = prim {
            self.0.push(aabb);
        }
    }
}

/// Counts the tests inside the quadtree's leaves, frame by frame: `Σ k(k − 1)/2` ball–ball
/// and `Σ k·o` ball–obstacle.
struct LeafCounter {
    leaf_boxes: Vec<Aabb>,
    world_box: Aabb,
    /// Balls per leaf this frame.
    balls: Vec<u64>,
    /// Obstacles per leaf this frame.
    obstacles: Vec<u64>,
    ball_ball: u64,
    ball_obstacle: u64,
    frames: u64,
}

impl LeafCounter {
    /// Leaf boxes taken from a real quadtree over the world box (the leaves it outlines when
    /// drawn), so the rule is its own.
    fn new(world: &World, config: &SweepConfig) -> Self {
        let world_box = world.bounds();
        let mut tree = BroadKind::Quadtree.create();
        tree.set_param("levels", config.quadtree_levels as f32)
            .expect("the sweep's quadtree levels are valid");
        let input = BroadInput {
            aabbs: &[],
            first_moving: 0,
            first_dynamic: 0,
            statics_version: 0,
            world: world_box,
        };
        tree.find_pairs(&input, &mut Vec::new(), &mut BroadCounters::default());
        let mut boxes = LeafBoxes(Vec::new());
        tree.debug_draw(&mut boxes);
        let leaves = boxes.0.len();
        Self {
            leaf_boxes: boxes.0,
            world_box,
            balls: vec![0; leaves],
            obstacles: vec![0; leaves],
            ball_ball: 0,
            ball_obstacle: 0,
            frames: 0,
        }
    }

    /// Adds one leaf listing per box of `boxes` (world-clamped) to `counts`.
    fn list(&self, boxes: impl Iterator<Item = Aabb>, counts: &mut [u64]) {
        counts.iter_mut().for_each(|k| *k = 0);
        for b in boxes {
            let b = b.clamped(&self.world_box);
            for (k, leaf) in counts.iter_mut().zip(&self.leaf_boxes) {
                *k += leaf.overlaps(&b) as u64;
            }
        }
    }

    fn count(&mut self, world: &World) {
        let mut balls = std::mem::take(&mut self.balls);
        let mut obstacles = std::mem::take(&mut self.obstacles);
        self.list(world.balls().iter().map(|b| b.aabb()), &mut balls);
        self.list(world.shapes().iter().map(|s| s.aabb()), &mut obstacles);
        for (&k, &o) in balls.iter().zip(&obstacles) {
            self.ball_ball += k * k.saturating_sub(1) / 2;
            self.ball_obstacle += k * o;
        }
        (self.balls, self.obstacles) = (balls, obstacles);
        self.frames += 1;
    }
}

/// Fit, factor and crossover of every algorithm in `rows`, in the order they first appear.
pub fn summarize(rows: &[SweepRow]) -> Vec<KindSummary> {
    let mut kinds: Vec<BroadKind> = Vec::new();
    for r in rows {
        if !kinds.contains(&r.kind) {
            kinds.push(r.kind);
        }
    }
    let series = |kind| -> Vec<(u32, f64)> {
        let mut s: Vec<(u32, f64)> = rows
            .iter()
            .filter(|r| r.kind == kind)
            .map(|r| (r.balls, r.tests_per_iteration))
            .collect();
        s.sort_by_key(|p| p.0);
        s
    };
    let brute = series(BroadKind::Brute);
    kinds
        .into_iter()
        .map(|kind| summary_of(kind, &series(kind), &brute))
        .collect()
}

/// The summary of one series `(balls, tests)` against brute force's.
pub fn summary_of(kind: BroadKind, series: &[(u32, f64)], brute: &[(u32, f64)]) -> KindSummary {
    let pts: Vec<(f64, f64)> = series.iter().map(|&(n, y)| (n as f64, y)).collect();
    let at_max = series.last().map_or(0.0, |p| p.1);
    let brute_at = |n: u32| brute.iter().find(|p| p.0 == n).map(|p| p.1);
    let brute_max = series.last().and_then(|p| brute_at(p.0)).unwrap_or(0.0);
    KindSummary {
        kind,
        fit: linear_fit(&pts),
        at_max,
        brute_factor_at_max: if at_max > 0.0 {
            brute_max / at_max
        } else {
            f64::INFINITY
        },
        overtakes_brute_at: overtakes(series, brute),
    }
}

/// Smallest `n` from which `series` stays strictly below `brute` to the end.
fn overtakes(series: &[(u32, f64)], brute: &[(u32, f64)]) -> Option<u32> {
    let mut from = None;
    for &(n, y) in series {
        let b = brute.iter().find(|p| p.0 == n)?.1;
        if y < b {
            from = from.or(Some(n));
        } else {
            from = None;
        }
    }
    from
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overtaking_point_needs_the_algorithm_below_to_the_end() {
        let brute = [(2, 10.0), (3, 20.0), (4, 30.0), (5, 40.0)];
        assert_eq!(
            overtakes(&[(2, 5.0), (3, 25.0), (4, 29.0), (5, 39.0)], &brute),
            Some(4)
        );
        assert_eq!(
            overtakes(&[(2, 5.0), (3, 5.0), (4, 5.0), (5, 5.0)], &brute),
            Some(2)
        );
        assert_eq!(
            overtakes(&[(2, 5.0), (3, 5.0), (4, 5.0), (5, 40.0)], &brute),
            None
        );
    }
}
