//! Scaling: build-plus-all-pairs time of every broad phase on `N` uniform random balls,
//! `N` = 1k … 1M.
//!
//! **Input** ([`scale_boxes`]). Radii uniform in `[0.5 r0, 1.5 r0]` with `r0` = [`R0`] px; the
//! square's side is chosen so the balls' total area is [`AREA_FRACTION`] of it,
//! `side = √(Σ π r² / 0.3)`; centres uniform in the square (boxes may stick out). All objects
//! are balls (no obstacles), and the world box is the square. The distribution is that of
//! `scenarios::scale_input` (the peer benchmark's input), but the side here comes from
//! the radii drawn rather than their expectation and the generator is seeded differently, so
//! the boxes are not the same.
//!
//! **Measured.** For each algorithm a fresh instance (nothing cached) makes one
//! [`BroadPhase::find_pairs`] call: building the structure and finding all pairs. The time is
//! the median over `reps` fresh instances (one run only above 100k balls or when the first run
//! took over a second; more, up to [`MOST_REPS`], while the runs took under [`STEADY_MS`] in
//! all, so quick rows are medians of many runs). Also: the pairs found (the same for every algorithm) and AABB tests
//! per ball.
//!
//! **Skipped.** Brute force above `brute_max_n`; and an algorithm at a count where its time,
//! extrapolated from its last two counts (power law, exponent at least 1), would exceed
//! `budget_ms` — some degrade to Θ(n²) on this input (RDC finds no gap to split at). Skips are
//! returned with the predicted time.
//!
//! **Parameters.** The grid methods' cell arrays grow with the ball count (at most
//! `max(MAX_CELLS_PER_AXIS², 4n)` cells), so they keep their sizes at every `N`: sectors and
//! adjacent sectors the 1994 harness's 64 px sectors, the uniform grid its automatic cell
//! (32 px for these balls). The quadtree runs with automatic levels (parameter 0: leaves about
//! half the balls, so its levels grow with `N`; the original's fixed 5 levels make it quadratic
//! once the 16 × 16 leaves fill). The rest run at their defaults. Each row states the
//! parameters used.

use collide::broad::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair};
use collide::geom::Aabb;
use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::f32::consts::PI;

/// Mean ball radius (px).
pub const R0: f32 = 10.0;
/// Share of the square covered by the balls' total area.
pub const AREA_FRACTION: f32 = 0.3;
/// A row of runs under a second each repeats until its runs took this long in all (ms)…
pub const STEADY_MS: f64 = 300.0;
/// …but at most this many runs.
pub const MOST_REPS: u32 = 31;
/// The ball counts of the experiment.
pub const COUNTS: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];

/// What to run.
#[derive(Clone, Debug)]
pub struct ScaleConfig {
    /// Ball counts.
    pub counts: Vec<usize>,
    /// The algorithms.
    pub kinds: Vec<BroadKind>,
    /// Brute force only up to this many balls.
    pub brute_max_n: usize,
    /// Fresh instances timed per row, at least (one above 100k balls; more for quick rows
    /// unless this is 1).
    pub reps: u32,
    /// Skip a run predicted to take longer than this (ms).
    pub budget_ms: f64,
    /// Seed of the inputs.
    pub seed: u64,
}

impl Default for ScaleConfig {
    fn default() -> Self {
        Self {
            counts: COUNTS.to_vec(),
            kinds: BroadKind::ALL.to_vec(),
            brute_max_n: 10_000,
            reps: 3,
            budget_ms: 30_000.0,
            seed: 7,
        }
    }
}

/// One algorithm at one ball count.
#[derive(Clone, Debug, PartialEq)]
pub struct ScaleRow {
    /// The algorithm.
    pub kind: BroadKind,
    /// Its parameters (`name=value; …`).
    pub params: String,
    /// Balls.
    pub n: usize,
    /// Side of the square (px).
    pub side: f32,
    /// Build plus all pairs, median (ms).
    pub millis: f64,
    /// Overlapping pairs found.
    pub pairs: u64,
    /// AABB tests per ball.
    pub tests_per_object: f64,
}

/// A run not made.
#[derive(Clone, Debug, PartialEq)]
pub struct Skipped {
    /// The algorithm.
    pub kind: BroadKind,
    /// Balls.
    pub n: usize,
    /// The extrapolated time (ms); `None` for brute force above its limit.
    pub predicted_ms: Option<f64>,
}

/// What a scaling run measured and skipped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScaleRun {
    /// Measured rows, by count then algorithm.
    pub rows: Vec<ScaleRow>,
    /// Runs not made.
    pub skipped: Vec<Skipped>,
}

/// `n` ball boxes as defined in the module docs, and the square (the world box).
pub fn scale_boxes(n: usize, seed: u64) -> (Vec<Aabb>, Aabb) {
    let mut rng = StdRng::seed_from_u64(seed);
    let radii: Vec<f32> = (0..n).map(|_| rng.gen_range(0.5 * R0..=1.5 * R0)).collect();
    // Σ π r² = 0.3 · side², summed in f64 for a million terms.
    let area: f64 = radii.iter().map(|&r| (PI * r * r) as f64).sum();
    let side = ((area / AREA_FRACTION as f64).sqrt() as f32).max(1.0);
    let boxes = radii
        .iter()
        .map(|&r| {
            let c = Vec2::new(rng.gen_range(0.0..side), rng.gen_range(0.0..side));
            Aabb::around(c, r)
        })
        .collect();
    (boxes, Aabb::new(Vec2::ZERO, Vec2::splat(side)))
}

/// A fresh broad phase of `kind` set up as the module docs say.
pub fn scale_broad(kind: BroadKind) -> Box<dyn BroadPhase> {
    // Sectors of the 1994 post's 64 px, as its harness sets them.
    let mut broad = super::sectors_1994::harness_broad(kind);
    if kind == BroadKind::Quadtree {
        let automatic = broad.set_param("levels", 0.0);
        automatic.expect("scale parameters are in range");
    }
    broad
}

/// Runs every algorithm at every count; `clock` returns nanoseconds.
pub fn run(config: &ScaleConfig, clock: fn() -> u64, progress: &mut dyn FnMut(f32)) -> ScaleRun {
    // Work grows about linearly with n: weigh progress by it.
    let weight: f64 = config
        .counts
        .iter()
        .map(|&n| n as f64)
        .sum::<f64>()
        .max(1.0);
    let mut done = 0.0;
    let mut out = ScaleRun::default();
    for &n in &config.counts {
        let (boxes, world) = scale_boxes(n, config.seed ^ n as u64);
        for (ki, &kind) in config.kinds.iter().enumerate() {
            let predicted = predicted_ms(&out.rows, kind, n);
            if kind == BroadKind::Brute && n > config.brute_max_n {
                out.skipped.push(Skipped {
                    kind,
                    n,
                    predicted_ms: None,
                });
            } else if predicted.is_some_and(|t| t > config.budget_ms) {
                out.skipped.push(Skipped {
                    kind,
                    n,
                    predicted_ms: predicted,
                });
            } else {
                out.rows.push(run_one(config, kind, &boxes, world, clock));
            }
            let part = (ki + 1) as f64 / config.kinds.len() as f64;
            progress(((done + n as f64 * part) / weight) as f32);
        }
        done += n as f64;
    }
    out
}

/// The time of `kind` at `n` extrapolated from its last two rows, `t ∝ n^e` with `e ≥ 1`
/// (from one row: linear); `None` without rows.
pub fn predicted_ms(rows: &[ScaleRow], kind: BroadKind, n: usize) -> Option<f64> {
    let mine: Vec<&ScaleRow> = rows.iter().filter(|r| r.kind == kind).collect();
    let last = mine.last()?;
    let e = match mine.len() {
        1 => 1.0,
        k => {
            let prev = mine[k - 2];
            let e = (last.millis / prev.millis).ln() / (last.n as f64 / prev.n as f64).ln();
            if e.is_finite() {
                e.max(1.0)
            } else {
                1.0
            }
        }
    };
    Some(last.millis * (n as f64 / last.n as f64).powf(e))
}

fn run_one(
    config: &ScaleConfig,
    kind: BroadKind,
    boxes: &[Aabb],
    world: Aabb,
    clock: fn() -> u64,
) -> ScaleRow {
    let input = BroadInput {
        aabbs: boxes,
        first_moving: 0,
        first_dynamic: 0,
        statics_version: 1,
        world,
    };
    let mut reps = if boxes.len() > 100_000 {
        1
    } else {
        config.reps.max(1)
    };
    let mut times = Vec::new();
    let (mut pairs, mut counters, mut params) =
        (Vec::<Pair>::new(), BroadCounters::default(), String::new());
    while times.len() < reps as usize {
        let mut broad = scale_broad(kind);
        counters = BroadCounters::default();
        let t0 = clock();
        broad.find_pairs(&input, &mut pairs, &mut counters);
        times.push(clock().saturating_sub(t0) as f64 * 1e-6);
        // A run over a second is timed once; quick rows repeat until they have taken
        // [`STEADY_MS`] in all (at most [`MOST_REPS`] runs), so that on a loaded machine
        // their median is not one unlucky moment.
        if times[0] > 1000.0 {
            reps = 1;
        } else if config.reps > 1
            && times.len() == reps as usize
            && times.iter().sum::<f64>() < STEADY_MS
            && reps < MOST_REPS
        {
            reps += 1;
        }
        params = super::params_text(broad.as_ref());
    }
    ScaleRow {
        kind,
        params,
        n: boxes.len(),
        side: world.size().x,
        millis: super::median(&mut times).unwrap_or(0.0),
        pairs: counters.pairs,
        tests_per_object: counters.aabb_tests as f64 / boxes.len().max(1) as f64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_balls_cover_three_tenths_of_the_square() {
        let (boxes, world) = scale_boxes(5_000, 1);
        assert_eq!(boxes.len(), 5_000);
        let area: f32 = boxes.iter().map(|b| PI * (0.5 * b.size().x).powi(2)).sum();
        let fraction = area / world.area();
        assert!((fraction - AREA_FRACTION).abs() < 1e-3, "{fraction}");
        for b in &boxes {
            let r = 0.5 * b.size().x;
            assert!((0.5 * R0 - 1e-3..=1.5 * R0 + 1e-3).contains(&r), "{r}");
            assert!(world.contains(b.centre()));
        }
    }

    #[test]
    fn extrapolation_uses_the_last_two_rows_and_at_least_linear_growth() {
        let row = |n, millis| ScaleRow {
            kind: BroadKind::Rdc,
            params: String::new(),
            n,
            side: 1.0,
            millis,
            pairs: 0,
            tests_per_object: 0.0,
        };
        assert_eq!(predicted_ms(&[], BroadKind::Rdc, 10), None);
        assert_eq!(
            predicted_ms(&[row(10, 2.0)], BroadKind::Rdc, 100),
            Some(20.0)
        );
        let quadratic = [row(10, 1.0), row(100, 100.0)];
        let p = predicted_ms(&quadratic, BroadKind::Rdc, 1000).unwrap();
        assert!((p - 10_000.0).abs() < 1e-6, "{p}");
        let flat = [row(10, 5.0), row(100, 5.0)];
        assert_eq!(predicted_ms(&flat, BroadKind::Rdc, 1000), Some(50.0));
    }

    #[test]
    fn every_algorithm_finds_the_same_pairs_on_a_small_square() {
        let config = ScaleConfig {
            counts: vec![2_000],
            reps: 1,
            ..ScaleConfig::default()
        };
        let rows = run(&config, || 0, &mut |_| {}).rows;
        assert_eq!(rows.len(), BroadKind::ALL.len());
        assert!(rows[0].pairs > 0);
        assert!(rows.iter().all(|r| r.pairs == rows[0].pairs), "{rows:?}");
    }
}
