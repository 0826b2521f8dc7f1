//! What the toy promises, checked at CI size: each test runs one of `collide_lab::checks` (the
//! app's `check` command runs the same functions at full size) and asserts zero failures.
//! Every check is seeded; none reads a clock. The soak (memory) check has its own binary,
//! `soak.rs`, for its counting allocator.
use collide::Solver::{PushOut, Soft};
use collide::Tunnelling;
use collide_lab::checks::{bad_files, sizes::Sizes, CheckReport};
use std::path::Path;

fn assert_passed(r: CheckReport) {
    println!("{r}");
    assert!(r.passed(), "{r}");
}

#[test]
fn a_hundred_thousand_generated_worlds_stay_finite_and_never_panic() {
    assert_passed(collide_lab::checks::finite::run(
        Sizes::ci().finite,
        PushOut,
    ));
}

#[test]
fn a_hundred_thousand_generated_worlds_stay_finite_with_soft_contacts() {
    assert_passed(collide_lab::checks::finite::run(Sizes::ci().finite, Soft));
}

#[test]
fn energy_never_rises_by_more_than_a_tenth_of_a_percent_over_100000_steps() {
    assert_passed(collide_lab::checks::energy::conserved(
        Sizes::ci().energy,
        PushOut,
    ));
}

#[test]
fn energy_never_rises_with_soft_contacts() {
    assert_passed(collide_lab::checks::energy::conserved(
        Sizes::ci().energy,
        Soft,
    ));
}

#[test]
fn bumpers_and_rotating_shapes_add_energy_only_at_their_contacts() {
    assert_passed(collide_lab::checks::energy::adders(
        Sizes::ci().adders,
        PushOut,
    ));
}

#[test]
fn with_soft_contacts_energy_is_added_only_at_bumpers_and_rotating_shapes() {
    assert_passed(collide_lab::checks::energy::adders(
        Sizes::ci().adders,
        Soft,
    ));
}

#[test]
fn every_bounce_measures_the_set_restitution_within_one_percent() {
    assert_passed(collide_lab::checks::restitution::run(
        &Sizes::ci().restitution,
        PushOut,
    ));
}

#[test]
fn soft_bounces_measure_the_set_restitution_above_the_threshold_and_0_below() {
    assert_passed(collide_lab::checks::restitution::run(
        &Sizes::ci().restitution,
        Soft,
    ));
}

#[test]
fn same_hash_after_10000_steps_across_runs_frame_rates_broad_phases_and_modes() {
    assert_passed(collide_lab::checks::determinism::run(
        Sizes::ci().determinism,
        PushOut,
    ));
}

#[test]
fn soft_contacts_give_one_hash_across_runs_frame_rates_broad_phases_and_modes() {
    assert_passed(collide_lab::checks::determinism::run(
        Sizes::ci().determinism,
        Soft,
    ));
}

#[test]
fn exact_tunnelling_keeps_every_ball_on_the_table_and_clears_overlaps() {
    let r = collide_lab::checks::containment::run(Sizes::ci().containment, PushOut, &mut |_| {});
    assert_passed(r);
}

#[test]
fn exact_tunnelling_with_soft_contacts_keeps_every_ball_on_the_table() {
    let r = collide_lab::checks::containment::run(Sizes::ci().containment, Soft, &mut |_| {});
    assert_passed(r);
}

#[test]
fn the_overlap_meter_agrees_with_a_direct_measurement_of_a_push_out_pile() {
    for r in collide_lab::checks::pile::run(Sizes::ci().pile, PushOut, &mut |_| {}) {
        assert_passed(r);
    }
}

#[test]
fn soft_contacts_hold_a_pile_within_the_slop_and_put_it_to_sleep() {
    let reports = collide_lab::checks::pile::run(Sizes::ci().pile, Soft, &mut |_| {});
    assert_eq!(reports.len(), 2);
    for r in reports {
        assert_passed(r);
    }
}

#[test]
fn every_bad_scene_in_the_corpus_gives_one_line_naming_the_field() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../collide/tests/corpus/bad_scenes");
    let files = bad_files::load_corpus(&dir).expect("the corpus reads");
    assert!(files.len() >= 50, "only {} files", files.len());
    assert_passed(bad_files::corpus(&files));
}

#[test]
fn damaged_table_scenes_give_one_line_or_run_never_panic() {
    let (stride, edits) = Sizes::ci().damage;
    assert_passed(bad_files::generated(stride, edits, 1));
}

// ------------------------------------------------------------- regressions found by the checks

/// Found by the restitution audit: "fired segment at 10 px/s, 89° off normal, e 0.2×0.5,
/// tunnelling off" measured 0.0982 for 0.1. The discrete segment test took its normal from
/// the closest point, whose rounding 4000 px along the segment tilted it by about 1e-4 rad.
#[test]
fn fired_segment_at_10_px_s_89_degrees_off_normal_e_0_2_by_0_5_tunnelling_off() {
    let e = collide_lab::checks::restitution::fired_case(
        "segment",
        10.0,
        89.0,
        (0.2, 0.5),
        Tunnelling::Off,
        PushOut,
    )
    .expect("it bounces");
    assert!((e - 0.1).abs() <= 0.001, "measured {e}");
}

/// Found by the bad-file corpus (`unknown_field_in_shape.ron`): a misspelt field was
/// silently ignored; now it is refused, naming the field.
#[test]
fn unknown_field_in_shape_is_refused_naming_the_field() {
    let text = "Scene(name: \"x\", bounds: (min: (0, 0), max: (9, 9)), launch: (pos: (1, 1), dir: (0, 1)),\n shapes: [Circle(centre: (5, 5), radius: 1, colour: 3)])";
    let e = collide::Scene::parse(text, "x.ron").expect_err("refused");
    assert!(e.message.contains("colour") && e.line == 2, "{e}");
}

/// Found by the bad-file corpus (`bounds_inverted.ron` and every other top-level field): the
/// error pointed at line 0, column 0; now at the field's key.
#[test]
fn bounds_inverted_points_at_the_bounds_key() {
    let text = "Scene(\n  name: \"x\",\n  bounds: (min: (9, 0), max: (0, 9)),\n  launch: (pos: (1, 1), dir: (0, 1)),\n  shapes: [],\n)";
    let e = collide::Scene::parse(text, "x.ron").expect_err("refused");
    assert_eq!((e.line, e.col), (3, 3), "{e}");
}

/// A world of one floor segment (y = 0, 1000 px long) with gravity, exact tunnelling.
fn floor_world() -> collide::World {
    use collide::world::Launcher;
    use collide::{Aabb, Geometry, Motion, Shape, Vec2};
    let floor = Shape::new(
        Geometry::Segment {
            a: Vec2::new(0.0, 0.0),
            b: Vec2::new(1000.0, 0.0),
        },
        1.0,
        Motion::Static,
    );
    let bounds = Aabb::new(Vec2::ZERO, Vec2::new(1000.0, 1000.0));
    let launcher = Launcher {
        pos: Vec2::new(500.0, 500.0),
        dir: Vec2::Y,
    };
    let mut w = collide::World::new_unguarded(vec![floor], bounds, 1).with_launcher(launcher);
    w.edit_settings(|st| st.tunnelling = Tunnelling::Exact);
    w
}

/// Found by the containment check (seed 1, step 3906): ball 188, resting on the floor at
/// y = 3.0 under ball 13 at y = 5.0 (centres 2.1 px apart, radius 5), was pushed apart along
/// the line between the centres, straight through the floor, and the two-sided floor then
/// pushed it the rest of the way out. Pushes are now moves checked against the walls, and
/// the overlap left after the swept iterations is parted by a pass that stops at walls.
#[test]
fn containment_seed_1_step_3906_crowd_pushes_ball_188_through_the_floor() {
    use collide::world::Ball;
    use collide::Vec2;
    let mut w = floor_world();
    let upper = Ball::new(Vec2::new(604.867, 5.0), Vec2::new(-15.0, 0.0), 5.0, 0.95, 0);
    let lower = Ball::new(
        Vec2::new(605.613, 3.024),
        Vec2::new(-20.5, 19.0),
        5.0,
        0.95,
        1,
    );
    w.add_ball(upper);
    w.add_ball(lower);
    for step in 0..240 {
        w.step();
        for (k, b) in w.balls().iter().enumerate() {
            assert!(
                b.pos.y > 0.0,
                "step {step}: ball {k} below the floor at {:?}",
                b.pos
            );
        }
    }
    let (a, b) = (w.balls()[0].pos, w.balls()[1].pos);
    assert!((a - b).length() >= 9.9, "still overlapping: {a:?} {b:?}");
    assert_eq!(w.counters().co_located, 0);
}

/// Found by the containment check: with exact tunnelling, two balls put on the same spot at
/// rest were never parted (the swept ball–ball test only answers balls closing in), so the
/// overlap counter never returned to 0.
#[test]
fn containment_colocated_balls_at_rest_are_parted_in_one_step() {
    use collide::world::Ball;
    use collide::Vec2;
    let mut w = floor_world();
    w.edit_settings(|st| st.gravity = 0.0);
    for k in 0..2 {
        w.add_ball(Ball::new(Vec2::new(300.0, 300.0), Vec2::ZERO, 5.0, 0.95, k));
    }
    w.step();
    assert_eq!(w.counters().co_located, 0, "still on top of each other");
    for _ in 0..60 {
        w.step();
    }
    let (a, b) = (w.balls()[0].pos, w.balls()[1].pos);
    assert!((a - b).length() >= 9.9, "{a:?} {b:?}");
    assert!(w.all_finite());
}

/// Found by the containment check (seed 1, step 6678): two co-located balls (64 and 65) were
/// put in the pocket behind the kick arc (e 1.3), pumped each other up to the speed cap, and
/// one left through the top wall. In its last iteration its earliest impact was with the
/// other ball, which had an earlier impact of its own, so that impact was not answered and
/// the wall behind it on the same path was never tested; the path counted as checked. Such a
/// path now counts as unchecked, and the ball is left at its last impact.
#[test]
fn containment_seed_1_step_6678_balls_64_and_65_pumped_in_the_kick_pocket_leave_the_table() {
    use collide::world::Ball;
    use collide::{BroadKind, Vec2};
    let mut w = collide_lab::checks::table(1);
    w.edit_settings(|st| st.rotate = true);
    w.edit_settings(|st| st.tunnelling = Tunnelling::Exact);
    w.set_broad_phase(BroadKind::Grid);
    for k in 0..2 {
        let at = Vec2::new(80.70941, 666.83826);
        w.add_ball(Ball::new(at, Vec2::ZERO, 5.0, 0.95, k));
    }
    let bounds = w.bounds();
    for step in 0..8_000 {
        w.step();
        for (k, b) in w.balls().iter().enumerate() {
            assert!(
                bounds.contains(b.pos),
                "step {step}: ball {k} at {:?}",
                b.pos
            );
        }
    }
}

/// Found by the containment check (seed 1, step 2463): balls 97 and 354, pinned by the pile
/// against the lane's wall (x = 895, radius 5), stayed on top of each other (centres 2.3 px
/// apart) for good. The parting pass stopped a ball at the first touch of a wall, so a ball
/// touching the wall whose push leaned at all towards it never moved. It now slides along.
#[test]
fn containment_seed_1_step_2463_balls_pinned_to_the_lane_wall_are_parted() {
    use collide::world::Ball;
    use collide::{Geometry, Motion, Shape, Vec2};
    let mut w = floor_world();
    w.edit_settings(|st| st.gravity = 0.0);
    let wall = Shape::new(
        Geometry::Segment {
            a: Vec2::new(900.0, 0.0),
            b: Vec2::new(900.0, 500.0),
        },
        1.0,
        Motion::Static,
    );
    let mut shapes = vec![wall];
    shapes.extend(w.shapes().iter().cloned());
    let mut w = collide::World::new_unguarded(shapes, w.bounds(), 1).with_launcher(w.launcher());
    w.edit_settings(|st| st.tunnelling = Tunnelling::Exact);
    w.edit_settings(|st| st.gravity = 0.0);
    // In the corner, on top of it against the wall, and one pressing from the lower left.
    for (k, (x, y)) in [(895.0, 5.0), (895.0, 7.3), (887.5, 9.0)]
        .into_iter()
        .enumerate()
    {
        w.add_ball(Ball::new(Vec2::new(x, y), Vec2::ZERO, 5.0, 0.95, k as u32));
    }
    let before = (w.balls()[0].pos - w.balls()[1].pos).length();
    w.step();
    let after = (w.balls()[0].pos - w.balls()[1].pos).length();
    assert!(after > before + 1.0, "{before} -> {after}");
    for _ in 0..60 {
        w.step();
    }
    assert_eq!(w.counters().co_located, 0);
    for b in w.balls() {
        assert!(
            b.pos.x <= 895.0 + 1e-3 && b.pos.y >= 5.0 - 1e-3,
            "{:?}",
            b.pos
        );
    }
}

/// The case that found it: a ball fired at 0.5 px/s, 60° off the normal (and 3 px/s, 80°
/// off), at the middle of an 8000 px wall. In f32 the distance to the wall rounds by
/// 1.2e-4 px that far from its ends, and the speculative contact closed that phantom gap at
/// 0.03 px/s, so the ball crept on into the wall (measured e = −0.055) instead of stopping.
#[test]
fn with_soft_contacts_a_slow_ball_stops_on_a_long_wall_far_from_its_ends() {
    for (speed, angle) in [(0.5, 60.0), (3.0, 80.0)] {
        for target in ["segment", "gate"] {
            for mode in [Tunnelling::Exact, Tunnelling::Off] {
                let e = collide_lab::checks::restitution::fired_case(
                    target,
                    speed,
                    angle,
                    (1.0, 1.0),
                    mode,
                    Soft,
                )
                .expect("a bounce");
                assert!(
                    e.abs() <= 0.01,
                    "{target} {speed} px/s {angle}° {mode:?}: e {e}"
                );
            }
        }
    }
}

/// An arc's end and the guard point placed there touch a ball arriving at that end at once,
/// with different normals. The restitution pass gave the ball each contact's rebound, the
/// second on top of the first, and it left faster than it came (the table's seed 2 gained
/// 4.4e5 units of energy in one step here, far from any bumper; one pass gives a factor 1.2).
#[test]
fn with_soft_contacts_a_ball_meeting_an_arc_end_and_its_guard_point_leaves_no_faster() {
    use collide::world::{Ball, Solver};
    use collide::{Vec2, World};
    for vy in [-250.0, -292.7, -320.0] {
        let mut w = collide_lab::checks::table(2);
        collide_lab::checks::use_solver(&mut w, Solver::Soft);
        w.edit_settings(|s| s.rotate = true);
        // Just above the right end of the arc around (640, 470), where its guard point is.
        let at = Vec2::new(687.11, 559.07);
        let mut ball = Ball::new(at, Vec2::new(173.7, vy), 7.895, 1.0, 0);
        ball.spin = -22.0;
        w.add_ball(ball);
        let energy = |w: &World| {
            let b = w.balls()[0];
            b.vel.length_squared() + 0.5 * (b.spin * b.radius).powi(2)
        };
        let before = energy(&w);
        w.step();
        let ratio = energy(&w) / before;
        assert!(ratio <= 1.0, "vy {vy}: the energy grew by a factor {ratio}");
    }
}
