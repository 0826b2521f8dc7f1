//! The record-and-replay bar's messages: seeking in the recording, and saving and loading
//! recordings, states and scenes by path.

use super::App;
use crate::message::Message;
use crate::message::TapeCmd;
use crate::render::view::Camera;
use crate::start::Source;
use crate::ui::timeline::FileError;
use collide::{Scene, Stepper};

impl App {
    pub(super) fn apply_tape(&mut self, cmd: TapeCmd) {
        // A page saves by download and loads by upload (`web.rs`).
        #[cfg(target_arch = "wasm32")]
        let Some(cmd) = self.web_file(cmd) else {
            return;
        };
        let failure = cmd.failure();
        let note = match cmd {
            TapeCmd::Seek(step) => {
                self.choices.paused = true;
                let held = self.sim.held();
                held.tape.seek(&mut held.world, step);
                self.after_jump();
                None
            }
            TapeCmd::Step => {
                self.apply(Message::Step);
                None
            }
            TapeCmd::Pause(paused) => {
                self.apply(Message::Pause(paused));
                None
            }
            TapeCmd::SaveRecording(path) => {
                let held = self.sim.held();
                let saved = held.tape.record(&held.world).save(&path);
                Some(saved.map_err(|e| e.to_string()).map(|_| {
                    let r = self.sim.tape().recorded();
                    let count = crate::advice::counted;
                    format!(
                        "{}, {} saved",
                        count(r.end - r.start.state.steps, "step", "steps"),
                        count(r.inputs.len() as u64, "input", "inputs")
                    )
                }))
            }
            TapeCmd::SaveState(path) => Some(
                self.source
                    .saved(self.sim.world())
                    .save(&path)
                    .map_err(|e| e.to_string())
                    .map(|_| format!("state at step {} saved", self.sim.world().steps())),
            ),
            TapeCmd::LoadRecording(path) => self.load_recording(&path),
            TapeCmd::LoadState(path) => self.load_state(&path),
            TapeCmd::LoadScene(path) => self.load_scene_file(&path),
        };
        self.show_file_result(note, failure);
    }

    /// What a file command did, under the bar; a failure also in the error window.
    pub(super) fn show_file_result(
        &mut self,
        note: Option<Result<String, String>>,
        failure: Option<(&'static str, String)>,
    ) {
        match (note, failure) {
            (Some(Ok(n)), _) => self.timeline.note = Some(n),
            (Some(Err(message)), Some((title, failed))) => {
                self.timeline.error = Some(FileError { title, message });
                self.timeline.note = Some(failed);
            }
            _ => {}
        }
    }

    /// After the world jumped (seek, load): no stale effects or grabs.
    fn after_jump(&mut self) {
        self.fx.reset();
        self.mouse.forget();
        self.stepper = Stepper::default();
    }

    fn load_recording(&mut self, path: &std::path::Path) -> Option<Result<String, String>> {
        self.take_recording(crate::start::from_recording_file(path))
    }

    /// A recording read and built (from a file, or a page's upload) becomes the world.
    pub(super) fn take_recording(
        &mut self,
        loaded: Result<(Source, Scene, collide::World, collide_replay::Tape), collide::SceneError>,
    ) -> Option<Result<String, String>> {
        Some(
            loaded
                .map(|(source, scene, world, tape)| {
                    (self.source, self.scene) = (source, scene);
                    self.sim = super::Sim::new(world, tape);
                    self.choices.paused = true;
                    self.after_jump();
                    "recording loaded: press Play or drag the slider".to_string()
                })
                .map_err(|e| e.to_string()),
        )
    }

    fn load_state(&mut self, path: &std::path::Path) -> Option<Result<String, String>> {
        self.take_state(crate::start::from_state_file(path))
    }

    /// A state read and built (from a file, or a page's upload) becomes the world.
    pub(super) fn take_state(
        &mut self,
        loaded: Result<(Source, Scene, collide::World), collide::SceneError>,
    ) -> Option<Result<String, String>> {
        Some(
            loaded
                .map(|(source, scene, world)| {
                    let tape = source.tape(&world);
                    (self.source, self.scene) = (source, scene);
                    self.sim = super::Sim::new(world, tape);
                    self.after_jump();
                    format!("state at step {} loaded", self.sim.world().steps())
                })
                .map_err(|e| e.to_string()),
        )
    }

    fn load_scene_file(&mut self, path: &std::path::Path) -> Option<Result<String, String>> {
        self.take_scene(Scene::read(path))
    }

    /// A scene file's `(origin, text)` (from a file, or a page's upload), parsed, becomes the
    /// scene played, with the user's settings (and Rotate on if the scene turns its shapes).
    pub(super) fn take_scene(
        &mut self,
        read: Result<(String, String), collide::SceneError>,
    ) -> Option<Result<String, String>> {
        let loaded = read
            .and_then(|(origin, text)| {
                let scene = Scene::parse(&text, &origin)?;
                Ok((origin, text, scene))
            })
            .map_err(|e| e.to_string());
        Some(loaded.map(|(origin, text, scene)| {
            if scene.settings.rotate == Some(true) {
                self.sim.world_mut().edit_settings(|s| s.rotate = true);
            }
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
}
