//! The rules of thumb for the broad phases' size parameters, with their sources: what each
//! says, the value it gives for the balls in play (the panel's "Auto"), and the values a
//! sweep measures around it (`ui/params.rs` shows them beside each slider).
//!
//! - Grid, cell size: large enough, but not much larger, to fit the largest object
//!   (Ericson 2005, §7.1.1): about one to two diameters. Auto is the grid's own automatic
//!   size, the power of two at or above the largest ball.
//! - Sectors (and adjacent sectors, on the same grid), sector size: more than twice the
//!   largest side, "if your objects are 30x30 … 64 would be an excellent choice"
//!   (Moertel 1994): the power of two above twice the largest ball.
//! - Quadtree, levels: leaves about a ball across; the course's 60 × 44 px leaves for balls
//!   of 42 px hold at most four balls (Parberry, Collision Math Toy, §5.4.5).
//! - RDC, threshold: groups of about 5 to 10 objects left to brute force (Rabin 2001, as
//!   retold by the polygonal labs blog).
//! - Tree, margin: Box2D 2.x grows a box by 0.1 m all round (`b2_aabbExtension`, for bodies
//!   of about a metre) and by twice the step's displacement ahead (`b2_aabbMultiplier`)
//!   (Catto, Box2D): here a tenth of a diameter plus twice a step's motion.
//! - Sweep and prune, bands and axis: the sweep's own automatic choices (about 8 balls active
//!   per band; the axis of larger spread).

use collide::{Aabb, BroadKind, World};

/// What the rules read of the balls in play (px).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BallSizes {
    /// Balls in play (0: the sizes are the next ball's).
    pub count: usize,
    /// Of those, the balls the broad phase is given: the awake ones (a sleeping ball is a
    /// static box to it, never sized for nor paired with another sleeper).
    pub given: usize,
    /// Mean diameter (px).
    pub mean_diameter: f32,
    /// The largest box side of a ball the broad phase is given (px): its diameter, or the
    /// longer side of the largest box it was last given (swept in the swept modes, grown by
    /// the pair cache); 0 when it is given none (every ball sleeps).
    pub largest: f32,
    /// The largest ball's diameter, asleep or not (px): where a sweep's values start when
    /// the broad phase is given no ball.
    pub largest_ball: f32,
    /// Mean distance a ball moves in one step (px).
    pub mean_step: f32,
    /// The play area, the quadtree's root (px).
    pub world: Aabb,
}

impl BallSizes {
    /// The balls of `world`; without balls, the next ball's size.
    pub fn of(world: &World) -> Self {
        let balls = world.balls();
        let s = world.settings();
        let dt = 1.0 / (60.0 * s.motion_iterations.max(1) as f32);
        let n = balls.len();
        let (sum_r, max_r, sum_v) = balls.iter().fold((0.0, 0.0f32, 0.0), |(a, m, v), b| {
            (a + b.radius, m.max(b.radius), v + b.vel.length())
        });
        let (mean_r, max_r, mean_v) = if n == 0 {
            (s.ball_radius, s.ball_radius, 0.0)
        } else {
            (sum_r / n as f32, max_r, sum_v / n as f32)
        };
        let awake = (0..n).filter(|&i| !world.asleep(i));
        let (given, max_awake) =
            awake.fold((0, 0.0f32), |(k, m), i| (k + 1, m.max(balls[i].radius)));
        // The largest box the broad phase was given: swept in the swept modes, grown while
        // the pair cache answers (the grid's own automatic size follows it).
        let swept = world.largest_ball_box();
        let largest = match (n, given) {
            (0, _) => 2.0 * max_r,
            (_, 0) => 0.0,
            _ => (2.0 * max_awake).max(swept),
        };
        Self {
            count: n,
            given: if n == 0 { 0 } else { given },
            mean_diameter: 2.0 * mean_r,
            largest,
            largest_ball: 2.0 * max_r,
            mean_step: mean_v * dt,
            world: world.bounds(),
        }
    }
}

impl BallSizes {
    /// True when there are balls but every one sleeps: the broad phase is given none.
    pub fn none_given(&self) -> bool {
        self.count > 0 && self.given == 0
    }

    /// The side the sweeps' values start from: the largest box given, or without one the
    /// largest ball's diameter (what the balls will need when they wake).
    fn sweep_base(&self) -> f32 {
        if self.none_given() {
            self.largest_ball
        } else {
            self.largest
        }
    }
}

/// Why a size was chosen without a ball: every ball sleeps.
const NONE_GIVEN: &str =
    "every ball sleeps, and a sleeping ball is a static box to the broad phase, not a ball it \
     is given";

/// A parameter's rule of thumb for the balls in play.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// What the rule says, in a sentence.
    pub says: &'static str,
    /// Where it comes from.
    pub source: &'static str,
    /// The value "Auto" sets (the parameter's own 0 where it has an automatic setting).
    pub auto: f32,
    /// What that value means for these balls, with the numbers.
    pub auto_why: String,
    /// The rule's value in the parameter's units, to mark on a sweep (`None` where the rule is
    /// a choice the broad phase makes every call).
    pub value: Option<f32>,
    /// The values a sweep measures, increasing.
    pub sweep: Vec<f32>,
}

/// The rule for `kind`'s parameter `param`; `None` for a parameter without one.
pub fn rule(kind: BroadKind, param: &str, b: &BallSizes) -> Option<Rule> {
    match (kind, param) {
        (BroadKind::Grid, "cell size") => Some(grid_cell(b)),
        (BroadKind::Sectors | BroadKind::Adjacent, "sector size") => Some(sector_size(b)),
        (BroadKind::Quadtree, "levels") => Some(quadtree_levels(b)),
        (BroadKind::Rdc, "threshold") => Some(rdc_threshold()),
        (BroadKind::Tree, "margin") => Some(tree_margin(b)),
        (BroadKind::Sap, "bands") => Some(sap_bands()),
        (BroadKind::Sap, "axis") => Some(sap_axis()),
        _ => None,
    }
}

/// Largest size parameter the grids accept (px).
const MAX_SIZE: f32 = 2048.0;

/// `factors` × `base` made whole numbers by `whole`, within 1..=2048, without repeats.
fn multiples(base: f32, factors: &[f32], whole: fn(f32) -> f32) -> Vec<f32> {
    let mut v: Vec<f32> = factors
        .iter()
        .map(|k| whole(k * base).clamp(1.0, MAX_SIZE))
        .collect();
    v.dedup();
    v
}

/// The smallest power of two at or above `x` (and at least `floor`).
fn power_of_two_at_least(x: f32, floor: f32) -> f32 {
    let mut c = floor;
    while c < x && c < MAX_SIZE {
        c *= 2.0;
    }
    c
}

fn grid_cell(b: &BallSizes) -> Rule {
    // The grid's own automatic size: a power of two ≥ max(largest side, 8 px).
    let c = power_of_two_at_least(b.largest, 8.0);
    Rule {
        says: "About one to two ball diameters: at least the largest ball, so that a ball \
               reaches only the neighbouring cells; not much more, or every cell holds many \
               balls, all tested against each other",
        source: "Ericson 2005, Real-Time Collision Detection, §7.1.1",
        auto: 0.0,
        value: Some(c),
        auto_why: if b.none_given() {
            format!("automatic: {c} px, the smallest: {NONE_GIVEN}")
        } else {
            format!(
                "automatic: {c} px, the power of two ≥ the largest box it was given ({:.1} px), \
                 {:.1} mean diameters",
                b.largest,
                c / b.mean_diameter.max(1e-3)
            )
        },
        // At least the largest ball: below it the grid raises the size anyway.
        sweep: multiples(
            b.sweep_base(),
            &[1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0],
            f32::ceil,
        ),
    }
}

fn sector_size(b: &BallSizes) -> Rule {
    // Strictly above twice the largest side, as a power of two: 30 px objects give 64.
    let base = b.sweep_base();
    let s = power_of_two_at_least(2.0 * base + 1.0, 4.0);
    let of = match b.none_given() {
        true => format!("the largest ball; {NONE_GIVEN}"),
        false => "the largest box".to_string(),
    };
    Rule {
        says: "More than twice the largest ball side, or a pair straddling sector lines is \
               lost; a power of two just above it (\"if your objects are 30x30 … 64 would be an \
               excellent choice\")",
        source: "Moertel 1994, Collision Detection – How?",
        auto: s,
        value: Some(s),
        auto_why: format!(
            "{s} px: the power of two above 2 × {base:.1} px ({of}), {:.1} mean diameters",
            s / b.mean_diameter.max(1e-3)
        ),
        // Strictly above twice the largest ball.
        sweep: multiples(base, &[2.0, 2.5, 3.0, 4.0, 6.0, 8.0], |x| x.floor() + 1.0),
    }
}

/// Most levels the quadtree's slider sets; its automatic setting goes to 9.
const QUADTREE_MAX_LEVELS: u32 = 5;

/// The deepest quadtree over `world` whose leaves are at least `d` px on their shorter side
/// (1 at least, 12 at most).
pub fn levels_for_leaf(world: &Aabb, d: f32) -> u32 {
    let side = world.size().min_element();
    let mut levels = 1;
    while levels < 12 && side / (1u32 << levels) as f32 >= d {
        levels += 1;
    }
    levels
}

/// The quadtree's automatic levels for `n` balls: the fewest with at least `n / 2` leaves.
fn levels_by_count(n: usize) -> u32 {
    let mut levels = 1;
    while levels < 9 && 4usize.pow(levels - 1) < n / 2 {
        levels += 1;
    }
    levels
}

fn quadtree_levels(b: &BallSizes) -> Rule {
    let want = levels_for_leaf(&b.world, b.mean_diameter.max(1e-3));
    let leaf = b.world.size() / (1u32 << (want - 1)) as f32;
    let (auto, note) = if want <= QUADTREE_MAX_LEVELS {
        (want as f32, String::new())
    } else if levels_by_count(b.given) > QUADTREE_MAX_LEVELS {
        (0.0, "; deeper than the slider: automatic".to_string())
    } else {
        let most = QUADTREE_MAX_LEVELS as f32;
        (most, "; the slider stops at 5".to_string())
    };
    Rule {
        says: "Leaves about a ball across: the course's 60 x 44 px leaves for balls of 42 px \
               hold at most four balls each; deeper, every ball pays more node tests on its \
               way down",
        source: "Parberry, Collision Math Toy, §5.4.5",
        auto,
        value: Some(want as f32),
        auto_why: format!(
            "{want} levels: {:.0} x {:.0} px leaves for a mean diameter of {:.1} px{note}",
            leaf.x, leaf.y, b.mean_diameter
        ),
        sweep: (1..=QUADTREE_MAX_LEVELS).map(|l| l as f32).collect(),
    }
}

fn rdc_threshold() -> Rule {
    Rule {
        says: "Stop splitting at groups of about 5 to 10 balls: lower splits deeper (more \
               sorting), higher leaves larger groups to brute force",
        source: "Rabin 2001, Recursive Dimensional Clustering (as retold by polygonal labs)",
        auto: 8.0,
        value: Some(8.0),
        auto_why: "8 balls, the middle of the range".into(),
        sweep: [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0].to_vec(),
    }
}

fn tree_margin(b: &BallSizes) -> Rule {
    let m = 0.1 * b.mean_diameter + 2.0 * b.mean_step;
    // Half pixels, within the slider's 0..=64.
    let auto = ((m * 2.0).round() / 2.0).clamp(0.0, 64.0);
    Rule {
        says: "A fat box a little larger than the ball: a tenth of its size plus twice its \
               motion in one step, so that a moving ball is reinserted only every few steps; \
               larger margins loosen every node above it",
        source: "Catto, Box2D 2.x: b2_aabbExtension 0.1 m for bodies of about 1 m, \
                 b2_aabbMultiplier 2 × the step's displacement",
        auto,
        value: Some(auto),
        auto_why: format!(
            "{auto} px: 0.1 × {:.1} px + 2 × {:.2} px a step",
            b.mean_diameter, b.mean_step
        ),
        sweep: [0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0].to_vec(),
    }
}

fn sap_bands() -> Rule {
    Rule {
        says: "About 8 balls active at once in each band: more bands keep fewer intervals \
               open, but a ball across a band line is swept in both",
        source: "the sweep's own automatic choice (bands: Terdiman, box pruning)",
        auto: 0.0,
        value: None,
        auto_why: "automatic: about 8 balls active per band".into(),
        sweep: [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0].to_vec(),
    }
}

fn sap_axis() -> Rule {
    Rule {
        says: "Sweep along the axis on which the balls' centres spread more: fewer intervals \
               overlap there",
        source: "the sweep's own automatic choice",
        auto: 0.0,
        value: None,
        auto_why: "automatic: the axis of larger spread, with hysteresis".into(),
        sweep: [1.0, 2.0].to_vec(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use collide::Vec2;

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
    fn sector_rule_gives_moertels_64_for_30_px_objects() {
        let r = rule(BroadKind::Sectors, "sector size", &sizes(30.0, 10)).unwrap();
        assert_eq!(r.auto, 64.0);
        // Exactly twice the side is not enough: the next power of two.
        let r = rule(BroadKind::Adjacent, "sector size", &sizes(32.0, 10)).unwrap();
        assert_eq!(r.auto, 128.0);
        assert!(r.sweep.iter().all(|&s| s > 64.0), "{:?}", r.sweep);
    }

    #[test]
    fn grid_auto_is_the_grids_own_automatic_size_one_to_two_diameters() {
        for d in [1.0, 6.0, 20.0, 42.0, 100.0] {
            let r = rule(BroadKind::Grid, "cell size", &sizes(d, 100)).unwrap();
            assert_eq!(r.auto, 0.0);
            let c = power_of_two_at_least(d, 8.0);
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
        let r = rule(BroadKind::Quadtree, "levels", &sizes(42.0, 32)).unwrap();
        assert_eq!(r.auto, 5.0);
        assert!(
            r.auto_why.starts_with("5 levels: 60 x 44 px"),
            "{}",
            r.auto_why
        );
        // Larger balls, shallower trees.
        assert_eq!(levels_for_leaf(&sizes(0.0, 0).world, 100.0), 3);
        // Small balls want more than the slider's 5: 5 for a few balls, automatic for many.
        let few = rule(BroadKind::Quadtree, "levels", &sizes(6.0, 20)).unwrap();
        assert_eq!(few.auto, 5.0);
        let many = rule(BroadKind::Quadtree, "levels", &sizes(6.0, 10_000)).unwrap();
        assert_eq!(many.auto, 0.0);
    }

    #[test]
    fn tree_margin_is_a_tenth_of_a_diameter_plus_two_steps_of_motion() {
        let mut b = sizes(20.0, 10);
        b.mean_step = 1.25;
        let r = rule(BroadKind::Tree, "margin", &b).unwrap();
        assert_eq!(r.auto, 4.5);
        b.mean_step = 1000.0;
        assert_eq!(rule(BroadKind::Tree, "margin", &b).unwrap().auto, 64.0);
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
                        let r = rule(kind, p.name, &b).expect(p.name);
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

    /// The table filled and left to sleep, with the grid: every ball asleep.
    pub(crate) fn sleeping_table() -> collide::World {
        let mut w = collide::Scene::parse(crate::cli::TABLE_RON, "table")
            .unwrap()
            .build(1);
        w.edit_settings(|s| s.solver = collide::Solver::Soft);
        w.set_broad_phase(BroadKind::Grid);
        w.fill_random(120, (2.0, 3.0), 100.0);
        let n = w.balls().len();
        for _ in 0..20_000 {
            w.step();
            if w.asleep_count() == n {
                break;
            }
        }
        assert_eq!(w.asleep_count(), n, "the pile sleeps");
        w.step();
        w
    }

    /// `--scene table --fill 3000 --solver soft`, asleep: the grid said "cell size 8 px …
    /// largest ball side 0.0 px" beside Auto's "16 px (9.0 px)".
    #[test]
    fn a_sleeping_table_grid_auto_is_the_grids_own_size_and_says_why() {
        let w = sleeping_table();
        let b = BallSizes::of(&w);
        assert_eq!((b.given, b.largest), (0, 0.0));
        let r = rule(BroadKind::Grid, "cell size", &b).unwrap();
        let stats = w.broad().stats();
        let stat = |k: &str| stats.iter().find(|s| s.0 == k).unwrap().1.clone();
        assert_eq!(stat("cell size"), format!("{} px", r.value.unwrap()));
        assert!(r.auto_why.contains("sleeps"), "{}", r.auto_why);
        assert!(
            stat("rule").contains("no ball was given"),
            "{}",
            stat("rule")
        );
        // Its sweep still tries sizes for the balls as they are when they wake.
        assert!(
            r.sweep.iter().all(|&v| v >= b.largest_ball),
            "{:?}",
            r.sweep
        );
    }

    #[test]
    fn sizes_of_a_world_without_balls_are_the_next_balls() {
        let world = collide::Scene::parse(crate::cli::TABLE_RON, "table")
            .unwrap()
            .build(1);
        let b = BallSizes::of(&world);
        assert_eq!(b.count, 0);
        assert_eq!(b.mean_diameter, 2.0 * world.settings().ball_radius);
        assert_eq!(b.mean_step, 0.0);
    }
}
