//! Piles that rest: soft contacts hold balls on each other, sleep stops still groups and wakes
//! them on every trigger, and both solvers stay deterministic across broad phases.
mod common;

use collide::world::{Ball, Launcher};
use collide::{
    Aabb, BroadKind, Control, Geometry, Input, Motion, Shape, Solver, Tunnelling, Vec2, World,
};
use common::table;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A 400 × 400 px box with a floor and walls, gravity 300 px/s², soft contacts.
fn boxed(solver: Solver) -> World {
    let wall = |a: Vec2, b: Vec2| Shape::new(Geometry::Segment { a, b }, 0.5, Motion::Static);
    let shapes = vec![
        wall(v(0.0, 0.0), v(400.0, 0.0)),
        wall(v(0.0, 0.0), v(0.0, 400.0)),
        wall(v(400.0, 0.0), v(400.0, 400.0)),
    ];
    let bounds = Aabb::new(Vec2::ZERO, v(400.0, 400.0));
    let launcher = Launcher {
        pos: v(200.0, 390.0),
        dir: -Vec2::Y,
    };
    let mut w = World::new_unguarded(shapes, bounds, 3).with_launcher(launcher);
    w.edit_settings(|st| st.solver = solver);
    w
}

fn ball(x: f32, y: f32, r: f32) -> Ball {
    Ball::new(v(x, y), Vec2::ZERO, r, 0.5, 7)
}

fn steps(w: &mut World, n: u32) {
    for _ in 0..n {
        w.step();
    }
}

/// Deepest ball–ball overlap as a fraction of the smaller radius.
fn deepest(w: &World) -> f32 {
    let b = w.balls();
    let mut worst = 0.0f32;
    for i in 0..b.len() {
        for j in i + 1..b.len() {
            let d = b[i].radius + b[j].radius - (b[i].pos - b[j].pos).length();
            worst = worst.max(d / b[i].radius.min(b[j].radius));
        }
    }
    worst
}

#[test]
fn two_balls_resting_on_each_other_overlap_under_one_percent() {
    let mut w = boxed(Solver::Soft);
    w.add_ball(ball(200.0, 10.0, 10.0));
    w.add_ball(ball(200.0, 30.5, 10.0));
    steps(&mut w, 240 * 3);
    assert!(deepest(&w) < 0.01, "overlap {}", deepest(&w));
    let floor = w.balls()[0].pos.y - w.balls()[0].radius;
    assert!(
        floor > -0.1,
        "the lower ball sank {floor} px into the floor"
    );
}

#[test]
fn a_column_of_thirty_balls_overlaps_under_two_percent() {
    let mut w = boxed(Solver::Soft);
    w.edit_settings(|st| st.sleep.enabled = Some(false));
    for k in 0..30 {
        w.add_ball(ball(200.0, 5.0 + 10.2 * k as f32, 5.0));
    }
    steps(&mut w, 240 * 4);
    assert!(deepest(&w) < 0.02, "overlap {}", deepest(&w));
    assert!(w.counters().overlap.max < 0.02);
    assert!(w.all_finite());
}

#[test]
fn the_meter_reports_a_ball_inside_another() {
    // Soft contacts part them at a capped speed, so the overlap outlives the step.
    let mut w = boxed(Solver::Soft);
    w.edit_settings(|st| st.gravity = 0.0);
    w.add_ball(ball(100.0, 100.0, 10.0));
    w.add_ball(ball(105.0, 100.0, 10.0));
    w.step();
    // The meter reads the end of a frame (the window's picture), not the sub-steps between.
    assert_eq!(w.counters().overlap.pairs, 0, "no frame has ended yet");
    for _ in 1..w.settings().motion_iterations {
        w.step();
    }
    let m = w.counters().overlap;
    assert_eq!(m.pairs, 1);
    assert!(m.max > 0.0 && m.over_1pct == 1);
    w.step();
    assert_eq!(
        w.counters().overlap,
        m,
        "the frame's figure, until the next frame ends"
    );
}

/// A few balls dropped on the floor of the box until they sleep; returns the world.
fn asleep_on_the_floor() -> World {
    let mut w = boxed(Solver::Soft);
    for k in 0..5 {
        w.add_ball(ball(100.0 + 21.0 * k as f32, 12.0, 10.0));
    }
    steps(&mut w, 240 * 3);
    assert_eq!(w.asleep_count(), 5, "the balls did not fall asleep");
    w
}

#[test]
fn still_balls_fall_asleep_with_soft_contacts_and_not_with_push_out() {
    asleep_on_the_floor();
    let mut w = boxed(Solver::PushOut);
    w.add_ball(ball(100.0, 12.0, 10.0));
    steps(&mut w, 240 * 3);
    assert_eq!(w.asleep_count(), 0);
    w.edit_settings(|st| st.sleep.enabled = Some(true));
    steps(&mut w, 240 * 2);
    assert_eq!(
        w.asleep_count(),
        1,
        "the checkbox turns sleep on for push-out"
    );
}

#[test]
fn a_sleeping_pile_stays_bit_identical_and_costs_no_narrow_tests() {
    let mut w = asleep_on_the_floor();
    let before: Vec<Ball> = w.balls().to_vec();
    let hash = w.state_hash();
    steps(&mut w, 600);
    assert_eq!(w.balls(), &before[..]);
    assert_eq!(w.state_hash(), hash);
    assert_eq!(w.counters().last_step.full_tests, 0);
    assert_eq!(w.counters().last_step.broad.pairs, 0);
}

#[test]
fn a_falling_ball_wakes_the_sleeper_it_lands_on() {
    let mut w = asleep_on_the_floor();
    w.add_ball(ball(100.0, 200.0, 10.0));
    steps(&mut w, 480);
    assert!(w.counters().total.wakeups > 0);
    assert!(
        w.balls()[0].pos.y > 9.0,
        "the sleeper was not pushed into the floor"
    );
}

#[test]
fn grabbing_deleting_and_settings_wake_sleepers() {
    let mut w = asleep_on_the_floor();
    let id = |w: &World, i: usize| w.ball_id(i).unwrap();
    w.apply_input(&Input::MoveBall {
        ball: id(&w, 2),
        pos: v(142.0, 50.0),
        vel: Vec2::ZERO,
    })
    .unwrap();
    w.step();
    assert!(!w.asleep(id(&w, 2)), "a grabbed ball wakes");

    let mut w = asleep_on_the_floor();
    w.apply_input(&Input::RemoveBall(id(&w, 2))).unwrap();
    assert!(
        !w.asleep(id(&w, 1)) && !w.asleep(id(&w, 2)),
        "neighbours of a deleted ball wake"
    );

    let mut w = asleep_on_the_floor();
    let mut s = w.settings().clone();
    s.gravity = 100.0;
    w.apply_input(&Input::Settings(s)).unwrap();
    w.step();
    assert_eq!(w.asleep_count(), 0, "a change of gravity wakes everyone");
}

#[test]
fn a_turning_shape_wakes_the_sleepers_it_reaches() {
    let mut w = asleep_on_the_floor();
    let paddle = Shape::new(
        Geometry::Segment {
            a: v(100.0, 45.0),
            b: v(100.0, 75.0),
        },
        0.5,
        Motion::Kinematic {
            pivot: v(100.0, 45.0),
            speed: 0.5,
        },
    );
    let mut w2 = with_turning(&w, &[paddle]);
    w2.edit_settings(|st| st.rotate = true);
    steps(&mut w2, 240);
    assert!(w2.counters().total.wakeups > 0);
    w = w2;
    assert!(w.all_finite());
}

/// `w`'s balls (awake) and shapes with `turning` added (kinematic ones still until Rotate is
/// set).
fn with_turning(w: &World, turning: &[Shape]) -> World {
    let mut shapes: Vec<Shape> = w.shapes().to_vec();
    shapes.extend_from_slice(turning);
    let mut w2 = World::new_unguarded(shapes, w.bounds(), 3).with_launcher(w.launcher());
    w2.set_settings(w.settings().clone());
    for b in w.balls() {
        w2.add_ball(*b);
    }
    w2
}

/// A left flipper from `a` to `b`, raised a little about `a` while its key is held.
fn flipper(a: Vec2, b: Vec2) -> Shape {
    let motion = Motion::Flipper {
        pivot: a,
        raised: 0.05,
        speed: 0.1,
        control: Control::LeftFlipper,
    };
    Shape::new(Geometry::Segment { a, b }, 0.5, motion)
}

#[test]
fn each_sleeper_is_tested_against_the_moving_shapes_in_order_until_one_wakes_it() {
    let w = asleep_on_the_floor();
    // Two flippers that touch no ball: one far off, one across the row whose box holds
    // every sleeper's box.
    let far = flipper(v(300.0, 300.0), v(330.0, 300.0));
    let across = flipper(v(60.0, 19.0), v(220.0, 200.0));
    for (shapes, tests, woken) in [
        ([far, far], 10, 0),
        ([across, far], 5, 5),
        ([far, across], 10, 5),
    ] {
        let mut w2 = with_turning(&w, &shapes);
        steps(&mut w2, 240 * 3);
        assert_eq!(w2.asleep_count(), 5, "asleep beside the flippers at rest");
        common::hold(&mut w2, Control::LeftFlipper, true);
        w2.step();
        let last = &w2.counters().last_step;
        assert_eq!(last.sleep_tests, tests, "box tests");
        assert_eq!(last.wakeups, woken, "balls woken");
    }
}

#[test]
fn restarting_the_scene_wakes_everything() {
    let w = asleep_on_the_floor();
    assert!(w.asleep_count() > 0);
    let restarted = boxed(Solver::Soft);
    assert_eq!(restarted.asleep_count(), 0);
}

#[test]
fn a_restored_soft_pile_runs_on_to_the_same_hash() {
    let mut w = boxed(Solver::Soft);
    for k in 0..40 {
        w.add_ball(ball(
            20.0 + 9.0 * (k % 30) as f32,
            12.0 + 9.0 * (k / 30) as f32,
            4.0,
        ));
    }
    // Saved while the balls still press on each other, so the warm start matters.
    steps(&mut w, 120);
    assert!(w.asleep_count() == 0 && w.counters().overlap.pairs > 0);
    let saved = w.save_state();
    let mut restored = boxed(Solver::PushOut);
    restored.restore_state(&saved).unwrap();
    steps(&mut w, 600);
    steps(&mut restored, 600);
    assert!(w.asleep_count() > 0, "the pile did not sleep");
    assert_eq!(restored.state_hash(), w.state_hash());
}

#[test]
fn a_soft_pile_saved_in_the_middle_of_a_frame_runs_on_to_the_same_hash() {
    // The contacts found at a frame's first sub-step serve the others: a state saved between
    // two of them carries the frame's contacts. Saved with 3, 2 and 1 sub-steps left.
    for left in [3, 2, 1] {
        let mut w = boxed(Solver::Soft);
        w.edit_settings(|st| st.soft.once_a_frame = true);
        for k in 0..40 {
            let x = 20.0 + 9.0 * (k % 30) as f32;
            let mut b = ball(x, 12.0 + 9.0 * (k / 30) as f32, 4.0);
            b.vel = v(((k * 7) % 11) as f32 * 4.0 - 20.0, 0.0);
            w.add_ball(b);
        }
        steps(&mut w, 60);
        let saved = loop {
            w.step();
            let saved = w.save_state();
            let f = saved.soft_frame.as_ref();
            if f.is_some_and(|f| f.left == left && !f.contacts.is_empty()) {
                break saved;
            }
            assert!(w.steps() < 1200, "no frame with {left} sub-steps left");
        };
        let text = ron::ser::to_string(&saved).unwrap();
        let back: collide::WorldState = ron::from_str(&text).unwrap();
        let mut restored = boxed(Solver::PushOut);
        restored.restore_state(&back).unwrap();
        steps(&mut w, 300);
        steps(&mut restored, 300);
        assert_eq!(
            w.state_hash(),
            restored.state_hash(),
            "{left} sub-steps left"
        );
    }
}

#[test]
fn switching_solver_mid_run_never_produces_nan() {
    let mut w = table(5);
    w.fill_random(800, (2.1, 3.0), 300.0);
    for k in 0..12 {
        let solver = if k % 2 == 0 {
            Solver::Soft
        } else {
            Solver::PushOut
        };
        w.edit_settings(|st| st.solver = solver);
        w.edit_settings(|st| st.tunnelling = Tunnelling::ALL[k % 4]);
        steps(&mut w, 60);
        assert!(w.all_finite(), "non-finite after switch {k}");
    }
}

/// The state hash after a settling fill on the table with `kind` and `solver`.
fn settled_hash(kind: BroadKind, solver: Solver, mode: Tunnelling) -> u64 {
    let mut w = table(9);
    w.edit_settings(|st| st.solver = solver);
    w.edit_settings(|st| st.tunnelling = mode);
    w.set_broad_phase(kind);
    w.fill_random(400, (2.1, 3.0), 300.0);
    steps(&mut w, 240 * 3);
    w.state_hash()
}

#[test]
fn both_solvers_give_one_hash_across_every_broad_phase() {
    for &solver in Solver::ALL {
        let want = settled_hash(BroadKind::Brute, solver, Tunnelling::Off);
        for &kind in BroadKind::ALL {
            assert_eq!(
                settled_hash(kind, solver, Tunnelling::Off),
                want,
                "{} with {}",
                kind.name(),
                solver.name()
            );
        }
    }
    // Sleepers turn into static boxes mid-run: the swept mode as well.
    let want = settled_hash(BroadKind::Brute, Solver::Soft, Tunnelling::Exact);
    for kind in [BroadKind::Grid, BroadKind::Sap, BroadKind::Quadtree] {
        assert_eq!(settled_hash(kind, Solver::Soft, Tunnelling::Exact), want);
    }
}

/// A 400 × 400 px world of `shapes` with soft contacts and no gravity.
fn weightless_soft(shapes: Vec<Shape>) -> World {
    let launcher = Launcher {
        pos: Vec2::ZERO,
        dir: Vec2::Y,
    };
    let bounds = Aabb::new(Vec2::ZERO, v(400.0, 400.0));
    let mut w = World::new_unguarded(shapes, bounds, 1).with_launcher(launcher);
    w.edit_settings(|st| st.solver = Solver::Soft);
    w.edit_settings(|st| st.gravity = 0.0);
    w
}

#[test]
fn a_bumper_with_elasticity_above_one_kicks_harder_with_soft_contacts() {
    let bumper = Shape::new(
        Geometry::Circle {
            c: v(200.0, 100.0),
            r: 20.0,
        },
        1.5,
        Motion::Static,
    );
    let mut w = weightless_soft(vec![bumper]);
    w.add_ball(Ball::new(v(200.0, 200.0), v(0.0, -200.0), 5.0, 1.0, 0));
    steps(&mut w, 240);
    let vy = w.balls()[0].vel.y;
    assert!(
        (vy - 300.0).abs() < 3.0,
        "rebound {vy} px/s, want 1.5 × 200"
    );
}

#[test]
fn a_fast_ball_passes_a_gate_with_soft_contacts_and_a_slow_one_bounces() {
    let gate = |speed: f32| {
        let g = Shape::new(
            Geometry::Gate {
                a: v(100.0, 200.0),
                b: v(300.0, 200.0),
                normal: Vec2::Y,
                threshold: 400.0,
            },
            1.0,
            Motion::Static,
        );
        let mut w = weightless_soft(vec![g]);
        w.add_ball(Ball::new(v(200.0, 300.0), v(0.0, -speed), 5.0, 1.0, 0));
        steps(&mut w, 240);
        w.balls()[0].pos.y
    };
    assert!(gate(800.0) < 200.0, "a fast ball passes against the normal");
    assert!(gate(200.0) > 200.0, "a slow ball bounces");
}

/// A funnel whose gap (8 px) is narrower than the balls (radius 5), 1,000 balls poured in.
/// The gap's edges are the segments' ends, held by the guard points every world adds there
/// (a segment alone is a miss for a ball whose centre is past its end).
fn funnel_passes(mode: Tunnelling) -> usize {
    let seg = |a: Vec2, b: Vec2| Shape::new(Geometry::Segment { a, b }, 0.3, Motion::Static);
    let shapes = vec![
        seg(v(0.0, 300.0), v(196.0, 100.0)),
        seg(v(400.0, 300.0), v(204.0, 100.0)),
        seg(v(0.0, 0.0), v(400.0, 0.0)),
        seg(v(0.0, 0.0), v(0.0, 1400.0)),
        seg(v(400.0, 0.0), v(400.0, 1400.0)),
    ];
    let launcher = Launcher {
        pos: v(0.0, 0.0),
        dir: Vec2::Y,
    };
    let bounds = Aabb::new(Vec2::ZERO, v(400.0, 1400.0));
    let mut w = World::new(shapes, bounds, 1).with_launcher(launcher);
    w.edit_settings(|st| st.solver = Solver::Soft);
    w.edit_settings(|st| st.tunnelling = mode);
    w.set_broad_phase(BroadKind::Grid);
    for k in 0..1000 {
        let (col, row) = ((k % 30) as f32, (k / 30) as f32);
        let x = 60.0 + col * 9.4 + (row % 2.0) * 2.0;
        w.add_ball(Ball::new(v(x, 320.0 + row * 11.0), Vec2::ZERO, 5.0, 0.3, k));
    }
    steps(&mut w, 240 * 8);
    assert!(w.all_finite());
    w.balls().iter().filter(|b| b.pos.y < 100.0).count()
}

#[test]
fn no_ball_squeezes_through_a_gap_narrower_than_itself_with_soft_contacts() {
    for &mode in Tunnelling::ALL {
        assert_eq!(
            funnel_passes(mode),
            0,
            "balls passed in mode {}",
            mode.name()
        );
    }
}

/// A pile of 1,500 balls in the box with soft contacts, run for 2 s on `threads` threads.
fn pile_on_threads(threads: usize) -> (u64, u32) {
    let mut w = boxed(Solver::Soft);
    w.set_broad_phase(BroadKind::Grid);
    w.fill_random(1500, (2.1, 3.0), 50.0);
    w.edit_settings(|st| {
        st.threads = threads;
        st.parallel_from = 0;
    });
    for _ in 0..2 * w.steps_per_second() {
        w.step();
    }
    (w.state_hash(), w.counters().asleep)
}

#[test]
fn soft_contacts_give_the_same_bits_on_any_number_of_threads() {
    let one = pile_on_threads(1);
    for threads in [2, 3, 8] {
        assert_eq!(pile_on_threads(threads), one, "{threads} threads");
    }
}

#[test]
fn the_solver_view_sees_colours_that_share_no_ball_and_a_pile_as_one_island() {
    use collide::world::{ConstraintColour, ContactWith, Island};
    use std::collections::HashSet;
    let mut w = boxed(Solver::Soft);
    for i in 0..60 {
        let (x, y) = (150.0 + (i % 10) as f32 * 10.2, 8.0 + (i / 10) as f32 * 10.5);
        w.add_ball(ball(x, y, 5.0));
    }
    steps(&mut w, 120);
    let contacts = w.solver_contacts();
    assert!(contacts.len() >= 50, "{} contacts", contacts.len());
    let mut seen = HashSet::new();
    for c in &contacts {
        assert!(c.impulse.is_finite() && c.impulse >= 0.0);
        let others = match (c.colour, c.other) {
            (ConstraintColour::Balls(k), ContactWith::Ball(o)) => {
                vec![(0, k, c.ball), (0, k, o as usize)]
            }
            (ConstraintColour::Obstacles(k), ContactWith::Shape(_)) => vec![(1, k, c.ball)],
            (ConstraintColour::Overflow, _) => vec![],
            (k, o) => panic!("colour {k:?} on a contact with {o:?}"),
        };
        for key in others {
            assert!(
                seen.insert(key),
                "two contacts of colour {key:?} share a ball"
            );
        }
    }
    let distinct = |w: &World| w.islands().into_iter().collect::<HashSet<_>>();
    assert_eq!(w.islands().len(), 60);
    assert!(matches!(
        Vec::from_iter(distinct(&w))[..],
        [Island::Awake(_)]
    ));
    steps(&mut w, 240 * 4);
    // Asleep, each ball in the group its still region fell asleep with (a pile's settled
    // interior may sleep before its last rolling balls do).
    assert!(w.islands().iter().all(|i| matches!(i, Island::Asleep(_))));
}

#[test]
fn soft_contacts_count_no_more_touching_candidates_than_candidates_tested() {
    // The table's pile settling: a frame's contacts serve its later sub-steps too.
    let mut w = table(3);
    w.edit_settings(|s| s.solver = Solver::Soft);
    w.fill_random(400, (8.4, 12.0), 0.0);
    steps(&mut w, 240 * 12);
    let t = w.counters().total;
    assert!(t.collisions > 0, "{t:?}");
    assert!(
        t.collisions <= t.full_tests,
        "{} of {}",
        t.collisions,
        t.full_tests
    );
    for k in 0..8 {
        steps(&mut w, 60);
        let (s, _) = w.recent_second();
        assert!(
            s.collisions <= s.full_tests,
            "{k}: {} of {}",
            s.collisions,
            s.full_tests
        );
    }
}

#[test]
fn contacts_found_once_a_frame_rebound_from_the_speed_the_ball_arrives_at() {
    // Dropped from 2 px on an elastic floor: the contact is found a sub-step or more before
    // the ball meets the floor, and gravity speeds it up meanwhile. The rebound answers the
    // speed it arrives at (e = 1 gives it back), not the speed when the contact was found.
    for once_a_frame in [false, true] {
        let floor = Geometry::Segment {
            a: v(0.0, 10.0),
            b: v(400.0, 10.0),
        };
        let shapes = vec![Shape::new(floor, 1.0, Motion::Static)];
        let mut w = World::new_unguarded(shapes, Aabb::new(Vec2::ZERO, v(400.0, 400.0)), 3);
        w.edit_settings(|st| {
            st.solver = Solver::Soft;
            st.gravity = 400.0;
            st.soft.once_a_frame = once_a_frame;
        });
        w.add_ball(Ball::new(v(200.0, 22.0), Vec2::ZERO, 10.0, 1.0, 7));
        let dt = w.step_seconds() as f32;
        let (arrive, leave) = loop {
            let before = w.balls()[0].vel.y - 400.0 * dt;
            w.step();
            let after = w.balls()[0].vel.y;
            if after > 0.0 {
                break (before, after);
            }
        };
        let e = -leave / arrive;
        assert!((e - 1.0).abs() < 0.01, "once a frame {once_a_frame}: e {e}");
    }
}

#[test]
fn a_deep_column_rests_on_stiffer_contacts_than_its_top() {
    // 240 balls of radius 3 stacked in a shaft one ball wide, gravity 400 px/s²: on the
    // contacts' own 240 Hz springs the bottom pair would hold 239 balls' weight by an overlap
    // of 2·239·g/ω² ≈ 0.084 px, 2.8 % of the radius (and before loaded contacts were made
    // stiffer it rested there, a third of the column still awake at 4 s). A loaded contact
    // at rest is made stiffer until its load sinks it half a percent, so every pair of the
    // column rests within about that and the whole column sleeps.
    let (r, n) = (3.0, 240);
    let wall = |a: Vec2, b: Vec2| Shape::new(Geometry::Segment { a, b }, 0.0, Motion::Static);
    let width = 2.0 * r + 0.4;
    let shapes = vec![
        wall(v(0.0, 0.0), v(width, 0.0)),
        wall(v(0.0, 0.0), v(0.0, 1600.0)),
        wall(v(width, 0.0), v(width, 1600.0)),
    ];
    let mut w = World::new(shapes, Aabb::new(Vec2::ZERO, v(width, 1600.0)), 1);
    w.edit_settings(|st| {
        st.solver = Solver::Soft;
        st.gravity = 400.0;
    });
    for k in 0..n {
        w.add_ball(Ball::new(
            v(width / 2.0, r + 2.0 * r * k as f32),
            Vec2::ZERO,
            r,
            0.0,
            k,
        ));
    }
    steps(&mut w, 240 * 4);
    assert!(w.all_finite());
    assert_eq!(w.asleep_count(), n as usize, "the column sleeps");
    let b = w.balls();
    let mut order: Vec<usize> = (0..b.len()).collect();
    order.sort_by(|&i, &j| b[i].pos.y.total_cmp(&b[j].pos.y));
    let overlap = |k: usize| {
        let (lo, hi) = (&b[order[k]], &b[order[k + 1]]);
        (2.0 * r - (hi.pos - lo.pos).length()) / r
    };
    let deepest = (0..n as usize - 1).map(overlap).fold(0.0f32, f32::max);
    assert!(
        deepest < 0.01,
        "deepest pair overlaps {:.2} %",
        100.0 * deepest
    );
    assert!(
        b[order[0]].pos.y > r * 0.98,
        "the floor holds: {}",
        b[order[0]].pos.y
    );
    assert!(
        overlap(n as usize - 2) < 0.001,
        "the top pair carries one ball"
    );
}
