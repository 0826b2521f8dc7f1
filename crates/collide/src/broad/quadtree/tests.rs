//! The array quadtree's tests: its index formulas, the counts of nodes and tests, pairs that
//! span leaves or lie outside the world, its levels (set and automatic) and its drawing.

use super::*;
use crate::broad::brute_pairs;
use crate::debug_draw::Recorder;

fn world() -> Aabb {
    Aabb::new(Vec2::ZERO, Vec2::new(960.0, 704.0))
}

fn input(aabbs: &[Aabb], first_moving: usize, first_dynamic: usize) -> BroadInput<'_> {
    BroadInput {
        aabbs,
        first_moving,
        first_dynamic,
        statics_version: 1,
        world: world(),
    }
}

#[test]
fn children_and_parent_invert_each_other() {
    // The toy's worked example (Parberry, section 5.4): node 18 has children 73..=76.
    assert_eq!(first_child(18), 73);
    assert!((73..=76).all(|c| parent(c) == 18));
    assert_eq!(first_child(0), 1);
    assert!((1..=4).all(|c| parent(c) == 0));
    for i in 0..node_count(MAX_LEVELS - 1) {
        for c in first_child(i)..first_child(i) + 4 {
            assert_eq!(parent(c), i);
        }
    }
}

#[test]
fn node_and_leaf_counts_follow_the_formulas() {
    let expected = [
        (1, 1, 1),
        (2, 5, 4),
        (3, 21, 16),
        (4, 85, 64),
        (5, 341, 256),
    ];
    for (levels, nodes, leaves) in expected {
        assert_eq!(node_count(levels), nodes);
        assert_eq!(leaf_count(levels), leaves);
        assert_eq!(grid_side(levels).pow(2), leaves);
        // Leaves are the last entries: first leaf = node count of one level fewer.
        assert_eq!((nodes - 1) / 4, node_count(levels - 1));
        assert_eq!(nodes - (nodes - 1) / 4, leaves);
        let tree = QuadTree::with_levels(levels);
        assert_eq!(tree.nodes.len(), nodes);
        assert!(tree.validate().is_ok());
    }
}

#[test]
fn default_is_three_levels_and_five_give_parberrys_60_by_44_leaves() {
    let mut tree = QuadTree::default();
    assert_eq!(tree.levels(), 3);
    tree.set_param("levels", 5.0).unwrap();
    let aabbs = [Aabb::around(Vec2::new(100.0, 100.0), 5.0)];
    tree.find_pairs(
        &input(&aabbs, 0, 0),
        &mut Vec::new(),
        &mut Default::default(),
    );
    let stats = tree.stats();
    assert!(
        stats.contains(&("leaf area", "60 x 44".to_string())),
        "{stats:?}"
    );
    assert!(stats.contains(&("nodes", "341".to_string())));
}

#[test]
fn node_tests_are_counted_on_descent() {
    // One ball inside one leaf at 3 levels: root + its 4 children + 4 grandchildren.
    let mut tree = QuadTree::default();
    let aabbs = [Aabb::around(Vec2::new(100.0, 100.0), 5.0)];
    let mut counters = BroadCounters::default();
    tree.find_pairs(&input(&aabbs, 0, 0), &mut Vec::new(), &mut counters);
    assert_eq!(counters.aabb_tests, 9);
    // A second call re-inserts the ball only.
    tree.find_pairs(&input(&aabbs, 0, 0), &mut Vec::new(), &mut counters);
    assert_eq!(counters.aabb_tests, 18);
}

#[test]
fn pair_spanning_four_leaves_is_reported_once() {
    // Two balls straddling the world centre: both in all four centre leaves.
    let c = world().centre();
    let aabbs = [Aabb::around(c, 10.0), Aabb::around(c + Vec2::ONE, 10.0)];
    let mut tree = QuadTree::default();
    let (mut pairs, mut counters) = (Vec::new(), BroadCounters::default());
    tree.find_pairs(&input(&aabbs, 0, 0), &mut pairs, &mut counters);
    assert_eq!(pairs, vec![(0, 1)]);
    assert_eq!(counters.repeats_dropped, 3);
    assert_eq!(counters.pairs, 1);
    tree.validate().unwrap();
}

#[test]
fn shapes_outside_the_world_meet_in_border_leaves() {
    let aabbs = [
        Aabb::new(Vec2::new(-300.0, 100.0), Vec2::new(-200.0, 100.0)), // static
        Aabb::around(Vec2::new(-250.0, 100.0), 5.0),
        Aabb::around(Vec2::new(-240.0, 100.0), 5.0),
        Aabb::around(Vec2::new(-100.0, 100.0), 5.0), // far from the others
    ];
    let inp = input(&aabbs, 1, 1);
    let mut tree = QuadTree::default();
    let (mut pairs, mut expected) = (Vec::new(), Vec::new());
    tree.find_pairs(&inp, &mut pairs, &mut Default::default());
    brute_pairs(&inp, &mut expected);
    assert_eq!(pairs, vec![(0, 1), (0, 2), (1, 2)]);
    assert_eq!(pairs, expected);
    tree.validate().unwrap();
}

#[test]
fn set_param_refuses_out_of_range_levels() {
    let mut tree = QuadTree::default();
    for bad in [6.0, 2.5, f32::NAN, -1.0] {
        assert!(tree.set_param("levels", bad).is_err(), "{bad}");
    }
    assert!(tree.set_param("depth", 3.0).is_err());
    assert_eq!(tree.levels(), 3);
    tree.set_param("levels", 1.0).unwrap();
    assert_eq!(tree.params()[0].value, 1.0);
}

#[test]
fn automatic_levels_grow_with_the_shape_count() {
    assert_eq!(auto_levels(0), 1);
    assert_eq!(auto_levels(3), 1);
    assert_eq!(auto_levels(4), 2); // 4 leaves ≥ 4 / 2
    assert_eq!(auto_levels(10_000), 8); // 16 384 leaves
    assert_eq!(auto_levels(100_000), 9); // 65 536 leaves
    assert_eq!(auto_levels(usize::MAX), MAX_AUTO_LEVELS);
}

#[test]
fn automatic_levels_follow_the_balls_and_find_brute_force_pairs() {
    let mut tree = QuadTree::default();
    tree.set_param("levels", 0.0).unwrap();
    assert_eq!(tree.params()[0].value, 0.0);
    for (n, levels) in [(3usize, 1), (40, 4), (300, 5)] {
        let aabbs: Vec<Aabb> = (0..n)
            .map(|i| {
                let (x, y) = ((i * 37 % 101) as f32, (i * 53 % 97) as f32);
                Aabb::around(Vec2::new(10.0 * x, 7.0 * y), 6.0)
            })
            .collect();
        let inp = input(&aabbs, 0, 0);
        let (mut pairs, mut expected) = (Vec::new(), Vec::new());
        tree.find_pairs(&inp, &mut pairs, &mut Default::default());
        brute_pairs(&inp, &mut expected);
        assert_eq!(pairs, expected, "{n} balls");
        assert_eq!(tree.levels(), levels);
        tree.validate().unwrap();
    }
    tree.set_param("levels", 2.0).unwrap();
    assert_eq!((tree.params()[0].value, tree.levels()), (2.0, 2));
}

#[test]
fn debug_draw_outlines_every_leaf_and_fills_only_occupied_ones() {
    let mut tree = QuadTree::default();
    let aabbs = [
        Aabb::around(Vec2::new(100.0, 100.0), 5.0),
        Aabb::around(Vec2::new(110.0, 100.0), 5.0),
        Aabb::around(Vec2::new(900.0, 600.0), 5.0),
    ];
    tree.find_pairs(
        &input(&aabbs, 0, 0),
        &mut Vec::new(),
        &mut Default::default(),
    );
    let mut rec = Recorder::default();
    tree.debug_draw(&mut rec);
    let rects: Vec<_> = rec
        .prims
        .iter()
        .filter_map(|p| match p {
            Prim::Rect { fill, stroke, .. } => Some((*fill, *stroke)),
            _ => None,
        })
        .collect();
    assert_eq!(rects.len(), 16);
    assert!(rects.iter().all(|(_, s)| *s == Some(LEAF_COLOR)));
    let filled: Vec<_> = rects.iter().filter_map(|(f, _)| *f).collect();
    assert_eq!(filled.len(), 2);
    assert!(filled.iter().all(|f| f.3 == FILL_ALPHA));
    let labels = rec.prims.iter().filter(|p| matches!(p, Prim::Text { .. }));
    assert_eq!(labels.count(), 2);
}
