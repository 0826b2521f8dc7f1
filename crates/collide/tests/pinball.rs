//! The pinball scene and the play machinery: flippers, the plunger, bumpers that score, the
//! drain, and determinism of a game played with inputs.

mod common;

use collide::world::Ball;
use collide::{Control, Motion, Scene, Stepper, Vec2, World};

const PINBALL: &str = include_str!("../scenes/pinball.ron");

fn pinball(seed: u64) -> World {
    Scene::parse(PINBALL, "pinball.ron")
        .expect("the pinball scene parses")
        .build(seed)
}

/// The pinball table with no ball and no serving, for placing balls by hand.
fn empty_pinball() -> World {
    let mut scene = Scene::parse(PINBALL, "pinball.ron").expect("the pinball scene parses");
    let table = scene.pinball.as_mut().expect("a played table");
    (table.serve, table.bank_bonus) = (false, 0);
    let mut w = scene.build(1);
    w.clear();
    w
}

fn ball_at(x: f32, y: f32, vel: Vec2) -> Ball {
    Ball::new(Vec2::new(x, y), vel, 10.0, 0.8, 0)
}

/// Runs `n` steps, draining hits as the app does.
fn run(w: &mut World, n: u32) {
    for _ in 0..n {
        w.step();
        w.drain_hits();
    }
}

/// Steps per simulated second at the default four motion iterations.
const HZ: u32 = 240;

#[test]
fn pinball_scene_runs_6000_steps_finite_with_no_strays() {
    let mut w = pinball(7);
    w.launch(3);
    for k in 0..6000u32 {
        // Flip now and then, and fire the plunger every few seconds.
        common::hold(&mut w, Control::LeftFlipper, k % 300 < 40);
        common::hold(&mut w, Control::RightFlipper, (k + 150) % 300 < 40);
        common::hold(&mut w, Control::Plunger, k % 1200 < 200);
        w.step();
        assert!(w.all_finite(), "non-finite state at step {k}");
        assert_eq!(w.counters().strays, 0, "a ball left the table at step {k}");
    }
    assert!(
        !w.balls().is_empty(),
        "a ball is always in play (served when drained)"
    );
}

/// A bar flipper 100 px long pivoting at its left end, raising 40° at 3 rev/s on the left
/// control, with gravity 500 px/s².
const BAR: &str = r#"Scene(
    name: "bar", bounds: (min: (0, 0), max: (400, 400)),
    launch: (pos: (300, 300), dir: (0, 1)), gravity: Some(500),
    shapes: [Group(shapes: [Segment(a: (100, 100), b: (200, 100), elasticity: 0.5)],
        motion: Flipper(pivot: (100, 100), raised: 40, speed: 3, control: LeftFlipper))],
)"#;

#[test]
fn a_ball_resting_on_a_flipper_is_flung_up_when_it_flips() {
    let mut w = Scene::parse(BAR, "bar").unwrap().build(1);
    // Raise and lower it once: it comes back to exactly its rest pose.
    common::hold(&mut w, Control::LeftFlipper, true);
    run(&mut w, 60);
    let flipper = w.shapes().iter().find(|s| s.is_kinematic()).unwrap();
    assert!((flipper.angle - 40f32.to_radians()).abs() < 1e-5);
    common::hold(&mut w, Control::LeftFlipper, false);
    run(&mut w, 60);
    let flipper = w.shapes().iter().find(|s| s.is_kinematic()).unwrap();
    assert_eq!(flipper.angle, 0.0);
    // A ball set on it 60 px from the pivot comes to rest.
    w.add_ball(ball_at(160.0, 110.0, Vec2::ZERO));
    run(&mut w, 120);
    let rest = w.balls()[0];
    assert!(rest.vel.length() < 5.0, "ball at rest, got {}", rest.vel);
    assert!((rest.pos.y - 110.0).abs() < 1.0);
    // Flip: the flipper's surface there moves at ω·r = 3·2π·60 ≈ 1131 px/s.
    common::hold(&mut w, Control::LeftFlipper, true);
    let mut top_speed = 0.0f32;
    for _ in 0..12 {
        w.step();
        top_speed = top_speed.max(w.balls()[0].vel.y);
    }
    let surface = 3.0 * std::f32::consts::TAU * 60.0;
    assert!(
        top_speed > 0.7 * surface && top_speed < 2.5 * surface,
        "flung at {top_speed} px/s, surface {surface}"
    );
    run(&mut w, 60);
    assert!(w.balls()[0].pos.y > 200.0, "the ball flew up");
}

#[test]
fn flippers_turn_with_rotation_off() {
    let mut w = Scene::parse(BAR, "bar").unwrap().build(1);
    assert!(!w.settings().rotate);
    common::hold(&mut w, Control::LeftFlipper, true);
    run(&mut w, 4);
    let flipper = w.shapes().iter().find(|s| s.is_kinematic()).unwrap();
    // 3 rev/s for 4 steps of 1/240 s: 0.05 rev.
    assert!((flipper.angle - 0.05 * std::f32::consts::TAU).abs() < 1e-5);
    assert!(flipper.spin > 18.0);
}

/// The served ball settles on the plunger; the plunger is held `hold` steps and released.
/// Returns the ball's fastest upward speed and its highest point in the next two seconds.
fn fire(hold: u32) -> (f32, f32) {
    let mut w = pinball(3);
    run(&mut w, HZ);
    assert_eq!(w.balls().len(), 1, "a ball is served");
    let b = w.balls()[0];
    assert!(
        b.vel.length() < 5.0 && b.pos.x > 540.0,
        "resting on the plunger: {b:?}"
    );
    common::hold(&mut w, Control::Plunger, true);
    run(&mut w, hold);
    common::hold(&mut w, Control::Plunger, false);
    let (mut speed, mut top) = (0.0f32, 0.0f32);
    for _ in 0..2 * HZ {
        w.step();
        w.drain_hits();
        if let Some(b) = w.balls().first() {
            speed = speed.max(b.vel.y);
            top = top.max(b.pos.y);
        }
    }
    (speed, top)
}

#[test]
fn holding_and_releasing_the_plunger_fires_the_ball_past_the_gate() {
    let (speed, top) = fire(HZ);
    assert!(
        top > 700.0,
        "the ball went up the lane past the gate at y 600 and round the arc: top {top}"
    );
    assert!(speed > 1000.0, "fired at {speed} px/s");
}

#[test]
fn a_longer_pull_fires_harder() {
    let (short, _) = fire(HZ / 8);
    let (long, _) = fire(HZ);
    assert!(long > 1.5 * short, "long pull {long} px/s, short {short}");
}

#[test]
fn a_bumper_hit_adds_its_points_and_kicks() {
    let mut w = empty_pinball();
    // Dropped onto the top of the middle bumper (centre (280, 470), radius 26).
    w.add_ball(ball_at(280.0, 530.0, Vec2::ZERO));
    let mut kicked = None;
    for _ in 0..HZ {
        let before = w.play().score;
        w.step();
        w.drain_hits();
        if w.play().score != before {
            kicked = Some((w.play().score - before, w.balls()[0].vel));
            break;
        }
    }
    let (points, vel) = kicked.expect("the ball hit the bumper");
    assert_eq!(points, 100);
    assert!(vel.y >= 650.0, "kicked away at {vel}");
}

#[test]
fn targets_light_when_hit_and_score() {
    let mut w = empty_pinball();
    // Dropped onto the first target, rect (110..150, 730..742).
    w.add_ball(ball_at(130.0, 780.0, Vec2::ZERO));
    run(&mut w, HZ / 2);
    assert!(w.play().score >= 500);
    let plays = (0..w.shapes().len()).map(|i| w.play().shape(i));
    let lit: Vec<_> = plays.filter(|p| p.lit).collect();
    assert!(!lit.is_empty(), "the target lit");
    let t = lit[0].target;
    assert!(lit.iter().all(|p| p.target == t), "only that target lit");
}

#[test]
fn a_lit_target_and_the_score_survive_a_saved_state() {
    let mut w = empty_pinball();
    w.add_ball(ball_at(130.0, 780.0, Vec2::ZERO));
    run(&mut w, HZ / 2);
    let lit = |w: &World| {
        (0..w.shapes().len())
            .filter(|&i| w.play().shape(i).lit)
            .count()
    };
    assert!(lit(&w) > 0, "the target lit");
    let text = ron::ser::to_string(&w.save_state()).unwrap();
    let mut back = pinball(1);
    back.restore_state(&ron::from_str(&text).unwrap()).unwrap();
    assert_eq!((lit(&back), back.play().score), (lit(&w), w.play().score));
    for i in 0..w.shapes().len() {
        assert_eq!(back.play().shape(i), w.play().shape(i), "shape {i}");
    }
    run(&mut w, HZ);
    run(&mut back, HZ);
    assert_eq!(back.state_hash(), w.state_hash());
}

#[test]
fn a_ball_in_the_drain_is_removed_and_counted_lost() {
    let mut w = empty_pinball();
    // Between the flippers, falling.
    w.add_ball(ball_at(280.0, 100.0, Vec2::new(0.0, -200.0)));
    run(&mut w, HZ / 2);
    assert!(w.balls().is_empty());
    assert_eq!(w.play().lost, 1);
}

#[test]
fn a_new_ball_is_served_on_the_plunger_after_a_loss() {
    let mut w = pinball(1);
    run(&mut w, 1);
    assert_eq!(w.balls().len(), 1);
    w.clear();
    w.add_ball(ball_at(280.0, 90.0, Vec2::new(0.0, -300.0)));
    run(&mut w, HZ / 2);
    assert_eq!(w.play().lost, 1);
    assert_eq!(w.balls().len(), 1, "served again");
    assert!(w.balls()[0].pos.x > 540.0, "in the plunger lane");
}

/// A game: controls change at whole and half seconds; `fps` frames through the stepper.
fn game_hash(fps: u32) -> (u64, u64) {
    let script: &[(f64, Control, bool)] = &[
        (0.5, Control::Plunger, true),
        (1.5, Control::Plunger, false),
        (3.0, Control::LeftFlipper, true),
        (3.5, Control::LeftFlipper, false),
        (4.0, Control::RightFlipper, true),
        (4.5, Control::RightFlipper, false),
        (6.0, Control::LeftFlipper, true),
        (6.0, Control::RightFlipper, true),
        (7.0, Control::LeftFlipper, false),
        (7.0, Control::RightFlipper, false),
    ];
    let mut w = pinball(5);
    let mut stepper = Stepper::default();
    for frame in 0..10 * fps {
        let t = frame as f64 / fps as f64;
        for &(at, c, down) in script {
            if ((at * fps as f64).round() as u32) == frame {
                common::hold(&mut w, c, down);
            }
        }
        debug_assert!(t < 10.0);
        stepper.advance(1.0 / fps as f64, &mut w);
        w.drain_hits();
    }
    assert_eq!(w.steps(), 10 * HZ as u64, "{fps} FPS ran every step");
    (w.state_hash(), w.play().score)
}

#[test]
fn the_same_inputs_at_different_frame_rates_give_the_same_hash() {
    let reference = game_hash(60);
    for fps in [30, 120, 240] {
        assert_eq!(game_hash(fps), reference, "{fps} FPS");
    }
}

#[test]
fn plunger_and_flipper_motions_are_built_from_the_scene() {
    let w = pinball(1);
    let flippers = w
        .shapes()
        .iter()
        .filter(|s| matches!(s.motion, Motion::Flipper { .. }))
        .count();
    let plungers = w
        .shapes()
        .iter()
        .filter(|s| matches!(s.motion, Motion::Plunger { .. }))
        .count();
    assert_eq!(flippers, 2);
    assert!(plungers >= 1);
    assert!(w.is_game());
    assert!(common::close(w.settings().gravity, 500.0, 1e-6));
}

#[test]
fn bad_play_fields_are_refused_with_the_field_named() {
    let bad = PINBALL.replace("travel: 36", "travel: -5");
    let e = Scene::parse(&bad, "p.ron").unwrap_err();
    assert!(e.message.contains("motion.travel"), "{e}");
    let bad = PINBALL.replace("drain: (min: (20, 0)", "drain: (min: (900, 0)");
    let e = Scene::parse(&bad, "p.ron").unwrap_err();
    assert!(e.message.contains("pinball.drain"), "{e}");
    let bad = PINBALL.replace("kick: 700", "kick: -1");
    let e = Scene::parse(&bad, "p.ron").unwrap_err();
    assert!(e.message.contains("kick"), "{e}");
}

#[test]
fn pinball_stays_finite_and_contained_in_every_tunnelling_mode() {
    for &mode in collide::Tunnelling::ALL {
        let mut w = pinball(11);
        w.edit_settings(|st| st.tunnelling = mode);
        for k in 0..2400u32 {
            common::hold(&mut w, Control::LeftFlipper, k % 200 < 30);
            common::hold(&mut w, Control::RightFlipper, (k + 100) % 200 < 30);
            common::hold(&mut w, Control::Plunger, (240..480).contains(&k));
            w.step();
            w.drain_hits();
            assert!(w.all_finite(), "{mode:?}: non-finite at step {k}");
            assert_eq!(w.counters().strays, 0, "{mode:?}: stray at step {k}");
        }
    }
}

#[test]
fn a_released_plunger_reports_its_firing_speed_and_comes_home_exactly() {
    let mut w = empty_pinball();
    let plunger = |w: &World| {
        *w.shapes()
            .iter()
            .find(|s| matches!(s.motion, Motion::Plunger { .. }))
            .unwrap()
    };
    let home = plunger(&w).aabb();
    common::hold(&mut w, Control::Plunger, true);
    run(&mut w, HZ / 2);
    // 36 px/s for half a second.
    let pulled = plunger(&w);
    assert!((pulled.pull - 18.0).abs() < 0.01, "{}", pulled.pull);
    assert!((pulled.aabb().min.y - (home.min.y - pulled.pull)).abs() < 1e-3);
    common::hold(&mut w, Control::Plunger, false);
    w.step();
    // Fires at stiffness 45/s × 18 px = 810 px/s, up along its axis.
    let firing = plunger(&w);
    let v = firing.velocity_at(Vec2::new(560.0, 70.0), false);
    assert!((v.y - 810.0).abs() < 1.0 && v.x == 0.0, "{v}");
    run(&mut w, HZ / 4);
    let back = plunger(&w);
    assert_eq!(back.pull, 0.0);
    assert_eq!(back.aabb(), home);
    assert_eq!(back.velocity_at(Vec2::new(560.0, 70.0), false), Vec2::ZERO);
}
