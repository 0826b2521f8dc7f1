//! The messages applied, in one place ([`App::apply`]): a change of the world becomes an
//! input through the recorder (`Tape`), between two steps, so a recording replays it
//! exactly; the app's own changes around them (a scene loaded, a restart, the editor entered
//! or left) and the user's choices (pause, overlays, mute, windows) are made here too.

use super::App;
use crate::advice;
use crate::cli;
use crate::message::Message;
use crate::render::view::Camera;
use crate::start::{fill_message, Source};
use collide::{Input, Scene, Stepper, World};

impl App {
    /// Applies one message: the one place the app's state changes, in the order the messages
    /// came. A change of the world goes through the recorder ([`App::input`]). Every message
    /// is named here (no catch-all arm), so a new one does not compile until it is given its
    /// effect.
    pub(super) fn apply(&mut self, msg: Message) {
        match msg {
            Message::World(input) => self.apply_input(input),
            Message::ChooseBroad(kind) => {
                (self.choices.broad_chosen, self.feedback.notes.broad_note) = (true, None);
                self.apply_input(Input::SetBroad(kind.name().to_string()));
            }
            Message::SolverChosen => {
                (self.choices.solver_chosen, self.feedback.notes.solver_note) = (true, None);
            }
            Message::Restart => self.restart(),
            Message::Quit => self.quit = true,
            Message::Step => {
                self.choices.paused = true;
                self.step_frame();
            }
            Message::LoadScene(k) => self.load_scene(k),
            Message::SceneFill(n) => {
                self.scene = self.scene.clone().with_fill_count(n);
                self.restart();
            }
            Message::Tour(k) => self.start_tour(k),
            Message::SweepParam(name) => {
                self.panel.params.start(name, &self.scene, self.sim.world())
            }
            Message::Tape(cmd) => self.apply_tape(cmd),
            Message::Pause(paused) => self.choices.paused = paused,
            Message::Show(show) => self.choices.show = show,
            Message::TimeScale(scale) => self.choices.time_scale = scale,
            Message::HidePanels(hidden) => self.choices.panels_hidden = hidden,
            Message::Edit(editing) => {
                self.choices.editing = editing;
                self.sync_edit_mode();
            }
            Message::Mute(muted) => self.sound.set(muted, self.sound.volume()),
            Message::Volume(volume) => self.sound.set(self.sound.muted(), volume),
            Message::Window(name, open) => self.windows.set_open(name, open),
            Message::CloseWindows => self.windows.close_all(),
            Message::Timeline(open) => self.timeline.open = open,
            Message::Camera(cam) => self.cam = cam,
            Message::Pin(ball) => self.teach.pinned = ball,
            Message::Screenshot => self.shot_pending = true,
            Message::EditorKey(action) => self.editor.key(action),
        }
    }

    /// A change of the world, with what the app does around it: a clear takes the effects
    /// with it, a new broad phase the last refusal of a parameter, a fill suits the broad
    /// phase and the solver to its balls first; the same settings again change nothing.
    fn apply_input(&mut self, input: Input) {
        match input {
            // egui may lay the panel out twice in a frame: the second copy changes nothing.
            Input::Settings(ref settings) if settings == self.sim.world().settings() => {}
            Input::Clear => {
                self.input_shown(input);
                self.fx.reset();
            }
            Input::SetBroad(_) => {
                self.feedback.notes.param_message = None;
                self.input_shown(input);
            }
            Input::SetParam { .. } => self.feedback.notes.param_message = self.input(input).err(),
            Input::Fill { n, radius, speed } => self.fill(n, radius, speed),
            _ => self.input_shown(input),
        }
    }

    /// Loads built-in scene `k` (number keys, the Scene list) with the settings it starts
    /// with, keeping the broad phase and the user's tunnelling, verification, pair cache and
    /// rotation (on if the scene turns its shapes or the user had it on).
    fn load_scene(&mut self, k: usize) {
        let Some((name, text)) = cli::BUILT_IN.get(k) else {
            return;
        };
        match Scene::parse(text, &format!("{name} (built in)")) {
            Ok(scene) => {
                self.scene = scene;
                let mut sim = self.built().settings().clone();
                let old = self.sim.world().settings();
                (sim.tunnelling, sim.linear_fractions) = (old.tunnelling, old.linear_fractions);
                (sim.verify, sim.rotate) = (old.verify, old.rotate || sim.rotate);
                sim.pair_cache = old.pair_cache;
                self.source = Source {
                    origin: format!("{name} (built in)"),
                    text: text.to_string(),
                    seed: self.args.seed,
                };
                self.prefs.last_scene = Some(name.to_string());
                self.restart_with(sim);
                self.cam = Camera::default();
                self.feedback.notes.message = Some(format!("Scene {name} loaded"));
            }
            Err(e) => self.feedback.notes.message = Some(format!("Scene {name}: {e}")),
        }
    }

    /// Replaces the balls with `n` at random places, radii in `radius` (px), at most `speed`
    /// px/s; unless the user chose the broad phase, it is set for `n` balls first
    /// ([`advice::broad_for`]).
    fn fill(&mut self, n: u32, radius: (f32, f32), speed: f32) {
        self.fx.reset();
        self.suit_broad_phase(n as usize);
        self.suit_solver(n as usize);
        self.input_shown(Input::Fill { n, radius, speed });
        let last = self.sim.world().last_fill();
        self.feedback.notes.fill_message = fill_message(n, radius.1, last);
    }

    /// Sets the broad phase for `balls` balls unless the user chose one, and the panel's note
    /// for it (a chosen brute force gets a note when it will be slow).
    fn suit_broad_phase(&mut self, balls: usize) {
        let (kind, chosen) = (self.sim.world().broad().kind(), self.choices.broad_chosen);
        let want = advice::broad_for(balls, chosen.then_some(kind));
        if want != kind {
            self.input_shown(Input::SetBroad(want.name().to_string()));
        }
        self.feedback.notes.broad_note = if want != kind && want == collide::BroadKind::Brute {
            Some(format!(
                "Broad phase back to brute force for {balls} balls."
            ))
        } else {
            advice::broad_note(balls, want, chosen)
        };
    }

    /// Takes soft contacts for a Fill of `balls` balls unless the user chose a solver
    /// ([`advice::solver_for_fill`]), and says so in the panel.
    fn suit_solver(&mut self, balls: usize) {
        let want = advice::solver_for_fill(balls, self.choices.solver_chosen);
        self.feedback.notes.solver_note = want.map(|_| advice::soft_fill_note(balls));
        if let Some(solver) = want.filter(|&s| s != self.sim.world().settings().solver) {
            let mut sim = self.sim.world().settings().clone();
            sim.solver = solver;
            self.input_shown(Input::Settings(sim));
        }
    }

    /// Reloads the scene, keeping the settings and the broad phase the user chose (else the
    /// one for the balls of the scene's own fill).
    pub(super) fn restart(&mut self) {
        self.restart_with(self.sim.world().settings().clone());
    }

    /// Reloads the scene as [`App::restart`] does, with `settings`.
    fn restart_with(&mut self, settings: collide::Settings) {
        let chosen = self.choices.broad_chosen;
        let balls = self.scene.fill.map_or(0, |f| f.count) as usize;
        let kind = advice::broad_for(balls, chosen.then(|| self.sim.world().broad().kind()));
        self.feedback.notes.broad_note = advice::broad_note(balls, kind, chosen);
        let mut world = self.built();
        world.set_broad_phase(kind);
        world.set_clock(crate::clock::nanos);
        world.set_settings(settings);
        let tape = self.source.tape(&world);
        self.sim = super::Sim::new(world, tape);
        self.stepper = Stepper::default();
        self.fx.reset();
        self.mouse.forget();
    }

    /// A fresh world of the scene (its own fill with the ball count chosen for it).
    fn built(&self) -> World {
        self.scene.build(self.args.seed)
    }

    /// Enters or leaves edit mode to match the toolbar / F2. Entering pauses the world;
    /// leaving makes the edited scene the one in play (and the one Restart reloads).
    pub(super) fn sync_edit_mode(&mut self) {
        if self.choices.editing == self.editor.active {
            return;
        }
        if self.choices.editing {
            self.paused_before_edit = self.choices.paused;
            self.choices.paused = true;
            self.editor.enter(&self.scene);
            self.mouse.forget();
            self.fx.reset();
        } else {
            let bounds_before = self.scene.bounds;
            self.scene = self.editor.leave();
            // Recordings and saved states of the edited scene carry its text.
            self.source = Source {
                origin: format!("{} (edited)", self.scene.name),
                text: self.scene.to_ron(),
                seed: self.args.seed,
            };
            self.restart();
            self.choices.paused = self.paused_before_edit;
            if self.scene.bounds != bounds_before {
                self.cam = Camera::default();
            }
            self.feedback.notes.message = Some("Edited scene in play (R restarts it)".into());
        }
    }
}
