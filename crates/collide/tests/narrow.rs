//! Narrow phase, one shape pair at a time: hits (point, unit normal pointing to the ball,
//! depth), misses, grazing (distance exactly the radius is a miss), the ends of segments and
//! arcs (left to guard points), degenerate inputs, and a seeded sweep for non-finite output.
mod common;

use collide::narrow::{contact_ball_ball, contact_ball_shape};
use collide::{Contact, Geometry, Vec2};
use common::narrow::{
    contact_ball_arc, contact_ball_circle, contact_ball_gate, contact_ball_point,
    contact_ball_segment,
};
use common::{close, close_v};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, PI, TAU};

const REL: f32 = 1e-5;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A point at `dist` from `c` in direction `deg` degrees.
fn polar(c: Vec2, dist: f32, deg: f32) -> Vec2 {
    c + Vec2::from_angle(deg.to_radians()) * dist
}

/// Every field finite, the normal of unit length, the depth not negative.
fn assert_sane(c: &Contact) {
    assert!(c.point.is_finite(), "point not finite: {c:?}");
    assert!(c.normal.is_finite(), "normal not finite: {c:?}");
    assert!(c.depth.is_finite(), "depth not finite: {c:?}");
    assert!(
        close(c.normal.length(), 1.0, 1e-4),
        "normal not unit: {c:?}"
    );
    assert!(c.depth >= 0.0, "negative depth: {c:?}");
}

/// Asserts a contact with the given point, normal and depth.
fn assert_contact(got: Option<Contact>, point: Vec2, normal: Vec2, depth: f32) {
    let c = got.expect("expected a contact");
    assert_sane(&c);
    assert!(close_v(c.point, point, REL), "point {c:?}, want {point}");
    assert!(
        close_v(c.normal, normal, REL),
        "normal {c:?}, want {normal}"
    );
    assert!(close(c.depth, depth, 1e-4), "depth {c:?}, want {depth}");
}

fn hit(got: Option<Contact>) -> Contact {
    let c = got.expect("expected a contact");
    assert_sane(&c);
    c
}

// ---------------------------------------------------------------- ball vs point

#[test]
fn ball_overlapping_point_is_pushed_straight_away_from_it() {
    assert_contact(
        contact_ball_point(v(3.0, 4.0), 10.0, Vec2::ZERO),
        Vec2::ZERO,
        v(0.6, 0.8),
        5.0,
    );
}

#[test]
fn ball_touching_point_exactly_misses_and_just_inside_hits() {
    assert_eq!(contact_ball_point(v(6.0, 8.0), 10.0, Vec2::ZERO), None);
    let c = hit(contact_ball_point(v(6.0, 8.0) * 0.9999, 10.0, Vec2::ZERO));
    assert!(c.depth > 0.0 && c.depth < 0.01);
}

#[test]
fn ball_far_from_point_misses() {
    assert_eq!(contact_ball_point(v(100.0, 0.0), 10.0, Vec2::ZERO), None);
}

#[test]
fn ball_centred_on_point_gets_a_unit_normal_and_full_depth() {
    let c = hit(contact_ball_point(v(5.0, 5.0), 10.0, v(5.0, 5.0)));
    assert!(close(c.depth, 10.0, REL));
}

#[test]
fn zero_radius_ball_never_touches_a_point() {
    assert_eq!(contact_ball_point(v(5.0, 5.0), 0.0, v(5.0, 5.0)), None);
    assert_eq!(contact_ball_point(v(5.0, 5.1), 0.0, v(5.0, 5.0)), None);
}

#[test]
fn negative_radius_ball_is_a_zero_radius_ball() {
    // Regression: contact_ball_point(c, -5, c) returned depth -5, breaking `depth >= 0`.
    assert_eq!(contact_ball_point(v(5.0, 5.0), -5.0, v(5.0, 5.0)), None);
    assert_eq!(contact_ball_point(v(5.0, 6.0), -5.0, v(5.0, 5.0)), None);
    let (a, b) = (v(0.0, 0.0), v(10.0, 0.0));
    assert_eq!(contact_ball_segment(v(5.0, 1.0), -5.0, a, b), None);
    assert_eq!(contact_ball_segment(v(5.0, 0.0), -5.0, a, b), None);
    assert_eq!(
        contact_ball_arc(v(0.0, 9.0), -5.0, Vec2::ZERO, 10.0, 0.0, PI),
        None
    );
    assert_eq!(
        contact_ball_ball(v(0.0, 0.0), -5.0, v(0.0, 0.0), -5.0),
        None
    );
    // A point inside a solid circle is still inside it.
    let c = hit(contact_ball_circle(v(0.0, 9.0), -5.0, Vec2::ZERO, 10.0));
    assert!(close(c.depth, 1.0, REL));
}

// ---------------------------------------------------------------- ball vs segment

const A: Vec2 = Vec2::new(0.0, 0.0);
const B: Vec2 = Vec2::new(100.0, 0.0);

#[test]
fn ball_above_segment_interior_is_pushed_up() {
    assert_contact(
        contact_ball_segment(v(30.0, 6.0), 10.0, A, B),
        v(30.0, 0.0),
        v(0.0, 1.0),
        4.0,
    );
}

#[test]
fn ball_below_segment_is_pushed_down() {
    assert_contact(
        contact_ball_segment(v(30.0, -6.0), 10.0, A, B),
        v(30.0, 0.0),
        v(0.0, -1.0),
        4.0,
    );
}

#[test]
fn segment_direction_does_not_change_the_contact() {
    let ab = contact_ball_segment(v(70.0, -3.0), 10.0, A, B);
    let ba = contact_ball_segment(v(70.0, -3.0), 10.0, B, A);
    let (ab, ba) = (hit(ab), hit(ba));
    assert!(close_v(ab.point, ba.point, REL) && close_v(ab.normal, ba.normal, REL));
    assert!(close(ab.depth, ba.depth, REL));
}

#[test]
fn ball_touching_segment_exactly_misses_and_just_inside_hits() {
    assert_eq!(contact_ball_segment(v(30.0, 10.0), 10.0, A, B), None);
    assert_eq!(contact_ball_segment(v(30.0, -10.0), 10.0, A, B), None);
    let c = hit(contact_ball_segment(v(30.0, 9.999), 10.0, A, B));
    assert!(c.depth > 0.0 && c.depth < 0.01);
}

#[test]
fn ball_far_from_segment_misses() {
    assert_eq!(contact_ball_segment(v(50.0, 30.0), 10.0, A, B), None);
}

#[test]
fn ball_beyond_segment_ends_is_left_to_the_guard_points() {
    // Within reach of the end, but its centre projects outside the segment.
    assert_eq!(contact_ball_segment(v(-3.0, 2.0), 10.0, A, B), None);
    assert_eq!(contact_ball_segment(v(103.0, 2.0), 10.0, A, B), None);
    assert_eq!(contact_ball_segment(v(100.001, 0.0), 10.0, A, B), None);
    assert_eq!(contact_ball_segment(v(-0.001, -5.0), 10.0, A, B), None);
}

#[test]
fn ball_exactly_over_a_segment_end_still_hits_the_segment() {
    assert_contact(
        contact_ball_segment(v(0.0, 5.0), 10.0, A, B),
        A,
        v(0.0, 1.0),
        5.0,
    );
    assert_contact(
        contact_ball_segment(v(100.0, -5.0), 10.0, A, B),
        B,
        v(0.0, -1.0),
        5.0,
    );
}

#[test]
fn ball_near_diagonal_segment_is_pushed_perpendicular_to_it() {
    let s = std::f32::consts::SQRT_2;
    assert_contact(
        contact_ball_segment(v(0.0, 10.0), 10.0, v(0.0, 0.0), v(10.0, 10.0)),
        v(5.0, 5.0),
        v(-1.0, 1.0) / s,
        10.0 - 5.0 * s,
    );
}

#[test]
fn ball_centred_on_segment_gets_a_perpendicular_unit_normal() {
    let c = hit(contact_ball_segment(v(50.0, 0.0), 10.0, A, B));
    assert!(close(c.normal.x, 0.0, REL), "normal {c:?}");
    assert!(close(c.depth, 10.0, REL));
    assert!(close_v(c.point, v(50.0, 0.0), REL));
}

#[test]
fn zero_length_segment_behaves_as_a_point() {
    let p = v(5.0, 5.0);
    assert_contact(
        contact_ball_segment(v(5.0, 8.0), 10.0, p, p),
        p,
        v(0.0, 1.0),
        7.0,
    );
    assert_eq!(contact_ball_segment(v(5.0, 15.0), 10.0, p, p), None);
    let c = hit(contact_ball_segment(p, 10.0, p, p));
    assert!(close(c.depth, 10.0, REL));
}

#[test]
fn zero_radius_ball_never_touches_a_segment() {
    assert_eq!(contact_ball_segment(v(50.0, 0.0), 0.0, A, B), None);
    assert_eq!(contact_ball_segment(v(50.0, 1e-6), 0.0, A, B), None);
}

// ---------------------------------------------------------------- ball vs circle

#[test]
fn ball_outside_circle_is_pushed_out_radially() {
    assert_contact(
        contact_ball_circle(v(25.0, 0.0), 10.0, Vec2::ZERO, 20.0),
        v(20.0, 0.0),
        v(1.0, 0.0),
        5.0,
    );
    assert_contact(
        contact_ball_circle(polar(v(7.0, -3.0), 28.0, 135.0), 10.0, v(7.0, -3.0), 20.0),
        polar(v(7.0, -3.0), 20.0, 135.0),
        polar(Vec2::ZERO, 1.0, 135.0),
        2.0,
    );
}

#[test]
fn ball_touching_circle_exactly_misses_and_just_inside_hits() {
    assert_eq!(
        contact_ball_circle(v(30.0, 0.0), 10.0, Vec2::ZERO, 20.0),
        None
    );
    let c = hit(contact_ball_circle(v(29.999, 0.0), 10.0, Vec2::ZERO, 20.0));
    assert!(c.depth > 0.0 && c.depth < 0.01);
}

#[test]
fn ball_deep_inside_solid_circle_is_pushed_all_the_way_out() {
    assert_contact(
        contact_ball_circle(v(5.0, 0.0), 10.0, Vec2::ZERO, 20.0),
        v(20.0, 0.0),
        v(1.0, 0.0),
        25.0,
    );
}

#[test]
fn ball_at_circle_centre_gets_a_unit_normal_and_full_depth() {
    let c = hit(contact_ball_circle(v(3.0, 3.0), 10.0, v(3.0, 3.0), 20.0));
    assert!(close(c.depth, 30.0, REL));
    assert!(close((c.point - v(3.0, 3.0)).length(), 20.0, REL));
}

#[test]
fn zero_radius_ball_hits_a_circle_only_inside_it() {
    assert_contact(
        contact_ball_circle(v(19.0, 0.0), 0.0, Vec2::ZERO, 20.0),
        v(20.0, 0.0),
        v(1.0, 0.0),
        1.0,
    );
    assert_eq!(
        contact_ball_circle(v(20.0, 0.0), 0.0, Vec2::ZERO, 20.0),
        None
    );
}

// ---------------------------------------------------------------- ball vs arc

/// Quarter arc of radius 100 about the origin, from 0° to 90°.
fn quarter(c: Vec2, r: f32) -> Option<Contact> {
    contact_ball_arc(c, r, Vec2::ZERO, 100.0, 0.0, FRAC_PI_2)
}

#[test]
fn ball_outside_arc_is_pushed_outwards() {
    assert_contact(
        quarter(polar(Vec2::ZERO, 105.0, 45.0), 10.0),
        polar(Vec2::ZERO, 100.0, 45.0),
        polar(Vec2::ZERO, 1.0, 45.0),
        5.0,
    );
}

#[test]
fn ball_inside_arc_is_pushed_inwards() {
    assert_contact(
        quarter(polar(Vec2::ZERO, 95.0, 30.0), 10.0),
        polar(Vec2::ZERO, 100.0, 30.0),
        -polar(Vec2::ZERO, 1.0, 30.0),
        5.0,
    );
}

#[test]
fn ball_touching_arc_exactly_misses_from_either_side() {
    assert_eq!(
        contact_ball_arc(v(0.0, 110.0), 10.0, Vec2::ZERO, 100.0, 0.0, PI),
        None
    );
    assert_eq!(
        contact_ball_arc(v(0.0, 90.0), 10.0, Vec2::ZERO, 100.0, 0.0, PI),
        None
    );
    let out = hit(contact_ball_arc(
        v(0.0, 109.99),
        10.0,
        Vec2::ZERO,
        100.0,
        0.0,
        PI,
    ));
    let inn = hit(contact_ball_arc(
        v(0.0, 90.01),
        10.0,
        Vec2::ZERO,
        100.0,
        0.0,
        PI,
    ));
    assert!(
        out.normal.y > 0.99 && inn.normal.y < -0.99,
        "{out:?} {inn:?}"
    );
}

#[test]
fn ball_far_from_arc_misses() {
    assert_eq!(quarter(polar(Vec2::ZERO, 150.0, 45.0), 10.0), None);
    assert_eq!(quarter(polar(Vec2::ZERO, 50.0, 45.0), 10.0), None);
}

#[test]
fn ball_beyond_arc_angles_is_left_to_the_guard_points() {
    assert_eq!(quarter(polar(Vec2::ZERO, 100.0, 100.0), 10.0), None);
    assert_eq!(quarter(polar(Vec2::ZERO, 100.0, -10.0), 10.0), None);
    assert_eq!(quarter(polar(Vec2::ZERO, 100.0, 180.0), 10.0), None);
    assert_eq!(quarter(polar(Vec2::ZERO, 100.0, 270.0), 10.0), None);
    hit(quarter(polar(Vec2::ZERO, 100.0, 1.0), 10.0));
    hit(quarter(polar(Vec2::ZERO, 100.0, 89.0), 10.0));
}

#[test]
fn arc_crossing_angle_zero_covers_both_sides_of_it() {
    // -45°..45°, written from a negative start and from a start above 2π.
    for (start, end) in [(-FRAC_PI_4, FRAC_PI_4), (7.0 * FRAC_PI_4, 9.0 * FRAC_PI_4)] {
        let at = |deg: f32| {
            contact_ball_arc(
                polar(Vec2::ZERO, 104.0, deg),
                10.0,
                Vec2::ZERO,
                100.0,
                start,
                end,
            )
        };
        for deg in [0.0, 30.0, -30.0, 44.0, -44.0, 316.0] {
            let c = hit(at(deg));
            assert!(
                close_v(c.normal, polar(Vec2::ZERO, 1.0, deg), 1e-4),
                "{deg}° {c:?}"
            );
        }
        for deg in [46.0, -46.0, 90.0, 180.0, 225.0] {
            assert_eq!(at(deg), None, "{deg}°");
        }
    }
}

#[test]
fn arc_from_270_to_360_degrees_covers_the_fourth_quadrant() {
    // The table's top-left arc; atan2 reports these directions as negative angles.
    let (s, e) = (270f32.to_radians(), 360f32.to_radians());
    let at =
        |deg: f32| contact_ball_arc(polar(Vec2::ZERO, 125.0, deg), 10.0, Vec2::ZERO, 130.0, s, e);
    for deg in [-1.0, -45.0, -89.0, 300.0] {
        hit(at(deg));
    }
    for deg in [1.0, 90.0, 180.0, -91.0] {
        assert_eq!(at(deg), None, "{deg}°");
    }
}

#[test]
fn full_circle_arc_has_no_gap() {
    for (start, end) in [(0.0, TAU), (1.0, 1.0 + TAU), (-PI, PI)] {
        for k in 0..36 {
            let deg = k as f32 * 10.0 + 0.5;
            let c = hit(contact_ball_arc(
                polar(Vec2::ZERO, 96.0, deg),
                10.0,
                Vec2::ZERO,
                100.0,
                start,
                end,
            ));
            assert!(close_v(c.normal, -polar(Vec2::ZERO, 1.0, deg), 1e-4));
        }
        // Exactly at the start direction too.
        hit(contact_ball_arc(
            polar(Vec2::ZERO, 96.0, start.to_degrees()),
            10.0,
            Vec2::ZERO,
            100.0,
            start,
            end,
        ));
    }
}

#[test]
fn ball_at_arc_centre_hits_a_small_arc_at_its_middle() {
    // Radius 5 arc, ball radius 10 at its centre: every point is 5 away; the middle is taken.
    let c = hit(contact_ball_arc(
        v(2.0, 3.0),
        10.0,
        v(2.0, 3.0),
        5.0,
        0.0,
        PI,
    ));
    assert!(close_v(c.point, v(2.0, 8.0), 1e-4), "{c:?}");
    assert!(close_v(c.normal, v(0.0, -1.0), 1e-4), "{c:?}");
    assert!(close(c.depth, 5.0, 1e-4));
}

#[test]
fn ball_at_arc_centre_misses_a_large_arc() {
    assert_eq!(
        contact_ball_arc(Vec2::ZERO, 10.0, Vec2::ZERO, 100.0, 0.0, TAU),
        None
    );
}

#[test]
fn zero_radius_ball_never_touches_an_arc() {
    assert_eq!(quarter(polar(Vec2::ZERO, 100.0, 45.0), 0.0), None);
}

// ---------------------------------------------------------------- ball vs gate

/// Gate along the x axis from 0 to 100, entered from above (normal +y), threshold 150 px/s.
fn gate(c: Vec2, vel: Vec2) -> Option<Contact> {
    contact_ball_gate(c, 10.0, vel, A, B, v(0.0, 1.0), 150.0)
}

#[test]
fn fast_ball_moving_against_gate_normal_passes() {
    assert_eq!(gate(v(50.0, 5.0), v(0.0, -300.0)), None);
    assert_eq!(gate(v(50.0, -5.0), v(40.0, -151.0)), None);
}

#[test]
fn slow_ball_moving_against_gate_normal_bounces() {
    assert_contact(
        gate(v(50.0, 5.0), v(0.0, -100.0)),
        v(50.0, 0.0),
        v(0.0, 1.0),
        5.0,
    );
    // Exactly the threshold is not faster than it.
    hit(gate(v(50.0, 5.0), v(0.0, -150.0)));
}

#[test]
fn ball_from_the_other_side_of_a_gate_bounces_however_fast() {
    assert_contact(
        gate(v(50.0, -5.0), v(0.0, 300.0)),
        v(50.0, 0.0),
        v(0.0, -1.0),
        5.0,
    );
    assert_contact(
        gate(v(50.0, -5.0), v(0.0, 1e6)),
        v(50.0, 0.0),
        v(0.0, -1.0),
        5.0,
    );
}

#[test]
fn gate_ends_are_left_to_the_guard_points() {
    assert_eq!(gate(v(103.0, 2.0), v(0.0, -10.0)), None);
}

// ---------------------------------------------------------------- ball vs ball

#[test]
fn overlapping_balls_get_a_normal_from_the_second_to_the_first() {
    assert_contact(
        contact_ball_ball(v(15.0, 0.0), 10.0, Vec2::ZERO, 10.0),
        v(10.0, 0.0),
        v(1.0, 0.0),
        5.0,
    );
    assert_contact(
        contact_ball_ball(v(0.0, 0.0), 5.0, v(6.0, 8.0), 7.0),
        v(6.0, 8.0) - v(0.6, 0.8) * 7.0,
        v(-0.6, -0.8),
        2.0,
    );
}

#[test]
fn swapping_the_balls_flips_the_normal_only() {
    let ab = hit(contact_ball_ball(v(3.0, 1.0), 4.0, v(-1.0, 2.0), 6.0));
    let ba = hit(contact_ball_ball(v(-1.0, 2.0), 6.0, v(3.0, 1.0), 4.0));
    assert!(close_v(ab.normal, -ba.normal, REL));
    assert!(close(ab.depth, ba.depth, REL));
}

#[test]
fn balls_touching_exactly_miss_and_just_inside_hit() {
    assert_eq!(
        contact_ball_ball(v(20.0, 0.0), 10.0, Vec2::ZERO, 10.0),
        None
    );
    assert_eq!(
        contact_ball_ball(v(50.0, 0.0), 10.0, Vec2::ZERO, 10.0),
        None
    );
    let c = hit(contact_ball_ball(v(19.999, 0.0), 10.0, Vec2::ZERO, 10.0));
    assert!(c.depth > 0.0 && c.depth < 0.01);
}

#[test]
fn coincident_balls_get_a_unit_normal_and_full_depth() {
    let c = hit(contact_ball_ball(v(4.0, 4.0), 10.0, v(4.0, 4.0), 6.0));
    assert!(close(c.depth, 16.0, REL));
}

#[test]
fn zero_radius_balls_touch_only_inside_a_real_ball() {
    assert_eq!(contact_ball_ball(v(4.0, 4.0), 0.0, v(4.0, 4.0), 0.0), None);
    let c = hit(contact_ball_ball(v(4.0, 4.0), 0.0, v(4.0, 6.0), 5.0));
    assert!(close(c.depth, 3.0, REL));
    assert!(close_v(c.normal, v(0.0, -1.0), REL));
}

// ---------------------------------------------------------------- dispatch

#[test]
fn contact_ball_shape_dispatches_to_the_pair_function() {
    let (c, r, vel) = (v(30.0, 4.0), 10.0, v(0.0, -1.0));
    let cases = [
        (
            Geometry::Point { p: v(30.0, 0.0) },
            contact_ball_point(c, r, v(30.0, 0.0)),
        ),
        (
            Geometry::Segment { a: A, b: B },
            contact_ball_segment(c, r, A, B),
        ),
        (
            Geometry::Circle {
                c: v(30.0, -10.0),
                r: 10.0,
            },
            contact_ball_circle(c, r, v(30.0, -10.0), 10.0),
        ),
        (
            Geometry::Arc {
                c: v(30.0, -96.0),
                r: 100.0,
                start: 0.0,
                end: PI,
            },
            contact_ball_arc(c, r, v(30.0, -96.0), 100.0, 0.0, PI),
        ),
        (
            Geometry::Gate {
                a: A,
                b: B,
                normal: v(0.0, 1.0),
                threshold: 5.0,
            },
            contact_ball_gate(c, r, vel, A, B, v(0.0, 1.0), 5.0),
        ),
    ];
    for (geom, want) in cases {
        let got = contact_ball_shape(c, r, vel, &geom);
        assert!(got.is_some(), "{geom:?}");
        assert_eq!(got, want, "{geom:?}");
    }
}

// ---------------------------------------------------------------- random sweep

/// A coordinate: zero, tiny, ordinary or huge, either sign.
fn coord(rng: &mut StdRng) -> f32 {
    let sign = if rng.gen() { 1.0 } else { -1.0 };
    sign * match rng.gen_range(0..8) {
        0 => 0.0,
        1 => 1e-30,
        2 => rng.gen_range(0.0..1.0),
        3 | 4 => rng.gen_range(0.0..1000.0),
        5 => 1e6,
        6 => 1e20,
        _ => 1e30,
    }
}

/// A radius: zero, tiny, ordinary, huge or (rarely) negative.
fn radius(rng: &mut StdRng) -> f32 {
    match rng.gen_range(0..8) {
        7 => -rng.gen_range(0.0..100.0),
        0 => 0.0,
        1 => 1e-30,
        2 | 3 => rng.gen_range(0.0..100.0),
        4 => 1e6,
        5 => 1e20,
        _ => 1e30,
    }
}

/// A point near `base` (so that contacts are common) or anywhere.
fn near(rng: &mut StdRng, base: Vec2) -> Vec2 {
    if rng.gen_bool(0.6) {
        base + v(rng.gen_range(-30.0..30.0), rng.gen_range(-30.0..30.0))
    } else {
        v(coord(rng), coord(rng))
    }
}

fn geometry(rng: &mut StdRng) -> Geometry {
    let a = v(coord(rng), coord(rng));
    match rng.gen_range(0..5) {
        0 => Geometry::Point { p: a },
        1 => Geometry::Segment { a, b: near(rng, a) },
        2 => Geometry::Circle {
            c: a,
            r: radius(rng),
        },
        3 => {
            let start = rng.gen_range(-20.0..20.0);
            let extent = match rng.gen_range(0..4) {
                0 => 0.0,
                1 => TAU,
                _ => rng.gen_range(0.0..TAU),
            };
            Geometry::Arc {
                c: a,
                r: radius(rng),
                start,
                end: start + extent,
            }
        }
        _ => Geometry::Gate {
            a,
            b: near(rng, a),
            normal: Vec2::from_angle(rng.gen_range(0.0..TAU)),
            threshold: [0.0, 150.0, 1e30][rng.gen_range(0..3)],
        },
    }
}

fn anchor(g: &Geometry) -> Vec2 {
    match *g {
        Geometry::Point { p } => p,
        Geometry::Segment { a, .. } | Geometry::Gate { a, .. } => a,
        Geometry::Circle { c, r } | Geometry::Arc { c, r, .. } => {
            if r < 1e4 {
                c + v(r, 0.0)
            } else {
                c
            }
        }
        Geometry::Rect { min, .. } => min,
        Geometry::OrientedRect { c, .. } => c,
        Geometry::Group { hull, .. } => hull.aabb().min,
    }
}

#[test]
fn random_inputs_never_give_non_finite_contacts() {
    let mut rng = StdRng::seed_from_u64(0x5eed_0001);
    let mut hits = 0;
    for _ in 0..100_000 {
        let geom = geometry(&mut rng);
        let c = near(&mut rng, anchor(&geom));
        let r = radius(&mut rng);
        let vel = v(coord(&mut rng), coord(&mut rng));
        if let Some(k) = contact_ball_shape(c, r, vel, &geom) {
            hits += 1;
            assert!(
                k.point.is_finite() && k.normal.is_finite() && k.depth.is_finite(),
                "{k:?} from c {c} r {r} vel {vel} {geom:?}"
            );
            assert!(
                close(k.normal.length(), 1.0, 1e-3),
                "{k:?} from {c} {r} {geom:?}"
            );
            assert!(k.depth >= 0.0, "{k:?} from {c} {r} {geom:?}");
        }
        let (c2, r2) = (near(&mut rng, c), radius(&mut rng));
        if let Some(k) = contact_ball_ball(c, r, c2, r2) {
            hits += 1;
            assert!(
                k.point.is_finite() && k.normal.is_finite() && k.depth.is_finite(),
                "{k:?} from {c} {r} {c2} {r2}"
            );
            assert!(close(k.normal.length(), 1.0, 1e-3), "{k:?}");
            assert!(k.depth >= 0.0, "{k:?}");
        }
    }
    // The sweep must exercise contacts, not only misses.
    assert!(hits > 20_000, "only {hits} contacts");
}
