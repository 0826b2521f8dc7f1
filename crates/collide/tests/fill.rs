//! `World::fill_random`: the count, inside the play area, clear of obstacles and of each
//! other, finite, and the same balls for the same seed; a play area of any size, and why a
//! fill falls short.
mod common;

use collide::narrow::contact_ball_shape;
use collide::world::Shortfall;
use collide::{Aabb, Geometry, Motion, Scene, Shape, Vec2, World};

/// The built-in field: a closed box that fills itself with 2000 balls.
const FIELD: &str = include_str!("../scenes/field.ron");

fn filled(seed: u64, n: u32, radius: (f32, f32)) -> World {
    let mut w = common::table(seed);
    let done = w.fill_random(n, radius, 300.0);
    assert_eq!(done.balls, n, "asked for {n}");
    w
}

#[test]
fn fill_adds_n_finite_balls_inside_the_play_area() {
    let w = filled(3, 1000, (2.0, 4.0));
    assert_eq!(w.balls().len(), 1000);
    assert!(w.all_finite());
    let b = w.bounds();
    for ball in w.balls() {
        assert!(ball.radius > 0.0 && ball.radius <= 4.0);
        assert!(b.contains(ball.pos - ball.radius) && b.contains(ball.pos + ball.radius));
        assert!(ball.vel.length() <= 300.0 + 1e-3);
    }
}

#[test]
fn filled_balls_touch_no_obstacle_and_no_other_ball() {
    let w = filled(5, 2000, (3.0, 3.0));
    for ball in w.balls() {
        for s in w.shapes() {
            assert!(contact_ball_shape(ball.pos, ball.radius, Vec2::ZERO, &s.geom).is_none());
        }
    }
    // Brute force over 2000 balls: 2 million pairs, fine in release and debug.
    let balls = w.balls();
    for (i, a) in balls.iter().enumerate() {
        for b in &balls[i + 1..] {
            let d = a.radius + b.radius;
            assert!((a.pos - b.pos).length_squared() >= d * d);
        }
    }
}

#[test]
fn fill_is_deterministic_for_a_seed() {
    let (a, b, c) = (
        filled(9, 500, (2.0, 5.0)),
        filled(9, 500, (2.0, 5.0)),
        filled(10, 500, (2.0, 5.0)),
    );
    assert_eq!(a.state_hash(), b.state_hash());
    assert_ne!(a.state_hash(), c.state_hash());
}

#[test]
fn fill_shrinks_radii_when_n_would_not_fit() {
    let mut w = common::table(1);
    let done = w.fill_random(100_000, (3.0, 3.0), 0.0);
    assert_eq!(done.balls, 100_000);
    assert!(done.max_radius < 3.0 && done.max_radius > 0.5, "{done:?}");
    assert!(w.balls().iter().all(|b| b.radius <= done.max_radius + 1e-4));
    assert!(w.all_finite());
}

#[test]
fn fill_avoids_balls_already_there_and_survives_steps() {
    let mut w = filled(2, 3000, (2.5, 3.0));
    w.fill_random(1000, (2.5, 3.0), 300.0);
    assert_eq!(w.balls().len(), 4000);
    w.set_broad_phase(collide::BroadKind::Grid);
    w.edit_settings(|st| st.motion_iterations = 1);
    for _ in 0..30 {
        w.step();
    }
    assert!(w.all_finite());
    assert_eq!(w.counters().co_located, 0);
}

#[test]
fn fill_with_bad_arguments_stays_finite() {
    let mut w = common::table(4);
    w.fill_random(50, (f32::NAN, -3.0), f32::INFINITY);
    w.fill_random(0, (1.0, 2.0), 10.0);
    assert!(w.all_finite());
    assert!(w.balls().len() <= 50);
}

/// The table's pockets sealed by walls: inside the top-left arc, outside the corner arc.
#[test]
fn fill_leaves_sealed_pockets_of_the_table_empty() {
    let mut w = filled(6, 10_000, (2.1, 3.0));
    for b in w.balls() {
        let in_top_left = (b.pos - Vec2::new(0.0, 704.0)).length() < 130.0;
        let outside_corner = b.pos.x > 860.0
            && b.pos.y > 604.0
            && (b.pos - Vec2::new(860.0, 604.0)).length() > 100.0;
        assert!(!in_top_left && !outside_corner, "ball at {}", b.pos);
    }
    w.set_broad_phase(collide::BroadKind::Grid);
    for _ in 0..60 {
        w.step();
    }
    assert_eq!(w.counters().strays, 0);
}

/// A play area of 1e30 px (a world made through the interface; a scene file cannot say it)
/// once made a grid whose size overflowed and indexed past its cells. The cells grow
/// instead, so every ball finds a place.
#[test]
fn fill_on_bounds_of_1e30_places_every_ball_instead_of_panicking() {
    let bounds = Aabb::new(Vec2::ZERO, Vec2::splat(1e30));
    let mut w = World::new(Vec::new(), bounds, 1);
    let done = w.fill_random(2000, (3.0, 5.0), 200.0);
    assert_eq!((done.balls, done.short), (2000, None), "{done:?}");
    assert!(w.all_finite());
}

/// The field with bounds from 1e6 to 1e7 px once placed no ball, quietly: cells of the
/// balls' size would have been too many to lay. Now the balls keep their size.
#[test]
fn fill_on_the_field_with_bounds_of_1e6_and_1e7_places_every_ball_at_full_size() {
    for max in ["1e6", "1e7"] {
        let text = FIELD.replacen("max: (960, 704)", &format!("max: ({max}, {max})"), 1);
        let scene = Scene::parse(&text, "field.ron").expect("bounds up to 1e7 are accepted");
        let w = scene.build(1);
        let done = w.last_fill().expect("the field fills itself");
        assert_eq!((done.balls, done.short), (2000, None), "{max}: {done:?}");
        assert_eq!(done.max_radius, 5.0, "{max}");
        assert!(w.all_finite());
        assert!(w.balls().iter().all(|b| w.bounds().contains(b.pos)));
    }
}

/// A play area taken whole by one block: every cell is blocked, and the largest open region
/// of none used to come back as every cell, so the balls were put inside the block.
#[test]
fn fill_of_a_play_area_covered_by_a_block_places_nothing_and_says_why() {
    let bounds = Aabb::new(Vec2::ZERO, Vec2::new(960.0, 704.0));
    let block = Geometry::Rect {
        min: bounds.min,
        max: bounds.max,
    };
    let mut w = World::new(vec![Shape::new(block, 0.5, Motion::Static)], bounds, 1);
    let done = w.fill_random(2000, (2.1, 3.0), 200.0);
    assert_eq!(done.balls, 0);
    assert!(w.balls().is_empty());
    assert!(
        matches!(done.short, Some(Shortfall::Covered { .. })),
        "{done:?}"
    );
    let why = done.short.unwrap().to_string();
    assert!(why.starts_with("obstacles"), "{why}");
    assert_eq!(w.last_fill(), Some(done));
}

/// The peers' drum: four walls turning about the drum's centre sweep only the ring between
/// their nearest and farthest points from it, so the fill lies inside the drum, within the
/// circle their nearest points draw (the whole inside of the swept disc was kept clear before,
/// and the balls went outside the walls).
#[test]
fn fill_lies_inside_a_drum_of_turning_walls() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../bench-peers/scenes/drum.ron"
    );
    let scene = Scene::load(std::path::Path::new(path)).expect("the drum loads");
    let w = scene.with_fill_count(2000).build(1);
    assert_eq!(w.balls().len(), 2000);
    let centre = Vec2::new(500.0, 500.0);
    for b in w.balls() {
        let d = (b.pos - centre).length();
        assert!(
            d + b.radius <= 350.0,
            "ball at {} outside the walls' ring",
            b.pos
        );
    }
}
