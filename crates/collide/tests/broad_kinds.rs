//! Each broad phase's declaration (`BroadKind::describe`): its names, colour, places and
//! parameters agree with the algorithm it makes, and the rules of thumb declared with the
//! parameters give the values their sources give.

use collide::broad::BallSizes;
use collide::{Aabb, BroadKind, Vec2};

/// Balls of one diameter `d` on the original table (960 × 704 px), not moving.
fn sizes(d: f32, count: usize) -> BallSizes {
    BallSizes {
        count,
        given: count,
        mean_diameter: d,
        largest: d,
        largest_ball: d,
        mean_step: 0.0,
        world: Aabb::new(Vec2::ZERO, Vec2::new(960.0, 704.0)),
    }
}

#[test]
fn every_kind_declares_distinct_names_and_colours_and_makes_itself() {
    for (i, &kind) in BroadKind::ALL.iter().enumerate() {
        let info = kind.describe();
        assert_eq!(kind.create().kind(), kind, "{}", info.name);
        assert_eq!(BroadKind::from_name(info.name), Some(kind));
        for &other in &BroadKind::ALL[i + 1..] {
            let o = other.describe();
            assert_ne!(info.name, o.name);
            assert_ne!(info.label, o.label);
            assert_ne!(info.colour, o.colour, "{} and {}", info.name, o.name);
        }
        if let Some(p) = info.places {
            assert!(!p.word.is_empty() && (0.0..=1.0).contains(&p.heat_alpha));
        }
    }
}

#[test]
fn every_parameter_is_declared_with_the_range_the_algorithm_shows() {
    for &kind in BroadKind::ALL {
        let declared = kind.describe().params;
        let shown = kind.create().params();
        assert_eq!(declared.len(), shown.len(), "{kind:?}");
        for (d, p) in declared.iter().zip(&shown) {
            let want = (d.name, d.min, d.max, d.integer);
            assert_eq!((p.name, p.min, p.max, p.integer), want, "{kind:?}");
            assert!(!d.says.is_empty() && !d.source.is_empty(), "{}", d.name);
        }
    }
}

#[test]
fn sector_rule_gives_moertels_64_for_30_px_objects() {
    let r = BroadKind::Sectors
        .rule("sector size", &sizes(30.0, 10))
        .unwrap();
    assert_eq!(r.auto, 64.0);
    assert!(r.source.starts_with("Moertel 1994"), "{}", r.source);
    // Exactly twice the side is not enough: the next power of two.
    let r = BroadKind::Adjacent
        .rule("sector size", &sizes(32.0, 10))
        .unwrap();
    assert_eq!(r.auto, 128.0);
    assert!(r.sweep.iter().all(|&s| s > 64.0), "{:?}", r.sweep);
}

#[test]
fn grid_auto_is_the_grids_own_automatic_size_one_to_two_diameters() {
    for d in [1.0, 6.0, 20.0, 42.0, 100.0] {
        let r = BroadKind::Grid.rule("cell size", &sizes(d, 100)).unwrap();
        assert_eq!(r.auto, 0.0);
        let c = [8.0, 16.0, 32.0, 64.0, 128.0].into_iter().find(|&c| c >= d);
        let c = c.unwrap();
        assert!(c >= d && (c < 2.0 * d || c == 8.0), "{d}: {c}");
        assert!(
            r.auto_why.starts_with(&format!("automatic: {c} px")),
            "{}",
            r.auto_why
        );
        assert!(r.sweep.iter().all(|&s| s >= d), "{d}: {:?}", r.sweep);
    }
}

#[test]
fn quadtree_rule_gives_the_courses_five_levels_for_42_px_balls() {
    // 960 × 704 at 5 levels: 60 × 44 px leaves, the course's for balls of 42 px.
    let levels = |d, n| BroadKind::Quadtree.rule("levels", &sizes(d, n)).unwrap();
    let r = levels(42.0, 32);
    assert_eq!(r.auto, 5.0);
    assert!(
        r.auto_why.starts_with("5 levels: 60 x 44 px"),
        "{}",
        r.auto_why
    );
    // Larger balls, shallower trees.
    assert_eq!(levels(100.0, 32).auto, 3.0);
    // Small balls want more than the slider's 5: 5 for a few balls, automatic for many.
    assert_eq!(levels(6.0, 20).auto, 5.0);
    assert_eq!(levels(6.0, 10_000).auto, 0.0);
}

#[test]
fn tree_margin_is_a_tenth_of_a_diameter_plus_two_steps_of_motion() {
    let mut b = sizes(20.0, 10);
    b.mean_step = 1.25;
    let r = BroadKind::Tree.rule("margin", &b).unwrap();
    assert_eq!(r.auto, 4.5);
    b.mean_step = 1000.0;
    assert_eq!(BroadKind::Tree.rule("margin", &b).unwrap().auto, 64.0);
}

/// Every parameter of every broad phase has a rule, and the broad phase takes its auto
/// value and every value of its sweep.
#[test]
fn every_parameter_has_a_rule_whose_values_the_broad_phase_accepts() {
    for d in [0.5, 6.0, 21.0, 300.0] {
        for n in [0, 10, 100_000] {
            let b = sizes(d, n);
            for &kind in BroadKind::ALL {
                let mut broad = kind.create();
                for p in kind.create().params() {
                    let r = kind.rule(p.name, &b).expect(p.name);
                    assert!(!r.sweep.is_empty());
                    assert!(r.sweep.windows(2).all(|w| w[0] < w[1]), "{:?}", r.sweep);
                    for v in std::iter::once(r.auto).chain(r.sweep) {
                        let set = broad.set_param(p.name, v);
                        assert!(set.is_ok(), "{kind:?} {} = {v}: {set:?}", p.name);
                    }
                }
            }
        }
    }
}

#[test]
fn a_parameter_the_kind_does_not_have_has_no_rule() {
    assert!(BroadKind::Brute
        .rule("cell size", &sizes(6.0, 10))
        .is_none());
    assert!(BroadKind::Grid
        .rule("sector size", &sizes(6.0, 10))
        .is_none());
}
