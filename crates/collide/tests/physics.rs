//! The world's physics: fixed timestep, momentum and energy, restitution, kinematic shapes,
//! gravity, determinism, degenerate inputs and the counters.
mod common;

use collide::world::{Ball, Launcher};
use collide::{Aabb, Geometry, Motion, Shape, Stepper, Vec2, World};
use common::{close, close_v, table};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// A 1000 × 1000 px world of `shapes` without gravity.
fn world(shapes: Vec<Shape>) -> World {
    let bounds = Aabb::new(Vec2::ZERO, v(1000.0, 1000.0));
    let launcher = Launcher {
        pos: v(500.0, 10.0),
        dir: Vec2::Y,
    };
    let mut w = World::new_unguarded(shapes, bounds, 1).with_launcher(launcher);
    w.edit_settings(|st| st.gravity = 0.0);
    w
}

fn stat(geom: Geometry, elasticity: f32) -> Shape {
    Shape::new(geom, elasticity, Motion::Static)
}

fn momentum(w: &World) -> Vec2 {
    w.balls().iter().map(|b| b.vel * b.mass).sum()
}

fn kinetic_energy(w: &World) -> f32 {
    w.balls()
        .iter()
        .map(|b| 0.5 * b.mass * b.vel.length_squared())
        .sum()
}

/// Steps until ball 0's velocity differs from `v0` (at most `max` steps); returns it.
fn step_until_velocity_changes(w: &mut World, v0: Vec2, max: u32) -> Vec2 {
    for _ in 0..max {
        w.step();
        if w.balls()[0].vel != v0 {
            return w.balls()[0].vel;
        }
    }
    panic!("ball 0 kept its velocity {v0} for {max} steps");
}

// ---------------------------------------------------------------- timestep

/// The table with balls queued and rotation on, fed `frames` frames of `1 / frames` s.
fn table_after_one_second_at(fps: u32) -> (u64, u64) {
    let mut w = table(11);
    w.edit_settings(|st| st.rotate = true);
    w.launch(6);
    let mut stepper = Stepper::default();
    let mut steps = 0;
    for _ in 0..fps {
        steps += stepper.advance(1.0 / fps as f64, &mut w) as u64;
    }
    assert_eq!(steps, w.steps());
    (w.steps(), w.state_hash())
}

#[test]
fn one_second_is_the_same_state_at_every_frame_rate() {
    let reference = table_after_one_second_at(240);
    assert_eq!(reference.0, 240, "one second is 60 × 4 steps");
    for fps in [30, 60, 144] {
        assert_eq!(table_after_one_second_at(fps), reference, "at {fps} FPS");
    }
}

#[test]
fn uneven_frames_only_decide_how_many_steps_run() {
    let mut rng = StdRng::seed_from_u64(21);
    let mut fed = table(5);
    fed.edit_settings(|st| st.rotate = true);
    fed.launch(4);
    let mut stepper = Stepper::default();
    let mut steps = 0;
    for _ in 0..100 {
        steps += stepper.advance(rng.gen_range(0.0..0.03), &mut fed);
    }
    assert!(stepper.pending() < fed.step_seconds());
    let mut direct = table(5);
    direct.edit_settings(|st| st.rotate = true);
    direct.launch(4);
    for _ in 0..steps {
        direct.step();
    }
    assert_eq!(fed.state_hash(), direct.state_hash());
}

#[test]
fn a_very_slow_frame_is_cut_to_max_frame() {
    let mut w = table(1);
    let mut stepper = Stepper::default();
    let most = (stepper.max_frame / w.step_seconds()).round() as u32;
    assert_eq!(most, 24);
    let steps = stepper.advance(10.0, &mut w);
    assert_eq!(steps, most);
    assert!(stepper.pending() < w.step_seconds());
    // The debt is not carried over: the next ordinary frame runs ordinary work.
    assert!(stepper.advance(1.0 / 60.0, &mut w) <= 5);
}

#[test]
fn nonsense_frame_times_run_no_steps() {
    let mut w = table(1);
    let mut stepper = Stepper::default();
    for t in [f64::NAN, f64::INFINITY, -1.0, 0.0] {
        assert_eq!(stepper.advance(t, &mut w), 0, "frame {t}");
    }
    assert_eq!(w.steps(), 0);
}

// ---------------------------------------------------------------- momentum and energy

/// Two balls of different sizes meeting obliquely in free space.
fn two_balls(elasticity: f32) -> World {
    let mut w = world(vec![]);
    w.add_ball(Ball::new(
        v(400.0, 500.0),
        v(300.0, 20.0),
        10.0,
        elasticity,
        0,
    ));
    w.add_ball(Ball::new(
        v(470.0, 508.0),
        v(-100.0, 0.0),
        6.0,
        elasticity,
        1,
    ));
    w
}

#[test]
fn colliding_balls_conserve_momentum() {
    for e in [0.0, 0.5, 0.95, 1.0] {
        let mut w = two_balls(e);
        let before = momentum(&w);
        let v0 = w.balls()[0].vel;
        step_until_velocity_changes(&mut w, v0, 240);
        for _ in 0..60 {
            w.step();
        }
        assert!(
            close_v(momentum(&w), before, 1e-4),
            "e {e}: {before} → {}",
            momentum(&w)
        );
    }
}

#[test]
fn perfectly_elastic_balls_conserve_kinetic_energy() {
    let mut w = two_balls(1.0);
    w.edit_settings(|st| st.elasticity_scale = 1.0);
    let before = kinetic_energy(&w);
    let v0 = w.balls()[0].vel;
    step_until_velocity_changes(&mut w, v0, 240);
    for _ in 0..60 {
        w.step();
    }
    assert!(close(kinetic_energy(&w), before, 1e-3));
}

#[test]
fn inelastic_balls_lose_kinetic_energy() {
    let mut w = two_balls(0.5);
    let before = kinetic_energy(&w);
    let v0 = w.balls()[0].vel;
    step_until_velocity_changes(&mut w, v0, 240);
    assert!(kinetic_energy(&w) < 0.99 * before);
}

#[test]
fn a_crowd_of_balls_conserves_momentum() {
    let mut rng = StdRng::seed_from_u64(77);
    let mut w = world(vec![]);
    for i in 0..30 {
        let pos = v(rng.gen_range(400.0..600.0), rng.gen_range(400.0..600.0));
        let vel = v(rng.gen_range(-200.0..200.0), rng.gen_range(-200.0..200.0));
        w.add_ball(Ball::new(pos, vel, rng.gen_range(3.0..15.0), 0.9, i));
    }
    let before = momentum(&w);
    for _ in 0..240 {
        w.step();
    }
    assert!(w.counters().total.collisions > 10);
    // Relative to the momentum the balls carry, since their sum may nearly cancel.
    let carried: f32 = w.balls().iter().map(|b| b.mass * b.vel.length()).sum();
    let after = momentum(&w);
    assert!(
        (after - before).length() <= 1e-4 * carried,
        "{before} → {after} (carried {carried})"
    );
}

// ---------------------------------------------------------------- restitution

/// A ball with velocity `vel` and elasticity `ball_e` against a horizontal segment of
/// elasticity `shape_e` at y = 100, with elasticity scale `scale`; the velocity it leaves with.
fn bounce_off_floor(vel: Vec2, ball_e: f32, shape_e: f32, scale: f32) -> Vec2 {
    let floor = Geometry::Segment {
        a: v(0.0, 100.0),
        b: v(1000.0, 100.0),
    };
    let mut w = world(vec![stat(floor, shape_e)]);
    w.edit_settings(|st| st.elasticity_scale = scale);
    w.add_ball(Ball::new(v(500.0, 150.0), vel, 10.0, ball_e, 0));
    step_until_velocity_changes(&mut w, vel, 240)
}

#[test]
fn ball_leaves_a_static_segment_at_e_times_its_normal_speed() {
    for (ball_e, shape_e, scale) in [
        (1.0, 1.0, 1.0),
        (0.9, 0.8, 1.0),
        (1.0, 0.5, 0.5),
        (0.95, 0.9, 0.0),
        (1.0, 1.0, 2.0),
    ] {
        let e = ball_e * shape_e * scale;
        let out = bounce_off_floor(v(80.0, -200.0), ball_e, shape_e, scale);
        assert!(close(out.y, e * 200.0, 1e-4), "e {e}: {out}");
        assert!(close(out.x, 80.0, 1e-5), "tangential speed kept: {out}");
    }
}

#[test]
fn bumper_with_elasticity_above_one_kicks_the_ball_faster() {
    let bumper = Geometry::Circle {
        c: v(500.0, 100.0),
        r: 30.0,
    };
    let mut w = world(vec![stat(bumper, 1.5)]);
    let v0 = v(0.0, -200.0);
    w.add_ball(Ball::new(v(500.0, 200.0), v0, 10.0, 1.0, 0));
    let out = step_until_velocity_changes(&mut w, v0, 240);
    assert!(close_v(out, v(0.0, 300.0), 1e-4), "{out}");
}

#[test]
fn table_bumper_increases_the_speed_of_a_ball() {
    // The table's bumper at (780, 380), radius 32, elasticity 1.5.
    let mut w = table(2);
    w.edit_settings(|st| st.gravity = 0.0);
    let v0 = v(-400.0, 0.0);
    w.add_ball(Ball::new(v(860.0, 380.0), v0, 10.0, 1.0, 0));
    let out = step_until_velocity_changes(&mut w, v0, 240);
    assert!(close_v(out, v(600.0, 0.0), 1e-4), "{out}");
}

// ---------------------------------------------------------------- gates

/// A ball in the table's launch lane, below or above its gate (y = 560, normal down,
/// threshold 150 px/s), without gravity; its velocity after its first contact.
fn through_the_table_gate(y: f32, vy: f32) -> Vec2 {
    let mut w = table(3);
    w.edit_settings(|st| st.gravity = 0.0);
    w.add_ball(Ball::new(v(930.0, y), v(0.0, vy), 10.0, 1.0, 0));
    step_until_velocity_changes(&mut w, v(0.0, vy), 240)
}

#[test]
fn fast_ball_going_up_the_lane_passes_the_gate() {
    let mut w = table(3);
    w.edit_settings(|st| st.gravity = 0.0);
    w.add_ball(Ball::new(v(930.0, 500.0), v(0.0, 1000.0), 10.0, 1.0, 0));
    for _ in 0..20 {
        w.step();
    }
    assert!(w.balls()[0].pos.y > 570.0, "{:?}", w.balls()[0]);
    assert_eq!(w.balls()[0].vel, v(0.0, 1000.0));
}

#[test]
fn slow_ball_going_up_the_lane_bounces_off_the_gate() {
    assert!(close_v(
        through_the_table_gate(540.0, 100.0),
        v(0.0, -90.0),
        1e-4
    ));
}

#[test]
fn ball_falling_onto_the_gate_bounces_however_fast() {
    assert!(close_v(
        through_the_table_gate(580.0, -100.0),
        v(0.0, 90.0),
        1e-4
    ));
    assert!(close_v(
        through_the_table_gate(580.0, -1000.0),
        v(0.0, 900.0),
        1e-4
    ));
}

// ---------------------------------------------------------------- kinematic shapes

/// A bar from (100, 200) to (300, 200) turning about (200, 200) at 0.5 rev/s, and a ball of
/// elasticity `e` at rest just touching it from above at x = 250.
fn bar_and_resting_ball(e: f32, rotate: bool) -> World {
    let bar = Geometry::Segment {
        a: v(100.0, 200.0),
        b: v(300.0, 200.0),
    };
    let motion = Motion::Kinematic {
        pivot: v(200.0, 200.0),
        speed: 0.5,
    };
    let mut w = world(vec![Shape::new(bar, 1.0, motion)]);
    w.edit_settings(|st| st.rotate = rotate);
    w.add_ball(Ball::new(v(250.0, 209.5), Vec2::ZERO, 10.0, e, 0));
    w
}

/// The bar's velocity (px/s) at the point under ball 0.
fn bar_velocity_under_ball(w: &World) -> Vec2 {
    let bar = &w.shapes()[0];
    let Geometry::Segment { a, b } = bar.geom else {
        unreachable!()
    };
    let dir = (b - a).normalize();
    let q = a + dir * (w.balls()[0].pos - a).dot(dir);
    bar.velocity_at(q, true)
}

#[test]
fn ball_touching_a_turning_bar_takes_its_contact_point_velocity() {
    let mut w = bar_and_resting_ball(0.0, true);
    w.step();
    let u = bar_velocity_under_ball(&w);
    // ω·r = π rad/s × about 50 px ≈ 157 px/s, about upwards.
    assert!(close(u.length(), std::f32::consts::PI * 50.0, 1e-2), "{u}");
    assert!(u.y > 0.99 * u.length(), "{u}");
    assert!(
        close_v(w.balls()[0].vel, u, 1e-3),
        "{:?} vs {u}",
        w.balls()[0]
    );
}

#[test]
fn elastic_ball_touching_a_turning_bar_leaves_at_twice_its_velocity() {
    let mut w = bar_and_resting_ball(1.0, true);
    w.step();
    let u = bar_velocity_under_ball(&w);
    assert!(
        close_v(w.balls()[0].vel, 2.0 * u, 1e-3),
        "{:?} vs {u}",
        w.balls()[0]
    );
}

#[test]
fn resting_ball_on_a_bar_that_is_not_turning_gains_nothing() {
    let mut w = bar_and_resting_ball(1.0, false);
    w.step();
    assert_eq!(w.balls()[0].vel, Vec2::ZERO);
    assert!(
        close(w.balls()[0].pos.y, 210.0, 1e-5),
        "pushed out to touch"
    );
}

// ---------------------------------------------------------------- gravity and elasticity scale

#[test]
fn without_gravity_a_ball_keeps_its_velocity_exactly() {
    let mut w = world(vec![]);
    let v0 = v(120.0, -35.0);
    w.add_ball(Ball::new(v(300.0, 500.0), v0, 10.0, 1.0, 0));
    for _ in 0..240 {
        w.step();
    }
    assert_eq!(w.balls()[0].vel, v0);
    assert!(close_v(w.balls()[0].pos, v(420.0, 465.0), 1e-4));
}

#[test]
fn gravity_accelerates_a_ball_downwards() {
    let mut w = world(vec![]);
    w.edit_settings(|st| st.gravity = 300.0);
    w.add_ball(Ball::new(v(300.0, 900.0), Vec2::ZERO, 10.0, 1.0, 0));
    for _ in 0..240 {
        w.step();
    }
    let b = w.balls()[0];
    assert!(close(b.vel.y, -300.0, 1e-4), "{b:?}");
    assert_eq!(b.vel.x, 0.0);
    // Semi-implicit Euler: the drop after n steps is g·dt²·n(n+1)/2.
    assert!(close(900.0 - b.pos.y, 150.0 * 241.0 / 240.0, 1e-3), "{b:?}");
}

#[test]
fn changing_gravity_mid_run_changes_the_acceleration_from_then_on() {
    let mut w = world(vec![]);
    w.edit_settings(|st| st.gravity = 300.0);
    w.add_ball(Ball::new(v(300.0, 900.0), Vec2::ZERO, 10.0, 1.0, 0));
    for _ in 0..120 {
        w.step();
    }
    w.edit_settings(|st| st.gravity = 1000.0);
    for _ in 0..120 {
        w.step();
    }
    w.edit_settings(|st| st.gravity = 0.0);
    let before = w.balls()[0].vel;
    for _ in 0..120 {
        w.step();
    }
    assert!(close(before.y, -650.0, 1e-4), "{before}");
    assert_eq!(w.balls()[0].vel, before);
}

#[test]
fn scene_gravity_is_the_starting_gravity() {
    assert_eq!(table(1).settings().gravity, 400.0);
}

#[test]
fn elasticity_scale_multiplies_every_bounce() {
    let full = bounce_off_floor(v(0.0, -200.0), 0.9, 0.9, 1.0);
    let half = bounce_off_floor(v(0.0, -200.0), 0.9, 0.9, 0.5);
    assert!(close(half.y, full.y * 0.5, 1e-4), "{full} {half}");
}

// ---------------------------------------------------------------- determinism

fn table_run(seed: u64, steps: u32) -> u64 {
    let mut w = table(seed);
    w.edit_settings(|st| st.rotate = true);
    w.launch(15);
    for _ in 0..steps {
        w.step();
    }
    assert!(w.counters().launched > 0);
    w.state_hash()
}

#[test]
fn same_scene_and_seed_give_the_same_state_after_5000_steps() {
    assert_eq!(table_run(42, 5000), table_run(42, 5000));
}

#[test]
fn different_seeds_give_different_states() {
    assert_ne!(table_run(42, 500), table_run(43, 500));
}

// ---------------------------------------------------------------- degenerate inputs

#[test]
fn degenerate_balls_keep_the_world_finite() {
    let mut w = table(9);
    w.edit_settings(|st| st.rotate = true);
    w.edit_settings(|st| st.elasticity_scale = 10.0);
    let spots = [
        v(480.0, 300.0), // on the spinning bar
        v(860.0, 604.0), // centre of the corner arc
        v(780.0, 380.0), // centre of the bumper
        v(170.0, 280.0), // on a segment
        v(300.0, 160.0), // a teardrop's tip
        v(900.0, 560.0), // a guard point
    ];
    for (i, &p) in spots.iter().enumerate() {
        w.add_ball(Ball::new(p, Vec2::ZERO, 0.0, 1.0, 0));
        w.add_ball(Ball::new(p, v(1e9, -1e9), 10.0, 10.0, 1));
        w.add_ball(Ball::new(p, v(-3.0, 0.0), 8.0, 10.0, 2));
        w.add_ball(Ball::new(p, v(0.0, 1e9), 8.0, 1.0, i as u32));
    }
    for _ in 0..5 {
        w.add_ball(Ball::new(v(500.0, 500.0), Vec2::ZERO, 12.0, 10.0, 3));
    }
    w.add_ball(Ball::new(v(1.0, 1.0), v(0.0, 0.0), f32::NAN, 1.0, 4));
    w.add_ball(Ball::new(v(2.0, 2.0), v(0.0, 0.0), f32::INFINITY, 1.0, 4));
    w.edit_settings(|st| st.ball_radius = 0.0);
    w.launch(3);
    for _ in 0..2000 {
        w.step();
        assert!(w.all_finite(), "non-finite at step {}", w.steps());
    }
}

#[test]
fn extreme_settings_are_clamped_not_fatal() {
    let mut w = table(4);
    w.edit_settings(|st| st.motion_iterations = 0);
    w.edit_settings(|st| st.collision_iterations = 0);
    w.edit_settings(|st| st.gravity = 1e7);
    w.edit_settings(|st| st.launch_speed = 1e9);
    w.edit_settings(|st| st.ball_radius = -5.0);
    w.launch(3);
    for _ in 0..300 {
        w.step();
    }
    assert!(w.step_seconds().is_finite());
    assert!(w.all_finite());
    assert!(w.balls().iter().all(|b| b.radius == 0.0));
}

// ---------------------------------------------------------------- counters

#[test]
fn launched_counts_the_balls_that_entered() {
    let mut w = table(6);
    w.launch(5);
    assert_eq!(w.counters().launched, 0);
    for _ in 0..600 {
        w.step();
    }
    assert_eq!(w.counters().launched, 5);
    assert_eq!(w.pending_launches(), 0);
    assert_eq!(w.balls().len(), 5);
    w.clear();
    assert_eq!(w.counters().launched, 0);
    assert!(w.balls().is_empty());
}

#[test]
fn balls_wait_for_the_launch_point_to_clear() {
    let mut w = table(6);
    w.launch(3);
    w.step();
    assert_eq!(w.counters().launched, 1);
    assert_eq!(w.pending_launches(), 2);
}

#[test]
fn strays_counts_balls_outside_the_play_area() {
    let mut w = world(vec![]);
    w.add_ball(Ball::new(v(-50.0, 300.0), Vec2::ZERO, 10.0, 1.0, 0));
    w.add_ball(Ball::new(v(500.0, 300.0), Vec2::ZERO, 10.0, 1.0, 0));
    w.add_ball(Ball::new(v(500.0, 1e6), Vec2::ZERO, 10.0, 1.0, 0));
    w.step();
    assert_eq!(w.counters().strays, 2);
    common::remove_ball(&mut w, 0);
    w.step();
    assert_eq!(w.counters().strays, 1);
}

#[test]
fn overlaps_counts_co_located_balls_until_they_separate() {
    // Zero-radius balls never push each other apart, so they stay co-located until their
    // velocities part them. (Balls with a radius are pushed apart within the step that finds
    // them, before the counters are taken: see the next test.)
    let mut w = world(vec![]);
    let at = v(500.0, 500.0);
    w.add_ball(Ball::new(v(100.0, 100.0), Vec2::ZERO, 10.0, 1.0, 0));
    w.add_ball(Ball::new(at, Vec2::ZERO, 0.0, 1.0, 1));
    w.add_ball(Ball::new(at, Vec2::ZERO, 0.0, 1.0, 2));
    for _ in 0..10 {
        w.step();
        assert_eq!(w.counters().co_located, 2);
    }
    // Send the last one away.
    common::remove_ball(&mut w, 2);
    w.add_ball(Ball::new(at, v(100.0, 0.0), 0.0, 1.0, 2));
    w.step();
    assert_eq!(w.counters().co_located, 0);
    assert_eq!(w.balls().len(), 3);
}

#[test]
fn co_located_balls_with_a_radius_are_separated_within_one_step() {
    let mut w = world(vec![]);
    for _ in 0..2 {
        w.add_ball(Ball::new(v(500.0, 500.0), Vec2::ZERO, 10.0, 1.0, 0));
    }
    w.step();
    let (a, b) = (w.balls()[0], w.balls()[1]);
    assert!(close((a.pos - b.pos).length(), 20.0, 1e-4), "{a:?} {b:?}");
    assert_eq!(w.counters().co_located, 0);
    assert!(close_v(momentum(&w), Vec2::ZERO, 1e-4));
}

#[test]
fn the_last_second_counters_show_the_second_in_progress_until_one_completes() {
    let mut w = common::table(1);
    w.launch(20);
    let (s, factor) = w.recent_second();
    assert_eq!((*s, factor), (Default::default(), 1.0), "nothing run yet");
    let per_second = w.steps_per_second() as usize;
    for _ in 0..per_second / 4 {
        w.step();
    }
    let (s, factor) = w.recent_second();
    assert_eq!(factor, 4.0, "a quarter of a second so far");
    assert!(s.iterations > 0 && s.broad.aabb_tests > 0);
    assert_eq!(*s, w.counters().total);
    for _ in per_second / 4..per_second {
        w.step();
    }
    let (s, factor) = w.recent_second();
    assert_eq!(factor, 1.0, "a whole second");
    assert_eq!(*s, w.counters().last_second);
    assert_eq!(*s, w.counters().total);
    w.step();
    let (s, factor) = w.recent_second();
    assert_eq!(
        (*s, factor),
        (w.counters().last_second, 1.0),
        "the complete one stays"
    );
}

/// Each ball's start of the last step and its impacts, as the swept-path overlay draws them.
fn paths(w: &World) -> Vec<(Vec2, Vec<Vec2>)> {
    let mut out: Vec<(Vec2, Vec<Vec2>)> = w.step_starts().iter().map(|&s| (s, vec![])).collect();
    for h in w.step_impacts() {
        out[h.ball as usize].1.push(h.centre);
    }
    out
}

#[test]
fn deleting_a_ball_keeps_the_swept_paths_on_their_balls() {
    // The table with swept tests and six balls launched: delete one between steps (a
    // right-click). Before, the paths stayed by index, so the overlay drew lines from the
    // balls after the deleted one to the places of the balls before them.
    let mut w = table(1);
    w.edit_settings(|s| s.tunnelling = collide::Tunnelling::Exact);
    w.launch(6);
    let mut steps = 0;
    while (w.balls().len() < 6 || w.step_impacts().is_empty()) && steps < 20_000 {
        w.step();
        steps += 1;
    }
    assert_eq!(w.balls().len(), 6);
    let before = paths(&w);
    let gone = before
        .iter()
        .position(|p| !p.1.is_empty())
        .expect("a ball with an impact");
    common::remove_ball(&mut w, gone);
    let mut expected = before;
    expected.remove(gone);
    assert_eq!(paths(&w), expected, "every path follows its ball");
    for (b, (start, _)) in w.balls().iter().zip(&expected) {
        assert!((b.pos - *start).length() < 50.0, "{b:?} from {start}");
    }
}

#[test]
fn pool_with_soft_contacts_runs_on_after_a_ball_is_pocketed() {
    // A pocketed ball left the last pairs pointing past the balls: the step's counting
    // indexed out of bounds.
    let mut w = collide::Scene::builtin("pool").expect("built in").build(1);
    w.edit_settings(|s| s.solver = collide::world::Solver::Soft);
    w.launch(50);
    let start = w.balls().len() + 50;
    for _ in 0..600 * w.steps_per_second() / 60 {
        w.step();
    }
    assert!(w.balls().len() < start, "some ball was pocketed");
}
