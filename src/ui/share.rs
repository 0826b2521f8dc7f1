//! The share of brute force, beside the panel's counters and in the chart: the broad phase's
//! AABB tests per collision iteration (the pair cache's own tests included when it answers in
//! the broad phase's place) as a percentage of what brute force makes on the same
//! boxes (`n(n − 1)/2` for `n` balls plus balls × obstacles,
//! `collide::broad::brute_force_tests`), and its precision: the candidate pairs the narrow
//! phase found touching, as a percentage of the candidates.

use super::widgets::{grid, row};
use collide::broad::{brute_force_share, brute_force_tests, Share};
use collide::world::Tally;
use collide::World;
use egui_macroquad::egui;

/// Brute force's AABB tests per call on `world`'s obstacles and balls as they are now.
pub fn brute_per_call(world: &World) -> u64 {
    let shapes = world.shapes().len();
    brute_force_tests(shapes + world.balls().len(), shapes)
}

/// The share of `tally` (a period's work: the iterations' box tests, full tests, collisions)
/// on `world`'s boxes as they are now: tests per iteration; the candidates and contacts of the
/// whole period (their ratio is the precision).
pub fn share_of(world: &World, s: &Tally) -> Share {
    let iterations = s.iterations.max(1);
    let shapes = world.shapes().len();
    let boxes = shapes + world.balls().len();
    let per = |x: u64| (x as f64 / iterations as f64).round() as u64;
    brute_force_share(
        boxes,
        shapes,
        per(box_tests(s)),
        // The collisions count the wall pass's contacts too (discrete mode), so its tests
        // join the full tests.
        s.full_tests + s.wall_pass_tests,
        Some(s.collisions),
    )
}

/// The box tests spent finding a period's pairs: the broad phase's, and the pair cache's own
/// when it answered in the broad phase's place (so a cached period is not a free one).
pub fn box_tests(s: &Tally) -> u64 {
    s.broad.aabb_tests + s.cache_tests
}

/// The rows: the share of brute force and the precision over the last simulated second.
pub fn rows(world: &World) -> Vec<(&'static str, String)> {
    let (s, _) = world.recent_second();
    let share = share_of(world, s);
    let t = crate::advice::thousands;
    let precision = share
        .precision()
        .map_or("-".to_string(), |p| format!("{p:.1} %"));
    vec![
        ("Brute force / iteration", t(share.brute)),
        ("Share of brute force", percent(share.percent)),
        ("Candidates that touched", precision),
    ]
}

/// A percentage with the digits that matter: 0.0042 %, 3.1 %, 100 %.
pub fn percent(p: f64) -> String {
    if p == 0.0 {
        "0 %".into()
    } else if p < 0.1 {
        format!("{p:.4} %")
    } else if p < 10.0 {
        format!("{p:.2} %")
    } else {
        format!("{p:.0} %")
    }
}

/// The rows under the panel's counters.
pub fn ui(ui: &mut egui::Ui, world: &World) {
    grid(ui, "brute-share", |ui| {
        for (label, value) in rows(world) {
            row(ui, label, value);
        }
    });
    ui.small(
        "Brute force: every ball against every obstacle and every other ball once, \
         n(n-1)/2 + balls x obstacles an iteration. Touched: the candidates the narrow phase \
         found in contact (the broad phase's precision).",
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide::BroadKind;

    fn table_with(kind: BroadKind) -> World {
        let scene = collide::Scene::parse(crate::cli::TABLE_RON, "table").unwrap();
        let mut w = scene.build(3);
        w.set_broad_phase(kind);
        w.edit_settings(|s| s.pair_cache = false);
        w.fill_random(300, (3.0, 4.0), 200.0);
        for _ in 0..60 {
            w.step();
        }
        w
    }

    #[test]
    fn brute_force_is_its_own_whole_share_and_the_grid_a_small_one() {
        let (brute, grid) = (table_with(BroadKind::Brute), table_with(BroadKind::Grid));
        let s = share_of(&brute, &brute.counters().total);
        assert_eq!(s.tests, s.brute, "brute force makes brute force's tests");
        assert_eq!(s.percent, 100.0);
        let g = share_of(&grid, &grid.counters().total);
        assert!(g.percent < 10.0, "{g:?}");
        // The same pairs, the same contacts: the precision is the algorithm's, not the run's.
        assert_eq!(g.precision(), s.precision());
        assert!(g.precision().is_some_and(|p| p > 0.0 && p <= 100.0));
    }

    #[test]
    fn percentages_keep_the_digits_that_matter() {
        assert_eq!(percent(0.0), "0 %");
        assert_eq!(percent(0.00421), "0.0042 %");
        assert_eq!(percent(2.5), "2.50 %");
        assert_eq!(percent(100.0), "100 %");
    }
}
