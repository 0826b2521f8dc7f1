//! The page's edges of the window app (built for `wasm32-unknown-unknown` only): the record
//! bar's and the editor's files saved as downloads and loaded from the browser's file
//! chooser, the settings kept in the browser's storage as the frames go by (a page is closed,
//! never quit; a visit set up by its address keeps them only when the user says so), and what
//! the window shows handed to the page each frame (`page::facts`, for its checks). A loaded
//! file goes through the same parsing as on the desktop, named by its file name, so a bad file
//! gets the same message (in the page's words).

use super::App;
use crate::message::TapeCmd;
use crate::start;
use crate::web::page::{self, file::*};
use crate::web::words::for_page;
use collide::{Recording, SavedState};
use std::path::{Path, PathBuf};

/// Frames between two writes of the settings to the browser's storage.
const PREFS_EVERY: u64 = 60;

/// The recordings' and states' layout, as the library writes their files.
fn ron_text<T: serde::Serialize>(value: &T) -> Result<String, String> {
    let pretty = ron::ser::PrettyConfig::new().depth_limit(3);
    ron::ser::to_string_pretty(value, pretty).map_err(|e| e.to_string())
}

/// The file name a download gets: the field's last part, or `default` when it has none.
fn file_name(path: &Path, default: &str) -> String {
    path.file_name()
        .map_or(default.to_string(), |n| n.to_string_lossy().into_owned())
}

impl App {
    /// Once a frame: a file the user chose is loaded; the settings are kept now and then
    /// (if this visit keeps them); the page is told what the window shows.
    pub(super) fn web_frame(&mut self, frames: u64) {
        if let Some((kind, name, text)) = page::upload() {
            self.uploaded(kind, name, text);
        }
        if frames.is_multiple_of(PREFS_EVERY) && page::keeps_settings() {
            self.save_prefs();
        }
        page::facts(&self.facts(frames));
    }

    /// What the window shows, as JSON: frames run, balls, whether it is paused, the iterations
    /// (motion, collision), the floating windows open, the experiment's progress, and whether
    /// the settings are kept (`kept`), offered to be (`visit`: set up by the address) or not
    /// kept at all (`none`).
    fn facts(&self, frames: u64) -> String {
        let settings = match (self.prefs.persist, page::keeps_settings()) {
            (false, _) => "none",
            (true, false) => "visit",
            (true, true) => "kept",
        };
        let progress = self
            .windows
            .experiment
            .running()
            .map_or("null".to_string(), |f| f.to_string());
        let st = self.sim.world().settings();
        format!(
            "{{\"frames\":{frames},\"balls\":{},\"paused\":{},\"iterations\":[{},{}],\
             \"help\":{},\"tour\":{},\"energy\":{},\"chart\":{},\"experiment\":{progress},\
             \"settings\":\"{settings}\"}}",
            self.sim.world().balls().len(),
            self.choices.paused,
            st.motion_iterations,
            st.collision_iterations,
            self.windows.is_open(crate::ui::help::NAME),
            self.windows.is_open(crate::ui::tour::NAME),
            self.windows.is_open(crate::ui::energy::NAME),
            self.windows.is_open(crate::ui::chart::NAME),
        )
    }

    /// A record bar's file command as a page does it: a save is downloaded at once, a load
    /// opens the file chooser. Hands back the commands that are not about files.
    pub(super) fn web_file(&mut self, cmd: TapeCmd) -> Option<TapeCmd> {
        let failure = cmd.failure();
        let note = match &cmd {
            TapeCmd::SaveRecording(path) => {
                let held = self.sim.held();
                let text = ron_text(held.tape.record(&held.world));
                let r = self.sim.tape().recorded();
                let count = crate::advice::counted;
                let what = format!(
                    "{}, {}",
                    count(r.end - r.start.state.steps, "step", "steps"),
                    count(r.inputs.len() as u64, "input", "inputs")
                );
                text.map(|t| {
                    let name = file_name(path, "recording.ron");
                    page::download(&name, t.as_bytes());
                    format!("{what} saved as a download, {name}")
                })
            }
            TapeCmd::SaveState(path) => ron_text(&self.source.saved(self.sim.world())).map(|t| {
                let name = file_name(path, "state.ron");
                page::download(&name, t.as_bytes());
                format!(
                    "state at step {} saved as a download, {name}",
                    self.sim.world().steps()
                )
            }),
            TapeCmd::LoadRecording(_) => Ok(choose(RECORDING)),
            TapeCmd::LoadState(_) => Ok(choose(STATE)),
            TapeCmd::LoadScene(_) => Ok(choose(SCENE)),
            TapeCmd::Seek(_) | TapeCmd::Step | TapeCmd::Pause(_) => return Some(cmd),
        };
        self.show_file_result(Some(note.map_err(|e| for_page(&e))), failure);
        None
    }

    /// A chosen file, read as the desktop reads a file of that name.
    fn uploaded(&mut self, kind: u32, name: String, text: String) {
        let path = PathBuf::from(&name);
        let (note, cmd) = match kind {
            RECORDING => (
                self.take_recording(Recording::parse(&text, &name).and_then(start::from_recording)),
                TapeCmd::LoadRecording(path),
            ),
            STATE => (
                self.take_state(SavedState::parse(&text, &name).and_then(start::from_state)),
                TapeCmd::LoadState(path),
            ),
            SCENE => (self.take_scene(Ok((name, text))), TapeCmd::LoadScene(path)),
            EDITOR_SCENE => return self.editor.uploaded(&name, &text),
            _ => return,
        };
        self.show_file_result(note.map(|n| n.map_err(|e| for_page(&e))), cmd.failure());
    }
}

impl App {
    /// F12 in a page: the frame as a PNG download named `name`; hands back what the panel
    /// says of it.
    pub(super) fn download_png(&self, shot: macroquad::texture::Image, name: String) -> String {
        let (w, h) = (shot.width as usize, shot.height as usize);
        // The framebuffer's rows are bottom up.
        let rows: Vec<u8> = shot.bytes.chunks(w * 4).rev().flatten().copied().collect();
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, w as u32, h as u32);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let written = encoder
            .write_header()
            .and_then(|mut writer| writer.write_image_data(&rows));
        match written {
            Ok(()) => {
                page::download(&name, &bytes);
                format!("{name} (a download)")
            }
            Err(e) => format!("none ({e})"),
        }
    }
}

/// Opens the file chooser for `kind`; the note under the bar says what comes next.
fn choose(kind: u32) -> String {
    page::pick(kind);
    "choose a file in the browser's window".to_string()
}
