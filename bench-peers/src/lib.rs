//! Helpers shared by this package's `scale` benchmark and its examples. (The medians and
//! `keep_freed_memory` are `collide_lab::experiments`'.)

use broccoli::aabb::Rect;
use collide::broad::{BroadKind, BroadPhase, Pair};
use collide_lab::scenarios::Scenario;
use parry2d::bounding_volume::Aabb as ParryAabb;
use parry2d::math::Vector;
use parry2d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};

/// A fresh instance of `kind`, at its best setting for many balls (the quadtree on automatic
/// levels).
pub fn fresh(kind: BroadKind) -> Box<dyn BroadPhase> {
    let mut algo = kind.create();
    if kind == BroadKind::Quadtree {
        algo.set_param("levels", 0.0)
            .expect("0 (automatic) is in range");
    }
    algo
}

/// Build + all pairs with parry2d's `Bvh` (binned build from the leaves, then the tree
/// traversed against itself); returns the pair count.
pub fn run_parry(sc: &Scenario, pairs: &mut Vec<Pair>) -> usize {
    pairs.clear();
    let leaves = sc.aabbs.iter().map(|b| {
        let (lo, hi) = (Vector::new(b.min.x, b.min.y), Vector::new(b.max.x, b.max.y));
        ParryAabb::new(lo, hi)
    });
    let bvh = Bvh::from_iter(BvhBuildStrategy::Binned, leaves.enumerate());
    let mut workspace = BvhWorkspace::default();
    bvh.traverse_bvtt_single_tree::<false>(&mut workspace, &mut |a, b| pairs.push((a, b)));
    pairs.len()
}

/// Build + all pairs with broccoli (`Tree::new`, then `find_colliding_pairs`), its boxes
/// copied into `boxes` (reused); returns the pair count.
pub fn run_broccoli(
    sc: &Scenario,
    boxes: &mut Vec<(Rect<f32>, u32)>,
    pairs: &mut Vec<Pair>,
) -> usize {
    pairs.clear();
    boxes.clear();
    boxes.extend(
        sc.aabbs
            .iter()
            .enumerate()
            .map(|(i, b)| (broccoli::rect(b.min.x, b.max.x, b.min.y, b.max.y), i as u32)),
    );
    let mut tree = broccoli::Tree::new(boxes.as_mut_slice());
    tree.find_colliding_pairs(|a, b| pairs.push((a.1, b.1)));
    pairs.len()
}

/// This thread's CPU time (s): not inflated by time spent descheduled.
pub fn thread_cpu() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid timespec to write.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}
