//! The window app: its state between frames ([`App`]), the physics thread each frame's steps
//! run on, and what follows them. Around it:
//!
//! - `frame.rs`: the window's main loop, one frame at a time.
//! - `keys.rs`: the keys, read from the key map (`keymap.rs`), and pinball's held controls.
//! - `mouse.rs`: the mouse's gestures. Keys, mouse, panels, windows and the record bar make
//!   [`Message`]s.
//! - `apply.rs`: the one place messages are applied: the world's changes through the
//!   recorder, the app's own around them, the user's choices.
//! - `tape.rs`: the record-and-replay bar's messages (seek, files).
//! - `sim.rs`: where the world is, here or on the physics thread.
//! - `screenshot.rs`: F12.

pub mod frame;

mod apply;
mod frame_log;
mod keys;
mod load_meter;
mod mouse;
mod screenshot;
mod sim;
mod tape;
mod teach;
mod teaching;
#[cfg(target_arch = "wasm32")]
mod web;

use crate::cli::Args;
use crate::clock::Instant;
use crate::editor::Editor;
use crate::message::Message;
use crate::prefs::Prefs;
use crate::render::fx::Fx;
use crate::render::screen;
use crate::render::sprites::Sprites;
use crate::render::view::{Camera, View};
use crate::sound::Sound;
use crate::start::Source;
use crate::state::{Choices, Feedback, Load, Notes};
use crate::ui::panel::Panel;
use crate::ui::timeline::TimelineUi;
use crate::ui::windows::Windows;
use collide::{Input, Scene, Stepper, Vec2, World};
use macroquad::prelude::get_time;
use mouse::Mouse;
use sim::Sim;

/// Everything the window keeps between frames.
struct App {
    args: Args,
    scene: Scene,
    /// The world and the tape that records every change and step, here or on the physics
    /// thread (`sim.rs`).
    sim: Sim,
    stepper: Stepper,
    /// What the user chose beside the world (`state.rs`).
    choices: Choices,
    /// What the frames measured and said (`state.rs`).
    feedback: Feedback,
    /// The side panel's own settings.
    panel: Panel,
    fx: Fx,
    sprites: Sprites,
    load: Load,
    quit: bool,
    /// The floating windows and which are open (`ui/windows.rs`).
    windows: Windows,
    mouse: Mouse,
    cam: Camera,
    shot_pending: bool,
    /// The text field that has the keyboard (`ui/focus.rs`), if any.
    text_focus: Option<egui_macroquad::egui::Id>,
    editor: Editor,
    /// Pause state before edit mode paused the world.
    paused_before_edit: bool,
    /// What the world was built from (for recordings and saved states).
    source: Source,
    timeline: TimelineUi,
    prefs: Prefs,
    /// The impacts heard (`sound/`).
    sound: Sound,
    /// Things to try, the probe and the heat map (`teach.rs`).
    teach: teaching::Teach,
    /// A ball has been in play since the start: the start hint is gone for good.
    played: bool,
}

/// One frame's physics on a worker thread, run while the frame is presented (see
/// [`frame::run`]).
struct InFlight {
    handle: crate::platform::Handle<(Box<sim::Held>, Stepper, f64)>,
    /// Steps of the world before them.
    steps: u64,
}

impl App {
    fn new(args: Args, start: (Source, Scene, World), prefs: Prefs) -> Self {
        let (source, scene, mut world) = start;
        // A saved state keeps its own iterations (they are part of its future).
        if prefs.persist && args.state.is_none() {
            world.edit_settings(|st| st.motion_iterations = prefs.motion_iterations);
            world.edit_settings(|st| st.collision_iterations = prefs.collision_iterations);
        }
        let editor = Editor::new(&scene, args.seed);
        let choices = start_choices(&args, &prefs);
        let feedback = Feedback {
            notes: start_notes(&args, &scene, &world, choices.broad_chosen),
            ..Feedback::default()
        };
        // A chosen count for the scene's own fill (rain, field) is the scene's from now on.
        let scene = match scene.fill {
            Some(_) if args.fill > 0 => scene.with_fill_count(args.fill),
            _ => scene,
        };
        let sound = start_sound(&args, &prefs);
        let tape = source.tape(&world);
        let panel = Panel::new(world.broad().kind());
        let mut prefs = prefs;
        if let Some(scene) = &args.scene {
            prefs.last_scene = Some(scene.display().to_string());
        }
        let mut app = Self {
            args,
            scene,
            sim: Sim::new(world, tape),
            stepper: Stepper::default(),
            panel,
            choices,
            feedback,
            fx: Fx::default(),
            sprites: Sprites::default(),
            load: Load::default(),
            quit: false,
            windows: Windows::default(),
            mouse: Mouse::default(),
            cam: Camera::default(),
            shot_pending: false,
            text_focus: None,
            editor,
            paused_before_edit: false,
            source,
            timeline: TimelineUi::default(),
            prefs,
            sound,
            teach: teaching::Teach::default(),
            played: false,
        };
        app.start_tour_from_args();
        app
    }

    /// Starts this frame's physics (the stepper fed `dt` s) on a worker thread: the world and
    /// the tape go there and [`App::sim`] says they are away until [`App::land`] brings them
    /// back. Nothing reads the world in between (what is left of the frame is drawn from what
    /// was laid out before, and presented), so the steps are those the main thread would run,
    /// in the same order.
    fn launch(&mut self, dt: f64) -> InFlight {
        self.sync_probe();
        let steps = self.sim.world().steps();
        let mut held = self.sim.send();
        let mut stepper = self.stepper.clone();
        let handle = crate::platform::spawn(move || {
            let t0 = Instant::now();
            let sim::Held { world, tape } = &mut *held;
            stepper.advance_with(dt, world, |w| tape.step(w));
            (held, stepper, t0.elapsed().as_secs_f64())
        });
        InFlight { handle, steps }
    }

    /// Takes back the world after the physics of [`App::launch`] and does what follows the
    /// steps (tracks, grabs, charts, effects); returns the time the steps took and the time
    /// this thread waited for them (s).
    fn land(&mut self, job: InFlight, frame_time: f64) -> (f64, f64) {
        let wait = Instant::now();
        let (held, stepper, secs) = match job.handle.join() {
            Ok(done) => done,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        let waited = wait.elapsed().as_secs_f64();
        self.sim.land(held);
        self.stepper = stepper;
        let world = self.sim.world();
        let simulated = world.steps().saturating_sub(job.steps) as f64 * world.step_seconds();
        self.adapt_catch_up(secs, simulated);
        self.after_physics(frame_time);
        (secs, waited)
    }

    /// What follows a frame's steps (grabs and tracks follow balls by id, so a drained or
    /// pocketed ball takes only its own with it).
    fn after_physics(&mut self, frame_time: f64) {
        self.windows.chart.record(get_time(), self.sim.world());
        self.fx.update(
            self.sim.world_mut(),
            frame_time as f32,
            self.choices.show.tracks,
        );
        let hits = &self.fx.frame_hits;
        self.windows.energy.update(self.sim.world(), hits);
        let time_scale = self.choices.time_scale as f64;
        self.sound
            .hear(self.sim.world(), &self.fx.frame_hits, time_scale);
    }

    /// Applies a change to the world through the tape, so the recording sees everything.
    fn input(&mut self, input: Input) -> Result<(), String> {
        let held = self.sim.held();
        held.tape
            .input(&mut held.world, input)
            .map_err(|e| e.to_string())
    }

    /// Applies a change as [`App::input`] does; a change the world refuses is shown under
    /// the panel's heading, never dropped.
    fn input_shown(&mut self, input: Input) {
        if let Err(e) = self.input(input) {
            self.feedback.notes.message = Some(format!("Refused: {e}"));
        }
    }

    /// The world on screen: the editor's preview in edit mode, else the running world.
    fn shown(&self) -> &World {
        if self.editor.active {
            &self.editor.preview
        } else {
            self.sim.world()
        }
    }

    /// Mouse gestures as messages: ball edits and camera moves.
    fn mouse(&mut self) -> Vec<Message> {
        if self.editor.active {
            // The editor reads the mouse after the panels (see `run`).
            return Vec::new();
        }
        let view = self.view();
        let at = crate::render::screen::mouse();
        let egui_has = mouse::egui_has_pointer(at);
        let over = view.covers(at) && !egui_has;
        if let Some(pin) = self.probe_mouse(&view, over) {
            return vec![pin];
        }
        let cx = mouse::Ctx {
            fitted: self.fitted(),
            world: self.sim.world(),
            egui_wants_pointer: egui_has,
            time_scale: self.choices.time_scale,
            now: get_time(),
        };
        let mut cam = self.cam;
        let mut msgs = self.mouse.update(&cx, &mut cam);
        msgs.extend((cam != self.cam).then_some(Message::Camera(cam)));
        msgs
    }

    /// Step (O, the Step button): one frame's steps at once, on this thread.
    fn step_frame(&mut self) {
        // The probe's record is of the ball it is on now (as before a frame's physics).
        self.sync_probe();
        // One whole frame of steps, whatever the accumulator holds.
        let held = self.sim.held();
        for _ in 0..held.world.settings().motion_iterations {
            held.tape.step(&mut held.world);
        }
    }

    /// Normally a slow frame is caught up with up to [`CATCH_UP`] s of steps; while one
    /// frame's physics takes longer than 50 ms (tens of thousands of balls) that would make
    /// every frame six times slower still, so the stepper then takes at most one frame's time
    /// per frame: slow motion, but the window stays responsive. Back to real time once the
    /// physics takes at most 0.8 s per simulated second (`physics_s` for `simulated_s`): it
    /// runs beside the drawing, so then it keeps up with the clock. Waiting instead for a
    /// frame's physics to fall under a fixed time would keep a large pile in slow motion for
    /// good.
    fn adapt_catch_up(&mut self, physics_s: f64, simulated_s: f64) {
        let slow = self.stepper.max_frame < CATCH_UP;
        let slow = slow_motion(slow, physics_s, simulated_s);
        self.stepper.max_frame = if slow { 1.0 / 60.0 } else { CATCH_UP };
    }

    /// The view fitted to the free area, before zoom and pan.
    fn fitted(&self) -> View {
        let left = if self.editor.active && !self.choices.panels_hidden {
            self.editor.panel_width.min(screen::size().0 - 100.0)
        } else {
            0.0
        };
        let (width, height) = screen::size();
        let right = (width - self.feedback.panel_width).max(left + 50.0);
        let top = self.feedback.toolbar_height.min(height - 50.0);
        // Tab hides the record/replay bar too (its last height stays in `timeline`).
        let bar = if self.choices.panels_hidden {
            0.0
        } else {
            self.timeline.height
        };
        let bottom = (height - bar).max(top + 50.0);
        View::fit(
            self.shown().bounds(),
            Vec2::new(left, top),
            Vec2::new(right, bottom),
        )
    }

    fn view(&self) -> View {
        self.fitted().with_camera(self.cam)
    }

    /// Remembers the overlays, iterations and window size (the last scene is kept as loaded).
    fn save_prefs(&mut self) {
        let p = &mut self.prefs;
        p.show = Prefs::shown(&self.choices.show);
        let settings = self.sim.world().settings();
        p.motion_iterations = settings.motion_iterations;
        p.collision_iterations = settings.collision_iterations;
        let (w, h) = screen::physical_size();
        p.window = (w as i32, h as i32);
        (p.muted, p.volume) = (self.sound.muted(), self.sound.volume());
        p.save();
    }
}

/// What the user chose at the start: the broad phase and solver on the command line, the
/// overlays saved and asked for, edit mode (the first frame enters it, see `sync_edit_mode`).
fn start_choices(args: &Args, prefs: &Prefs) -> Choices {
    let mut choices = Choices {
        broad_chosen: args.broad_phase.is_some(),
        solver_chosen: args.solver.is_some(),
        editing: args.edit,
        ..Choices::default()
    };
    if prefs.persist {
        prefs.apply_show(&mut choices.show);
    }
    for name in &args.show {
        choices.show.enable(name);
    }
    choices
}

/// What the panel says of the start: the solver a fill took, the broad phase picked, a fill
/// that fell short (as a Fill from the panel does).
fn start_notes(args: &Args, scene: &Scene, world: &World, broad_chosen: bool) -> Notes {
    let balls = crate::start::start_balls(args, scene);
    let short = world.last_fill().filter(|f| f.short.is_some());
    Notes {
        solver_note: crate::start::fill_took_soft(args, scene)
            .then(|| crate::advice::soft_fill_note(args.fill as usize)),
        broad_note: crate::advice::broad_note(balls, world.broad().kind(), broad_chosen),
        fill_message: crate::start::fill_message(balls as u32, 0.0, short),
        ..Notes::default()
    }
}

/// The sound, muted by `--mute` or the saved settings, at the saved volume; runs with
/// `--frames` (tests, scripts) play nothing, `--sound-out` writes what they would.
fn start_sound(args: &Args, prefs: &Prefs) -> Sound {
    let muted = args.mute || (prefs.persist && prefs.muted);
    let mut sound = Sound::new(muted, prefs.volume);
    if args.frames.is_none() {
        sound.open_device();
    }
    if args.sound_out.is_some() {
        sound.record();
    }
    sound
}

/// Whether the next frame runs in slow motion (see [`App::adapt_catch_up`]), from whether this
/// one did and its physics time for the simulated time (s).
fn slow_motion(slow: bool, physics_s: f64, simulated_s: f64) -> bool {
    physics_s > 0.05 || (slow && physics_s > 0.8 * simulated_s)
}

/// Longest frame time the stepper catches up on normally (s).
const CATCH_UP: f64 = 0.1;

#[cfg(test)]
mod tests {
    use super::{slow_motion, App};
    use crate::cli::Args;
    use crate::keymap::Action;
    use crate::message::Message;
    use crate::prefs::Prefs;
    use crate::ui::{energy, help, tour};
    use clap::Parser;
    use collide::Input;

    /// An app on the default scene, muted, as a `--frames` run builds it.
    fn app() -> App {
        app_on(&[])
    }

    /// An app as `--mute --frames 1` and `more` flags build it (the app's tests share it).
    pub(crate) fn app_on(more: &[&str]) -> App {
        let flags = ["collision-math-toy", "--mute", "--frames", "1"];
        let args = Args::parse_from(flags.iter().chain(more));
        let scene = crate::cli::load_scene(&args).expect("default scene");
        let start = crate::start::start(&args, &scene).expect("start");
        let prefs = Prefs {
            persist: false,
            ..Prefs::default()
        };
        App::new(args, start, prefs)
    }

    #[test]
    fn a_recording_saved_and_loaded_again_replays_its_inputs_to_its_hash() {
        use crate::message::TapeCmd;
        let dir = std::env::temp_dir().join(format!("cmt-load-rec-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = dir.join("recording.ron");
        let mut app = app();
        for k in 0..40 {
            if k % 10 == 0 {
                app.apply(Message::World(Input::Launch(2)));
            }
            app.step_frame();
        }
        let (end, hash) = (app.sim.world().steps(), app.sim.world().state_hash());
        app.apply(Message::Tape(TapeCmd::SaveRecording(path.clone())));
        let mut other = app_on(&["--scene", "cradle"]);
        other.apply(Message::Tape(TapeCmd::LoadRecording(path)));
        assert_eq!(other.sim.world().steps(), 0, "the recording's start");
        assert_eq!(other.sim.tape().end(), end, "the whole recording loaded");
        while other.sim.world().steps() < end {
            other.step_frame();
        }
        assert_eq!(
            other.sim.world().state_hash(),
            hash,
            "replayed to the recorded state"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn settings_from_the_panel_are_the_worlds_and_a_restart_keeps_them() {
        let mut app = app();
        let mut edited = app.sim.world().settings().clone();
        (edited.gravity, edited.rotate) = (123.0, !edited.rotate);
        app.apply(Message::World(Input::Settings(edited.clone())));
        assert_eq!(*app.sim.world().settings(), edited);
        let inputs = app.sim.tape().recorded().inputs.len();
        app.apply(Message::World(Input::Settings(edited.clone())));
        let again = app.sim.tape().recorded().inputs.len();
        assert_eq!(
            again, inputs,
            "the same settings again (egui's second pass) record nothing"
        );
        app.apply(Message::Restart);
        assert_eq!(*app.sim.world().settings(), edited, "a restart keeps them");
        app.apply(Message::LoadScene(0));
        assert_eq!(
            app.sim.world().settings().rotate,
            edited.rotate,
            "a scene load keeps rotation"
        );
    }

    #[test]
    fn each_window_keeps_its_own_open_flag_and_its_key_toggles_it() {
        let mut app = app();
        let names = [help::NAME, energy::NAME, tour::NAME];
        assert!(names.iter().all(|n| !app.windows.is_open(n)));
        for action in [Action::Help, Action::Energy, Action::Tour] {
            let msg = app.key(action, 0).expect("a message");
            app.apply(msg);
        }
        assert!(names.iter().all(|n| app.windows.is_open(n)));
        let msg = app.key(Action::Help, 0).expect("a message");
        app.apply(msg);
        assert!(!app.windows.is_open(help::NAME), "pressed again, it closes");
        assert!(app.windows.is_open(energy::NAME), "the others stay open");
    }

    #[test]
    fn a_refused_broad_phase_parameter_is_shown_under_the_sliders() {
        let mut app = app();
        app.apply(Message::World(Input::SetParam {
            name: "no such parameter".to_string(),
            value: 1.0,
        }));
        let shown = app.feedback.notes.param_message.clone().expect("a message");
        assert!(shown.contains("no such parameter"), "{shown}");
    }

    #[test]
    fn a_launch_at_a_place_that_is_not_finite_is_shown_not_dropped() {
        let mut app = app();
        assert_eq!(app.feedback.notes.message, None);
        let nowhere = collide::Vec2::new(f32::NAN, 0.0);
        app.apply(Message::World(Input::LaunchAt {
            pos: nowhere,
            vel: collide::Vec2::ZERO,
        }));
        let shown = app.feedback.notes.message.clone().expect("a message");
        assert!(shown.starts_with("Refused: "), "{shown}");
        assert!(shown.contains("pos/vel"), "{shown}");
    }

    #[test]
    fn removing_a_ball_leaves_the_others_strings_grab_and_track_on_their_balls() {
        let mut app = app_on(&["--scene", "cradle"]);
        let id = |app: &App, i: usize| app.sim.world().ball_id(i).expect("a ball");
        let (first, held) = (id(&app, 0), id(&app, 3));
        let strung: Vec<_> = app
            .sim
            .world()
            .rules()
            .tethers
            .iter()
            .map(|t| t.ball)
            .collect();
        assert!(strung.contains(&held), "the cradle's balls hang on strings");
        for _ in 0..3 {
            app.fx.update(app.sim.world_mut(), 1.0 / 60.0, true);
        }
        let track = app.fx.tracks[&held].clone();
        app.apply(Message::World(Input::RemoveBall(first)));
        assert_eq!(app.feedback.notes.message, None);
        assert_eq!(
            app.sim.world().ball_index(held),
            Ok(2),
            "the list closed up"
        );
        let after: Vec<_> = app
            .sim
            .world()
            .rules()
            .tethers
            .iter()
            .map(|t| t.ball)
            .collect();
        assert_eq!(after, strung[1..], "every other string kept its ball");
        app.fx.update(app.sim.world_mut(), 1.0 / 60.0, true);
        assert_eq!(
            app.fx.tracks[&held].len(),
            track.len() + 1,
            "the track went on"
        );
        let kept: Vec<_> = app.fx.tracks[&held]
            .iter()
            .take(track.len())
            .copied()
            .collect();
        assert_eq!(kept, Vec::from(track), "and kept its past");
        // A grab holds its ball by id: the move lands on it, not on whatever is now at 3.
        let to = collide::Vec2::new(400.0, 300.0);
        app.apply(Message::World(Input::MoveBall {
            ball: held,
            pos: to,
            vel: collide::Vec2::ZERO,
        }));
        assert_eq!(app.sim.world().ball(held).unwrap().pos, to);
        // The removed ball's id is stale: refused and shown, never a panic.
        app.apply(Message::World(Input::RemoveBall(first)));
        let shown = app.feedback.notes.message.clone().expect("a message");
        assert!(shown.contains("no longer in the world"), "{shown}");
    }

    /// Keys once flipped the state themselves, beside the panel's own route: now a key asks
    /// for the other value and only `apply` changes it.
    #[test]
    fn a_key_changes_nothing_until_its_message_is_applied() {
        let mut app = app();
        let state = |app: &App| {
            (
                app.choices.paused,
                app.sound.muted(),
                app.choices.show.probe,
            )
        };
        let before = state(&app);
        for action in [Action::Pause, Action::Mute, Action::Probe] {
            let now = state(&app);
            let msg = app.key(action, 0).expect("a message");
            assert_eq!(state(&app), now, "{action:?} changed something itself");
            app.apply(msg);
        }
        assert_eq!(state(&app), (!before.0, !before.1, !before.2));
        assert_eq!(app.key(Action::Pause, 0), Some(Message::Pause(before.0)));
    }

    /// Mute was kept by the panel, the sound and the saved settings: the sound keeps it, the
    /// key and the panel's box ask it, and the settings read it when saved.
    #[test]
    fn mute_is_kept_by_the_sound_alone() {
        let mut app = app_on(&[]);
        assert!(app.sound.muted(), "--mute");
        assert_eq!(app.key(Action::Mute, 0), Some(Message::Mute(false)));
        app.apply(Message::Mute(false));
        assert!(!app.sound.muted());
        app.apply(Message::Volume(0.25));
        assert_eq!((app.sound.muted(), app.sound.volume()), (false, 0.25));
        assert_eq!(app.key(Action::Mute, 0), Some(Message::Mute(true)));
    }

    /// The Scene section's ball count was a copy beside the scene: a reload with another count
    /// is the scene's own count, which Restart keeps.
    #[test]
    fn a_scene_reloaded_with_another_count_keeps_it_through_a_restart() {
        let mut app = app_on(&["--scene", "rain"]);
        let count = |app: &App| app.scene.fill.map(|f| f.count);
        let first = count(&app).expect("rain fills");
        app.apply(Message::SceneFill(first + 7));
        assert_eq!(count(&app), Some(first + 7));
        app.apply(Message::Restart);
        assert_eq!(count(&app), Some(first + 7), "a restart keeps it");
        assert_eq!(app.scene.name, "rain");
    }

    #[test]
    fn slow_motion_starts_over_50_ms_and_ends_once_the_physics_keeps_up() {
        let frame = 1.0 / 60.0;
        // Normal: a 20 ms frame's physics is no reason to slow down; 60 ms is.
        assert!(!slow_motion(false, 0.020, 0.025));
        assert!(slow_motion(false, 0.060, 0.1));
        // Slow (1/60 s a frame): stays while a frame's physics takes over 0.8 of it ...
        assert!(slow_motion(true, 0.015, frame));
        // ... and ends below, though still over 10 ms (10,000 balls).
        assert!(!slow_motion(true, 0.012, frame));
        // No steps (paused): back to normal.
        assert!(!slow_motion(true, 0.0, 0.0));
    }
}
