//! Guard points: the scene builder puts one point at every distinct segment, gate and arc end,
//! moving with its shape, so a ball hitting an end bounces off the end.
mod common;

use collide::world::{Ball, HitWith};
use collide::{Geometry, Scene, Vec2, World};
use common::{close, close_v};

/// A 400 × 400 scene without gravity holding `shapes` (RON text).
fn scene(shapes: &str) -> World {
    let text = format!(
        "Scene(
            name: \"guards\",
            bounds: (min: (0, 0), max: (400, 400)),
            launch: (pos: (10, 10), dir: (0, 1)),
            gravity: Some(0),
            shapes: [{shapes}],
        )"
    );
    Scene::parse(&text, "guards.ron")
        .expect("test scene parses")
        .build(1)
}

/// Positions of all point shapes that guard another shape.
fn guards(w: &World) -> Vec<Vec2> {
    w.shapes()
        .iter()
        .filter(|s| s.guard_of.is_some())
        .map(|s| match s.geom {
            Geometry::Point { p } => p,
            other => panic!("a guard that is not a point: {other:?}"),
        })
        .collect()
}

/// The ends of a segment, gate or arc (none for other shapes).
fn ends(g: &Geometry) -> Vec<Vec2> {
    match *g {
        Geometry::Segment { a, b } | Geometry::Gate { a, b, .. } => vec![a, b],
        Geometry::Arc { c, r, start, end } => vec![
            c + Vec2::from_angle(start) * r,
            c + Vec2::from_angle(end) * r,
        ],
        _ => vec![],
    }
}

fn near(a: Vec2, b: Vec2) -> bool {
    (a - b).length() < 1e-3
}

#[test]
fn ball_dropped_on_segment_end_bounces_off_the_end() {
    let mut w = scene("Segment(a: (100, 200), b: (200, 200))");
    let end = Vec2::new(200.0, 200.0);
    let v0 = Vec2::new(0.0, -300.0);
    w.add_ball(Ball::new(Vec2::new(206.0, 230.0), v0, 10.0, 1.0, 0));
    for _ in 0..200 {
        w.step();
        if w.balls()[0].vel != v0 {
            break;
        }
    }
    let b = w.balls()[0];
    assert_ne!(b.vel, v0, "the ball never hit the end");
    // Pushed out to touch the end exactly; the normal is from the end to the centre.
    assert!(close((b.pos - end).length(), 10.0, 1e-4), "{b:?}");
    let n = (b.pos - end).normalize();
    assert!(n.x > 0.3, "the contact was not at the end: {n}");
    // Elasticity 1: the normal velocity is reflected, the tangential kept.
    let want = v0 - 2.0 * v0.dot(n) * n;
    assert!(close_v(b.vel, want, 1e-4), "vel {} want {want}", b.vel);
    assert!(close(b.vel.length(), 300.0, 1e-4));
    let hit = w.drain_hits().next().expect("a hit was recorded");
    assert!(near(hit.point, end), "{hit:?}");
    let HitWith::Shape(i) = hit.with else {
        panic!("hit a ball: {hit:?}")
    };
    assert!(w.shapes()[i as usize].guard_of.is_some(), "{hit:?}");
}

#[test]
fn ball_dropped_on_segment_interior_bounces_straight_back() {
    let mut w = scene("Segment(a: (100, 200), b: (200, 200))");
    let v0 = Vec2::new(0.0, -300.0);
    w.add_ball(Ball::new(Vec2::new(194.0, 230.0), v0, 10.0, 1.0, 0));
    for _ in 0..200 {
        w.step();
    }
    let b = w.balls()[0];
    assert!(close_v(b.vel, -v0, 1e-5), "{b:?}");
}

#[test]
fn polyline_corners_get_one_guard_point_each() {
    let w = scene("Polyline(points: [(100, 100), (200, 100), (200, 200), (300, 250)])");
    let g = guards(&w);
    assert_eq!(g.len(), 4, "{g:?}");
    for p in [
        (100.0, 100.0),
        (200.0, 100.0),
        (200.0, 200.0),
        (300.0, 250.0),
    ] {
        assert!(g.iter().any(|&q| near(q, p.into())), "no guard at {p:?}");
    }
}

#[test]
fn segment_arc_and_gate_sharing_ends_share_guard_points() {
    let w = scene(
        "Segment(a: (100, 200), b: (200, 200)),
         Arc(centre: (300, 200), radius: 100, start: 90, end: 180),
         Gate(a: (300, 300), b: (350, 300), normal: (0, 1)),
         Point(p: (350, 300))",
    );
    // Distinct ends: (100,200), (200,200), (300,300), (350,300); the last is a point already.
    let g = guards(&w);
    assert_eq!(g.len(), 3, "{g:?}");
    for (i, a) in g.iter().enumerate() {
        for b in &g[i + 1..] {
            assert!(!near(*a, *b), "duplicate guard at {a}");
        }
    }
    for p in [(100.0, 200.0), (200.0, 200.0), (300.0, 300.0)] {
        assert!(g.iter().any(|&q| near(q, p.into())), "no guard at {p:?}");
    }
}

#[test]
fn full_circle_arc_gets_no_guard_points() {
    let w = scene(
        "Arc(centre: (200, 200), radius: 100, start: 0, end: 360),
         Arc(centre: (200, 200), radius: 50, start: 10, end: 370),
         Arc(centre: (200, 200), radius: 20, start: -33.3, end: 326.7)",
    );
    assert_eq!(guards(&w), vec![]);
}

#[test]
fn table_has_exactly_one_point_at_every_end() {
    let w = common::table(1);
    let points: Vec<Vec2> = w
        .shapes()
        .iter()
        .filter_map(|s| match s.geom {
            Geometry::Point { p } => Some(p),
            _ => None,
        })
        .collect();
    for s in w.shapes() {
        for e in ends(&s.geom) {
            let n = points.iter().filter(|&&p| near(p, e)).count();
            assert_eq!(n, 1, "{n} points at the end {e} of {:?}", s.geom);
        }
    }
}

/// Every guard point lies on an end of the shape its `guard_of` names.
fn assert_guards_on_their_shapes(w: &World) {
    for s in w.shapes() {
        let Some(i) = s.guard_of else { continue };
        let Geometry::Point { p } = s.geom else {
            panic!("guard is not a point")
        };
        let owner = &w.shapes()[i as usize];
        assert!(
            ends(&owner.geom).iter().any(|&e| near(e, p)),
            "guard at {p} is not at an end of shape {i}: {:?}",
            owner.geom
        );
    }
}

#[test]
fn table_guard_points_name_the_shape_they_guard() {
    // Regression: World::new puts statics first, which moved the table's kinematic shapes
    // (listed before the teardrops) and left every `guard_of` pointing at the old index.
    let mut w = common::table(3);
    assert_guards_on_their_shapes(&w);
    w.edit_settings(|st| st.rotate = true);
    for _ in 0..100 {
        w.step();
    }
    assert_guards_on_their_shapes(&w);
}

#[test]
fn kinematic_segment_guard_points_turn_with_it() {
    let mut w = scene(
        "Segment(a: (100, 200), b: (200, 200),
            motion: Kinematic(pivot: (150, 200), speed: 0.25)),
         Arc(centre: (300, 300), radius: 40, start: 0, end: 90,
            motion: Kinematic(pivot: (280, 300), speed: -0.5))",
    );
    let before = guards(&w);
    assert_eq!(before.len(), 4);
    w.edit_settings(|st| st.rotate = true);
    for _ in 0..37 {
        w.step();
    }
    let after = guards(&w);
    for (p, q) in before.iter().zip(&after) {
        assert!((*p - *q).length() > 1.0, "guard at {p} did not move");
    }
    assert_guards_on_their_shapes(&w);
    for s in w.shapes().iter().filter(|s| s.guard_of.is_none()) {
        for e in ends(&s.geom) {
            assert!(
                after.iter().any(|&q| near(q, e)),
                "no guard at {e} after turning"
            );
        }
    }
}

#[test]
fn ball_hits_the_end_of_a_turned_segment() {
    // The bar turns a quarter turn (0.25 rev/s for 1 s); its end is then at (150, 150).
    let mut w = scene(
        "Segment(a: (100, 200), b: (200, 200),
            motion: Kinematic(pivot: (150, 200), speed: 0.25))",
    );
    w.edit_settings(|st| st.rotate = true);
    for _ in 0..240 {
        w.step();
    }
    w.edit_settings(|st| st.rotate = false);
    let end = guards(&w)
        .into_iter()
        .find(|p| p.y < 175.0)
        .expect("a guard at the lower end");
    assert!(
        (end - Vec2::new(150.0, 150.0)).length() < 0.05,
        "end at {end}"
    );
    let v0 = Vec2::new(0.0, 300.0);
    w.add_ball(Ball::new(Vec2::new(153.0, 110.0), v0, 10.0, 1.0, 0));
    for _ in 0..200 {
        w.step();
    }
    let b = w.balls()[0];
    assert!(
        b.vel.y < 0.0 && b.vel.x > 0.0,
        "did not bounce off the end: {b:?}"
    );
}
