//! Broad phases at scale: "build + all pairs" on the `scale` input
//! ([`collide_lab::scenarios::scale_input`]: uniform random balls, 0.3 area fraction, radii
//! 5–15 px) for N = 1k, 10k, 100k and 1M, single thread.
//!
//! Contenders: every [`BroadKind`] through the [`BroadPhase`] trait, each iteration on a fresh
//! instance (so nothing carries over from the previous call), and the crates a user would pick
//! instead: parry2d's `Bvh` (binned build from the leaves, then the tree traversed against
//! itself) and broccoli (`Tree::new`, then `find_colliding_pairs`). Every contender writes its
//! pairs into a reused `Vec`; ours are also sorted (the [`BroadPhase`] contract: the World's
//! determinism rests on the pair order), the peers' are not — a cost only ours pay, a
//! sizeable part of the grid's time. The peers' times include converting our boxes into their
//! types (a copy, as a user of them would have to make); broccoli's copy goes into a `Vec`
//! reused across iterations.
//!
//! `grid-kept` is the uniform grid as the World runs it: one instance across calls, which for
//! balls carries nothing over but its buffers' capacity, so a call allocates nothing. A fresh
//! instance (`grid`) first-touches some 60 MB at 1M, and those page faults would be a large part of
//! its time. The process therefore has the allocator keep freed memory
//! ([`collide_lab::experiments::keep_freed_memory`], every contender alike), so fresh instances
//! reuse warm memory as the app's `bench` command does.
//!
//! Before timing, every contender's pair count is checked against the others at each N (the
//! environment variable `SCALE_SKIP_CHECK` skips that, for profiling runs only).
//!
//! Skipped (see `LIMITS`): brute force and RDC above 10k. The
//! quadtree runs with automatic levels (parameter 0: leaves about half the balls, at most
//! 512 × 512), so it runs at every N; at the original's fixed 5 levels (16 × 16 leaves) it
//! grows quadratically once leaves fill.
//!
//! Run all: `cargo bench --manifest-path bench-peers/Cargo.toml --bench scale`; a subset with criterion's filter, e.g.
//! `cargo bench --manifest-path bench-peers/Cargo.toml --bench scale -- 'scale/100000/'` or `-- grid`.

use bench_peers::{fresh, run_broccoli, run_parry};
use collide::broad::{BroadCounters, BroadKind, Pair};
use collide_lab::scenarios::{scale_input, Scenario};
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use std::cell::OnceCell;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// Ball counts benchmarked.
const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];
/// Seed of the input at every size.
const SEED: u64 = 2024;
/// Largest N some of ours run at:
/// - brute force: quadratic by design;
/// - RDC: minutes per call at 100k (it peels the uniform input apart very slowly).
const LIMITS: [(BroadKind, usize); 2] = [(BroadKind::Brute, 10_000), (BroadKind::Rdc, 10_000)];

/// Our algorithms to run at `n` balls.
fn ours(n: usize) -> Vec<BroadKind> {
    let fits = |k: BroadKind| LIMITS.iter().all(|&(l, max)| l != k || n <= max);
    BroadKind::ALL
        .iter()
        .copied()
        .filter(|&k| fits(k))
        .collect()
}

/// Build + all pairs with one of ours; returns the pair count.
fn run_ours(kind: BroadKind, sc: &Scenario, pairs: &mut Vec<Pair>) -> usize {
    let mut algo = fresh(kind);
    let mut counters = BroadCounters::default();
    algo.find_pairs(&sc.input(1), pairs, &mut counters);
    pairs.len()
}

/// All contenders report the same number of pairs at this input.
fn check_counts(sc: &Scenario) {
    let n = sc.aabbs.len();
    let mut pairs = Vec::new();
    let mut counts: Vec<(String, usize)> = Vec::new();
    let mut timed = |name: &str, run: &mut dyn FnMut() -> usize| {
        let t = Instant::now();
        let count = run();
        eprintln!(
            "  check N = {n}: {name} {count} pairs in {:.1?}",
            t.elapsed()
        );
        counts.push((name.to_string(), count));
    };
    for k in ours(n) {
        timed(k.name(), &mut || run_ours(k, sc, &mut pairs));
    }
    timed("parry2d", &mut || run_parry(sc, &mut pairs));
    timed("broccoli", &mut || {
        run_broccoli(sc, &mut Vec::new(), &mut pairs)
    });
    let first = counts[0].1;
    assert!(
        counts.iter().all(|(_, c)| *c == first),
        "N = {n}: pair counts differ: {counts:?}"
    );
    eprintln!(
        "scale N = {n}: {first} pairs, all {} contenders agree",
        counts.len()
    );
}

fn bench_scale(c: &mut Criterion) {
    collide_lab::experiments::keep_freed_memory();
    for n in SIZES {
        let sc = scale_input(n, SEED);
        // Checked on first use, so a filter that skips this N skips its check too.
        let checked = OnceCell::new();
        let skip = std::env::var_os("SCALE_SKIP_CHECK").is_some(); // for profiling runs only
        let check = || {
            *checked.get_or_init(|| {
                if !skip {
                    check_counts(&sc)
                }
            })
        };
        let mut group = c.benchmark_group(format!("scale/{n}"));
        if n >= 1_000_000 {
            group.sample_size(10).warm_up_time(Duration::from_secs(1));
            group.measurement_time(Duration::from_secs(10));
        } else if n >= 100_000 {
            group.sample_size(10).warm_up_time(Duration::from_secs(1));
            group.measurement_time(Duration::from_secs(3));
        } else {
            group
                .sample_size(20)
                .warm_up_time(Duration::from_millis(500));
            group.measurement_time(Duration::from_secs(2));
        }
        let mut pairs = Vec::new();
        for kind in ours(n) {
            group.bench_function(BenchmarkId::from_parameter(kind.name()), |b| {
                check();
                b.iter_batched(
                    || fresh(kind),
                    |mut algo| {
                        let mut counters = BroadCounters::default();
                        algo.find_pairs(&sc.input(1), &mut pairs, &mut counters);
                        black_box(pairs.len());
                        algo
                    },
                    BatchSize::LargeInput,
                )
            });
        }
        // The grid as the World uses it: one instance kept across calls. It carries nothing
        // over for balls (no statics here), only its buffers' capacity, so a call allocates
        // nothing — as broccoli's input `Vec` below is reused too.
        let mut kept = fresh(BroadKind::Grid);
        group.bench_function(BenchmarkId::from_parameter("grid-kept"), |b| {
            check();
            b.iter(|| {
                let mut counters = BroadCounters::default();
                kept.find_pairs(&sc.input(1), &mut pairs, &mut counters);
                black_box(pairs.len())
            })
        });
        group.bench_function(BenchmarkId::from_parameter("parry2d"), |b| {
            check();
            b.iter(|| black_box(run_parry(&sc, &mut pairs)))
        });
        let mut boxes = Vec::new();
        group.bench_function(BenchmarkId::from_parameter("broccoli"), |b| {
            check();
            b.iter(|| black_box(run_broccoli(&sc, &mut boxes, &mut pairs)))
        });
        group.finish();
    }
}

criterion_group!(benches, bench_scale);
criterion_main!(benches);
