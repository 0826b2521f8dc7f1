//! Helpers shared by the integration tests: the library's, and the harness's (which include
//! this file by its path, so there is one copy).
#![allow(dead_code)]

use collide::{Input, Scene, World};

/// The table scene shipped with the app.
pub const TABLE: &str = include_str!("../../scenes/table.ron");

/// The table, built with `seed`.
pub fn table(seed: u64) -> World {
    Scene::parse(TABLE, "table.ron")
        .expect("the table scene parses")
        .build(seed)
}

/// Relative closeness with one tolerance rule for every test.
pub fn close(a: f32, b: f32, rel: f32) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1.0)
}

/// [`close`] on both components of two vectors.
pub fn close_v(a: collide::Vec2, b: collide::Vec2, rel: f32) -> bool {
    close(a.x, b.x, rel) && close(a.y, b.y, rel)
}

/// The narrow phase's tests of one shape pair, asked through the library's one door for them
/// (`contact_ball_shape`, `toi_ball_shape`: the dispatch by geometry), with the argument
/// lists the per-pair functions inside the library take.
pub mod narrow {
    use collide::narrow::{contact_ball_shape, toi_ball_shape, Contact, Impact};
    use collide::{Geometry, Vec2};

    fn contact(c: Vec2, r: f32, geom: Geometry) -> Option<Contact> {
        contact_ball_shape(c, r, Vec2::ZERO, &geom)
    }

    fn toi(c: Vec2, r: f32, d: Vec2, geom: Geometry) -> Option<Impact> {
        toi_ball_shape(c, r, d, Vec2::ZERO, &geom)
    }

    /// A ball at `c` of radius `r` against the point `p`.
    pub fn contact_ball_point(c: Vec2, r: f32, p: Vec2) -> Option<Contact> {
        contact(c, r, Geometry::Point { p })
    }

    /// Against the segment `a`–`b`.
    pub fn contact_ball_segment(c: Vec2, r: f32, a: Vec2, b: Vec2) -> Option<Contact> {
        contact(c, r, Geometry::Segment { a, b })
    }

    /// Against the circle at `cc` of radius `cr`.
    pub fn contact_ball_circle(c: Vec2, r: f32, cc: Vec2, cr: f32) -> Option<Contact> {
        contact(c, r, Geometry::Circle { c: cc, r: cr })
    }

    /// Against the arc about `ac` of radius `ar` from `start` to `end` (rad).
    pub fn contact_ball_arc(
        c: Vec2,
        r: f32,
        ac: Vec2,
        ar: f32,
        start: f32,
        end: f32,
    ) -> Option<Contact> {
        contact(
            c,
            r,
            Geometry::Arc {
                c: ac,
                r: ar,
                start,
                end,
            },
        )
    }

    /// Against the gate `a`–`b` with its normal and threshold, the ball moving at `v`.
    pub fn contact_ball_gate(
        c: Vec2,
        r: f32,
        v: Vec2,
        a: Vec2,
        b: Vec2,
        normal: Vec2,
        threshold: f32,
    ) -> Option<Contact> {
        let gate = Geometry::Gate {
            a,
            b,
            normal,
            threshold,
        };
        contact_ball_shape(c, r, v, &gate)
    }

    /// The first impact moving by `d` with the point `p`.
    pub fn toi_ball_point(c: Vec2, r: f32, d: Vec2, p: Vec2) -> Option<Impact> {
        toi(c, r, d, Geometry::Point { p })
    }

    /// With the segment `a`–`b`.
    pub fn toi_ball_segment(c: Vec2, r: f32, d: Vec2, a: Vec2, b: Vec2) -> Option<Impact> {
        toi(c, r, d, Geometry::Segment { a, b })
    }

    /// With the circle at `cc` of radius `cr`.
    pub fn toi_ball_circle(c: Vec2, r: f32, d: Vec2, cc: Vec2, cr: f32) -> Option<Impact> {
        toi(c, r, d, Geometry::Circle { c: cc, r: cr })
    }

    /// With the arc about `ac` of radius `ar` from `start` to `end` (rad).
    pub fn toi_ball_arc(
        c: Vec2,
        r: f32,
        d: Vec2,
        ac: Vec2,
        ar: f32,
        start: f32,
        end: f32,
    ) -> Option<Impact> {
        toi(
            c,
            r,
            d,
            Geometry::Arc {
                c: ac,
                r: ar,
                start,
                end,
            },
        )
    }

    /// With the axis-aligned rectangle `min`–`max`.
    pub fn toi_ball_rect(c: Vec2, r: f32, d: Vec2, min: Vec2, max: Vec2) -> Option<Impact> {
        toi(c, r, d, Geometry::Rect { min, max })
    }

    /// With the rectangle at `rc` of half size `half` turned by `angle` (rad).
    pub fn toi_ball_oriented_rect(
        c: Vec2,
        r: f32,
        d: Vec2,
        rc: Vec2,
        half: Vec2,
        angle: f32,
    ) -> Option<Impact> {
        toi(c, r, d, Geometry::OrientedRect { c: rc, half, angle })
    }
}

/// Sets ball `i`'s place (px) and velocity (px/s) as the hand in the app does, through an
/// input; false when there is no such ball or a number is not finite.
pub fn move_ball(w: &mut World, i: usize, pos: collide::Vec2, vel: collide::Vec2) -> bool {
    let Some(ball) = w.ball_id(i) else {
        return false;
    };
    w.apply_input(&Input::MoveBall { ball, pos, vel }).is_ok()
}

/// Removes ball `i` as the app does, through an input naming its id (nothing when there is
/// none).
pub fn remove_ball(w: &mut World, i: usize) {
    if let Some(id) = w.ball_id(i) {
        w.apply_input(&Input::RemoveBall(id))
            .expect("a ball in the world");
    }
}

/// Launches a ball at `pos` (px) with velocity `vel` (px/s) through an input.
pub fn launch_at(w: &mut World, pos: collide::Vec2, vel: collide::Vec2) {
    w.apply_input(&Input::LaunchAt { pos, vel })
        .expect("a finite place and velocity");
}

/// Presses (`down`) or releases a control as the keys do, through an input.
pub fn hold(w: &mut World, control: collide::Control, down: bool) {
    w.apply_input(&Input::Control { control, down })
        .expect("a control is always accepted");
}
