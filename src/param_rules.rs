//! What the broad phases' rules of thumb read of the world: the balls in play, as the
//! library's [`BallSizes`]. The rules themselves, what each says, its source, the value it
//! gives for the balls in play (the panel's "Auto") and the values a sweep measures, are
//! declared with each parameter by its broad phase in the library
//! (`collide::broad::ParamInfo`, asked through `BroadKind::rule`); `ui/params.rs` shows them
//! beside each slider.

use collide::World;

pub use collide::broad::{BallSizes, Rule};

/// The balls of `world`; without balls, the next ball's size.
pub fn ball_sizes(world: &World) -> BallSizes {
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
    let asleep = world.asleep_each().take(n);
    let awake = asleep.enumerate().filter(|&(_, a)| !a).map(|(i, _)| i);
    let (given, max_awake) = awake.fold((0, 0.0f32), |(k, m), i| (k + 1, m.max(balls[i].radius)));
    // The largest box the broad phase was given: swept in the swept modes, grown while
    // the pair cache answers (the grid's own automatic size follows it).
    let swept = world.largest_ball_box();
    let largest = match (n, given) {
        (0, _) => 2.0 * max_r,
        (_, 0) => 0.0,
        _ => (2.0 * max_awake).max(swept),
    };
    BallSizes {
        count: n,
        given: if n == 0 { 0 } else { given },
        mean_diameter: 2.0 * mean_r,
        largest,
        largest_ball: 2.0 * max_r,
        mean_step: mean_v * dt,
        world: world.bounds(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use collide::BroadKind;

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
        let b = ball_sizes(&w);
        assert_eq!((b.given, b.largest), (0, 0.0));
        let r = BroadKind::Grid.rule("cell size", &b).unwrap();
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
        let b = ball_sizes(&world);
        assert_eq!(b.count, 0);
        assert_eq!(b.mean_diameter, 2.0 * world.settings().ball_radius);
        assert_eq!(b.mean_step, 0.0);
    }
}
