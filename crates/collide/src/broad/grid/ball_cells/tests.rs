//! The ball cells checked against brute force: every build, window and search.

use super::lattice::{within_two, Placed};
use super::*;
use crate::broad::pair_keys::KeyWriter;
use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Balls of sides up to 30 px, two coincident, some on cell borders.
fn boxes(n: usize, seed: u64) -> Vec<Aabb> {
    let mut rng = StdRng::seed_from_u64(seed);
    let side = (n as f32).sqrt() * 20.0;
    let mut out: Vec<Aabb> = (0..n)
        .map(|_| {
            let p = Vec2::new(rng.gen_range(0.0..side), rng.gen_range(0.0..side));
            let p = if rng.gen_bool(0.1) {
                (p / 32.0).round() * 32.0
            } else {
                p
            };
            Aabb::around(p, rng.gen_range(0.0..15.0))
        })
        .collect();
    out[n / 2] = out[n / 3];
    out
}

/// The keys of a search, each as `(min, max)`, sorted.
fn keys_of(
    cells: &BallCells,
    search: impl Fn(&BallCells, &mut KeyWriter) -> u64,
) -> (Vec<u64>, u64) {
    let mut keys = PairKeys::default();
    keys.clear(cells.count);
    let tests = search(cells, &mut keys.writer());
    let mut pairs = Vec::new();
    keys.sorted_into(&mut pairs);
    (
        pairs
            .iter()
            .map(|&(i, j)| (i as u64) << 32 | j as u64)
            .collect(),
        tests,
    )
}

#[test]
fn place_agrees_with_the_cells_one_by_one() {
    let range = CellRange::covering_for(
        &Aabb::new(Vec2::splat(-100.0), Vec2::splat(900.0)),
        32.0,
        (0.0, 0.0),
        1000,
    );
    let mut cells = BallCells::default();
    cells.set_range(&range, 0, 0);
    let (lattice, stride) = (cells.lattice, cells.stride);
    let mut rng = StdRng::seed_from_u64(9);
    let mut boxes: Vec<Aabb> = (0..5000)
        .map(|_| {
            let p = Vec2::new(rng.gen_range(-300.0..1200.0), rng.gen_range(-300.0..1200.0));
            Aabb::around(p, rng.gen_range(0.0..70.0))
        })
        .collect();
    boxes.push(Aabb {
        min: Vec2::new(f32::NAN, 5.0),
        max: Vec2::new(40.0, f32::NAN),
    });
    boxes.push(Aabb::around(Vec2::splat(31.999), 0.0));
    for b in &boxes {
        let spans = lattice.box_cells(b);
        let want = Placed {
            code: cell_code(spans, stride),
            row: spans[1] as u32,
            within_two: within_two(spans),
        };
        assert_eq!(lattice.place(b, stride), want, "{b:?}");
    }
}

/// Bands of very different sizes: most balls in a strip a few rows high, the rest spread
/// thinly, so the window moves at uneven bands and some bands far outgrow the least window.
#[test]
fn windowed_builds_find_every_pair_with_uneven_bands() {
    let n = 3000;
    let mut rng = StdRng::seed_from_u64(9);
    let side = 4000.0;
    let balls: Vec<Aabb> = (0..n)
        .map(|k| {
            let x = rng.gen_range(0.0..side);
            let y = if k % 5 < 3 {
                rng.gen_range(1000.0..1100.0)
            } else {
                rng.gen_range(0.0..side)
            };
            Aabb::around(Vec2::new(x, y), rng.gen_range(0.0..15.0))
        })
        .collect();
    let (cells, _) = windowed_builds_agree_with_brute_force(&balls, &[1, 16, 200, n]);
    assert!(cells.max_per_cell() > 3, "the strip is dense");
}

/// Builds `balls` with each least window of `windows`, checking the cells and that the
/// pairs are brute force's; returns the cells of the last build and those pairs.
fn windowed_builds_agree_with_brute_force(
    balls: &[Aabb],
    windows: &[usize],
) -> (BallCells, Vec<(u32, u32)>) {
    let n = balls.len();
    let mut want = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if balls[i].overlaps(&balls[j]) {
                want.push((i as u32, j as u32));
            }
        }
    }
    let mut region = Extent::default();
    balls.iter().for_each(|b| region.add(b));
    let range = CellRange::covering_for(&region.get().0, 32.0, (0.0, 0.0), n);
    let mut cells = BallCells::default();
    let mut keys = PairKeys::default();
    for &window in windows {
        cells.window = window;
        keys.clear(n);
        assert!(cells.build(&range, balls, 0, &mut keys).is_some());
        cells.validate().unwrap();
        let mut got = Vec::new();
        keys.sorted_into(&mut got);
        assert_eq!(got, want, "n = {n}, window {window}");
    }
    (cells, want)
}

#[test]
fn both_searches_find_the_same_pairs_as_brute_force() {
    for (n, seed) in [(1, 1), (7, 2), (300, 3), (5000, 4)] {
        let balls = boxes(n, seed);
        // Windows of every size: from two bands' room to all.
        let (mut cells, pairs) = windowed_builds_agree_with_brute_force(&balls, &[1, 64, 1000, n]);
        let want: Vec<u64> = pairs
            .iter()
            .map(|&(i, j)| (i as u64) << 32 | j as u64)
            .collect();
        // Every entry kept, each search over all balls at once.
        cells.sort_bands(None);
        cells.validate().unwrap();
        let all = 0..cells.count;
        let sse2 = keys_of(&cells, |c, out| c.pairs_in_sse2(all.clone(), out, None));
        assert_eq!(sse2.0, want, "SSE2, n = {n}");
        #[cfg(target_arch = "x86_64")]
        if avx2::enabled() {
            // SAFETY: `enabled` checked the CPU.
            let avx = keys_of(&cells, |c, out| unsafe {
                c.pairs_in_avx2(all.clone(), out, None)
            });
            assert_eq!(avx, sse2, "AVX2, n = {n}");
        }
    }
}
