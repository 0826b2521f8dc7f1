//! The window loop: input → commands → world; drawing and panels; then the stepper runs the
//! frame's physics on a worker thread while the frame is presented (see [`run`]).

use crate::chart::Chart;
use crate::cli::{self, Args};
use crate::editor::Editor;
use crate::energy::EnergyUi;
use crate::fx::Fx;
use crate::input::{self, Mouse};
use crate::panel::{self, Command, Load, UiState};
use crate::panel_cache::PanelCache;
use crate::prefs::Prefs;
use crate::sound::Sound;
use crate::sprites::Sprites;
use crate::tape::Source;
use crate::timeline::{TapeCmd, TimelineUi};
use crate::view::{Camera, View};
use collide::{Input, Scene, Stepper, Tape, Vec2, World};
use macroquad::prelude::*;
use std::time::Instant;

/// A world from the scene with the command line's seed, broad phase, launches and rotation;
/// `--fill N` sets the count of a scene that fills itself (rain, field), else fills the table.
/// Without `--broad-phase`, the broad phase suits the balls the start puts in play
/// ([`crate::advice::broad_for`]). A start of many balls says on stderr what it is doing.
pub fn new_world(args: &Args, scene: &Scene) -> World {
    let own_fill = args.fill > 0 && scene.fill.is_some();
    let balls = match scene.fill {
        Some(f) if args.fill == 0 => f.count,
        _ => args.fill,
    } as usize;
    let started = Instant::now();
    let long = balls >= LONG_START_BALLS;
    if long {
        eprintln!(
            "placing {} balls ...",
            crate::advice::thousands(balls as u64)
        );
    }
    let mut world = if own_fill {
        scene.clone().with_fill_count(args.fill).build(args.seed)
    } else {
        scene.build(args.seed)
    };
    world.set_broad_phase(crate::advice::broad_for(balls, args.broad_phase));
    world.set_clock(cli::nanos);
    world.settings.rotate = args.rotate;
    world.settings.tunnelling = args.tunnelling;
    world.settings.pair_cache = !args.no_pair_cache;
    if let Some(solver) = args.solver {
        world.settings.solver = solver;
    }
    if let Some(on) = args.sleep {
        world.settings.sleep.enabled = Some(on);
    }
    world.launch(args.launch);
    if args.fill > 0 && !own_fill {
        world.fill_random(args.fill, fill_radii(args.fill_radius), FILL_SPEED);
    }
    if long {
        eprintln!(
            "{} balls placed in {:.2} s; broad phase {}",
            crate::advice::thousands(world.balls().len() as u64),
            started.elapsed().as_secs_f64(),
            world.broad().kind().name()
        );
    }
    world
}

/// Starts with at least this many balls say on stderr what they are doing.
const LONG_START_BALLS: usize = 20_000;

/// Top speed of filled balls (px/s).
pub const FILL_SPEED: f32 = 300.0;

/// The radius range of a fill whose largest radius is `r` (px).
pub fn fill_radii(r: f32) -> (f32, f32) {
    (0.7 * r, r)
}

struct App {
    args: Args,
    scene: Scene,
    world: World,
    stepper: Stepper,
    ui: UiState,
    fx: Fx,
    sprites: Sprites,
    chart: Chart,
    load: Load,
    quit: bool,
    experiment: crate::experiment_ui::ExperimentUi,
    mouse: Mouse,
    cam: Camera,
    energy: EnergyUi,
    shot_pending: bool,
    editor: Editor,
    /// Pause state before edit mode paused the world.
    paused_before_edit: bool,
    /// What the world was built from (for recordings and saved states).
    source: Source,
    /// Records every change and step; replays when rewound.
    tape: Tape,
    timeline: TimelineUi,
    prefs: Prefs,
    /// A stand-in world and tape, held here while the real ones are on the physics thread.
    spare: Option<(World, Tape)>,
    /// The impacts heard (`sound/`).
    sound: Sound,
}

/// One frame's physics on a worker thread, run while the frame is presented (see [`run`]).
struct InFlight {
    handle: std::thread::JoinHandle<(World, Tape, Stepper, f64)>,
    /// Balls drained and pocketed before the steps.
    lost: u32,
    pocketed: u32,
    /// Steps of the world before them.
    steps: u64,
}

impl App {
    fn new(args: Args, (source, scene, world): (Source, Scene, World), prefs: Prefs) -> Self {
        let mut world = world;
        // A saved state keeps its own iterations (they are part of its future).
        if prefs.persist && args.state.is_none() {
            world.settings.motion_iterations = prefs.motion_iterations;
            world.settings.collision_iterations = prefs.collision_iterations;
        }
        let editor = Editor::new(&scene, args.seed);
        let mut ui = UiState::new(&world);
        ui.broad_chosen = args.broad_phase.is_some();
        if prefs.persist {
            prefs.apply_show(&mut ui.show);
        }
        for name in &args.show {
            ui.show.enable(name);
        }
        // The first frame enters edit mode (see `sync_edit_mode`).
        ui.editing = args.edit;
        ui.scene_name = scene.name.clone();
        ui.scene_index = cli::BUILT_IN.iter().position(|(n, _)| *n == scene.name);
        ui.scene_fill = scene
            .fill
            .map(|f| if args.fill > 0 { args.fill } else { f.count });
        ui.muted = args.mute || (prefs.persist && prefs.muted);
        ui.volume = prefs.volume;
        let mut sound = Sound::new(ui.muted, ui.volume);
        // Runs with --frames (tests, scripts) play nothing; --sound-out writes what they would.
        if args.frames.is_none() {
            sound.open_device();
        }
        if args.sound_out.is_some() {
            sound.record();
        }
        let tape = source.tape(&world);
        let mut prefs = prefs;
        if let Some(scene) = &args.scene {
            prefs.last_scene = Some(scene.display().to_string());
        }
        Self {
            args,
            scene,
            world,
            stepper: Stepper::default(),
            ui,
            fx: Fx::default(),
            sprites: Sprites::default(),
            chart: Chart::default(),
            load: Load::default(),
            quit: false,
            experiment: Default::default(),
            mouse: Mouse::default(),
            cam: Camera::default(),
            energy: EnergyUi::default(),
            shot_pending: false,
            editor,
            paused_before_edit: false,
            source,
            tape,
            timeline: TimelineUi::default(),
            prefs,
            spare: None,
            sound,
        }
    }

    /// Starts this frame's physics (the stepper fed `dt` s) on a worker thread: the world,
    /// the tape and the stepper move there, stand-ins take their place until [`App::land`]
    /// brings them back. Nothing reads the world in between (what is left of the frame is
    /// drawn from what was laid out before, and presented), so the steps are those the main
    /// thread would run, in the same order.
    fn launch(&mut self, dt: f64) -> InFlight {
        let launcher = self.world.launcher();
        let (world, tape) = self.spare.take().unwrap_or_else(|| {
            let w = World::new(Vec::new(), Default::default(), 0).with_launcher(launcher);
            let t = Tape::recording("", "", 0, &w);
            (w, t)
        });
        let (lost, pocketed) = (self.world.play().lost, self.world.rules().pocketed);
        let steps = self.world.steps();
        let mut world = std::mem::replace(&mut self.world, world);
        let mut tape = std::mem::replace(&mut self.tape, tape);
        let mut stepper = self.stepper.clone();
        let handle = std::thread::spawn(move || {
            let t0 = Instant::now();
            stepper.advance_with(dt, &mut world, |w| tape.step(w));
            (world, tape, stepper, t0.elapsed().as_secs_f64())
        });
        InFlight {
            handle,
            lost,
            pocketed,
            steps,
        }
    }

    /// Takes back the world after the physics of [`App::launch`] and does what follows the
    /// steps (tracks, grabs, charts, effects); returns the time the steps took and the time
    /// this thread waited for them (s).
    fn land(&mut self, job: InFlight, frame_time: f64) -> (f64, f64) {
        let wait = Instant::now();
        let (world, tape, stepper, secs) = match job.handle.join() {
            Ok(done) => done,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        let waited = wait.elapsed().as_secs_f64();
        let world = std::mem::replace(&mut self.world, world);
        let tape = std::mem::replace(&mut self.tape, tape);
        self.spare = Some((world, tape));
        self.stepper = stepper;
        let simulated =
            self.world.steps().saturating_sub(job.steps) as f64 * self.world.step_seconds();
        self.adapt_catch_up(secs, simulated);
        self.after_physics(job.lost, job.pocketed, frame_time);
        (secs, waited)
    }

    /// What follows a frame's steps; `lost` and `pocketed` are the counts before them.
    fn after_physics(&mut self, lost: u32, pocketed: u32, frame_time: f64) {
        self.show_world_settings();
        if self.world.play().lost != lost {
            // Drained balls leave the list: tracks follow balls by index, so start afresh.
            self.fx.tracks.clear();
        }
        if self.world.rules().pocketed != pocketed {
            // A pocket took a ball: the indices moved, so a grab would hold another ball.
            self.mouse.forget();
        }
        self.chart.record(get_time(), &self.world);
        self.fx
            .update(&mut self.world, frame_time as f32, self.ui.show.tracks);
        self.energy.update(&self.world, &self.fx.frame_hits);
        let time_scale = self.ui.time_scale as f64;
        self.sound
            .hear(&self.world, &self.fx.frame_hits, time_scale);
    }

    /// Applies a change to the world through the tape, so the recording sees everything.
    fn input(&mut self, input: Input) -> Result<(), String> {
        self.tape
            .input(&mut self.world, input)
            .map_err(|e| e.to_string())
    }

    /// The settings edited in the panel this frame become an input when they changed.
    fn sync_settings(&mut self) {
        if self.ui.sim != self.world.settings {
            let _ = self.input(Input::Settings(self.ui.sim.clone()));
        }
    }

    /// Mute and volume from the panel to the sound; where the sound goes back to the panel.
    fn sync_sound(&mut self) {
        self.sound.set(self.ui.muted, self.ui.volume);
        self.ui.sound_status = self.sound.status();
        self.ui.sound_why = self.sound.silent_because().map(str::to_string);
    }

    /// The panel shows the world's settings and broad phase (a replay changes them).
    fn show_world_settings(&mut self) {
        self.ui.sim = self.world.settings.clone();
        self.ui.broad = self.world.broad().kind();
    }

    fn apply(&mut self, cmd: Command) {
        match cmd {
            Command::Launch(n) => {
                let _ = self.input(Input::Launch(n));
            }
            Command::Clear => {
                let _ = self.input(Input::Clear);
                self.fx.reset();
            }
            Command::Restart => self.restart(),
            Command::Quit => self.quit = true,
            Command::SetBroad(kind) => {
                let _ = self.input(Input::SetBroad(kind.name().to_string()));
                self.ui.param_message = None;
            }
            Command::SetParam(name, v) => {
                let set = Input::SetParam {
                    name: name.to_string(),
                    value: v,
                };
                self.ui.param_message = self.input(set).err();
            }
            Command::Fill(n, r) => self.fill(n, r),
            Command::Step => {
                self.ui.paused = true;
                self.step_frame();
            }
            cmd => self.apply_hands(cmd),
        }
    }

    /// The hands-on commands (mouse and number keys).
    fn apply_hands(&mut self, cmd: Command) {
        match cmd {
            Command::LaunchAt(pos, vel) => {
                let _ = self.input(Input::LaunchAt { pos, vel });
            }
            Command::MoveBall(i, pos, vel) => {
                let ball = i as u32;
                let _ = self.input(Input::MoveBall { ball, pos, vel });
            }
            Command::RemoveBall(i) => {
                let _ = self.input(Input::RemoveBall(i as u32));
                self.mouse.forget();
                self.fx.tracks.clear();
            }
            Command::LoadScene(k) => self.load_scene(k),
            Command::Control(control, down) => {
                let _ = self.input(Input::Control { control, down });
            }
            Command::SceneFill(n) => {
                self.ui.scene_fill = Some(n);
                self.restart();
            }
            _ => {}
        }
    }

    /// Loads built-in scene `k` (number keys, the Scene list) with the settings it starts
    /// with, keeping the broad phase and the user's tunnelling, verification, pair cache and
    /// rotation.
    fn load_scene(&mut self, k: usize) {
        let Some((name, text)) = cli::BUILT_IN.get(k) else {
            return;
        };
        match Scene::parse(text, &format!("{name} (built in)")) {
            Ok(scene) => {
                self.ui.scene_index = Some(k);
                self.ui.scene_name = scene.name.clone();
                self.ui.scene_fill = scene.fill.map(|f| f.count);
                self.scene = scene;
                let mut sim = self.built().settings.clone();
                let old = &self.ui.sim;
                (sim.tunnelling, sim.linear_fractions) = (old.tunnelling, old.linear_fractions);
                (sim.verify, sim.rotate) = (old.verify, old.rotate);
                sim.pair_cache = old.pair_cache;
                self.ui.sim = sim;
                self.source = Source {
                    origin: format!("{name} (built in)"),
                    text: text.to_string(),
                    seed: self.args.seed,
                };
                self.prefs.last_scene = Some(name.to_string());
                self.restart();
                self.cam = Camera::default();
                self.ui.message = Some(format!("Scene {name} loaded"));
            }
            Err(e) => self.ui.message = Some(format!("Scene {name}: {e}")),
        }
    }

    /// Replaces the balls with `n` at random places, radii up to `r` px; unless the user chose
    /// the broad phase, it is set for `n` balls first ([`crate::advice::broad_for`]).
    fn fill(&mut self, n: u32, r: f32) {
        self.fx.reset();
        self.suit_broad_phase(n as usize);
        let fill = Input::Fill {
            n,
            radius: fill_radii(r),
            speed: FILL_SPEED,
        };
        let _ = self.input(fill);
        let balls = self.world.balls();
        let done = collide::world::Filled {
            balls: balls.len() as u32,
            max_radius: balls.iter().map(|b| b.radius).fold(0.0, f32::max),
        };
        self.ui.fill_message = (done.balls < n || done.max_radius < r * 0.999).then(|| {
            format!(
                "{} balls placed; radii shrunk to at most {:.2} px to fit",
                done.balls, done.max_radius
            )
        });
    }

    /// Sets the broad phase for `balls` balls unless the user chose one, with a note in the
    /// panel when it changes; a chosen brute force gets a note when it will be slow.
    fn suit_broad_phase(&mut self, balls: usize) {
        let kind = self.world.broad().kind();
        if self.ui.broad_chosen {
            let slow = kind == collide::BroadKind::Brute && balls > crate::advice::BRUTE_MAX_BALLS;
            self.ui.broad_note = slow.then(|| crate::advice::brute_kept_note(balls));
            return;
        }
        let want = crate::advice::broad_for(balls, None);
        if want != kind {
            let _ = self.input(Input::SetBroad(want.name().to_string()));
            self.ui.broad = want;
            self.ui.broad_note = Some(if want == collide::BroadKind::Brute {
                format!("Broad phase back to brute force for {balls} balls.")
            } else {
                crate::advice::switched_note(balls)
            });
        }
    }

    /// Reloads the scene, keeping the settings and the broad phase the user chose (else the
    /// one for the balls of the scene's own fill).
    fn restart(&mut self) {
        let settings = self.ui.sim.clone();
        let kind = if self.ui.broad_chosen {
            self.world.broad().kind()
        } else {
            let balls = self.scene.fill.and(self.ui.scene_fill).unwrap_or(0) as usize;
            let want = crate::advice::broad_for(balls, None);
            if want != self.world.broad().kind() {
                self.ui.broad_note = (want != collide::BroadKind::Brute)
                    .then(|| crate::advice::switched_note(balls));
            }
            want
        };
        self.world = self.built();
        self.world.set_broad_phase(kind);
        self.world.set_clock(cli::nanos);
        self.world.settings = settings;
        self.stepper = Stepper::default();
        self.fx.reset();
        self.mouse.forget();
        self.tape = self.source.tape(&self.world);
    }

    /// A fresh world of the scene, with the ball count chosen for its own fill.
    fn built(&self) -> World {
        match self.ui.scene_fill {
            Some(n) if self.scene.fill.is_some() => {
                self.scene.clone().with_fill_count(n).build(self.args.seed)
            }
            _ => self.scene.build(self.args.seed),
        }
    }

    fn keys(&mut self) -> Vec<Command> {
        let mut cmds = Vec::new();
        if is_key_pressed(KeyCode::F2) {
            self.ui.editing = !self.ui.editing;
        }
        if self.ui.egui_wants_keys {
            return cmds;
        }
        if self.editor.active {
            self.edit_keys();
            return cmds;
        }
        if is_key_pressed(KeyCode::Space) && !crate::pinball::space_is_plunger(&self.world) {
            cmds.push(Command::Launch(1));
        }
        if is_key_pressed(KeyCode::P) {
            self.ui.paused = !self.ui.paused;
        }
        if is_key_pressed(KeyCode::O) && self.ui.paused {
            cmds.push(Command::Step);
        }
        if is_key_pressed(KeyCode::R) {
            cmds.push(Command::Restart);
        }
        if is_key_pressed(KeyCode::F1) {
            self.ui.help_open = !self.ui.help_open;
        }
        if is_key_pressed(KeyCode::Escape) {
            cmds.push(Command::Quit);
        }
        self.hand_keys(&mut cmds);
        cmds
    }

    /// Keys in edit mode: the editor's, and the view keys (help, panels, screenshot, framing).
    fn edit_keys(&mut self) {
        self.editor.keys();
        if is_key_pressed(KeyCode::F1) {
            self.ui.help_open = !self.ui.help_open;
        }
        if is_key_pressed(KeyCode::Tab) {
            self.ui.panels_hidden = !self.ui.panels_hidden;
        }
        if is_key_pressed(KeyCode::F12) {
            self.shot_pending = true;
        }
        if is_key_pressed(KeyCode::F) || is_key_pressed(KeyCode::Home) {
            self.cam = Camera::default();
        }
    }

    /// Enters or leaves edit mode to match the toolbar / F2. Entering pauses the world;
    /// leaving makes the edited scene the one in play (and the one Restart reloads).
    fn sync_edit_mode(&mut self) {
        if self.ui.editing == self.editor.active {
            return;
        }
        if self.ui.editing {
            self.paused_before_edit = self.ui.paused;
            self.ui.paused = true;
            self.editor.enter(&self.scene);
            self.mouse.forget();
            self.fx.reset();
        } else {
            let bounds_before = self.scene.bounds;
            self.scene = self.editor.leave();
            // Recordings and saved states of the edited scene carry its text.
            self.source = crate::tape::Source {
                origin: format!("{} (edited)", self.scene.name),
                text: self.scene.to_ron(),
                seed: self.args.seed,
            };
            self.restart();
            self.ui.paused = self.paused_before_edit;
            if self.scene.bounds != bounds_before {
                self.cam = Camera::default();
            }
            self.ui.message = Some("Edited scene in play (R restarts it)".into());
        }
    }

    /// The world on screen: the editor's preview in edit mode, else the running world.
    fn shown(&self) -> &World {
        if self.editor.active {
            &self.editor.preview
        } else {
            &self.world
        }
    }

    /// Time scale, Tab, F12, scene numbers, framing, the energy window.
    fn hand_keys(&mut self, cmds: &mut Vec<Command>) {
        let ts = &mut self.ui.time_scale;
        if is_key_pressed(KeyCode::LeftBracket) {
            *ts = (*ts * 0.5).max(0.02);
        }
        if is_key_pressed(KeyCode::RightBracket) {
            *ts = (*ts * 2.0).min(2.0);
        }
        if is_key_pressed(KeyCode::Tab) {
            self.ui.panels_hidden = !self.ui.panels_hidden;
        }
        if is_key_pressed(KeyCode::F12) {
            self.shot_pending = true;
        }
        if is_key_pressed(KeyCode::F) || is_key_pressed(KeyCode::Home) {
            self.cam = Camera::default();
        }
        if is_key_pressed(KeyCode::E) {
            self.ui.energy_open = !self.ui.energy_open;
        }
        if is_key_pressed(KeyCode::M) {
            self.ui.muted = !self.ui.muted;
        }
        if is_key_pressed(KeyCode::T) {
            self.timeline.open = !self.timeline.open;
        }
        let digits = [
            KeyCode::Key1,
            KeyCode::Key2,
            KeyCode::Key3,
            KeyCode::Key4,
            KeyCode::Key5,
            KeyCode::Key6,
            KeyCode::Key7,
            KeyCode::Key8,
            KeyCode::Key9,
        ];
        for (k, key) in digits.into_iter().enumerate() {
            if is_key_pressed(key) && k < cli::BUILT_IN.len() {
                cmds.push(Command::LoadScene(k));
            }
        }
    }

    /// Mouse gestures: camera moves now, ball edits as commands.
    fn mouse(&mut self) -> Vec<Command> {
        if self.editor.active {
            // The editor reads the mouse after the panels (see `run`).
            return Vec::new();
        }
        let cx = input::Ctx {
            fitted: self.fitted(),
            world: &self.world,
            egui_wants_pointer: self.ui.egui_wants_pointer,
            time_scale: self.ui.time_scale,
            now: get_time(),
        };
        self.mouse.update(&cx, &mut self.cam)
    }

    /// F12: the frame as drawn, to a timestamped PNG in the current folder.
    fn screenshot(&mut self) {
        let name = input::screenshot_name();
        get_screen_data().export_png(&name);
        self.ui.message = Some(format!("Screenshot written: {name}"));
    }

    /// Step (O, the Step button): one frame's steps at once, on this thread.
    fn step_frame(&mut self) {
        // One whole frame of steps, whatever the accumulator holds.
        for _ in 0..self.world.settings.motion_iterations {
            self.tape.step(&mut self.world);
        }
    }

    /// Normally a slow frame is caught up with up to [`CATCH_UP`] s of steps; while one
    /// frame's physics takes longer than 50 ms (tens of thousands of balls) that would make
    /// every frame six times slower still, so the stepper then takes at most one frame's time
    /// per frame: slow motion, but the window stays responsive. Back to real time once the
    /// physics takes at most 0.8 s per simulated second (`physics_s` for `simulated_s`): it
    /// runs beside the drawing, so then it keeps up with the clock. (The old way back, under
    /// 10 ms a frame, kept 10,000 balls in slow motion for good once a slow start put them
    /// there, at 12–16 ms a frame's physics in the window.)
    fn adapt_catch_up(&mut self, physics_s: f64, simulated_s: f64) {
        let slow = self.stepper.max_frame < CATCH_UP;
        let slow = slow_motion(slow, physics_s, simulated_s);
        self.stepper.max_frame = if slow { 1.0 / 60.0 } else { CATCH_UP };
    }

    /// The view fitted to the free area, before zoom and pan.
    fn fitted(&self) -> View {
        let left = if self.editor.active && !self.ui.panels_hidden {
            self.editor.panel_width.min(crate::screen::size().0 - 100.0)
        } else {
            0.0
        };
        let (width, height) = crate::screen::size();
        let right = (width - self.ui.panel_width).max(left + 50.0);
        let top = self.ui.toolbar_height.min(height - 50.0);
        // Tab hides the record/replay bar too (its last height stays in `timeline`).
        let bar = if self.ui.panels_hidden {
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
}

/// Whether the next frame runs in slow motion (see [`App::adapt_catch_up`]), from whether this
/// one did and its physics time for the simulated time (s).
fn slow_motion(slow: bool, physics_s: f64, simulated_s: f64) -> bool {
    physics_s > 0.05 || (slow && physics_s > 0.8 * simulated_s)
}

/// Longest frame time the stepper catches up on normally (s).
const CATCH_UP: f64 = 0.1;

/// Smooths a read-out so the panel does not flicker.
fn smooth(old: f32, new: f32) -> f32 {
    if old == 0.0 {
        new
    } else {
        old * 0.9 + new * 0.1
    }
}

/// The window's main loop. Each frame lays out the panels and the draw calls of the world as
/// the last frame's physics left it, applies the frame's commands, then runs this frame's
/// physics on a worker thread ([`App::launch`]) while the rest of the frame, which reads
/// nothing of the world (the canvas of balls, the panels' painting), is drawn and presented
/// (in software rendering, most of a frame), and takes the world back at the next frame's
/// start. Commands from this frame's input are applied before its physics, so a run is the
/// same as stepping on the main thread (the hashes of `--frames` runs match `--headless`).
pub async fn run(args: Args, start: (Source, Scene, World), prefs: Prefs) {
    let mut app = App::new(args, start, prefs);
    if app.prefs.persist {
        prevent_quit();
    }
    let frames_limit = app.args.frames;
    // Frames whose physics has run (or was skipped: editing, paused), and its total time.
    let (mut frames, mut physics_total) = (0u64, 0.0f64);
    let mut last_frames = crate::cli::LastFrames::default();
    // This thread's work, its waits for the physics thread and its `next_frame`s (s).
    let mut main_thread = Busy::default();
    let mut physics = 0.0;
    let mut in_flight: Option<InFlight> = None;
    let run_start = Instant::now();
    // How long the last `next_frame` took (s): presenting the frame, and in software
    // rendering, rasterising what was queued.
    let mut presented = 0.0;
    // The panels kept between their refreshes (`panel_cache.rs`).
    let mut panel_cache = PanelCache::default();
    // The drawing path, from the GL renderer (`renderer.rs`).
    let renderer = crate::renderer::Renderer::choose(app.args.renderer);
    app.sprites.set_path(renderer.path, renderer.blits);
    panel_cache.set_path(renderer.path, renderer.blits);
    app.ui.renderer_line = renderer.line();
    loop {
        // Colour writes were turned off at the end of the last frame, so macroquad's clear at
        // the start of this one wrote nothing (see there).
        crate::raw_gl::colour_writes(true);
        crate::screen::begin_frame();
        egui_macroquad::cfg(crate::screen::egui_scale);
        let frame_start = Instant::now();
        let frame_time = get_frame_time() as f64;
        // With --frames the effects age 1/60 s a frame too, so a frame's picture is the same
        // on every run (and on both drawing paths).
        let fx_time = if frames_limit.is_some() {
            1.0 / 60.0
        } else {
            frame_time
        };
        let mut waited = 0.0;
        if let Some(job) = in_flight.take() {
            (physics, waited) = app.land(job, fx_time);
            physics_total += physics;
            last_frames.push(physics * 1000.0);
            frames += 1;
        } else {
            // Editing, paused, or the first frame: no steps ran.
            let (lost, pocketed) = (app.world.play().lost, app.world.rules().pocketed);
            app.adapt_catch_up(0.0, 0.0);
            app.after_physics(lost, pocketed, fx_time);
        }
        // With --frames each frame is 1/60 s of simulation, so the result matches --headless.
        let sim_dt = if frames_limit.is_some() {
            1.0 / 60.0
        } else {
            frame_time
        };

        let mut cmds = app.keys();
        app.sync_edit_mode();
        if !app.editor.active {
            cmds.extend(crate::pinball::control_commands(
                &app.world,
                app.ui.egui_wants_keys,
            ));
        }
        cmds.extend(app.mouse());
        app.stepper.time_scale = app.ui.time_scale as f64;

        let load = app.load;
        let mut tape_cmds = Vec::new();
        // The last frame of `--frames`: drawn as it is, the world after `frames` frames of
        // physics, then the summary.
        let last = frames_limit.is_some_and(|n| frames >= n);
        // The panels are drawn afresh for a screenshot.
        let keep = !last && !app.shot_pending;
        let egui_runs = panel_cache.egui_runs(keep, get_time());
        if egui_runs {
            // The panels are drawn afresh, over the window cleared to their colour (they leave
            // their background unpainted, `panel::panel_fill`). Sent to the rasterizer now,
            // the clear is done by the time the canvas is copied in, which waits for every
            // drawing queued before it. A frame that shows the kept panels covers the whole
            // window with them and the canvas: no clear.
            let mut panels = [0.0; 4];
            egui_macroquad::cfg(|ctx| panels = panel::panel_fill(ctx));
            crate::raw_gl::clear_colour(panels);
            crate::raw_gl::flush();
            egui_macroquad::ui(|ctx| {
                panel::wheel_scroll(ctx, mouse_wheel().1);
                if !app.ui.panels_hidden {
                    tape_cmds = crate::timeline::ui(
                        ctx,
                        &mut app.timeline,
                        &app.tape,
                        &app.world,
                        &mut app.ui.paused,
                    );
                }
                cmds.extend(panel::show(ctx, &mut app.ui, &app.world, load));
                if app.editor.active && !app.ui.panels_hidden && app.editor.ui(ctx) {
                    app.ui.editing = false;
                }
                if !app.ui.panels_hidden {
                    app.experiment.ui(ctx, &app.scene);
                    app.energy.ui(ctx, &app.world, &mut app.ui.energy_open);
                    crate::chart::window(ctx, &mut app.ui.chart_open, &app.chart);
                }
                app.editor.wants_pointer = ctx.wants_pointer_input() || ctx.is_pointer_over_area();
            });
        }
        // After the panels, before the next steps: the next frame's landing shows the
        // world's settings in the panel again, so an edit not made an input now is lost.
        app.sync_settings();
        app.sync_sound();
        if app.editor.active {
            let fitted = app.fitted();
            app.editor.mouse(fitted, &mut app.cam);
            app.editor.update();
        }
        let view = app.view();
        let shown = if app.editor.active {
            &app.editor.preview
        } else {
            &app.world
        };
        // The world's drawing stays in the view: the panels around it are transparent over
        // the window's clear, and kept as pixels between refreshes (`panel_cache.rs`), so a
        // shape reaching past the view (zoomed in) would show through them, or over them.
        let clip =
            crate::screen::to_physical(view.pixels(crate::screen::size()), crate::screen::scale());
        crate::raw_gl::clip_drawing(Some(clip));
        crate::draw::world(
            &view,
            shown,
            &app.fx,
            &app.ui.show,
            get_time() as f32,
            &mut app.sprites,
        );
        if app.editor.active {
            app.editor.draw(&view);
        } else {
            app.mouse.draw(&view, app.ui.sim.ball_radius);
        }
        if app.ui.paused && !app.editor.active {
            let at = app.fitted().pt(Vec2::new(
                app.world.bounds().min.x,
                app.world.bounds().max.y,
            ));
            crate::screen::text(
                "PAUSED  (P resumes, O steps)",
                at.x + 12.0,
                at.y + 30.0,
                26.0,
                ORANGE,
            );
        }
        crate::raw_gl::clip_drawing(None);
        if !last {
            for c in cmds {
                app.apply(c);
            }
            for c in tape_cmds {
                app.apply_tape(c);
            }
            if app.quit || is_quit_requested() {
                app.save_prefs();
                std::process::exit(0);
            }
            if app.editor.active || app.ui.paused {
                physics = 0.0;
                frames += 1;
            } else {
                in_flight = Some(app.launch(sim_dt));
            }
        }
        // What is left to draw reads nothing of the world, so it runs beside the physics: the
        // canvas of balls laid out above, under what macroquad has queued (drawn when egui
        // draws), and the panels.
        app.sprites.draw_canvas();
        let canvas = app.sprites.copied_canvas();
        if egui_runs {
            egui_macroquad::draw();
            let mut busy = true;
            egui_macroquad::cfg(|ctx| busy = crate::panel_cache::egui_busy(ctx, canvas));
            panel_cache.take(canvas, get_time(), busy);
        } else {
            panel_cache.put(canvas);
        }
        if std::mem::take(&mut app.shot_pending) {
            app.screenshot();
        }
        if last {
            main_thread.panels = (panel_cache.drawn_frames, panel_cache.kept_frames);
            let physics_ms = (
                physics_total * 1000.0 / frames.max(1) as f64,
                last_frames.mean(),
            );
            finish(&mut app, frames, run_start, physics_ms, main_thread);
        }
        // This thread's work, not its wait for the physics thread.
        let cpu = frame_start.elapsed().as_secs_f64() - waited;
        main_thread.add(cpu, waited, presented);
        app.load = Load {
            fps: smooth(app.load.fps, 1.0 / frame_time.max(1e-4) as f32),
            cpu: smooth(app.load.cpu, (cpu / frame_time.max(1e-4)) as f32),
            physics_ms: smooth(app.load.physics_ms, (physics * 1000.0) as f32),
            physics_share: smooth(
                app.load.physics_share,
                (physics / frame_time.max(1e-4)) as f32,
            ),
            slow_motion: app.stepper.max_frame < CATCH_UP,
        };
        // macroquad's queued drawing goes to GL now, and colour writes are turned off until
        // the next frame's start: macroquad begins every frame with a clear of the window,
        // which a frame showing the kept panels does not need (in llvmpipe a fill of every
        // pixel, about 1.3 ms a frame of the 10k field here).
        // SAFETY: macroquad's documented access to its drawing state, on its thread.
        unsafe { get_internal_gl() }.flush();
        crate::raw_gl::colour_writes(false);
        let present = Instant::now();
        next_frame().await;
        presented = present.elapsed().as_secs_f64();
    }
}

/// The main thread's time over the frames of a run (s): its own work, its waits for the
/// physics thread at the frames' start, and its `next_frame`s (each counted with the frame
/// after it: the first frame adds none).
#[derive(Clone, Copy, Debug, Default)]
struct Busy {
    frames: u64,
    work: f64,
    waited: f64,
    presented: f64,
    /// Frames whose panels egui drew, and frames that showed them as kept (`panel_cache.rs`).
    panels: (u64, u64),
}

impl Busy {
    fn add(&mut self, work: f64, waited: f64, presented: f64) {
        self.frames += 1;
        self.work += work;
        self.waited += waited;
        self.presented += presented;
    }
}

/// After `--frames`: the screenshot, a line of where the main thread's time went, the summary
/// line (last), `--record` and `--save-state`, exit.
fn finish(app: &mut App, frames: u64, start: Instant, physics_ms: (f64, f64), main: Busy) -> ! {
    if let Some(path) = &app.args.screenshot {
        get_screen_data().export_png(&path.to_string_lossy());
    }
    let per = 1000.0 / main.frames.max(1) as f64;
    println!(
        "main thread: work_ms={:.3} waited_for_physics_ms={:.3} next_frame_ms={:.3} (per frame, over {} frames) panels_drawn={} panels_kept={}",
        main.work * per,
        main.waited * per,
        main.presented * per,
        main.frames,
        main.panels.0,
        main.panels.1
    );
    let secs = start.elapsed().as_secs_f64();
    let fps = frames as f64 / secs.max(1e-9);
    println!("{}", cli::summary(frames, &app.world, fps, physics_ms));
    let written = crate::tape::write_outputs(&app.args, &app.source, &mut app.tape, &app.world);
    let sound = app
        .args
        .sound_out
        .as_ref()
        .map_or(Ok(()), |p| app.sound.write_wav(p));
    if let Err(e) = written.and(sound) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
    std::process::exit(0);
}

/// The record/replay bar's commands, settings persistence.
impl App {
    fn apply_tape(&mut self, cmd: TapeCmd) {
        let note = match cmd {
            TapeCmd::Seek(step) => {
                self.ui.paused = true;
                self.tape.seek(&mut self.world, step);
                self.after_jump();
                None
            }
            TapeCmd::Step => {
                self.apply(Command::Step);
                None
            }
            TapeCmd::SaveRecording(path) => {
                let saved = self.tape.record(&self.world).save(&path);
                Some(saved.map_err(|e| e.to_string()).map(|_| {
                    let r = self.tape.recorded();
                    format!(
                        "{} steps, {} inputs saved",
                        r.end - r.start.state.steps,
                        r.inputs.len()
                    )
                }))
            }
            TapeCmd::SaveState(path) => Some(
                self.source
                    .saved(&self.world)
                    .save(&path)
                    .map_err(|e| e.to_string())
                    .map(|_| format!("state at step {} saved", self.world.steps())),
            ),
            TapeCmd::LoadRecording(path) => self.load_recording(&path),
            TapeCmd::LoadState(path) => self.load_state(&path),
            TapeCmd::LoadScene(path) => self.load_scene_file(&path),
        };
        match note {
            Some(Ok(n)) => self.timeline.note = Some(n),
            Some(Err(e)) => self.timeline.error = Some(e),
            None => {}
        }
    }

    /// After the world jumped (seek, load): no stale effects or grabs; the panel follows.
    fn after_jump(&mut self) {
        self.fx.reset();
        self.mouse.forget();
        self.stepper = Stepper::default();
        self.show_world_settings();
    }

    fn load_recording(&mut self, path: &std::path::Path) -> Option<Result<String, String>> {
        Some(
            crate::tape::from_recording_file(path)
                .map(|(source, scene, world, tape)| {
                    (self.source, self.scene, self.world, self.tape) = (source, scene, world, tape);
                    self.ui.paused = true;
                    self.after_jump();
                    "recording loaded: press Play or drag the slider".to_string()
                })
                .map_err(|e| e.to_string()),
        )
    }

    fn load_state(&mut self, path: &std::path::Path) -> Option<Result<String, String>> {
        Some(
            crate::tape::from_state_file(path)
                .map(|(source, scene, world)| {
                    (self.source, self.scene, self.world) = (source, scene, world);
                    self.tape = self.source.tape(&self.world);
                    self.after_jump();
                    format!("state at step {} loaded", self.world.steps())
                })
                .map_err(|e| e.to_string()),
        )
    }

    fn load_scene_file(&mut self, path: &std::path::Path) -> Option<Result<String, String>> {
        let loaded = std::fs::read_to_string(path)
            .map_err(|e| format!("{}:0:0: cannot read the file: {e}", path.display()))
            .and_then(|text| {
                let origin = path.display().to_string();
                let scene = Scene::parse(&text, &origin).map_err(|e| e.to_string())?;
                Ok((origin, text, scene))
            });
        Some(loaded.map(|(origin, text, scene)| {
            self.scene = scene;
            self.source = Source {
                origin: origin.clone(),
                text,
                seed: self.args.seed,
            };
            self.prefs.last_scene = Some(origin.clone());
            self.restart();
            self.cam = Camera::default();
            format!("scene {origin} loaded")
        }))
    }

    /// Remembers the overlays, iterations and window size (the last scene is kept as loaded).
    fn save_prefs(&mut self) {
        let p = &mut self.prefs;
        p.show = Prefs::shown(&self.ui.show);
        p.motion_iterations = self.world.settings.motion_iterations;
        p.collision_iterations = self.world.settings.collision_iterations;
        let (w, h) = crate::screen::physical_size();
        p.window = (w as i32, h as i32);
        (p.muted, p.volume) = (self.ui.muted, self.ui.volume);
        p.save();
    }
}

#[cfg(test)]
mod tests {
    use super::slow_motion;

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
