//! The narrow phase against the exact f64 reference (`collide_lab::checks::narrow`), at CI size:
//! every contact and swept test, 100,000 seeded cases per pair. Run with `--nocapture` to see
//! the table (cases, disagreements, worst errors); the `check` command runs more.
//!
//! The reference's own closed forms are checked here too, against a dense search with
//! bisection over the same distances, with each segment's and arc's guard points included
//! (the shape as a world sees it).

// The library's test helpers, one copy for both crates' tests.
#[path = "../../collide/tests/common/mod.rs"]
mod common;

use collide::narrow::{toi_ball_ball, Impact};
use collide::{Scene, Vec2};
use collide_lab::checks::narrow::cases::{self, Kind, Pair};
use collide_lab::checks::narrow::reference::{self, Shape64};
use collide_lab::checks::narrow::{run_pair, shape64, table, PairResult};
use collide_lab::checks::sizes::Sizes;
use common::narrow::{contact_ball_arc, toi_ball_arc, toi_ball_point, toi_ball_rect};
use glam::DVec2;
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::f32::consts::TAU;

#[test]
fn every_contact_and_swept_test_agrees_with_the_exact_reference() {
    let size = Sizes::ci().narrow;
    // Two threads, one per core, each running half of the pairs.
    let results: Vec<PairResult> = std::thread::scope(|s| {
        let run = |pairs: &'static [Pair]| {
            s.spawn(move || pairs.iter().map(|&p| run_pair(p, size)).collect::<Vec<_>>())
        };
        let halves = [run(&Pair::ALL[..4]), run(&Pair::ALL[4..])];
        halves
            .into_iter()
            .flat_map(|h| h.join().expect("no panic"))
            .collect()
    });
    println!("{}", table(&results));
    let mut failed = Vec::new();
    for r in &results {
        for (name, t) in [("contact", &r.contact), ("toi", &r.swept)] {
            assert!(t.cases >= 100_000);
            if t.failures() > 0 {
                failed.push(format!("{} {name}: {:?}", r.pair.name(), t));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The guard points a world adds to `shape`: the ends of a segment and of an arc that is not
/// a whole turn.
fn guards(shape: &Shape64) -> Vec<DVec2> {
    match *shape {
        Shape64::Segment(a, b) => vec![a, b],
        Shape64::Arc(c, r, s, e, false) => {
            vec![c + DVec2::from_angle(s) * r, c + DVec2::from_angle(e) * r]
        }
        _ => vec![],
    }
}

/// The distance from a centre to the shape with its guard points.
fn guarded_gap(shape: &Shape64, ends: &[DVec2], p: DVec2) -> f64 {
    let own = reference::nearest(shape, p, 0.0).map_or(f64::INFINITY, |n| n.gap);
    ends.iter().map(|&q| (p - q).length()).fold(own, f64::min)
}

/// The closed-form first touch of the shape with its guard points.
fn guarded_touch(shape: &Shape64, ends: &[DVec2], c: DVec2, r: f64, d: DVec2) -> Option<f64> {
    let own = reference::first_touch(shape, c, r, d, 0.0).map(|t| t.t);
    ends.iter()
        .filter_map(|&q| reference::first_touch(&Shape64::Point(q), c, r, d, 0.0).map(|t| t.t))
        .chain(own)
        .reduce(f64::min)
}

#[test]
fn the_reference_closed_forms_agree_with_a_dense_search_and_bisection() {
    const SAMPLES: u32 = 4096;
    let mut rng = StdRng::seed_from_u64(7);
    let mut checked = 0;
    for pair in Pair::ALL {
        for i in 0..5_000 {
            let case = cases::case(&mut rng, pair, cases::kind_of(i));
            let Some(shape) = shape64(&case) else {
                continue;
            };
            if case.kind == Kind::Extreme {
                continue;
            }
            let ends = guards(&shape);
            let (c, r) = (case.c.as_dvec2(), case.r.max(0.0) as f64);
            let d = case.d.as_dvec2() - case.d2.as_dvec2();
            let gap = |p: DVec2| guarded_gap(&shape, &ends, p);
            // Only free starts: a start in contact hangs on which way the ball moves.
            if gap(c) < r {
                continue;
            }
            checked += 1;
            let closed = guarded_touch(&shape, &ends, c, r, d);
            let sampled = reference::sampled_first_touch(&gap, c, r, d, SAMPLES);
            // Where the closed form says the ball touches, it does (a graze between two
            // samples is not seen by the search).
            let scale = 1e-9 * (1.0 + c.abs().max_element() + d.length() + r);
            if let Some(t) = closed {
                let g = gap(c + d * t);
                assert!(
                    g <= r + scale,
                    "{pair:?} touch at {t} has gap {g}, r {r}: {case:?}"
                );
            }
            match (closed, sampled) {
                (None, Some(ts)) => panic!("{pair:?}: closed form misses, search {ts}: {case:?}"),
                (Some(t), Some(ts)) => assert!(
                    (t - ts) * d.length() <= scale,
                    "{pair:?}: closed form {t} after the search's {ts}: {case:?}"
                ),
                _ => {}
            }
        }
    }
    assert!(checked > 20_000, "only {checked} free starts");
}

// ------------------------------------------------------------- regressions found by the reference

/// A whole ring as a scene file gives it: centre (200, 200), radius 100, from 90° to 450°,
/// whose extent rounds to one f32 step short of 2π.
fn ring_from_90_to_450_degrees() -> (Vec2, f32, f32, f32) {
    let (start, end) = (90f32.to_radians(), 450f32.to_radians());
    (Vec2::new(200.0, 200.0), 100.0, start, end)
}

#[test]
fn closed_arc_from_90_to_450_degrees_has_no_hole_at_its_seam() {
    let (ac, ar, start, end) = ring_from_90_to_450_degrees();
    assert!(
        end - start < TAU,
        "the case: an extent just short of a turn"
    );
    // The library counts it closed (its own test: `geom/shape.rs`), so the seam is covered.
    // Directions across the seam, about one f32 step apart.
    for k in -50..=50 {
        let u = Vec2::from_angle(start + k as f32 * 1e-7);
        let touching = ac + u * (ar + 2.0);
        assert!(
            contact_ball_arc(touching, 3.0, ac, ar, start, end).is_some(),
            "{k}"
        );
        let falling = ac + u * (ar + 53.0);
        let hit = toi_ball_arc(falling, 3.0, u * -100.0, ac, ar, start, end);
        assert!(
            hit.is_some_and(|h| (h.t - 0.5).abs() < 1e-4),
            "{k}: {hit:?}"
        );
    }
    // The scene builder sees the same closed arc: no guard points.
    let text = "Scene(name: \"seam\", bounds: (min: (0, 0), max: (400, 400)),
        launch: (pos: (10, 10), dir: (0, 1)), gravity: Some(0),
        shapes: [Arc(centre: (200, 200), radius: 100, start: 90, end: 450)])";
    let w = Scene::parse(text, "seam.ron").expect("parses").build(1);
    assert!(w.shapes().iter().all(|s| s.guard_of.is_none()));
}

#[test]
fn ball_touching_a_ring_exactly_and_moving_in_hits_at_once_not_on_the_far_side() {
    // Radius 5 at (0, 105) on the ring of radius 100: touching its outer edge exactly.
    let hit = toi_ball_arc(
        v(0.0, 105.0),
        5.0,
        v(0.0, -300.0),
        Vec2::ZERO,
        100.0,
        0.0,
        TAU,
    );
    let hit = hit.expect("a hit");
    assert_eq!(hit.t, 0.0, "{hit:?}");
    assert_eq!(hit.contact.normal, v(0.0, 1.0), "{hit:?}");
    assert!(
        (hit.contact.point - v(0.0, 100.0)).length() < 1e-4,
        "{hit:?}"
    );
    // The same from inside, touching the inner edge and moving out.
    let hit = toi_ball_arc(
        v(0.0, 95.0),
        5.0,
        v(0.0, 300.0),
        Vec2::ZERO,
        100.0,
        0.0,
        TAU,
    );
    let hit = hit.expect("a hit");
    assert_eq!((hit.t, hit.contact.normal), (0.0, v(0.0, -1.0)), "{hit:?}");
}

/// Asserts the library's swept answer against the reference: the same hit or miss, and an
/// impact within 0.01 px along the normal.
fn assert_as_reference(got: Option<Impact>, shape: Shape64, c: Vec2, r: f32, d: DVec2) {
    let want = reference::first_touch(&shape, c.as_dvec2(), r as f64, d, 0.0);
    match (got, want) {
        (None, None) => {}
        (Some(h), Some(w)) => {
            let err = (h.t as f64 - w.t).abs() * d.dot(w.near.normal).abs();
            assert!(err < 0.01, "impact {err} px off: {h:?} against {w:?}");
        }
        _ => panic!("library {got:?}, reference {want:?}"),
    }
}

#[test]
fn long_moves_past_small_balls_hit_where_the_reference_says() {
    // A point passed 0.0229 px inside by a 0.023 px ball moving 846 px: it was missed.
    let (p, c, r, d) = (
        v(968.56525, 153.3761),
        v(508.98413, -241.03024),
        0.022962531,
        v(641.7916, 550.78986),
    );
    assert!(toi_ball_point(c, r, d, p).is_some());
    assert_as_reference(
        toi_ball_point(c, r, d, p),
        Shape64::Point(p.as_dvec2()),
        c,
        r,
        d.as_dvec2(),
    );
    // A rectangle's corner passed 2e-4 px outside by a 0.1 px ball: it was hit.
    let (min, max) = (v(684.68787, 597.3755), v(685.3872, 653.57245));
    let (c, r, d) = (v(684.58606, 587.1955), 0.10160279, v(0.0, 105.71336));
    assert!(toi_ball_rect(c, r, d, min, max).is_none());
    // A 0.02 px ball meeting a 0.03 px ball after a 967 px move: 0.12 px late.
    let (c2, r2) = (v(830.5948, 602.2803), 0.026157869);
    let (c, r, d) = (
        v(1236.112, -4.671753),
        0.021942927,
        v(-537.10114, 803.83374),
    );
    let shape = Shape64::Circle(c2.as_dvec2(), r2 as f64);
    assert_as_reference(
        toi_ball_ball(c, r, d, c2, r2, Vec2::ZERO),
        shape,
        c,
        r,
        d.as_dvec2(),
    );
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}
