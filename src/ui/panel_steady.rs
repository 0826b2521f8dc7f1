//! The side panel holds still (tests): a line that comes and goes by itself (the passing
//! notes, `notes.rs`), or rows that come with the counts, must not move the controls below
//! it, so a click aimed at one lands on it. Each test lays the panel out twice with egui and
//! holds every text found in both layouts to one place.

use super::panel::Panel;
use super::seen::Seen;
use crate::sound::Sound;
use crate::state::{Choices, Load, Notes};
use collide::{BroadKind, Scene, World};
use egui_macroquad::egui;
use std::collections::HashMap;

/// Where each text of the side panel stands, laid out for `world` with `load` on a screen
/// tall enough to show all of it; a text shown more than once is left out.
fn texts(panel: &mut Panel, world: &World, load: Load) -> HashMap<String, egui::Pos2> {
    let ctx = egui::Context::default();
    let scene = Scene::parse(crate::cli::TABLE_RON, "table").unwrap();
    let sound = Sound::new(false, crate::sound::DEFAULT_VOLUME);
    let (choices, notes) = (Choices::default(), Notes::default());
    let seen = Seen {
        world,
        scene: &scene,
        choices: &choices,
        notes: &notes,
        sound: &sound,
        renderer: "",
        load,
    };
    let mut shapes = Vec::new();
    for _ in 0..3 {
        let size = egui::vec2(320.0, 4000.0);
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
            ..Default::default()
        };
        let out = ctx.run(input, |ctx| {
            egui::SidePanel::right("controls")
                .exact_width(310.0)
                .show(ctx, |ui| panel.side(ui, &seen, &mut Vec::new()));
        });
        shapes = out.shapes;
    }
    let mut seen = HashMap::new();
    for c in &shapes {
        collect(&c.shape, &mut seen);
    }
    seen.into_iter()
        .filter_map(|(k, v)| Some((k, v?)))
        .collect()
}

fn collect(shape: &egui::Shape, seen: &mut HashMap<String, Option<egui::Pos2>>) {
    match shape {
        egui::Shape::Text(t) => {
            let text = t.galley.text().to_string();
            let place = Some(t.pos);
            seen.entry(text).and_modify(|p| *p = None).or_insert(place);
        }
        egui::Shape::Vec(v) => v.iter().for_each(|s| collect(s, seen)),
        _ => {}
    }
}

/// Every text in both layouts stands in the same place in each (the controls among them).
fn nothing_moved(a: &HashMap<String, egui::Pos2>, b: &HashMap<String, egui::Pos2>) {
    let mut moved: Vec<String> = a
        .iter()
        .filter_map(|(text, p)| {
            let q = b.get(text)?;
            ((*p - *q).length() > 0.5).then(|| format!("{text:?}: {p:?} -> {q:?}"))
        })
        .collect();
    moved.sort();
    assert!(moved.is_empty(), "moved:\n{}", moved.join("\n"));
    let both = a.keys().filter(|t| b.contains_key(*t)).count();
    assert!(both > 60, "only {both} texts in both");
    for control in ["Broad phase", "Sweep", "Iterations", "Contacts and rest"] {
        assert!(a.contains_key(control), "{control} laid out");
    }
}

/// The table on the grid, its clock running, with `balls` filled balls stepped `steps`
/// times.
fn table(balls: u32, steps: usize) -> (Scene, World) {
    let scene = Scene::parse(crate::cli::TABLE_RON, "table").unwrap();
    let mut w = scene.build(1);
    w.set_broad_phase(BroadKind::Grid);
    w.set_clock(crate::clock::nanos);
    if balls > 0 {
        w.fill_random(balls, (3.0, 4.0), 200.0);
    }
    for _ in 0..steps {
        w.step();
    }
    (scene, w)
}

/// The slow-motion advice came and went with the frame rate and moved the sections below
/// it by up to 225 px, so that a click aimed at Sweep opened the solver list: now it is a
/// passing note at the panel's foot.
#[test]
fn the_slow_motion_advice_moves_nothing_in_the_panel() {
    let (_, w) = table(50, 10);
    let mut panel = Panel::new(BroadKind::Grid);
    let calm = Load {
        fps: 60.0,
        physics_share: 0.1,
        ..Load::default()
    };
    let slow = Load {
        fps: 20.0,
        physics_share: 0.95,
        slow_motion: true,
        ..Load::default()
    };
    let (a, b) = (texts(&mut panel, &w, calm), texts(&mut panel, &w, slow));
    assert!(
        b.keys().any(|t| t.starts_with("To keep up")),
        "the advice shown"
    );
    nothing_moved(&a, &b);
}

/// The "Sweeping …" bar came under the sliders while a sweep ran and went when it ended.
#[test]
fn a_running_sweep_moves_nothing_in_the_panel() {
    let (scene, w) = table(50, 10);
    let mut panel = Panel::new(BroadKind::Grid);
    let a = texts(&mut panel, &w, Load::default());
    panel.params.start("cell size", &scene, &w);
    let b = texts(&mut panel, &w, Load::default());
    assert!(
        b.keys().any(|t| t.starts_with("Sweeping")),
        "the sweep shown"
    );
    nothing_moved(&a, &b);
}

/// Rows and lines that came with the counts (the pair cache's rows, the wall pass's, the
/// note on tracks past 500 balls, the profile after a second) moved everything below as
/// balls arrived, with nobody touching anything.
#[test]
fn balls_arriving_and_a_second_passing_move_nothing_in_the_panel() {
    let mut panel = Panel::new(BroadKind::Grid);
    let (_, empty) = table(0, 0);
    let (_, full) = table(600, 250);
    let a = texts(&mut panel, &empty, Load::default());
    let b = texts(&mut panel, &full, Load::default());
    nothing_moved(&a, &b);
}

/// What the side panel asks for when laid out for `world` of `scene`, untouched.
fn untouched(world: &World, scene: &Scene) -> Vec<crate::message::Message> {
    let mut panel = Panel::new(world.broad().kind());
    let ctx = egui::Context::default();
    let sound = Sound::new(false, crate::sound::DEFAULT_VOLUME);
    let (choices, notes) = (Choices::default(), Notes::default());
    let seen = Seen {
        world,
        scene,
        choices: &choices,
        notes: &notes,
        sound: &sound,
        renderer: "",
        load: Load::default(),
    };
    let mut out = Vec::new();
    for _ in 0..2 {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(320.0, 4000.0),
            )),
            ..Default::default()
        };
        let _ = ctx.run(input, |ctx| {
            egui::SidePanel::right("controls")
                .exact_width(310.0)
                .show(ctx, |ui| panel.side(ui, &seen, &mut out));
        });
    }
    out
}

/// Pinball's launch speed is 0 (the plunger fires the ball), below the speed slider's
/// 100 px/s: the slider clamped it on the first frame, so the panel changed the scene's
/// setting unasked and the change went into the recording as an input; a recording loaded
/// in the window was cut at its start by it and played on without its inputs.
#[test]
fn a_setting_outside_its_sliders_range_is_kept_by_the_panel_untouched() {
    let scene = Scene::builtin("pinball").expect("pinball");
    let mut world = scene.build(1);
    assert_eq!(world.settings().launch_speed, 0.0);
    world.edit_settings(|s| {
        s.threads = 32;
        s.collision_iterations = 100;
        s.gravity = 5000.0;
    });
    let asked = untouched(&world, &scene);
    let changes: Vec<_> = asked
        .iter()
        .filter(|m| matches!(m, crate::message::Message::World(_)))
        .collect();
    assert!(
        changes.is_empty(),
        "the panel changed the world: {changes:?}"
    );
}
