//! The scene editor's library half: handles, picking, moves, adds and deletes of every kind,
//! the validity guards (radius, arc extent, rectangles, NaN), the RON round trip, and a world
//! built from an edited scene running without NaN.
#[path = "../../collide/tests/common/mod.rs"]
mod common;

use collide::scene::{MotionDesc, ShapeDesc, ShapeKind};
use collide::{Scene, Vec2};
use collide_edit::{self as edit, NewKind, Pick, Role};

const LAB: &str = include_str!("../../collide/scenes/lab.ron");

fn table() -> Scene {
    Scene::parse(common::TABLE, "table.ron").expect("the table parses")
}

/// A scene with no shapes, 400 × 400 px.
fn empty() -> Scene {
    let mut s = table();
    s.shapes.clear();
    s
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn close_v(a: Vec2, b: Vec2) -> bool {
    common::close_v(a, b, 1e-5)
}

/// The handle of `role` on shape `i`.
fn handle(scene: &Scene, i: usize, role: Role) -> Vec2 {
    edit::shape_handles(i, &scene.shapes[i])
        .into_iter()
        .find(|h| h.role == role)
        .unwrap_or_else(|| panic!("shape {i} has no {role:?} handle"))
        .pos
}

/// A scene holding one shape of each kind the editor adds, dragged from `from` to `to`.
fn one_of_each(from: Vec2, to: Vec2) -> Scene {
    let mut s = empty();
    for kind in NewKind::ALL {
        edit::add(&mut s, kind, from, to).expect("finite points add a shape");
    }
    s
}

#[test]
fn segment_has_end_handles_and_a_pivot_when_kinematic() {
    let s = table();
    // Shape 2 of the table: Segment(a: (900, 0), b: (900, 560)), static.
    let hs = edit::shape_handles(2, &s.shapes[2]);
    let roles: Vec<Role> = hs.iter().map(|h| h.role).collect();
    assert_eq!(roles, vec![Role::A, Role::B]);
    assert_eq!(hs[1].pos, v(900.0, 560.0));
    // Shape 10: the spinning bar about (450, 300).
    assert_eq!(handle(&s, 10, Role::Pivot), v(450.0, 300.0));
}

#[test]
fn arc_handles_sit_on_the_centre_the_middle_and_both_ends() {
    let s = table();
    // Shape 1: Arc(centre: (860, 604), radius: 100, start: 0, end: 90).
    assert_eq!(handle(&s, 1, Role::Centre), v(860.0, 604.0));
    assert!(close_v(handle(&s, 1, Role::Start), v(960.0, 604.0)));
    assert!(close_v(handle(&s, 1, Role::End), v(860.0, 704.0)));
    let mid = v(860.0, 604.0) + Vec2::from_angle(45f32.to_radians()) * 100.0;
    assert!(close_v(handle(&s, 1, Role::Radius), mid));
}

#[test]
fn gate_direction_handle_points_the_way_balls_pass() {
    let s = table();
    // Shape 3: Gate(a: (900, 560), b: (960, 560), normal: (0, -1)): balls come up the lane
    // and pass upward, so the handle sits above the gate, not down in the lane.
    let tip = handle(&s, 3, Role::Normal);
    assert!(close_v(tip, v(930.0, 560.0 + edit::GATE_ARROW)));
}

#[test]
fn a_ball_crossing_the_table_gate_ends_on_the_side_its_handle_points_to() {
    let s = table();
    let (mid, tip) = (v(930.0, 560.0), handle(&s, 3, Role::Normal));
    let mut w = s.build(1);
    w.edit_settings(|s| s.gravity = 0.0);
    w.add_ball(collide::world::Ball::new(
        v(930.0, 520.0),
        v(0.0, 900.0),
        8.0,
        1.0,
        0,
    ));
    for _ in 0..w.steps_per_second() / 10 {
        w.step();
    }
    let b = w.balls()[0];
    assert!((b.pos - mid).dot(tip - mid) > 0.0, "{b:?} handle at {tip}");
}

#[test]
fn every_kind_has_handles_inside_a_slop_of_their_pick() {
    let s = one_of_each(v(100.0, 100.0), v(160.0, 130.0));
    for h in edit::scene_handles(&s) {
        match edit::pick(&s, h.pos, 0.5) {
            Some(Pick::Handle(found)) => assert_eq!(found.pos, h.pos),
            other => panic!("handle {h:?} picked {other:?}"),
        }
    }
}

#[test]
fn pick_prefers_handles_then_the_nearest_body() {
    let mut s = empty();
    edit::add(&mut s, NewKind::Segment, v(0.0, 0.0), v(100.0, 0.0));
    edit::add(&mut s, NewKind::Segment, v(0.0, 10.0), v(100.0, 10.0));
    assert_eq!(edit::pick(&s, v(50.0, 3.0), 4.0), Some(Pick::Shape(0)));
    assert_eq!(edit::pick(&s, v(50.0, 8.0), 4.0), Some(Pick::Shape(1)));
    assert_eq!(edit::pick(&s, v(50.0, 30.0), 4.0), None);
    match edit::pick(&s, v(99.0, 1.0), 4.0) {
        Some(Pick::Handle(h)) => assert_eq!((h.shape, h.role), (0, Role::B)),
        other => panic!("expected the end handle, got {other:?}"),
    }
    assert_eq!(edit::pick(&s, v(f32::NAN, 0.0), 4.0), None);
}

#[test]
fn pick_finds_solid_shapes_from_inside() {
    let mut s = empty();
    edit::add(&mut s, NewKind::Bumper, v(200.0, 200.0), v(240.0, 200.0));
    edit::add(&mut s, NewKind::Rect, v(10.0, 10.0), v(80.0, 60.0));
    assert_eq!(edit::pick(&s, v(215.0, 190.0), 2.0), Some(Pick::Shape(0)));
    assert_eq!(edit::pick(&s, v(40.0, 30.0), 2.0), Some(Pick::Shape(1)));
}

#[test]
fn moving_a_segment_end_moves_only_that_end() {
    let mut s = table();
    assert!(edit::move_handle(
        &mut s.shapes[6],
        Role::B,
        v(200.0, 400.0)
    ));
    assert_eq!(
        s.shapes[6],
        ShapeDesc::new(ShapeKind::Segment {
            a: v(170.0, 200.0),
            b: v(200.0, 400.0),
        })
        .with_elasticity(0.9)
    );
}

#[test]
fn circle_radius_handle_sets_the_radius_and_never_below_the_minimum() {
    let mut s = empty();
    let i = edit::add(&mut s, NewKind::Circle, v(100.0, 100.0), v(130.0, 100.0)).unwrap();
    edit::move_handle(&mut s.shapes[i], Role::Radius, v(100.0, 150.0));
    assert!(matches!(s.shapes[i].kind, ShapeKind::Circle { radius, .. } if radius == 50.0));
    // Dragged onto the centre and past it: the radius stays positive.
    edit::move_handle(&mut s.shapes[i], Role::Radius, v(100.0, 100.0));
    assert!(
        matches!(s.shapes[i].kind, ShapeKind::Circle { radius, .. } if radius == edit::MIN_RADIUS)
    );
    assert!(s.check("edited").is_ok());
}

#[test]
fn arc_end_drag_keeps_the_start_and_a_valid_extent() {
    let mut s = table();
    // Corner arc 0..90 degrees about (860, 604): drag the end to 180 degrees.
    edit::move_handle(&mut s.shapes[1], Role::End, v(700.0, 604.0));
    let ShapeKind::Arc { start, end, .. } = s.shapes[1].kind else {
        panic!()
    };
    assert_eq!(start, 0.0);
    assert!(common::close(end, 180.0, 1e-5), "{end}");
    // Drag the end onto the start: the extent stays at least MIN_EXTENT.
    edit::move_handle(&mut s.shapes[1], Role::End, v(960.0, 604.0));
    let ShapeKind::Arc { start, end, .. } = s.shapes[1].kind else {
        panic!()
    };
    assert!(end - start >= edit::MIN_EXTENT && end - start <= 360.0);
    assert!(s.check("edited").is_ok());
}

#[test]
fn arc_start_drag_keeps_the_end_where_it_was() {
    let mut s = table();
    let end_before = handle(&s, 1, Role::End);
    edit::move_handle(&mut s.shapes[1], Role::Start, v(860.0, 504.0)); // 270 degrees
    let ShapeKind::Arc { start, end, .. } = s.shapes[1].kind else {
        panic!()
    };
    assert!(common::close(start, 270.0, 1e-5), "{start}");
    assert!(common::close(end, 450.0, 1e-5), "{end}");
    assert!(close_v(handle(&s, 1, Role::End), end_before));
    assert!(s.check("edited").is_ok());
}

#[test]
fn arc_radius_and_centre_handles_keep_the_angles() {
    let mut s = table();
    edit::move_handle(&mut s.shapes[1], Role::Radius, v(860.0, 604.0));
    edit::move_handle(&mut s.shapes[1], Role::Centre, v(800.0, 500.0));
    let ShapeKind::Arc {
        centre,
        radius,
        start,
        end,
        ..
    } = s.shapes[1].kind
    else {
        panic!()
    };
    assert_eq!(
        (centre, radius, start, end),
        (v(800.0, 500.0), edit::MIN_RADIUS, 0.0, 90.0)
    );
}

#[test]
fn gate_direction_follows_its_handle_and_ignores_a_zero_drag() {
    let mut s = table();
    // Dragged below the gate: balls now pass downward, entering from above.
    edit::move_handle(&mut s.shapes[3], Role::Normal, v(930.0, 520.0));
    assert!(
        matches!(s.shapes[3].kind, ShapeKind::Gate { normal, .. } if close_v(normal, v(0.0, 1.0)))
    );
    assert!(close_v(handle(&s, 3, Role::Normal), v(930.0, 530.0)));
    // Onto the middle of the gate: no direction, the old one stays.
    assert!(!edit::move_handle(
        &mut s.shapes[3],
        Role::Normal,
        v(930.0, 560.0)
    ));
    assert!(s.check("edited").is_ok());
}

#[test]
fn rect_corner_cannot_cross_the_opposite_corner() {
    let mut s = empty();
    let i = edit::add(&mut s, NewKind::Rect, v(0.0, 0.0), v(100.0, 50.0)).unwrap();
    edit::move_handle(&mut s.shapes[i], Role::Corner(0), v(300.0, 300.0));
    let ShapeKind::Rect { min, max, .. } = s.shapes[i].kind else {
        panic!()
    };
    assert_eq!(max, v(100.0, 50.0));
    assert!(min.x < max.x && min.y < max.y);
    assert!(s.check("edited").is_ok());
}

#[test]
fn teardrop_tip_and_radius_stay_valid() {
    let mut s = table();
    let i = 16; // Teardrop(centre: (300, 90), radius: 20, tip: (300, 160)).
    edit::move_handle(&mut s.shapes[i], Role::Tip, v(305.0, 90.0));
    edit::move_handle(&mut s.shapes[i], Role::Radius, v(300.0, 400.0));
    assert!(s.check("edited").is_ok(), "{:?}", s.shapes[i]);
}

#[test]
fn nan_and_infinite_targets_change_nothing() {
    let mut s = one_of_each(v(100.0, 100.0), v(160.0, 130.0));
    let before = s.clone();
    for h in edit::scene_handles(&before) {
        for bad in [v(f32::NAN, 0.0), v(0.0, f32::INFINITY)] {
            assert!(!edit::move_handle(&mut s.shapes[h.shape], h.role, bad));
        }
    }
    for d in &mut s.shapes {
        assert!(!edit::translate(d, v(f32::NAN, 1.0)));
        assert!(!edit::set_elasticity(d, f32::NAN));
    }
    assert!(!edit::set_motion(
        &mut s.shapes[0],
        MotionDesc::Kinematic {
            pivot: v(0.0, f32::NAN),
            speed: 1.0
        }
    ));
    assert_eq!(s, before);
    assert_eq!(
        edit::add(&mut s, NewKind::Arc, v(f32::NAN, 0.0), v(1.0, 1.0)),
        None
    );
}

#[test]
fn translate_moves_every_point_and_the_pivot() {
    let mut s = table();
    let before: Vec<Vec2> = edit::shape_handles(10, &s.shapes[10])
        .iter()
        .map(|h| h.pos)
        .collect();
    assert!(edit::translate(&mut s.shapes[10], v(5.0, -7.0)));
    let after: Vec<Vec2> = edit::shape_handles(10, &s.shapes[10])
        .iter()
        .map(|h| h.pos)
        .collect();
    for (b, a) in before.iter().zip(&after) {
        assert_eq!(*a, *b + v(5.0, -7.0));
    }
}

#[test]
fn each_kind_adds_by_a_drag_and_a_short_drag_gives_the_default() {
    let s = one_of_each(v(100.0, 100.0), v(160.0, 100.0));
    assert!(s.check("dragged").is_ok(), "{:?}", s.check("dragged"));
    let kinds: Vec<&str> = s.shapes.iter().map(|d| d.kind_name()).collect();
    assert_eq!(
        kinds,
        ["Segment", "Arc", "Circle", "Circle", "Gate", "Rect"]
    );
    assert!(matches!(s.shapes[0].kind, ShapeKind::Segment { b, .. } if b == v(160.0, 100.0)));
    assert!(
        matches!(s.shapes[1].kind, ShapeKind::Arc { radius, start, end, .. }
        if radius == 60.0 && start == -90.0 && end == 90.0)
    );
    assert!(matches!(s.shapes[3].kind, ShapeKind::Circle { .. }) && s.shapes[3].elasticity == 1.5);
    // The gate's balls enter from the left of a → b: here from above (+y).
    assert!(
        matches!(s.shapes[4].kind, ShapeKind::Gate { normal, .. } if close_v(normal, v(0.0, 1.0)))
    );
    let clicked = one_of_each(v(100.0, 100.0), v(100.0, 100.0));
    assert!(
        clicked.check("clicked").is_ok(),
        "{:?}",
        clicked.check("clicked")
    );
}

#[test]
fn delete_removes_the_shape_and_shifts_the_rest() {
    let mut s = one_of_each(v(100.0, 100.0), v(160.0, 100.0));
    let gone = edit::delete(&mut s, 1).expect("shape 1 exists");
    assert_eq!(gone.kind_name(), "Arc");
    assert_eq!(s.shapes.len(), 5);
    assert_eq!(s.shapes[1].kind_name(), "Circle");
    assert_eq!(edit::delete(&mut s, 5), None);
}

#[test]
fn elasticity_is_set_and_clamped() {
    let mut s = table();
    assert!(edit::set_elasticity(&mut s.shapes[5], 0.4));
    assert_eq!(edit::elasticity_of(&s.shapes[5]), Some(0.4));
    assert!(edit::set_elasticity(&mut s.shapes[5], 99.0));
    assert_eq!(
        edit::elasticity_of(&s.shapes[5]),
        Some(edit::MAX_ELASTICITY)
    );
    assert!(s.check("edited").is_ok());
}

#[test]
fn motion_is_set_on_movable_shapes_only() {
    let mut s = table();
    let spin = MotionDesc::Kinematic {
        pivot: v(780.0, 380.0),
        speed: 0.5,
    };
    assert!(edit::set_motion(&mut s.shapes[5], spin));
    assert_eq!(edit::motion_of(&s.shapes[5]), Some(spin));
    // A gate cannot move.
    assert!(!edit::set_motion(&mut s.shapes[3], spin));
    assert_eq!(edit::motion_of(&s.shapes[3]), None);
    // The pivot handle moves the pivot only.
    edit::move_handle(&mut s.shapes[5], Role::Pivot, v(700.0, 380.0));
    assert!(
        matches!((&s.shapes[5].kind, s.shapes[5].motion), (ShapeKind::Circle { centre, .. }, MotionDesc::Kinematic { pivot, .. })
        if *centre == v(780.0, 380.0) && pivot == v(700.0, 380.0))
    );
    assert!(edit::set_motion(&mut s.shapes[5], MotionDesc::Static));
    assert_eq!(edit::motion_of(&s.shapes[5]), Some(MotionDesc::Static));
}

#[test]
fn every_built_in_scene_round_trips_through_ron() {
    for (name, text) in [("table", common::TABLE), ("lab", LAB)] {
        let scene = Scene::parse(text, name).expect("built-in scenes parse");
        let ron = scene.to_ron();
        let back = Scene::parse(&ron, "written").unwrap_or_else(|e| panic!("{name}: {e}\n{ron}"));
        assert_eq!(back, scene, "{name}");
    }
}

#[test]
fn an_edited_scene_round_trips_through_ron() {
    let mut s = table();
    edit::add(&mut s, NewKind::Arc, v(400.0, 400.0), v(433.3, 411.1));
    edit::add(&mut s, NewKind::Gate, v(10.0, 650.0), v(90.1, 640.7));
    edit::move_handle(&mut s.shapes[0], Role::Vertex(1), v(0.1, 703.3));
    edit::set_elasticity(&mut s.shapes[7], 0.123_456_7);
    edit::set_motion(
        &mut s.shapes[8],
        MotionDesc::Kinematic {
            pivot: v(1.0 / 3.0, 2.0 / 3.0),
            speed: -0.1,
        },
    );
    let back = Scene::parse(&s.to_ron(), "edited.ron").expect("an edited scene parses");
    assert_eq!(back, s);
}

#[test]
fn save_writes_a_file_load_reads_back() {
    let path = std::env::temp_dir().join(format!("scene_edit_{}.ron", std::process::id()));
    let mut s = table();
    edit::add(&mut s, NewKind::Bumper, v(500.0, 300.0), v(520.0, 300.0));
    s.save(&path).expect("a valid scene saves");
    let back = Scene::load(&path).expect("the saved file loads");
    std::fs::remove_file(&path).ok();
    assert_eq!(back, s);
}

#[test]
fn save_refuses_an_invalid_scene_naming_shape_and_field() {
    let mut s = table();
    if let ShapeKind::Circle { radius, .. } = &mut s.shapes[5].kind {
        *radius = f32::NAN;
    }
    let path = std::env::temp_dir().join("scene_edit_never_written.ron");
    let e = s.save(&path).expect_err("a NaN radius is refused");
    assert!(e.message.contains("shape 5 (Circle)"), "{e}");
    assert!(e.message.contains("`radius`"), "{e}");
    assert!(!path.exists());
}

#[test]
fn a_world_built_from_an_edited_scene_runs_600_steps_without_nan() {
    let mut s = table();
    for (k, kind) in NewKind::ALL.into_iter().enumerate() {
        let at = v(150.0 + 110.0 * k as f32, 620.0);
        edit::add(&mut s, kind, at, at + v(40.0, -15.0));
    }
    edit::move_handle(&mut s.shapes[1], Role::End, v(700.0, 604.0));
    edit::translate(&mut s.shapes[5], v(-100.0, 0.0));
    edit::set_elasticity(&mut s.shapes[6], 1.2);
    edit::delete(&mut s, 7);
    let text = s.to_ron();
    let scene = Scene::parse(&text, "edited.ron").expect("the edited scene parses");
    let mut world = scene.build(3);
    world.edit_settings(|st| st.rotate = true);
    world.launch(20);
    for _ in 0..600 {
        world.step();
    }
    assert!(world.counters().launched > 0);
    for b in world.balls() {
        assert!(b.pos.is_finite() && b.vel.is_finite(), "{b:?}");
    }
}
