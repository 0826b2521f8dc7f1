//! RDC's tests: touching boxes, splitting and its stopping rule, the threshold, drawing, and
//! statics kept apart in their tree, each checked against brute force.

use super::*;
use crate::broad::brute_pairs;
use crate::debug_draw::Recorder;
use glam::Vec2;

/// Statics before `first_dynamic`, no kinematic shapes.
fn input(aabbs: &[Aabb], first_dynamic: usize) -> BroadInput<'_> {
    input_with(aabbs, first_dynamic, first_dynamic)
}

fn input_with(aabbs: &[Aabb], first_moving: usize, first_dynamic: usize) -> BroadInput<'_> {
    BroadInput {
        aabbs,
        first_moving,
        first_dynamic,
        statics_version: 1,
        world: Aabb::new(Vec2::ZERO, Vec2::splat(100.0)),
    }
}

fn unit_at(x: f32, y: f32) -> Aabb {
    Aabb::new(Vec2::new(x, y), Vec2::new(x + 1.0, y + 1.0))
}

fn run(rdc: &mut Rdc, inp: &BroadInput) -> (Vec<Pair>, BroadCounters) {
    let (mut pairs, mut c) = (Vec::new(), BroadCounters::default());
    rdc.find_pairs(inp, &mut pairs, &mut c);
    rdc.validate().unwrap();
    (pairs, c)
}

#[test]
fn touching_boxes_stay_in_one_group() {
    // A row of unit boxes each sharing an edge with the next: one chain of touching pairs.
    let boxes: Vec<Aabb> = (0..6).map(|k| unit_at(k as f32, 0.0)).collect();
    let mut rdc = Rdc::with_threshold(1);
    let (pairs, _) = run(&mut rdc, &input(&boxes, 0));
    let expect: Vec<Pair> = (0..5).map(|k| (k, k + 1)).collect();
    assert_eq!(pairs, expect);
}

#[test]
fn separated_boxes_split_to_singletons_without_tests() {
    let boxes: Vec<Aabb> = (0..16)
        .map(|k| unit_at((k % 4) as f32 * 3.0, (k / 4) as f32 * 3.0))
        .collect();
    let mut rdc = Rdc::with_threshold(1);
    let (pairs, c) = run(&mut rdc, &input(&boxes, 0));
    assert!(pairs.is_empty());
    assert_eq!(c.aabb_tests, 0);
    assert_eq!(rdc.stats.finals, 16);
}

#[test]
fn seed_example_splits_x_then_y_then_x() {
    // The article's picture: A and C share x with B between them on y; [A,B,C] → [B], [A,C]
    // → [A], [C].
    let a = unit_at(0.0, 0.0);
    let b = Aabb::new(Vec2::new(0.5, 2.0), Vec2::new(5.0, 3.0));
    let c = unit_at(4.0, 0.0);
    let boxes = [a, b, c];
    let mut rdc = Rdc::with_threshold(1);
    let (pairs, c) = run(&mut rdc, &input(&boxes, 0));
    assert!(pairs.is_empty());
    assert_eq!(c.aabb_tests, 0);
    assert_eq!(rdc.stats.finals, 3);
    assert_eq!(rdc.stats.depth, 3, "passes: x (no split), y, x");
}

#[test]
fn everything_at_one_point_is_one_group() {
    let boxes = vec![Aabb::around(Vec2::splat(5.0), 0.0); 20];
    let mut rdc = Rdc::with_threshold(2);
    let (pairs, c) = run(&mut rdc, &input(&boxes, 3));
    let mut expect = Vec::new();
    brute_pairs(&input(&boxes, 3), &mut expect);
    assert_eq!(pairs, expect);
    assert_eq!(rdc.stats.finals, 1);
    // 17 balls: C(17, 2) tests inside the group; the group box (a point) visits all 5
    // static-tree nodes; then 3 statics × 17 balls.
    assert_eq!(c.aabb_tests, 136 + 5 + 51);
    assert_eq!(c.aabb_tests, expect.len() as u64 + 5);
}

#[test]
fn groups_of_obstacles_only_are_dropped() {
    // Two overlapping kinematic boxes apart from the one ball.
    let boxes = [unit_at(0.0, 0.0), unit_at(0.5, 0.0), unit_at(10.0, 10.0)];
    let mut rdc = Rdc::with_threshold(1);
    let (pairs, c) = run(&mut rdc, &input_with(&boxes, 0, 2));
    assert!(pairs.is_empty());
    assert_eq!(c.aabb_tests, 0);
    assert_eq!(rdc.stats.dropped, 1);
}

#[test]
fn threshold_param_is_checked() {
    let mut rdc = Rdc::default();
    assert!(rdc.set_param("threshold", 0.0).is_err());
    assert!(rdc.set_param("threshold", 2.5).is_err());
    assert!(rdc.set_param("depth", 2.0).is_err());
    rdc.set_param("threshold", 3.0).unwrap();
    assert_eq!(rdc.params()[0].value, 3.0);
}

#[test]
fn draws_final_and_intermediate_groups() {
    let boxes: Vec<Aabb> = (0..12).map(|k| unit_at(k as f32 * 0.6, 0.0)).collect();
    let mut rdc = Rdc::with_threshold(2);
    run(&mut rdc, &input(&boxes, 0));
    let mut rec = Recorder::default();
    rdc.debug_draw(&mut rec);
    assert_eq!(rec.prims.len(), rdc.groups.len());
    assert!(!rec.prims.is_empty());
}

/// `statics` then a 4 × 4 grid of separated unit balls inside `(0, 0)–(12, 12)`.
fn balls_after(statics: &[Aabb]) -> (Vec<Aabb>, usize) {
    let mut b = statics.to_vec();
    b.extend((0..16).map(|k| unit_at(1.0 + (k % 4) as f32 * 3.0, 1.0 + (k / 4) as f32 * 3.0)));
    (b, statics.len())
}

fn check_brute(rdc: &mut Rdc, inp: &BroadInput) -> BroadCounters {
    let (pairs, c) = run(rdc, inp);
    let mut expect = Vec::new();
    brute_pairs(inp, &mut expect);
    assert_eq!(pairs, expect);
    c
}

#[test]
fn walls_spanning_the_world_do_not_glue_the_balls_into_one_group() {
    // Regression (table scene, ~250 balls: one group): walls whose boxes span everything.
    let walls = [
        Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(13.0, 0.0)),
        Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(0.0, 13.0)),
        Aabb::new(Vec2::new(0.0, 13.0), Vec2::new(13.0, 13.0)),
        Aabb::new(Vec2::new(13.0, 0.0), Vec2::new(13.0, 13.0)),
    ];
    let (b, fd) = balls_after(&walls);
    let mut rdc = Rdc::with_threshold(1);
    let c = check_brute(&mut rdc, &input(&b, fd));
    assert_eq!(rdc.stats.finals, 16, "one group per ball");
    assert_eq!(
        c.aabb_tests, rdc.stats.static_tree_tests,
        "no ball–ball tests"
    );
    // Any two of the walls span the square, so each group box visits all 7 static-tree
    // nodes, and the 4 leaf tests miss: the walls cost 7 tests per group, not a group.
    assert_eq!(rdc.stats.static_tree_tests, 16 * 7);
    assert_eq!(rdc.stats.static_ball_tests, 0);
}

#[test]
fn statics_far_larger_than_the_world_pair_with_every_ball() {
    let huge = [
        Aabb::around(Vec2::splat(5.0), 1e7),
        Aabb::new(Vec2::new(-1e7, 4.5), Vec2::new(1e7, 4.5)),
    ];
    let (b, fd) = balls_after(&huge);
    for threshold in [1, 4, 16] {
        let mut rdc = Rdc::with_threshold(threshold);
        check_brute(&mut rdc, &input(&b, fd));
        assert!(rdc.stats.finals > 1 || threshold == 16);
    }
}

#[test]
fn statics_outside_the_world_cost_one_test_per_group() {
    let outside = [
        unit_at(-500.0, -500.0),
        unit_at(-480.0, 900.0),
        unit_at(-450.0, 5.0),
    ];
    let (b, fd) = balls_after(&outside);
    let mut rdc = Rdc::with_threshold(1);
    let c = check_brute(&mut rdc, &input(&b, fd));
    assert_eq!(rdc.stats.finals, 16);
    assert_eq!(
        rdc.stats.static_tree_tests, 16,
        "the static root, once per group"
    );
    assert_eq!(rdc.stats.static_ball_tests, 0);
    assert_eq!(c.aabb_tests, rdc.stats.static_tree_tests);
}

#[test]
fn no_statics_and_only_statics() {
    let (b, fd) = balls_after(&[]);
    let mut rdc = Rdc::with_threshold(1);
    let c = check_brute(&mut rdc, &input_with(&b, 0, fd));
    assert_eq!(c.aabb_tests, 0);
    assert!(rdc.statics.nodes().is_empty());
    let only: Vec<Aabb> = (0..5).map(|k| unit_at(k as f32 * 0.5, 0.0)).collect();
    let c = check_brute(&mut rdc, &input(&only, 5));
    assert_eq!(c.aabb_tests, 0);
    assert!(rdc.groups.is_empty());
    assert_eq!(rdc.statics.leaves(), 5);
}

#[test]
fn static_found_by_a_group_box_is_tested_against_each_ball() {
    // Two overlapping balls in one group beside a wall that touches only the second.
    let boxes = [
        Aabb::new(Vec2::new(3.0, 0.0), Vec2::new(3.0, 10.0)),
        unit_at(1.0, 1.0),
        unit_at(2.0, 1.5),
    ];
    let mut rdc = Rdc::with_threshold(1);
    let c = check_brute(&mut rdc, &input(&boxes, 1));
    assert_eq!(rdc.stats.finals, 1);
    assert_eq!(
        c.aabb_tests,
        1 + 1 + 2,
        "ball pair, tree leaf, wall × 2 balls"
    );
    let mut rec = Recorder::default();
    rdc.debug_draw(&mut rec);
    assert_eq!(rec.prims.len(), 2, "the group and the wall it found");
}
