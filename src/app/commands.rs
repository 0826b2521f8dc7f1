//! The commands applied to the world: each becomes an input through the recorder (`Tape`),
//! between two steps, so a recording replays it exactly; and the app's own changes around
//! them (a scene loaded, a restart, the editor entered or left).

use super::App;
use crate::advice;
use crate::cli;
use crate::command::Command;
use crate::render::view::Camera;
use crate::start::{fill_message, fill_radii, Source, FILL_SPEED};
use collide::{Input, Scene, Stepper, World};

impl App {
    /// Applies one command. Every command is named here (no catch-all arm), so a new one
    /// does not compile until it is given its effect.
    pub(super) fn apply(&mut self, cmd: Command) {
        match cmd {
            Command::Launch(n) => {
                self.input_shown(Input::Launch(n));
            }
            Command::Clear => {
                self.input_shown(Input::Clear);
                self.fx.reset();
            }
            Command::Restart => self.restart(),
            Command::Quit => self.quit = true,
            Command::SetBroad(kind) => {
                self.ui.param_message = None;
                self.input_shown(Input::SetBroad(kind.name().to_string()));
            }
            Command::SetParam(name, v) => self.set_param(name, v),
            Command::Fill(n, r) => self.fill(n, r),
            Command::Step => {
                self.ui.paused = true;
                self.step_frame();
            }
            Command::LaunchAt(pos, vel) => {
                self.input_shown(Input::LaunchAt { pos, vel });
            }
            Command::MoveBall(id, pos, vel) => match self.sim.world().ball_index(id) {
                Ok(i) => {
                    let ball = i as u32;
                    self.input_shown(Input::MoveBall { ball, pos, vel });
                }
                Err(stale) => self.ui.message = Some(format!("Refused: {stale}")),
            },
            Command::RemoveBall(id) => match self.sim.world().ball_index(id) {
                Ok(i) => self.input_shown(Input::RemoveBall(i as u32)),
                Err(stale) => self.ui.message = Some(format!("Refused: {stale}")),
            },
            Command::LoadScene(k) => self.load_scene(k),
            Command::Control(control, down) => {
                self.input_shown(Input::Control { control, down });
            }
            Command::SceneFill(n) => {
                self.ui.scene_fill = Some(n);
                self.restart();
            }
            Command::Tour(k) => self.start_tour(k),
            Command::SweepParam(name) => {
                self.panel.params.start(name, &self.scene, self.sim.world())
            }
            // egui may lay the panel out twice in a frame: the second copy changes nothing.
            Command::Settings(settings) if settings == *self.sim.world().settings() => {}
            Command::Settings(settings) => self.input_shown(Input::Settings(settings)),
        }
    }

    /// Sets a broad-phase parameter; the panel shows why the world refused it, if it did.
    fn set_param(&mut self, name: &str, value: f32) {
        let set = Input::SetParam {
            name: name.to_string(),
            value,
        };
        self.ui.param_message = self.input(set).err();
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
                let mut sim = self.built().settings().clone();
                let old = self.sim.world().settings();
                (sim.tunnelling, sim.linear_fractions) = (old.tunnelling, old.linear_fractions);
                (sim.verify, sim.rotate) = (old.verify, old.rotate);
                sim.pair_cache = old.pair_cache;
                self.source = Source {
                    origin: format!("{name} (built in)"),
                    text: text.to_string(),
                    seed: self.args.seed,
                };
                self.prefs.last_scene = Some(name.to_string());
                self.restart_with(sim);
                self.cam = Camera::default();
                self.ui.message = Some(format!("Scene {name} loaded"));
            }
            Err(e) => self.ui.message = Some(format!("Scene {name}: {e}")),
        }
    }

    /// Replaces the balls with `n` at random places, radii up to `r` px; unless the user chose
    /// the broad phase, it is set for `n` balls first ([`advice::broad_for`]).
    fn fill(&mut self, n: u32, r: f32) {
        self.fx.reset();
        self.suit_broad_phase(n as usize);
        self.suit_solver(n as usize);
        let fill = Input::Fill {
            n,
            radius: fill_radii(r),
            speed: FILL_SPEED,
        };
        self.input_shown(fill);
        self.ui.fill_message = fill_message(n, r, self.sim.world().last_fill());
    }

    /// Sets the broad phase for `balls` balls unless the user chose one, and the panel's note
    /// for it (a chosen brute force gets a note when it will be slow).
    fn suit_broad_phase(&mut self, balls: usize) {
        let (kind, chosen) = (self.sim.world().broad().kind(), self.ui.broad_chosen);
        let want = advice::broad_for(balls, chosen.then_some(kind));
        if want != kind {
            self.input_shown(Input::SetBroad(want.name().to_string()));
        }
        self.ui.broad_note = if want != kind && want == collide::BroadKind::Brute {
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
        let want = advice::solver_for_fill(balls, self.ui.solver_chosen);
        self.ui.solver_note = want.map(|_| advice::soft_fill_note(balls));
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
        let chosen = self.ui.broad_chosen;
        let balls = self.scene.fill.and(self.ui.scene_fill).unwrap_or(0) as usize;
        let kind = advice::broad_for(balls, chosen.then(|| self.sim.world().broad().kind()));
        self.ui.broad_note = advice::broad_note(balls, kind, chosen);
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

    /// A fresh world of the scene, with the ball count chosen for its own fill.
    fn built(&self) -> World {
        match self.ui.scene_fill {
            Some(n) if self.scene.fill.is_some() => {
                self.scene.clone().with_fill_count(n).build(self.args.seed)
            }
            _ => self.scene.build(self.args.seed),
        }
    }

    /// Enters or leaves edit mode to match the toolbar / F2. Entering pauses the world;
    /// leaving makes the edited scene the one in play (and the one Restart reloads).
    pub(super) fn sync_edit_mode(&mut self) {
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
            self.source = Source {
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
}
