//! Saved states and recordings: a state saved at step k and restored runs on to the same
//! hash; a scripted run replays to the same hash at every checkpoint, at any frame rate;
//! a tampered recording diverges at the right step; a branch records a new future.

use collide::{
    BroadKind, Control, Input, Recording, SavedState, Scene, Settings, Stepper, Tunnelling, Vec2,
    World,
};
use collide_replay::{Tape, CHECK_EVERY};

const TABLE: &str = include_str!("../../collide/scenes/table.ron");
const LAB: &str = include_str!("../../collide/scenes/lab.ron");

fn build(text: &str, seed: u64) -> World {
    Scene::parse(text, "scene").unwrap().build(seed)
}

/// A busy world: launches, a fill, rotation, run for `steps` steps.
fn busy(text: &str, seed: u64, tunnelling: Tunnelling, steps: u64) -> World {
    let mut w = build(text, seed);
    w.edit_settings(|st| st.rotate = true);
    w.edit_settings(|st| st.tunnelling = tunnelling);
    w.launch(12);
    w.fill_random(40, (3.0, 6.0), 200.0);
    for _ in 0..steps {
        w.step();
    }
    w
}

#[test]
fn a_restored_state_runs_on_to_the_same_hash() {
    for (text, seed, mode) in [
        (TABLE, 1, Tunnelling::Off),
        (TABLE, 99, Tunnelling::Exact),
        (LAB, 7, Tunnelling::Binary),
        (LAB, 3, Tunnelling::Off),
    ] {
        for k in [0, 37, 400] {
            let mut a = busy(text, seed, mode, k);
            // Launches still queued, so the generator's position matters.
            a.launch(5);
            let saved = SavedState::of("scene", text, seed, &a);
            let ron = ron::ser::to_string(&saved).unwrap();
            let (_, mut b) = SavedState::parse(&ron, "state.ron").unwrap();
            assert_eq!(b.state_hash(), a.state_hash());
            assert_eq!(b.steps(), a.steps());
            for _ in 0..500 {
                a.step();
                b.step();
            }
            assert_eq!(a.state_hash(), b.state_hash(), "seed {seed} k {k} {mode:?}");
            assert_eq!(a.balls().len(), b.balls().len());
            assert_eq!(a.counters().launched, b.counters().launched);
        }
    }
}

#[test]
fn a_state_survives_ron_text_bit_for_bit() {
    let mut w = busy(TABLE, 5, Tunnelling::Off, 300);
    // Awkward numbers: negative zero, subnormals, the largest finite.
    w.add_ball(collide::world::Ball::new(
        Vec2::new(-0.0, 1.0e-40),
        Vec2::new(f32::MAX, -f32::MIN_POSITIVE),
        3.0,
        0.9,
        7,
    ));
    let state = w.save_state();
    let text = ron::ser::to_string(&state).unwrap();
    let back: collide::WorldState = ron::from_str(&text).unwrap();
    for (a, b) in state.balls.iter().zip(&back.balls) {
        for (x, y) in [
            (a.pos.x, b.pos.x),
            (a.pos.y, b.pos.y),
            (a.vel.x, b.vel.x),
            (a.vel.y, b.vel.y),
        ] {
            assert_eq!(x.to_bits(), y.to_bits());
        }
    }
    assert_eq!(back, state);
    assert_eq!(ron::ser::to_string(&back).unwrap(), text);
}

#[test]
fn a_state_of_another_scene_or_with_a_nan_is_refused_naming_the_field() {
    let w = busy(TABLE, 1, Tunnelling::Off, 10);
    let saved = SavedState::of("table", TABLE, 1, &w);
    let mut other = saved.clone();
    other.scene = LAB.to_string();
    let text = ron::ser::to_string_pretty(&other, Default::default()).unwrap();
    let e = SavedState::parse(&text, "s.ron").err().unwrap();
    assert!(e.message.contains("field `shapes`"), "{e}");
    assert!(e.line >= 1 && e.col >= 1, "{e}");

    let mut nan = saved.clone();
    nan.state.balls[0].pos.x = f32::NAN;
    let text = ron::ser::to_string_pretty(&nan, Default::default()).unwrap();
    let e = SavedState::parse(&text, "s.ron").err().unwrap();
    assert!(e.message.contains("balls[0]"), "{e}");

    let text = ron::ser::to_string(&saved)
        .unwrap()
        .replace("seed:", "sed:");
    let e = SavedState::parse(&text, "s.ron").err().unwrap();
    assert!(e.to_string().starts_with("s.ron:1:"), "{e}");
}

/// Records a scripted run, feeding frames of `fps` through a stepper: launches, a grab
/// and throw, setting changes mid-run, controls, a fill, a broad-phase switch.
fn scripted(fps: f64) -> (Tape, World) {
    let mut world = build(TABLE, 11);
    let mut tape = Tape::recording("table", TABLE, 11, &world);
    let mut stepper = Stepper::default();
    let frames = (6.0 * fps) as u32;
    for f in 0..frames {
        let t = f as f64 / fps;
        let events: Vec<Input> = script(t, 1.0 / fps, &world);
        for e in events {
            let _ = tape.input(&mut world, e);
        }
        stepper.advance_with(1.0 / fps, &mut world, |w| tape.step(w));
    }
    (tape, world)
}

/// What happens in the frame starting at `t` s (frame length `dt`).
fn script(t: f64, dt: f64, world: &World) -> Vec<Input> {
    let at = |s: f64| t <= s && s < t + dt;
    let mut out = Vec::new();
    if at(0.0) {
        out.push(Input::Launch(8));
    }
    if at(1.0) {
        out.push(Input::LaunchAt {
            pos: Vec2::new(300.0, 400.0),
            vel: Vec2::new(250.0, 90.0),
        });
        out.push(Input::Control {
            control: Control::LeftFlipper,
            down: true,
        });
    }
    if let (true, Some(ball)) = (at(1.5), world.ball_id(0)) {
        out.push(Input::MoveBall {
            ball,
            pos: Vec2::new(400.0, 300.0),
            vel: Vec2::new(-600.0, 200.0),
        });
    }
    if at(2.0) {
        let settings = Settings {
            rotate: true,
            motion_iterations: 3,
            gravity: 450.0,
            ..world.settings().clone()
        };
        out.push(Input::Settings(settings));
        out.push(Input::SetBroad(BroadKind::Quadtree.name().to_string()));
    }
    if at(3.0) {
        out.push(Input::Fill {
            n: 30,
            radius: (4.0, 6.0),
            speed: 300.0,
        });
        out.push(Input::Control {
            control: Control::LeftFlipper,
            down: false,
        });
    }
    if at(4.0) {
        out.extend(world.ball_id(2).map(Input::RemoveBall));
        let settings = Settings {
            tunnelling: Tunnelling::Exact,
            ..world.settings().clone()
        };
        out.push(Input::Settings(settings));
    }
    out
}

fn replayed(rec: &Recording) -> (Option<collide_replay::Divergence>, World) {
    let text = ron::ser::to_string(rec).unwrap();
    let (rec, mut world) = Recording::parse(&text, "rec.ron").unwrap();
    let d = collide_replay::replay(rec, &mut world);
    (d, world)
}

#[test]
fn a_scripted_run_replays_to_the_same_hash_at_every_checkpoint() {
    let (mut tape, world) = scripted(60.0);
    let rec = tape.record(&world).clone();
    assert!(rec.checkpoints.len() >= 20, "{}", rec.checkpoints.len());
    assert!(rec.inputs.len() >= 10);
    assert_eq!(rec.checkpoints.last().unwrap().0, world.steps());
    let (d, end) = replayed(&rec);
    assert_eq!(d, None);
    assert_eq!(end.state_hash(), world.state_hash());
    assert_eq!(end.steps(), world.steps());
    assert_eq!(end.broad().kind(), BroadKind::Quadtree);
}

#[test]
fn a_replay_fed_at_another_frame_rate_checks_every_checkpoint_the_same() {
    let (mut tape, world) = scripted(60.0);
    let rec = tape.record(&world).clone();
    let text = ron::ser::to_string(&rec).unwrap();
    for fps in [23.0, 144.0] {
        let (rec, mut w) = Recording::parse(&text, "rec.ron").unwrap();
        let end = rec.end;
        let mut player = Tape::replaying(rec, &w);
        let mut stepper = Stepper::default();
        let mut checked = 0;
        while w.steps() < end {
            stepper.advance_with(1.0 / fps, &mut w, |w| {
                if w.steps() < end {
                    player.step(w);
                }
            });
            if let Some((_, a, b)) = player.last_checked() {
                assert_eq!(a, b);
                checked += 1;
            }
        }
        assert!(checked > 0);
        assert_eq!(player.divergence(), None, "{fps} FPS");
        assert_eq!(w.state_hash(), world.state_hash(), "{fps} FPS");
    }
}

#[test]
fn recordings_made_at_different_frame_rates_end_alike_when_inputs_fall_on_the_same_steps() {
    // 30 and 120 FPS put the script's inputs on whole frames, hence on the same steps as
    // 60 FPS (all times are multiples of 1/30 s... and 4 motion iterations).
    let (_, a) = scripted(60.0);
    let (_, b) = scripted(120.0);
    assert_eq!(a.steps(), b.steps());
    assert_eq!(a.state_hash(), b.state_hash());
}

#[test]
fn a_tampered_recording_diverges_at_the_first_changed_step() {
    let (mut tape, world) = scripted(60.0);
    let mut rec = tape.record(&world).clone();
    // Change an input: the launch at 1 s goes slightly faster.
    let k = rec
        .inputs
        .iter()
        .position(|(_, i)| matches!(i, Input::LaunchAt { .. }))
        .unwrap();
    let step = rec.inputs[k].0;
    if let Input::LaunchAt { vel, .. } = &mut rec.inputs[k].1 {
        vel.x += 1.0;
    }
    let (d, _) = replayed(&rec);
    let d = d.expect("a divergence");
    let first_after = rec.checkpoints.iter().find(|c| c.0 > step).unwrap().0;
    assert_eq!(d.step, first_after);
    assert_ne!(d.recorded, d.replayed);

    // Change a checkpoint's hash: reported at exactly that step.
    let mut rec = tape.record(&world).clone();
    rec.checkpoints[7].1 ^= 1;
    let (d, _) = replayed(&rec);
    assert_eq!(d.map(|d| d.step), Some(rec.checkpoints[7].0));
}

#[test]
fn seeking_back_restores_the_recorded_hashes() {
    let (mut tape, mut world) = scripted(60.0);
    let end_hash = world.state_hash();
    let end = tape.end();
    for target in [0, 100, 600, 601, 1000, 60, end] {
        tape.seek(&mut world, target);
        assert_eq!(world.steps(), target);
        if let Some(h) = tape.recorded_hash(target) {
            // The recorded hash is right after the step, before its inputs; these targets
            // have no input on them except 0 (inputs at step 0 come before any step).
            if !tape.record(&world).inputs.iter().any(|(s, _)| *s == target) {
                assert_eq!(world.state_hash(), h, "step {target}");
            }
        }
        assert_eq!(tape.divergence(), None);
    }
    assert_eq!(world.state_hash(), end_hash);
    assert!(tape.at_end(&world));
}

#[test]
fn an_input_while_rewound_branches_and_the_branch_replays() {
    let (mut tape, mut world) = scripted(60.0);
    let k = 500;
    tape.seek(&mut world, k);
    assert!(!tape.at_end(&world));
    tape.input(&mut world, Input::Launch(3)).unwrap();
    assert!(tape.at_end(&world));
    assert_eq!(tape.end(), k);
    assert!(tape.record(&world).inputs.iter().all(|(s, _)| *s <= k));
    assert!(tape.record(&world).checkpoints.iter().all(|c| c.0 <= k));
    for _ in 0..700 {
        tape.step(&mut world);
    }
    assert_eq!(tape.end(), k + 700);
    let (d, end) = replayed(tape.record(&world));
    assert_eq!(d, None);
    assert_eq!(end.state_hash(), world.state_hash());
    // The branch differs from the original future.
    let (_, original) = scripted(60.0);
    assert_ne!(original.state_hash(), world.state_hash());
}

#[test]
fn bad_inputs_in_a_recording_are_refused_naming_the_field() {
    let (mut tape, world) = scripted(60.0);
    let mut rec = tape.record(&world).clone();
    rec.inputs.push((
        rec.end,
        Input::Fill {
            n: u32::MAX,
            radius: (1.0, 2.0),
            speed: 0.0,
        },
    ));
    let text = ron::ser::to_string_pretty(&rec, Default::default()).unwrap();
    let e = Recording::parse(&text, "r.ron").err().unwrap();
    assert!(e.message.contains("field `inputs["), "{e}");
    assert!(e.line > 1, "{e}");

    let mut rec = tape.record(&world).clone();
    rec.checkpoints.swap(1, 2);
    let text = ron::ser::to_string(&rec).unwrap();
    let e = Recording::parse(&text, "r.ron").err().unwrap();
    assert!(e.message.contains("checkpoints["), "{e}");
    let mut world = build(TABLE, 1);
    let nan = Input::LaunchAt {
        pos: Vec2::new(f32::NAN, 0.0),
        vel: Vec2::ZERO,
    };
    assert!(world.apply_input(&nan).is_err());
    assert!(world.balls().is_empty());
}

#[test]
fn checkpoints_fall_every_check_every_steps_and_at_the_end() {
    let (mut tape, world) = scripted(60.0);
    let cps = &tape.record(&world).checkpoints;
    let (last, rest) = cps.split_last().unwrap();
    assert!(rest.iter().all(|c| c.0 % CHECK_EVERY == 0));
    assert_eq!(last.0, world.steps());
}

/// The end's checkpoint is taken when asked for, not every step; it must still be the hash
/// right after the last step, before any input at that step, and survive a seek back.
#[test]
fn the_end_checkpoint_taken_late_is_the_hash_right_after_the_last_step() {
    let mut world = build(TABLE, 5);
    let mut tape = Tape::recording("table", TABLE, 5, &world);
    tape.input(&mut world, Input::Launch(6)).unwrap();
    let end = 2 * CHECK_EVERY + 17;
    for _ in 0..end {
        tape.step(&mut world);
    }
    let after_step = world.state_hash();
    // Not taken yet: only the multiples of CHECK_EVERY so far.
    assert!(tape
        .recorded()
        .checkpoints
        .iter()
        .all(|c| c.0 % CHECK_EVERY == 0));
    // An input at the end first takes the end's hash, of the world before the input.
    let first = world.ball_id(0).expect("a ball");
    tape.input(&mut world, Input::RemoveBall(first)).unwrap();
    assert_ne!(world.state_hash(), after_step);
    assert_eq!(tape.recorded_hash(end), Some(after_step));
    // More steps move the end; asking for the recording takes the new end's hash.
    for _ in 0..5 {
        tape.step(&mut world);
    }
    let last = world.state_hash();
    assert_eq!(
        tape.record(&world).checkpoints.last(),
        Some(&(end + 5, last))
    );
    let (d, replayed_world) = replayed(tape.record(&world));
    assert_eq!(d, None);
    assert_eq!(replayed_world.state_hash(), last);
    // Steps past the end again, then a seek back: the end's hash is kept and checked.
    for _ in 0..3 {
        tape.step(&mut world);
    }
    let newest = (tape.end(), world.state_hash());
    tape.seek(&mut world, CHECK_EVERY);
    assert_eq!(tape.recorded_hash(newest.0), Some(newest.1));
    tape.seek(&mut world, newest.0);
    assert_eq!(world.state_hash(), newest.1);
    assert_eq!(tape.divergence(), None);
    assert_eq!(tape.last_checked(), Some((newest.0, newest.1, newest.1)));
}

/// The three kinds of file as the app writes them, of the table after a few steps.
fn three_files() -> [(collide::scene::FileKind, String); 3] {
    use collide::scene::FileKind;
    let w = busy(TABLE, 1, Tunnelling::Off, 30);
    let state = SavedState::of("table", TABLE, 1, &w);
    let tape = Tape::recording("table", TABLE, 1, &w);
    let rec = tape.recorded().clone();
    let dir = std::env::temp_dir().join(format!("collide-kinds-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (sp, rp) = (dir.join("state.ron"), dir.join("recording.ron"));
    state.save(&sp).unwrap();
    rec.save(&rp).unwrap();
    let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap();
    let out = [
        (FileKind::Scene, TABLE.to_string()),
        (FileKind::State, read(&sp)),
        (FileKind::Recording, read(&rp)),
    ];
    std::fs::remove_dir_all(&dir).ok();
    out
}

#[test]
fn each_kind_of_file_is_told_from_its_keys() {
    for (kind, text) in three_files() {
        assert_eq!(collide::scene::FileKind::of_text(&text), Some(kind));
    }
    assert_eq!(collide::scene::FileKind::of_text("(x: 1)"), None);
    // A damaged scene whose arc lost its brackets shows `start:` at the top level: still
    // not a recording (a recording has all of start, end, inputs and checkpoints).
    let damaged = "Scene(name: \"t\", start: 0, end: 90, shapes: [])";
    assert_eq!(collide::scene::FileKind::of_text(damaged), None);
    // A recording that lost the bracket opening its start state shows the state's keys at
    // the top level, beside its own: neither a state nor a recording, so the parser says where.
    let [_, _, rec] = three_files();
    let lost = rec.1.replacen("start: (", "start: ", 1);
    assert_eq!(collide::scene::FileKind::of_text(&lost), None);
    let e = Recording::parse(&lost, "r.ron").map(|_| ()).unwrap_err();
    assert!(e.line > 0, "{e}");
}

#[test]
fn a_saved_state_opened_as_a_recording_is_named_as_a_saved_state() {
    let [scene, state, rec] = three_files();
    let e = Recording::parse(&state.1, "recording.ron")
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "recording.ron: this is a saved state, not a recording (Load state or --state opens it)"
    );
    let e = SavedState::parse(&rec.1, "state.ron")
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "state.ron: this is a recording, not a saved state (Load recording or --replay opens it)"
    );
    let e = Scene::parse(&state.1, "scene.ron").unwrap_err();
    assert_eq!(
        e.to_string(),
        "scene.ron: this is a saved state, not a scene (Load state or --state opens it)"
    );
    let e = Recording::parse(&scene.1, "recording.ron")
        .map(|_| ())
        .unwrap_err();
    assert!(e
        .to_string()
        .starts_with("recording.ron: this is a scene, not a recording"));
}

#[test]
fn a_broken_file_of_the_right_kind_still_gets_its_line_and_column() {
    let [_, state, _] = three_files();
    let broken = state.1.replacen("seed:", "seed: (", 1);
    let e = SavedState::parse(&broken, "state.ron")
        .map(|_| ())
        .unwrap_err();
    assert!(e.line > 0 && e.col > 0, "{e}");
}

/// A recording of the table in which four balls are removed by their place in the list,
/// as recordings were written before inputs named balls by id (a copy of the golden run's).
const BY_PLACE: &str = include_str!("../../collide/tests/before_ids/removals.ron");

#[test]
fn a_recording_that_names_balls_by_place_replays_to_its_hashes() {
    assert!(BY_PLACE.contains("RemoveBall(") && !BY_PLACE.contains("ById"));
    let (rec, mut world) = Recording::parse(BY_PLACE, "removals.ron").expect("the old form reads");
    let by_place = rec
        .inputs
        .iter()
        .filter(|(_, i)| matches!(i, Input::RemoveBallAt(_)));
    assert_eq!(by_place.count(), 4);
    assert!(rec.checkpoints.len() > 10);
    assert_eq!(collide_replay::replay(rec, &mut world), None);
}

#[test]
fn a_recording_names_balls_by_id_and_replays_from_its_text() {
    let mut world = build(TABLE, 7);
    let mut tape = Tape::recording("table", TABLE, 7, &world);
    tape.input(&mut world, Input::Launch(8)).unwrap();
    for step in 0..400 {
        if step % 90 == 89 {
            let ball = world.ball_id(1).expect("a ball");
            let (pos, vel) = (Vec2::new(300.0, 300.0), Vec2::new(50.0, 0.0));
            tape.input(&mut world, Input::MoveBall { ball, pos, vel })
                .unwrap();
            let first = world.ball_id(0).unwrap();
            tape.input(&mut world, Input::RemoveBall(first)).unwrap();
        }
        tape.step(&mut world);
    }
    let text = ron::to_string(tape.record(&world)).unwrap();
    assert!(text.contains("RemoveBallById") && text.contains("MoveBallById"));
    let (rec, mut again) = Recording::parse(&text, "rec.ron").unwrap();
    assert_eq!(collide_replay::replay(rec, &mut again), None);
    assert_eq!(again.state_hash(), world.state_hash());
}
