//! The narrow phase against the exact f64 reference (`collide::checks::narrow`), at CI size:
//! every contact and swept test, 100,000 seeded cases per pair. Run with `--nocapture` to see
//! the table (cases, disagreements, worst errors); the `check` command runs more.
//!
//! The reference's own closed forms are checked here too, against a dense search with
//! bisection over the same distances, with each segment's and arc's guard points included
//! (the shape as a world sees it).

use collide::checks::narrow::cases::{self, Kind, Pair};
use collide::checks::narrow::reference::{self, Shape64};
use collide::checks::narrow::{run_pair, shape64, table, PairResult};
use collide::checks::sizes::Sizes;
use glam::DVec2;
use rand::rngs::StdRng;
use rand::SeedableRng;

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
        for (name, t, swept) in [("contact", &r.contact, false), ("toi", &r.swept, true)] {
            assert!(t.cases >= 100_000);
            if t.failures(swept) > 0 {
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
