//! The hit record's measured restitution: rebound over approach normal speed, beside the
//! elasticity the response was set to use.

mod common;

use collide::world::{Ball, HitWith, Launcher};
use collide::{Aabb, Geometry, Motion, Shape, Tunnelling, Vec2, World};
use common::close;

fn floor_world(shape_e: f32, mode: Tunnelling) -> World {
    let floor = Shape::new(
        Geometry::Segment {
            a: Vec2::new(0.0, 100.0),
            b: Vec2::new(1000.0, 100.0),
        },
        shape_e,
        Motion::Static,
    );
    let bounds = Aabb::new(Vec2::ZERO, Vec2::new(1000.0, 1000.0));
    let launcher = Launcher {
        pos: Vec2::new(10.0, 10.0),
        dir: Vec2::Y,
    };
    let mut w = World::new_unguarded(vec![floor], bounds, 3).with_launcher(launcher);
    w.edit_settings(|st| st.tunnelling = mode);
    w
}

/// Steps until the first hit; returns it.
fn first_hit(w: &mut World) -> collide::world::Hit {
    for _ in 0..10_000 {
        w.step();
        if let Some(h) = w.drain_hits().next() {
            return h;
        }
    }
    panic!("no hit");
}

#[test]
fn ball_dropped_on_a_static_segment_reports_measured_e_close_to_the_set_e() {
    for mode in [Tunnelling::Off, Tunnelling::Exact] {
        let mut w = floor_world(0.8, mode);
        w.add_ball(Ball::new(Vec2::new(500.0, 600.0), Vec2::ZERO, 10.0, 0.9, 0));
        let h = first_hit(&mut w);
        assert_eq!(h.with, HitWith::Shape(0));
        assert!(close(h.e, 0.72, 1e-6), "{mode:?}: set e {}", h.e);
        assert!(
            close(h.normal.y, 1.0, 1e-5),
            "{mode:?}: normal {}",
            h.normal
        );
        let measured = h.rebound / h.speed;
        assert!(h.speed > 500.0, "{mode:?}: approach {}", h.speed);
        assert!(close(measured, h.e, 1e-3), "{mode:?}: measured {measured}");
    }
}

#[test]
fn head_on_balls_report_the_set_e_on_their_relative_normal_speed() {
    let mut w = floor_world(1.0, Tunnelling::Off);
    w.edit_settings(|st| st.gravity = 0.0);
    w.add_ball(Ball::new(
        Vec2::new(400.0, 500.0),
        Vec2::new(300.0, 0.0),
        10.0,
        0.8,
        0,
    ));
    w.add_ball(Ball::new(
        Vec2::new(600.0, 500.0),
        Vec2::new(-100.0, 0.0),
        20.0,
        0.9,
        0,
    ));
    let h = first_hit(&mut w);
    assert!(matches!(h.with, HitWith::Ball(_)));
    assert!(close(h.speed, 400.0, 1e-4));
    assert!(close(h.rebound / h.speed, 0.72, 1e-3));
}
