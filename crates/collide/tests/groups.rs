//! Rectangles and shape groups from scene files: hulls tested first and counted, members
//! answered like any obstacle, kinematic groups turning with their hull, and clear errors.
mod common;

use collide::geom::{Group, Hull, HullKind, Motion, Shape};
use collide::narrow::GroupTests;
use collide::narrow::{contact_ball_group, contact_ball_shape, impact_ball_group, toi_ball_shape};
use collide::world::Ball;
use collide::{Geometry, Scene, Tunnelling, Vec2, World};

fn scene(shapes: &str) -> Result<World, collide::SceneError> {
    let text = format!(
        "Scene(name: \"t\", bounds: (min: (0, 0), max: (400, 400)), launch: (pos: (10, 10), dir: (0, 1)),\n gravity: Some(0),\n shapes: [\n{shapes}\n])"
    );
    Scene::parse(&text, "t.ron").map(|s| s.build(1))
}

const BUMPER: &str = "Group(shapes: [Circle(centre: (200, 200), radius: 10), Circle(centre: (230, 200), radius: 10)], hull: Circle)";

#[test]
fn balls_far_from_a_group_are_rejected_by_its_hull_and_near_ones_bounce_off_a_member() {
    for &mode in Tunnelling::ALL {
        let mut w = scene(BUMPER).unwrap();
        w.edit_settings(|st| st.tunnelling = mode);
        let Geometry::Group {
            hull: Hull::Circle { c, r },
            ..
        } = w.shapes()[0].geom
        else {
            panic!("a circle hull: {:?}", w.shapes()[0]);
        };
        // Rectangle hull x ∈ [190, 240] → centre (215, 200); reach 15 + 10 = 25.
        assert!((c - Vec2::new(215.0, 200.0)).length() < 1e-4 && (r - 25.0).abs() < 1e-4);
        // Inside the hull's box but outside the circle hull: tested and rejected.
        w.add_ball(Ball::new(Vec2::new(236.0, 226.0), Vec2::ZERO, 2.0, 1.0, 0));
        // Falling straight onto the first circle.
        w.add_ball(Ball::new(
            Vec2::new(200.0, 260.0),
            Vec2::new(0.0, -2400.0),
            5.0,
            1.0,
            1,
        ));
        for _ in 0..40 {
            w.step();
        }
        let t = w.counters().total;
        assert!(t.hull_tests > 0 && t.hull_rejections > 0, "{mode:?} {t:?}");
        assert!(t.hull_rejections < t.hull_tests, "{mode:?} {t:?}");
        assert!(
            w.balls()[1].vel.y > 0.0,
            "{mode:?}: bounced up: {:?}",
            w.balls()[1]
        );
        assert!(
            w.balls()[1].pos.y >= 214.0,
            "{mode:?}: never inside: {:?}",
            w.balls()[1]
        );
    }
}

#[test]
fn kinematic_group_turns_its_members_and_its_rect_hull_follows() {
    let mut w = scene(
        "Group(shapes: [Rect(min: (100, 95), max: (200, 105))], hull: Rect,
            motion: Kinematic(pivot: (100, 100), speed: 0.25))",
    )
    .unwrap();
    w.edit_settings(|st| st.rotate = true);
    // A quarter turn takes one second.
    for _ in 0..240 {
        w.step();
    }
    let Geometry::Group {
        id,
        hull: Hull::Rect(b),
    } = w.shapes()[0].geom
    else {
        panic!()
    };
    let member = w.group(id).unwrap().members[0].geom;
    assert!(
        matches!(member, Geometry::OrientedRect { .. }),
        "{member:?}"
    );
    // Now upright above the pivot: x ∈ [95, 105], y ∈ [100, 200].
    assert!((b.min - Vec2::new(95.0, 100.0)).length() < 0.5, "{b:?}");
    assert!((b.max - Vec2::new(105.0, 200.0)).length() < 0.5, "{b:?}");
}

#[test]
fn group_member_with_its_own_motion_is_refused_with_line_and_column() {
    let err = scene(
        "Point(p: (1, 1)),\n  Group(shapes: [Segment(a: (0, 0), b: (9, 9), motion: Kinematic(pivot: (0, 0), speed: 1))])",
    )
    .err()
    .expect("refused");
    assert_eq!((err.line, err.col), (5, 3), "{err}");
    assert!(
        err.message.contains("member 0 (Segment)") && err.message.contains("motion"),
        "{err}"
    );
}

#[test]
fn rectangles_parse_and_bad_corners_are_named() {
    let w = scene("Rect(min: (10, 10), max: (50, 20)),\n OrientedRect(centre: (100, 100), half_extents: (30, 5), angle: 90)")
        .unwrap();
    assert!(matches!(w.shapes()[0].geom, Geometry::Rect { .. }));
    let b = w.shapes()[1].aabb();
    assert!((b.min - Vec2::new(95.0, 70.0)).length() < 1e-3, "{b:?}");
    let err = scene("Rect(min: (10, 10), max: (5, 20))")
        .err()
        .expect("refused");
    assert!(err.message.contains("field `max`"), "{err}");
    assert_eq!(err.line, 4);
}

/// Two floors at y = 0 (elasticity 0.25) and y = 2 (elasticity 0.75), grouped.
fn two_floors() -> (Hull, Vec<Shape>) {
    let floor = |y: f32, e: f32| {
        let g = Geometry::Segment {
            a: Vec2::new(-50.0, y),
            b: Vec2::new(50.0, y),
        };
        Shape::new(g, e, Motion::Static)
    };
    let group = Group {
        members: vec![floor(0.0, 0.25), floor(2.0, 0.75)],
        hull_kind: HullKind::Rect,
    };
    (group.hull(), group.members)
}

#[test]
fn a_group_touches_as_its_deepest_member() {
    let (hull, members) = two_floors();
    let mut tests = GroupTests::default();
    let (c, r) = (Vec2::new(0.0, 3.0), 4.0);
    let contact = |g: &Geometry| contact_ball_shape(c, r, Vec2::ZERO, g);
    let (c, e) = contact_ball_group(c, r, &hull, &members, &mut tests, contact).expect("touches");
    assert_eq!(
        e, 0.75,
        "the upper floor, listed second, is the deeper contact"
    );
    assert!((c.depth - 3.0).abs() < 1e-5);
    assert_eq!((tests.hulls, tests.rejections, tests.members), (1, 0, 2));
}

#[test]
fn a_group_is_hit_first_by_its_earliest_member() {
    let (hull, members) = two_floors();
    let mut tests = GroupTests::default();
    let (c, r, d) = (Vec2::new(0.0, 20.0), 4.0, Vec2::new(0.0, -30.0));
    let impact = |g: &Geometry| toi_ball_shape(c, r, d, d, g);
    let (hit, e) = impact_ball_group(c, r, d, &hull, &members, &mut tests, impact).expect("hits");
    assert_eq!(e, 0.75, "the upper floor is met first");
    assert!((c.y + d.y * hit.t - 6.0).abs() < 1e-3);
}

#[test]
fn a_ball_missing_the_hull_tests_no_member() {
    let (hull, members) = two_floors();
    let mut tests = GroupTests::default();
    let (c, r) = (Vec2::new(0.0, 100.0), 4.0);
    let contact = |g: &Geometry| contact_ball_shape(c, r, Vec2::ZERO, g);
    assert!(contact_ball_group(c, r, &hull, &members, &mut tests, contact).is_none());
    assert_eq!((tests.hulls, tests.rejections, tests.members), (1, 1, 0));
}
