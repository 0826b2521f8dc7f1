//! Brute force: every ball against every shape before it (obstacles and earlier balls).
//!
//! Cost: `n_balls · (n_obstacles + (n_balls - 1) / 2)` box tests per call, Θ(n²). It is the
//! reference every other algorithm is tested against. Pairs come out sorted because the outer
//! loop runs over the lower index.
//!
//! **Probe.** A test of `(i, j)` belongs to the ball `j`: the ball tested against every shape
//! before it, so ball `j` costs `j` tests (`first_dynamic` obstacles and the earlier balls).
//! Nothing belongs to the structure; no place is visited.

use super::{BroadCounters, BroadInfo, BroadInput, BroadKind, BroadPhase, Pair, Probe};

/// What brute force declares: no places, no parameters.
pub(crate) const DESCRIPTION: BroadInfo = BroadInfo {
    name: "brute",
    label: "Brute force",
    colour: [215, 38, 38],
    places: None,
    params: &[],
    create: || Box::new(BruteForce),
};

/// The reference broad phase.
#[derive(Default, Debug)]
pub struct BruteForce;

/// All wanted overlapping pairs by testing every candidate, sorted. Shared with tests.
pub fn brute_pairs(input: &BroadInput, pairs: &mut Vec<Pair>) -> u64 {
    pairs.clear();
    let n = input.aabbs.len();
    let first_ball = input.first_dynamic.min(n);
    let mut tests = 0u64;
    for i in 0..n {
        let a = &input.aabbs[i];
        let from = (i + 1).max(first_ball);
        tests += (n - from) as u64;
        for (j, b) in input.aabbs[from..].iter().enumerate() {
            if a.overlaps(b) {
                pairs.push((i as u32, (from + j) as u32));
            }
        }
    }
    tests
}

/// [`brute_pairs`], each test given to the ball `j` of the pair tested.
fn brute_pairs_probed(input: &BroadInput, pairs: &mut Vec<Pair>, probe: &mut Probe) -> u64 {
    pairs.clear();
    let n = input.aabbs.len();
    let first_ball = input.first_dynamic.min(n);
    let mut tests = 0u64;
    for i in 0..n {
        let a = &input.aabbs[i];
        let from = (i + 1).max(first_ball);
        tests += (n - from) as u64;
        for (j, b) in (from..).zip(&input.aabbs[from..]) {
            probe.test(j as u32, 1);
            probe.tested(j as u32, i as u32);
            if a.overlaps(b) {
                pairs.push((i as u32, j as u32));
            }
        }
    }
    tests
}

impl BroadPhase for BruteForce {
    fn kind(&self) -> BroadKind {
        BroadKind::Brute
    }

    fn find_pairs_with(
        &mut self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
        probe: Option<&mut Probe>,
    ) {
        counters.aabb_tests += match probe {
            Some(probe) => brute_pairs_probed(input, pairs, probe),
            None => brute_pairs(input, pairs),
        };
        counters.pairs += pairs.len() as u64;
    }

    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}
