//! The four-shifts article's timing harness (Moertel 1994), re-run on every broad phase.
//!
//! **Setup, as the post's `_RunExperiment`.** A 640 × 480 px screen; `n` objects of 30 × 30 px,
//! each placed with its upper-left corner at a random whole pixel, `x ∈ [0, 638]`,
//! `y ∈ [0, 478]` (the post's `_RandScalar(kScreenWidth − 1)`), so boxes may reach 30 px past
//! the right and bottom edges. A *complete check* finds all pairs of overlapping objects (one
//! [`BroadPhase::find_pairs`] call; every object is a ball, there are no obstacles). The post
//! re-randomizes the objects every 50 checks (`kCycleLength`) and does not time the
//! randomizing; here each such batch of 50 is timed on its own and the rate reported is the
//! median over the batches, which ignores the odd preempted batch. Every algorithm sees the
//! same layouts (one seeded generator per object count).
//!
//! **Cost model.** With `K` objects per sector on average, the post predicts
//! `R = ((81K² − 9K)/2) / (2K² − 2K)` times more rectangle tests for adjacent sectors than for
//! four shifts ([`predicted_ratio`]). Two differences from the measured ratio are expected:
//! the model puts exactly `K` objects in every sector, but random placement makes the count
//! vary, and the mean of `K(K − 1)` for a random count of mean `K` is `K²` (Poisson), not
//! `K² − K` — so the measured ratio sits near `81/4 = 20.25` at every `K`; and sectors on
//! the screen's edge have fewer occupied neighbours, which lowers it a little.
//!
//! The post's own overlap test is strict (`|dx| < 30`); ours is closed (touching counts).
//! That changes which pairs are reported, never the number of tests.

use collide::broad::{BroadCounters, BroadInput, BroadKind, BroadPhase, Pair};
use collide::geom::Aabb;
use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Screen width (px), the post's `kScreenWidth`.
pub const SCREEN_W: f32 = 640.0;
/// Screen height (px), the post's `kScreenHeight`.
pub const SCREEN_H: f32 = 480.0;
/// Side of every object (px), the post's `kRectSize`.
pub const OBJECT_SIDE: f32 = 30.0;
/// Sector side (px), the post's `kSectorSize`.
pub const SECTOR_SIZE: f32 = 64.0;
/// Complete checks per layout, the post's `kCycleLength`.
pub const CYCLES: u32 = 50;
/// Object counts of the post's results table.
pub const POST_COUNTS: [u32; 4] = [0, 50, 100, 200];
/// The post's complete checks per second on a 25 MHz 68040 Macintosh.
pub const POST_68K: [f64; 4] = [611.0, 340.0, 189.0, 81.0];
/// The post's complete checks per second on an 80 MHz PowerPC 601 (Power Macintosh 8100).
pub const POST_PPC: [f64; 4] = [7640.0, 4020.0, 2060.0, 788.0];

/// What to run.
#[derive(Clone, Debug)]
pub struct HarnessConfig {
    /// Object counts.
    pub counts: Vec<u32>,
    /// Random layouts (timed batches) per count and algorithm.
    pub layouts: u32,
    /// Complete checks per layout.
    pub cycles: u32,
    /// The algorithms.
    pub kinds: Vec<BroadKind>,
    /// Seed of the layouts.
    pub seed: u64,
}

impl Default for HarnessConfig {
    fn default() -> Self {
        Self {
            counts: POST_COUNTS.to_vec(),
            layouts: 40,
            cycles: CYCLES,
            kinds: BroadKind::ALL.to_vec(),
            seed: 1994,
        }
    }
}

/// One algorithm at one object count.
#[derive(Clone, Debug, PartialEq)]
pub struct HarnessRow {
    /// The algorithm.
    pub kind: BroadKind,
    /// Its parameters (`name=value; …`).
    pub params: String,
    /// Objects on the screen.
    pub objects: u32,
    /// Median over layouts of complete checks per second.
    pub checks_per_second: f64,
    /// Rectangle (AABB) tests per complete check, mean over all checks.
    pub tests_per_check: f64,
    /// Overlapping pairs found per complete check, mean.
    pub pairs_per_check: f64,
}

/// Four shifts against adjacent sectors at one object count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioRow {
    /// Objects on the screen.
    pub objects: u32,
    /// Mean objects per sector, `K` ([`mean_per_sector`]).
    pub k: f64,
    /// Rectangle tests per complete check, four shifts ([`BroadKind::Sectors`]).
    pub sectors_tests: f64,
    /// Rectangle tests per complete check, adjacent sectors ([`BroadKind::Adjacent`]).
    pub adjacent_tests: f64,
    /// `adjacent_tests / sectors_tests`; `None` when four shifts did no test.
    pub measured: Option<f64>,
    /// The post's `R(K)`; `None` where it is undefined (`K ≤ 1`).
    pub predicted: Option<f64>,
}

/// Mean objects per sector, `K = n · s² / (W · H)`: the upper-left corners fill the screen
/// uniformly and each object is in the sector of its corner.
pub fn mean_per_sector(objects: u32) -> f64 {
    objects as f64 * (SECTOR_SIZE as f64).powi(2) / (SCREEN_W as f64 * SCREEN_H as f64)
}

/// The post's ratio `R = ((81K² − 9K)/2) / (2K² − 2K)`; `None` for `K ≤ 1`, where the model's
/// four-shifts cost `2K(K − 1)` is zero or negative.
pub fn predicted_ratio(k: f64) -> Option<f64> {
    // 2K² − 2K > 0 exactly when K > 1.
    (k > 1.0).then(|| (81.0 * k * k - 9.0 * k) / 2.0 / (2.0 * k * k - 2.0 * k))
}

/// The expected ratio of adjacent-sector to four-shift tests for objects placed at random,
/// border sectors included (about 16.5 on the post's screen).
///
/// With corners uniform on the screen, a sector holding the share `m` of a full sector's area
/// holds on average `mK` objects, and for a random count the mean of `c(c − 1)` is the square of
/// its mean. So four shifts cost `Σ_shifts Σ_sectors (mK)²/2` and adjacent sectors
/// `Σ_sectors (BK)²/2`, `B` the summed shares of the 3 × 3 block; both factor into x and y
/// sums, and `K` cancels. The grids span the boxes (30 px past the screen), as the
/// implementations' do.
pub fn expected_ratio() -> f64 {
    let axis = |len: f64, reach: f64, shift: f64| -> Vec<f64> {
        let s = SECTOR_SIZE as f64;
        let (lo, hi) = ((shift).floor() as i64, (reach / s + shift).floor() as i64);
        (lo..=hi)
            .map(|i| {
                (((i as f64 + 1.0 - shift) * s).min(len) - ((i as f64 - shift) * s).max(0.0))
                    .max(0.0)
                    / s
            })
            .collect()
    };
    let squares = |m: &[f64]| m.iter().map(|v| v * v).sum::<f64>();
    let blocks = |m: &[f64]| -> Vec<f64> {
        (0..m.len())
            .map(|i| m[i.saturating_sub(1)..(i + 2).min(m.len())].iter().sum())
            .collect()
    };
    // Corners lie in [0, W − 1) × [0, H − 1); boxes reach 30 px further.
    let (w, h) = (SCREEN_W as f64 - 1.0, SCREEN_H as f64 - 1.0);
    let (rw, rh) = (w + OBJECT_SIDE as f64, h + OBJECT_SIDE as f64);
    let adjacent = squares(&blocks(&axis(w, rw, 0.0))) * squares(&blocks(&axis(h, rh, 0.0)));
    let shifts: f64 = [(0.0, 0.0), (0.0, 0.5), (0.5, 0.0), (0.5, 0.5)]
        .iter()
        .map(|&(sx, sy)| squares(&axis(w, rw, sx)) * squares(&axis(h, rh, sy)))
        .sum();
    adjacent / shifts
}

/// The boxes of `n` objects placed as the post's `_RandomizeObjects` does.
pub fn random_objects(rng: &mut StdRng, n: u32, out: &mut Vec<Aabb>) {
    out.clear();
    for _ in 0..n {
        let x = rng.gen_range(0..SCREEN_W as u32 - 1) as f32;
        let y = rng.gen_range(0..SCREEN_H as u32 - 1) as f32;
        let min = Vec2::new(x, y);
        out.push(Aabb::new(min, min + Vec2::splat(OBJECT_SIDE)));
    }
}

/// A broad phase of `kind` set up for the harness: sectors of the post's 64 px, the others
/// at their defaults.
pub fn harness_broad(kind: BroadKind) -> Box<dyn BroadPhase> {
    let mut broad = kind.create();
    if matches!(kind, BroadKind::Sectors | BroadKind::Adjacent) {
        broad
            .set_param("sector size", SECTOR_SIZE)
            .expect("64 px is a valid sector size");
    }
    broad
}

/// Runs the harness: every algorithm at every count. `clock` returns nanoseconds.
pub fn run(
    config: &HarnessConfig,
    clock: fn() -> u64,
    progress: &mut dyn FnMut(f32),
) -> Vec<HarnessRow> {
    let total = (config.kinds.len() * config.counts.len()).max(1) as f32;
    let mut rows = Vec::new();
    for (ki, &kind) in config.kinds.iter().enumerate() {
        for (ci, &n) in config.counts.iter().enumerate() {
            rows.push(run_one(config, kind, n, clock));
            progress((ki * config.counts.len() + ci + 1) as f32 / total);
        }
    }
    rows
}

/// One algorithm at one count: `layouts` timed batches of `cycles` complete checks.
fn run_one(config: &HarnessConfig, kind: BroadKind, n: u32, clock: fn() -> u64) -> HarnessRow {
    let mut rng = StdRng::seed_from_u64(config.seed ^ (n as u64).wrapping_mul(0x9e37_79b9));
    let mut broad = harness_broad(kind);
    let (mut boxes, mut pairs) = (Vec::new(), Vec::<Pair>::new());
    let mut counters = BroadCounters::default();
    let mut rates = Vec::with_capacity(config.layouts as usize);
    let world = Aabb::new(Vec2::ZERO, Vec2::new(SCREEN_W, SCREEN_H));
    for _ in 0..config.layouts {
        random_objects(&mut rng, n, &mut boxes);
        let input = BroadInput {
            aabbs: &boxes,
            first_moving: 0,
            first_dynamic: 0,
            statics_version: 1,
            world,
        };
        let t0 = clock();
        for _ in 0..config.cycles {
            broad.find_pairs(&input, &mut pairs, &mut counters);
        }
        // A batch faster than the clock's tick counts as one nanosecond.
        let secs = clock().saturating_sub(t0).max(1) as f64 * 1e-9;
        rates.push(config.cycles as f64 / secs);
    }
    let checks = (config.layouts * config.cycles).max(1) as f64;
    HarnessRow {
        kind,
        params: super::params_text(broad.as_ref()),
        objects: n,
        checks_per_second: super::median(&mut rates).unwrap_or(0.0),
        tests_per_check: counters.aabb_tests as f64 / checks,
        pairs_per_check: counters.pairs as f64 / checks,
    }
}

/// Four shifts against adjacent sectors at each count present in `rows` for both.
pub fn ratios(rows: &[HarnessRow]) -> Vec<RatioRow> {
    let find = |kind, n| rows.iter().find(|r| r.kind == kind && r.objects == n);
    let mut out = Vec::new();
    for r in rows.iter().filter(|r| r.kind == BroadKind::Sectors) {
        let Some(adj) = find(BroadKind::Adjacent, r.objects) else {
            continue;
        };
        let k = mean_per_sector(r.objects);
        out.push(RatioRow {
            objects: r.objects,
            k,
            sectors_tests: r.tests_per_check,
            adjacent_tests: adj.tests_per_check,
            measured: (r.tests_per_check > 0.0).then(|| adj.tests_per_check / r.tests_per_check),
            predicted: predicted_ratio(k),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn predicted_ratio_matches_the_posts_figures() {
        // "for two, 38 x faster; for three, 30 x faster", limit 20.25: R(2) = 153/4 = 38.25,
        // R(3) = 351/12 = 29.25 (the post rounds it to 30).
        assert_eq!(predicted_ratio(2.0), Some(38.25));
        assert_eq!(predicted_ratio(3.0), Some(29.25));
        assert!((predicted_ratio(1e9).unwrap() - 20.25).abs() < 1e-6);
        assert_eq!(predicted_ratio(1.0), None);
        assert_eq!(predicted_ratio(0.5), None);
    }

    #[test]
    fn expected_ratio_is_below_the_interior_limit() {
        // Interior sectors alone would give 81/4; border blocks hold fewer objects.
        let r = expected_ratio();
        assert!(r > 15.0 && r < 20.25, "{r}");
    }

    #[test]
    fn objects_stay_where_the_post_puts_them() {
        let mut rng = StdRng::seed_from_u64(3);
        let mut boxes = Vec::new();
        random_objects(&mut rng, 500, &mut boxes);
        assert_eq!(boxes.len(), 500);
        for b in &boxes {
            assert!(b.min.x >= 0.0 && b.min.x <= 638.0 && b.min.y <= 478.0);
            assert_eq!(b.size(), Vec2::splat(OBJECT_SIDE));
        }
    }

    #[test]
    fn tiny_run_gives_a_row_per_kind_and_count_with_equal_pairs() {
        let config = HarnessConfig {
            counts: vec![0, 40],
            layouts: 2,
            cycles: 3,
            ..HarnessConfig::default()
        };
        let rows = run(&config, || 0, &mut |_| {});
        assert_eq!(rows.len(), BroadKind::ALL.len() * 2);
        let brute = rows
            .iter()
            .find(|r| r.kind == BroadKind::Brute && r.objects == 40);
        let brute = brute.unwrap();
        assert_eq!(brute.tests_per_check, 40.0 * 39.0 / 2.0);
        for r in rows.iter().filter(|r| r.objects == 40) {
            assert_eq!(r.pairs_per_check, brute.pairs_per_check, "{:?}", r.kind);
        }
        assert_eq!(ratios(&rows).len(), 2);
    }
}
