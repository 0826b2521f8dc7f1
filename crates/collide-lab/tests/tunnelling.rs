//! Swept tests and the tunnelling modes: known impacts of each `toi_*` function, binary search
//! against the exact answer within its stated tolerance, ball–ball by relative motion against
//! the two moving balls sampled directly, no NaN for degenerate input, and the guarantee:
//! exact mode lets no ball stray out of any container in 10,000 seeded shots per shape type at
//! up to 100 ball radii per step.
// The library's test helpers, one copy for both crates' tests.
#[path = "../../collide/tests/common/mod.rs"]
mod common;

use collide::narrow::{
    binary_min_move, contact_ball_ball, contact_ball_shape, toi_ball_ball, Impact,
};
use collide::tunnel::{impact_ball_shape, SweptBall};
use collide::world::Ball;
use collide::{Aabb, Geometry, Motion, Scene, Shape, Tunnelling, Vec2, World};
use collide_lab::shots::{fire, Target};
use common::narrow::{
    toi_ball_arc, toi_ball_circle, toi_ball_oriented_rect, toi_ball_point, toi_ball_rect,
    toi_ball_segment,
};
use common::{close, close_v};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::f32::consts::{FRAC_PI_2, PI, TAU};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn assert_impact(got: Option<Impact>, t: f32, point: Vec2, normal: Vec2) {
    let h = got.expect("expected an impact");
    assert!(close(h.t, t, 1e-5), "t {h:?}, want {t}");
    assert!(
        close_v(h.contact.point, point, 1e-5),
        "point {h:?}, want {point}"
    );
    assert!(
        close_v(h.contact.normal, normal, 1e-5),
        "normal {h:?}, want {normal}"
    );
    assert!(h.contact.depth.abs() < 1e-4, "depth {h:?}");
}

// ---------------------------------------------------------------- known impacts

#[test]
fn ball_moving_at_a_point_hits_when_its_edge_arrives() {
    // Centre from x = -10 to +10; radius 2 touches the origin at x = -2: t = 8/20.
    assert_impact(
        toi_ball_point(v(-10.0, 0.0), 2.0, v(20.0, 0.0), Vec2::ZERO),
        0.4,
        Vec2::ZERO,
        v(-1.0, 0.0),
    );
    assert_eq!(
        toi_ball_point(v(-10.0, 3.0), 2.0, v(20.0, 0.0), Vec2::ZERO),
        None,
        "passes beside"
    );
    assert_eq!(
        toi_ball_point(v(-10.0, 0.0), 2.0, v(7.0, 0.0), Vec2::ZERO),
        None,
        "stops short"
    );
    assert_eq!(
        toi_ball_point(v(-10.0, 0.0), 2.0, v(-20.0, 0.0), Vec2::ZERO),
        None,
        "moves away"
    );
}

#[test]
fn ball_crosses_a_thin_wall_at_a_hundred_radii_per_step_and_is_stopped() {
    let h = toi_ball_segment(
        v(0.0, -100.0),
        1.0,
        v(0.0, 200.0),
        v(-5.0, 0.0),
        v(5.0, 0.0),
    );
    assert_impact(h, 99.0 / 200.0, Vec2::ZERO, v(0.0, -1.0));
}

#[test]
fn segment_test_leaves_the_ends_to_the_guard_points() {
    // The ball reaches the wall's line beside the segment: a miss here, a hit on the end point.
    let (c, r, d) = (v(12.0, -10.0), 3.0, v(0.0, 20.0));
    assert_eq!(toi_ball_segment(c, r, d, v(-10.0, 0.0), v(10.0, 0.0)), None);
    let end = toi_ball_point(c, r, d, v(10.0, 0.0)).expect("the end is hit");
    assert!(end.t > 0.0 && end.t < 1.0);
}

#[test]
fn ball_absorbed_circle_gives_the_bumper_impact() {
    let h = toi_ball_circle(v(-20.0, 0.0), 2.0, v(40.0, 0.0), Vec2::ZERO, 5.0);
    assert_impact(h, 13.0 / 40.0, v(-5.0, 0.0), v(-1.0, 0.0));
}

#[test]
fn arc_is_hit_from_outside_and_from_inside_only_within_its_sweep() {
    // Upper half circle of radius 10.
    let hit = |c: Vec2, d: Vec2| toi_ball_arc(c, 1.0, d, Vec2::ZERO, 10.0, 0.0, PI);
    assert_impact(
        hit(v(0.0, 30.0), v(0.0, -30.0)),
        19.0 / 30.0,
        v(0.0, 10.0),
        v(0.0, 1.0),
    );
    assert_impact(
        hit(v(0.0, 0.0), v(0.0, 30.0)),
        9.0 / 30.0,
        v(0.0, 10.0),
        v(0.0, -1.0),
    );
    // From below, through the open lower half, out through the top from inside.
    assert_impact(
        hit(v(0.0, -30.0), v(0.0, 60.0)),
        39.0 / 60.0,
        v(0.0, 10.0),
        v(0.0, -1.0),
    );
    assert_eq!(
        hit(v(0.0, -30.0), v(0.0, 25.0)),
        None,
        "the lower half is open"
    );
}

#[test]
fn rectangle_is_hit_on_a_face_or_a_corner() {
    let (min, max) = (v(0.0, 0.0), v(10.0, 4.0));
    assert_impact(
        toi_ball_rect(v(5.0, 20.0), 2.0, v(0.0, -40.0), min, max),
        14.0 / 40.0,
        v(5.0, 4.0),
        v(0.0, 1.0),
    );
    let corner = toi_ball_rect(v(-10.0, -10.0), 2.0, v(20.0, 20.0), min, max).expect("corner");
    assert!(
        close_v(corner.contact.point, Vec2::ZERO, 1e-5),
        "{corner:?}"
    );
    assert!(
        close_v(corner.contact.normal, v(-1.0, -1.0).normalize(), 1e-4),
        "{corner:?}"
    );
    // Thin rectangle, fast ball.
    let thin = toi_ball_rect(
        v(5.0, -500.0),
        1.0,
        v(0.0, 1000.0),
        v(0.0, 0.0),
        v(10.0, 0.5),
    );
    assert_impact(thin, 499.0 / 1000.0, v(5.0, 0.0), v(0.0, -1.0));
}

#[test]
fn oriented_rectangle_is_hit_in_its_own_frame() {
    // A 2 × 20 bar turned 90°: 20 wide, 2 high, centred at the origin.
    let h = toi_ball_oriented_rect(
        v(0.0, 10.0),
        1.0,
        v(0.0, -10.0),
        Vec2::ZERO,
        v(1.0, 10.0),
        FRAC_PI_2,
    );
    let (point, normal) = (v(0.0, 1.0), v(0.0, 1.0));
    assert_impact(h, 0.8, point, normal);
}

#[test]
fn ball_starting_in_contact_hits_at_once_only_when_moving_in() {
    let into = toi_ball_point(v(1.0, 0.0), 2.0, v(-1.0, 0.0), Vec2::ZERO).expect("moving in");
    assert_eq!(into.t, 0.0);
    assert!(close(into.contact.depth, 1.0, 1e-6));
    assert_eq!(
        toi_ball_point(v(1.0, 0.0), 2.0, v(1.0, 0.0), Vec2::ZERO),
        None
    );
    let wall = toi_ball_segment(v(0.0, 0.5), 1.0, v(0.0, -3.0), v(-1.0, 0.0), v(1.0, 0.0)).unwrap();
    assert_eq!(wall.t, 0.0);
    assert!(close(wall.contact.depth, 0.5, 1e-6));
}

// ---------------------------------------------------------------- random shots

/// A random obstacle near the origin, sized in ball radii.
fn obstacle(rng: &mut StdRng, r: f32) -> Geometry {
    let p = |rng: &mut StdRng| v(rng.gen_range(-10.0..10.0), rng.gen_range(-10.0..10.0)) * r;
    match rng.gen_range(0..6) {
        0 => Geometry::Point { p: p(rng) },
        1 => Geometry::Segment {
            a: p(rng),
            b: p(rng),
        },
        2 => Geometry::Circle {
            c: p(rng),
            r: rng.gen_range(0.0..5.0) * r,
        },
        3 => {
            let start = rng.gen_range(-PI..PI);
            let end = start + rng.gen_range(0.1..TAU);
            Geometry::Arc {
                c: p(rng),
                r: rng.gen_range(0.5..8.0) * r,
                start,
                end,
            }
        }
        4 => {
            let a = p(rng);
            Geometry::Rect {
                min: a,
                max: a + v(rng.gen_range(0.05..6.0), rng.gen_range(0.05..6.0)) * r,
            }
        }
        _ => Geometry::OrientedRect {
            c: p(rng),
            half: v(rng.gen_range(0.02..4.0), rng.gen_range(0.02..4.0)) * r,
            angle: rng.gen_range(-PI..PI),
        },
    }
}

/// A shot at `g`: from a random start, through a random place near it, at up to 100 radii.
fn shot(rng: &mut StdRng, r: f32, g: &Geometry) -> (Vec2, Vec2) {
    let start = Vec2::from_angle(rng.gen_range(0.0..TAU)) * rng.gen_range(0.0..60.0) * r;
    let b = g.aabb();
    let aim = v(
        rng.gen_range(b.min.x..=b.max.x),
        rng.gen_range(b.min.y..=b.max.y),
    ) + v(rng.gen_range(-2.0..2.0), rng.gen_range(-2.0..2.0)) * r;
    let len = rng.gen_range(0.0..100.0) * r;
    (start, (aim - start).normalize_or_zero() * len)
}

/// The guard points a scene gives the obstacle's ends (segments and arcs).
fn ends(g: &Geometry) -> Vec<Geometry> {
    let ps = match *g {
        Geometry::Segment { a, b } => vec![a, b],
        Geometry::Arc { c, r, start, end } => {
            vec![
                c + Vec2::from_angle(start) * r,
                c + Vec2::from_angle(end) * r,
            ]
        }
        _ => vec![],
    };
    ps.into_iter().map(|p| Geometry::Point { p }).collect()
}

/// The earliest impact of `ball` with the obstacle and its end points, found by `mode`.
fn earliest(mode: Tunnelling, ball: SweptBall, g: &Geometry) -> Option<Impact> {
    std::iter::once(*g)
        .chain(ends(g))
        .filter_map(|g| impact_ball_shape(mode, 8, ball, &g, &mut 0))
        .reduce(|a, b| if b.t < a.t { b } else { a })
}

#[test]
fn binary_search_agrees_with_exact_within_its_tolerance() {
    let mut rng = StdRng::seed_from_u64(0xb1a7);
    let (mut both, mut grazes) = (0, 0);
    for _ in 0..20_000 {
        let r: f32 = [0.0, 0.5, 5.0, 20.0][rng.gen_range(0..4)];
        let g = obstacle(&mut rng, r.max(1.0));
        let (c, d) = shot(&mut rng, r.max(1.0), &g);
        let (start, radius, moved) = (c, r, d);
        let ball = SweptBall {
            start,
            radius,
            moved,
            vel: Vec2::ZERO,
        };
        let exact = earliest(Tunnelling::Exact, ball, &g);
        let binary = earliest(Tunnelling::Binary, ball, &g);
        let m = binary_min_move(r);
        let len = d.length();
        let slack = 1e-3 * (r + len + 1.0);
        match (exact, binary) {
            (Some(e), Some(b)) => {
                both += 1;
                let behind = (b.t - e.t) * len;
                assert!(
                    behind >= -slack && behind <= m + slack,
                    "binary {b:?} exact {e:?} (min move {m}) {g:?} c {c} d {d}"
                );
            }
            (None, Some(b)) => panic!("binary found {b:?}, exact nothing: {g:?} c {c} r {r} d {d}"),
            (Some(e), None) => {
                // Only a graze may be missed: 2·min_move further on, the ball is out of contact.
                grazes += 1;
                let later = e.t + 2.0 * m * 1.01 / len.max(1e-9);
                if later <= 1.0 {
                    let at = c + d * later;
                    let still = std::iter::once(g)
                        .chain(ends(&g))
                        .filter_map(|g| contact_ball_shape(at, r, Vec2::ZERO, &g))
                        .find(|k| d.dot(k.normal) < 0.0);
                    assert!(
                        still.is_none(),
                        "binary missed a real hit {e:?}: {g:?} c {c} r {r} d {d}"
                    );
                }
            }
            (None, None) => {}
        }
    }
    assert!(both > 3_000, "too few hits to judge: {both}");
    // Shots aimed up to two radii beside the shape graze often (about 9 % of hits here).
    assert!(grazes < both / 5, "{grazes} grazes missed of {both}");
}

#[test]
fn swept_ball_ball_agrees_with_the_two_moving_balls_sampled() {
    let mut rng = StdRng::seed_from_u64(0xba11);
    let mut hits = 0;
    for _ in 0..5_000 {
        let (r1, r2) = (rng.gen_range(0.0..10.0), rng.gen_range(0.0..10.0));
        let c1 = v(rng.gen_range(-50.0..50.0), rng.gen_range(-50.0..50.0));
        let c2 = v(rng.gen_range(-50.0..50.0), rng.gen_range(-50.0..50.0));
        let d1 = v(rng.gen_range(-100.0..100.0), rng.gen_range(-100.0..100.0));
        let d2 = v(rng.gen_range(-100.0..100.0), rng.gen_range(-100.0..100.0));
        // The first sampled moment the two balls, each on its own path, overlap.
        let first = (0..=4000)
            .map(|k| k as f32 / 4000.0)
            .find(|&t| contact_ball_ball(c1 + d1 * t, r1, c2 + d2 * t, r2).is_some());
        let got = toi_ball_ball(c1, r1, d1, c2, r2, d2);
        let step = ((d1 - d2).length() / 4000.0).max(1e-4);
        match (got, first) {
            (Some(h), Some(t)) => {
                hits += 1;
                assert!(
                    h.t <= t + 1e-5 && (t - h.t) * (d1 - d2).length() <= 2.0 * step + 1e-3,
                    "{h:?} sampled {t}"
                );
                let (p1, p2) = (c1 + d1 * h.t, c2 + d2 * h.t);
                if h.t > 0.0 {
                    assert!(
                        close((p1 - p2).length(), r1 + r2, 1e-3),
                        "not touching at {h:?}"
                    );
                }
                assert!(close_v(
                    h.contact.normal,
                    (p1 - p2).normalize_or(h.contact.normal),
                    1e-3
                ));
            }
            (None, Some(t)) => {
                // Only a touch shorter than the sampling step, or an overlap being left.
                let moving_in = (c1 - c2 + (d1 - d2) * t).dot(d1 - d2) < 0.0;
                assert!(
                    !moving_in || t == 0.0,
                    "missed an impact at {t}: {c1} {r1} {d1} / {c2} {r2} {d2}"
                );
            }
            (Some(h), None) => {
                // A graze the sampling stepped over: at its moment the balls just touch.
                let gap = (c1 + d1 * h.t - c2 - d2 * h.t).length() - (r1 + r2);
                assert!(
                    gap.abs() < 1e-2,
                    "impact {h:?} where the balls are {gap} apart"
                );
            }
            (None, None) => {}
        }
        // The binary search on the same motion, relative to ball 2, agrees within tolerance.
        let still = Geometry::Circle { c: c2, r: r2 };
        let b = impact_ball_shape(
            Tunnelling::Binary,
            8,
            SweptBall {
                start: c1,
                radius: r1,
                moved: d1 - d2,
                vel: Vec2::ZERO,
            },
            &still,
            &mut 0,
        );
        if let (Some(e), Some(b)) = (got, b) {
            let behind = (b.t - e.t) * (d1 - d2).length();
            assert!(
                behind >= -1e-2 && behind <= binary_min_move(r1) + 1e-2,
                "binary {b:?} exact {e:?}"
            );
        }
    }
    assert!(hits > 300, "only {hits} hits");
}

/// A coordinate: zero, tiny, ordinary or huge.
fn wild(rng: &mut StdRng) -> f32 {
    let s = if rng.gen() { 1.0 } else { -1.0 };
    s * [0.0, 1e-30, 0.5, 30.0, 1e6, 1e20][rng.gen_range(0..6)]
}

#[test]
fn no_nan_for_zero_moves_zero_radii_or_balls_starting_in_contact() {
    let mut rng = StdRng::seed_from_u64(0x0a0a);
    for k in 0..60_000 {
        let r = [0.0, 0.0, 1e-30, 3.0, 1e6][rng.gen_range(0..5)];
        let g = obstacle(&mut rng, 3.0);
        let anchor = g.aabb().centre();
        let c = match k % 3 {
            0 => anchor,
            1 => anchor + v(rng.gen_range(-3.0..3.0), rng.gen_range(-3.0..3.0)),
            _ => v(wild(&mut rng), wild(&mut rng)),
        };
        let d = if rng.gen_bool(0.3) {
            Vec2::ZERO
        } else {
            v(wild(&mut rng), wild(&mut rng))
        };
        for &mode in Tunnelling::ALL {
            let mut tests = 0;
            let (start, radius, moved, vel) = (c, r, d, d);
            let ball = SweptBall {
                start,
                radius,
                moved,
                vel,
            };
            if let Some(h) = impact_ball_shape(mode, 8, ball, &g, &mut tests) {
                let k = h.contact;
                assert!(
                    (0.0..=1.0).contains(&h.t),
                    "{mode:?} {h:?} {g:?} c {c} r {r} d {d}"
                );
                assert!(
                    k.point.is_finite() && k.normal.is_finite() && k.depth.is_finite(),
                    "{mode:?} {h:?} {g:?} c {c} r {r} d {d}"
                );
                assert!(
                    close(k.normal.length(), 1.0, 1e-3) && k.depth >= 0.0,
                    "{mode:?} {h:?}"
                );
            }
        }
        if let Some(h) = toi_ball_ball(c, r, d, anchor, r, -d) {
            assert!(
                h.contact.point.is_finite() && h.contact.normal.is_finite() && h.t.is_finite(),
                "{h:?}"
            );
        }
    }
}

#[test]
fn zero_length_moves_never_hit_and_resting_contacts_are_not_impacts() {
    for g in [
        Geometry::Point { p: Vec2::ZERO },
        Geometry::Segment {
            a: v(-5.0, 0.0),
            b: v(5.0, 0.0),
        },
        Geometry::Rect {
            min: v(-5.0, -5.0),
            max: v(5.0, 0.0),
        },
        Geometry::Arc {
            c: v(0.0, -10.0),
            r: 10.0,
            start: 0.0,
            end: PI,
        },
    ] {
        for &mode in &Tunnelling::ALL[1..] {
            let got = impact_ball_shape(
                mode,
                8,
                SweptBall {
                    start: v(0.0, 0.5),
                    radius: 1.0,
                    moved: Vec2::ZERO,
                    vel: Vec2::ZERO,
                },
                &g,
                &mut 0,
            );
            assert_eq!(got, None, "{mode:?} {g:?}");
        }
    }
}

// ---------------------------------------------------------------- the world

fn stat(geom: Geometry) -> Shape {
    Shape::new(geom, 1.0, Motion::Static)
}

/// Schwarzl's (2012) picture: two balls side by side heading right at a rectangle, one slow, one
/// fast enough to jump it in one step.
fn two_balls_and_a_rectangle(mode: Tunnelling) -> World {
    let rect = stat(Geometry::Rect {
        min: v(300.0, 0.0),
        max: v(320.0, 400.0),
    });
    let bounds = Aabb::new(Vec2::ZERO, v(600.0, 400.0));
    let launcher = collide::world::Launcher {
        pos: v(10.0, 10.0),
        dir: Vec2::X,
    };
    let mut w = World::new_unguarded(vec![rect], bounds, 1).with_launcher(launcher);
    w.edit_settings(|st| st.gravity = 0.0);
    w.edit_settings(|st| st.tunnelling = mode);
    let dt = w.step_seconds() as f32;
    w.add_ball(Ball::new(v(100.0, 100.0), v(20.0 / dt, 0.0), 10.0, 1.0, 0));
    w.add_ball(Ball::new(v(100.0, 300.0), v(90.0 / dt, 0.0), 10.0, 1.0, 1));
    w
}

#[test]
fn fast_ball_tunnels_the_rectangle_when_off_and_bounces_in_every_search() {
    let mut off = two_balls_and_a_rectangle(Tunnelling::Off);
    for _ in 0..3 {
        off.step();
    }
    assert!(off.balls()[0].pos.x < 300.0, "the slow ball is held");
    assert!(
        off.balls()[1].pos.x > 320.0,
        "the fast ball went through: {:?}",
        off.balls()[1]
    );
    for mode in [Tunnelling::Linear, Tunnelling::Binary, Tunnelling::Exact] {
        let mut w = two_balls_and_a_rectangle(mode);
        // The slow ball needs ten steps to reach the rectangle.
        for _ in 0..12 {
            w.step();
        }
        for b in w.balls() {
            assert!(b.pos.x <= 290.0 + 1e-3 && b.vel.x < 0.0, "{mode:?}: {b:?}");
        }
        assert!(w.counters().total.impact_tests > 0);
        assert!(!w.step_starts().is_empty());
    }
}

#[test]
fn exact_impact_puts_the_ball_touching_and_continues_the_rest_of_the_step() {
    // The fast ball moves 90 px a step from x = 100 and touches the face x = 300 at x = 290.
    let mut w = two_balls_and_a_rectangle(Tunnelling::Exact);
    w.step();
    assert!(close(w.balls()[1].pos.x, 190.0, 1e-5));
    w.step();
    assert!(close(w.balls()[1].pos.x, 280.0, 1e-5));
    w.step();
    // 10 px to the touch, then the remaining 80 px back: 290 − 80 = 210.
    assert!(close(w.balls()[1].pos.x, 210.0, 1e-4), "{:?}", w.balls()[1]);
    let imp = w
        .step_impacts()
        .iter()
        .find(|i| i.ball == 1)
        .expect("the impact is logged");
    assert!(
        close_v(imp.centre, v(290.0, 300.0), 1e-4) && close_v(imp.point, v(300.0, 300.0), 1e-4),
        "{imp:?}"
    );
}

const LAB: &str = include_str!("../../collide/scenes/lab.ron");

fn lab(mode: Tunnelling, seed: u64) -> World {
    let mut w = Scene::parse(LAB, "lab.ron")
        .expect("the lab parses")
        .build(seed);
    w.edit_settings(|st| st.tunnelling = mode);
    w.launch(30);
    w
}

#[test]
fn lab_in_every_mode_stays_finite_and_exact_keeps_every_ball() {
    let mut strays = Vec::new();
    for &mode in Tunnelling::ALL {
        let mut w = lab(mode, 7);
        for _ in 0..1200 {
            w.step();
        }
        assert!(w.all_finite(), "{mode:?}");
        strays.push((mode, w.counters().strays));
    }
    assert_eq!(strays[3].1, 0, "{strays:?}");
    assert!(
        strays[0].1 > 0,
        "the lab should show tunnelling when off: {strays:?}"
    );
}

#[test]
fn swept_boxes_give_every_broad_phase_the_same_exact_run() {
    let mut hashes = Vec::new();
    for &kind in collide::BroadKind::ALL {
        let mut w = lab(Tunnelling::Exact, 3);
        w.set_broad_phase(kind);
        for _ in 0..600 {
            w.step();
        }
        hashes.push((kind.name(), w.state_hash()));
    }
    assert!(hashes.iter().all(|h| h.1 == hashes[0].1), "{hashes:x?}");
}

#[test]
fn balls_starting_in_contact_or_with_zero_radius_stay_finite_in_every_mode() {
    for &mode in Tunnelling::ALL {
        let mut w = common::table(5);
        w.edit_settings(|st| st.tunnelling = mode);
        let p = v(480.0, 352.0);
        for (k, r) in [0.0, 0.0, 10.0, 10.0, 10.0, 1e-30].into_iter().enumerate() {
            let vel = if k % 2 == 0 { Vec2::ZERO } else { v(1e5, -3e4) };
            w.add_ball(Ball::new(p + v(k as f32 * 0.5, 0.0), vel, r, 0.9, 0));
        }
        for _ in 0..600 {
            w.step();
            assert!(w.all_finite(), "{mode:?} at step {}", w.steps());
        }
    }
}

/// Shots per container: 10,000 in release builds, a tenth in debug ones.
const SHOTS: u64 = if cfg!(debug_assertions) {
    1_000
} else {
    10_000
};

#[test]
fn exact_mode_lets_no_ball_stray_from_any_container_at_up_to_100_radii_per_step() {
    for &target in Target::ALL {
        let got = fire(
            target,
            Tunnelling::Exact,
            1.0..=100.0,
            SHOTS,
            0xe4ac + target as u64,
        );
        assert_eq!(got.strays, 0, "{}: {got:?}", target.name());
        assert_eq!(got.shots, SHOTS);
    }
}

#[test]
fn off_mode_does_tunnel_at_100_radii_per_step() {
    // The measure is able to see tunnelling: the discrete test loses most balls.
    let got = fire(Target::Segment, Tunnelling::Off, 100.0..=100.0, 100, 1);
    assert!(got.strays > 50, "{got:?}");
}
