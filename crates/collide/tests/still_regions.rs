//! Sleep by still regions: the settled part of a pile falls asleep while a few balls still
//! land or roll on it, a ball that moves never falls asleep, and a hit wakes what it hits.
mod common;

use collide::world::{Ball, Launcher};
use collide::{Aabb, Geometry, Motion, Shape, Solver, Vec2, World};
use common::table;

/// Whether ball `i` (its place in the list) sleeps.
fn sleeps(w: &World, i: usize) -> bool {
    w.ball_id(i).is_some_and(|id| w.asleep(id))
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A 400 × 400 px box with a floor and walls, gravity 300 px/s², soft contacts.
fn boxed() -> World {
    boxed_with(Vec::new())
}

/// [`boxed`], with `more` obstacles after the walls.
fn boxed_with(more: Vec<Shape>) -> World {
    let wall = |a: Vec2, b: Vec2| Shape::new(Geometry::Segment { a, b }, 0.5, Motion::Static);
    let mut shapes = vec![
        wall(v(0.0, 0.0), v(400.0, 0.0)),
        wall(v(0.0, 0.0), v(0.0, 400.0)),
        wall(v(400.0, 0.0), v(400.0, 400.0)),
    ];
    shapes.extend(more);
    let bounds = Aabb::new(Vec2::ZERO, v(400.0, 400.0));
    let launcher = Launcher {
        pos: v(200.0, 390.0),
        dir: -Vec2::Y,
    };
    let mut w = World::new_unguarded(shapes, bounds, 3).with_launcher(launcher);
    w.edit_settings(|st| st.solver = Solver::Soft);
    w
}

/// Steps `w` `n` times; panics if a ball falls asleep that was moving at the sleep speed
/// or faster the step before (a visibly moving ball must never freeze).
fn steps_checked(w: &mut World, n: u32) {
    let limit = w.settings().sleep.speed;
    for _ in 0..n {
        let before: Vec<(bool, f32)> = (0..w.balls().len())
            .map(|i| (sleeps(w, i), w.balls()[i].vel.length()))
            .collect();
        w.step();
        for (i, &(was_asleep, speed)) in before.iter().enumerate() {
            assert!(
                was_asleep || !sleeps(w, i) || speed < limit,
                "ball {i} fell asleep moving at {speed} px/s (step {})",
                w.steps()
            );
        }
    }
}

#[test]
fn a_table_fill_of_a_thousand_balls_is_mostly_asleep_by_eight_seconds() {
    // The table's shelves keep dropping balls onto the pile for seconds; before the still
    // part of a pile could sleep apart from them, 85 of these 1,000 slept by 8 s.
    let mut w = table(1);
    w.edit_settings(|st| st.solver = Solver::Soft);
    w.fill_random(1000, (2.1, 3.0), 300.0);
    let eight_seconds = 8 * w.steps_per_second();
    steps_checked(&mut w, eight_seconds);
    assert!(
        w.asleep_count() >= 700,
        "{} of 1,000 asleep at 8 s",
        w.asleep_count()
    );
    assert!(
        w.counters().overlap.max <= 0.05,
        "{:?}",
        w.counters().overlap
    );
}

#[test]
fn the_far_side_of_a_pile_sleeps_while_a_paddle_stirs_its_near_side() {
    // A turning paddle keeps the balls at the pile's left end moving for good; before the
    // still part could sleep apart from them, the whole pile stayed awake.
    let paddle = Shape::new(
        Geometry::Segment {
            a: v(20.0, 30.0),
            b: v(60.0, 30.0),
        },
        0.5,
        Motion::Kinematic {
            pivot: v(40.0, 30.0),
            speed: 0.5,
        },
    );
    let mut w = boxed_with(vec![paddle]);
    w.edit_settings(|st| st.rotate = true);
    for i in 0..300 {
        let (x, y) = (10.0 + (i % 36) as f32 * 10.8, 6.0 + (i / 36) as f32 * 10.5);
        w.add_ball(Ball::new(v(x, y), Vec2::ZERO, 5.0, 0.5, 7));
    }
    steps_checked(&mut w, 240 * 4);
    let far = (0..300).filter(|&i| w.balls()[i].pos.x > 200.0);
    let (far, asleep) = far.fold((0, 0), |(n, a), i| (n + 1, a + sleeps(&w, i) as u32));
    assert!(
        asleep * 10 >= far * 7,
        "{asleep} of the {far} balls right of the middle asleep at 4 s"
    );
    let stirred = (0..300).filter(|&i| w.balls()[i].pos.x < 70.0 && w.balls()[i].pos.y < 70.0);
    assert!(
        stirred.clone().any(|i| !sleeps(&w, i)),
        "every ball at the paddle asleep"
    );
}

#[test]
fn a_ball_set_down_on_a_sleeper_rests_on_it_and_a_ball_dropped_on_it_wakes_it() {
    let mut w = boxed();
    for k in 0..5 {
        w.add_ball(Ball::new(
            v(100.0 + 21.0 * k as f32, 12.0),
            Vec2::ZERO,
            10.0,
            0.5,
            7,
        ));
    }
    steps_checked(&mut w, 240 * 3);
    assert_eq!(w.asleep_count(), 5, "the row did not fall asleep");
    let below = w.balls()[2];
    // Set down touching the sleeper's top: it rests there and the sleeper sleeps on.
    w.add_ball(Ball::new(
        below.pos + v(0.0, 20.0),
        Vec2::ZERO,
        10.0,
        0.5,
        3,
    ));
    let wakes = w.counters().total.wakeups;
    for _ in 0..240 {
        steps_checked(&mut w, 1);
        assert!(
            (0..5).all(|i| sleeps(&w, i)),
            "a ball resting on the row woke it"
        );
    }
    assert_eq!(w.counters().total.wakeups, wakes);
    let top = w.balls()[5];
    assert!(
        (top.pos.y - below.pos.y - 20.0).abs() < 0.5 && top.vel.length() < 5.0,
        "the ball set down did not rest on the sleeper: {top:?}"
    );
    // Dropped from 150 px, it lands at about 300 px/s: a hit, which wakes the row.
    w.add_ball(Ball::new(
        v(below.pos.x + 21.0, 180.0),
        Vec2::ZERO,
        10.0,
        0.5,
        3,
    ));
    let wakes = w.counters().total.wakeups;
    steps_checked(&mut w, 240);
    assert!(
        w.counters().total.wakeups > wakes,
        "the falling ball woke nothing"
    );
}

#[test]
fn a_pile_part_asleep_saved_in_the_middle_of_a_frame_runs_on_to_the_same_hash() {
    // Awake balls resting on sleepers: the saved frame's contacts give the sleepers' side no
    // inverse mass again when restored.
    let mut w = table(2);
    w.edit_settings(|st| {
        st.solver = Solver::Soft;
        st.soft.once_a_frame = true;
    });
    w.fill_random(600, (2.1, 3.0), 300.0);
    let four_seconds = 4 * w.steps_per_second();
    steps_checked(&mut w, four_seconds);
    let saved = loop {
        w.step();
        let saved = w.save_state();
        let f = saved.soft_frame.as_ref();
        let part = w.asleep_count() > 0 && w.asleep_count() < w.balls().len();
        if part && f.is_some_and(|f| f.left >= 2 && !f.contacts.is_empty()) {
            break saved;
        }
        assert!(
            w.steps() < 4000,
            "no frame in progress with a pile part asleep"
        );
    };
    let text = ron::ser::to_string(&saved).unwrap();
    let back: collide::WorldState = ron::from_str(&text).unwrap();
    let mut restored = table(2);
    restored.restore_state(&back).unwrap();
    for _ in 0..300 {
        w.step();
        restored.step();
    }
    assert_eq!(w.state_hash(), restored.state_hash());
}
