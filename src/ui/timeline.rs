//! The record/replay bar along the bottom (T hides it): the recording's timeline with play,
//! pause, a frame back and forward and a scrub slider; the state hash beside the recorded
//! one (green when they match, red on a divergence); the files, each kind (recording, state,
//! scene) with a name of its own; and the error window for a file that would not load or
//! save, while the scene runs on. Like the panel, it only returns what it asks for.

use crate::message::TapeCmd;
use collide::scene::FileKind;
use collide::World;
use collide_replay::Tape;
use collide_replay::CHECK_EVERY;
use egui_macroquad::egui;
use std::path::PathBuf;

/// A file that would not load or save: the window's title and the message.
#[derive(Clone, Debug, PartialEq)]
pub struct FileError {
    /// [`crate::message::SAVE_FAILED`] or [`crate::message::LOAD_FAILED`].
    pub title: &'static str,
    /// The error, naming the file.
    pub message: String,
}

/// The bar's own state.
pub struct TimelineUi {
    /// Shown.
    pub open: bool,
    /// The recording's file name.
    pub recording: String,
    /// The saved state's file name.
    pub state: String,
    /// The scene's file name.
    pub scene: String,
    /// A file that would not load or save: shown in the error window until dismissed.
    pub error: Option<FileError>,
    /// What the last file action did, or that it failed.
    pub note: Option<String>,
    /// Height the bar took last frame (px), so the table fits above it.
    pub height: f32,
}

impl TimelineUi {
    /// Draws the bar and the error window; returns what it asks for.
    pub fn show(
        &mut self,
        ctx: &egui::Context,
        tape: &Tape,
        world: &World,
        paused: bool,
    ) -> Vec<TapeCmd> {
        let mut cmds = Vec::new();
        error_window(ctx, &mut self.error);
        if !self.open {
            self.height = 0.0;
            return cmds;
        }
        let bar = egui::TopBottomPanel::bottom("timeline").show(ctx, |ui| {
            ui.spacing_mut().item_spacing = egui::vec2(6.0, 3.0);
            transport_row(ui, tape, world, paused, &mut cmds);
            hash_row(ui, tape, world);
            files_row(ui, self, &mut cmds);
        });
        self.height =
            bar.response.rect.height() * ctx.pixels_per_point() / crate::render::screen::scale();
        cmds
    }
}

impl Default for TimelineUi {
    fn default() -> Self {
        Self {
            open: true,
            recording: FileKind::Recording.default_file().into(),
            state: FileKind::State.default_file().into(),
            scene: FileKind::Scene.default_file().into(),
            error: None,
            note: None,
            height: 0.0,
        }
    }
}

const GREEN: egui::Color32 = egui::Color32::from_rgb(110, 220, 110);
const RED: egui::Color32 = egui::Color32::from_rgb(255, 80, 80);

fn transport_row(
    ui: &mut egui::Ui,
    tape: &Tape,
    world: &World,
    paused: bool,
    cmds: &mut Vec<TapeCmd>,
) {
    ui.horizontal(|ui| {
        if tape.at_end(world) {
            ui.colored_label(RED, "REC");
        } else {
            ui.colored_label(egui::Color32::LIGHT_BLUE, "REPLAY")
                .on_hover_text("Rewound: the recording plays back; any change you make here drops the recorded future and records on from this step (a branch)");
        }
        let frame = world.settings().motion_iterations.max(1) as u64;
        if ui.button("⏮").on_hover_text("to the start").clicked() {
            cmds.push(TapeCmd::Seek(tape.start()));
        }
        if ui.button("◀").on_hover_text("one frame back").clicked() {
            cmds.push(TapeCmd::Seek(world.steps().saturating_sub(frame)));
        }
        let label = if paused { "▶ Play" } else { "⏸ Pause" };
        if ui.button(label).clicked() {
            cmds.push(TapeCmd::Pause(!paused));
        }
        if ui.button("▶|").on_hover_text("one frame forward").clicked() {
            cmds.push(TapeCmd::Step);
        }
        if ui.button("⏭").on_hover_text("to the end of the recording").clicked() {
            cmds.push(TapeCmd::Seek(tape.end()));
        }
        let mut at = world.steps();
        let (start, end) = (tape.start(), tape.end().max(tape.start() + 1));
        ui.spacing_mut().slider_width = (ui.available_width() - 200.0).max(120.0);
        let slider = egui::Slider::new(&mut at, start..=end).text("step");
        let r = ui.add(slider);
        // Only the user's hand moves the world (egui may clamp the value by itself).
        let touched = r.dragged() || r.clicked() || r.drag_stopped() || r.has_focus();
        if r.changed() && touched && at != world.steps() {
            cmds.push(TapeCmd::Seek(on_checkpoint(at, start, tape.end())));
        }
        ui.monospace(format!("/ {}", tape.end()));
    });
}

/// `at` moved to the nearest whole checkpoint (every [`CHECK_EVERY`] steps), so a scrub
/// lands where a hash was recorded; the start and the end stay as they are.
fn on_checkpoint(at: u64, start: u64, end: u64) -> u64 {
    if at <= start || at >= end {
        return at;
    }
    let k = (at + CHECK_EVERY / 2) / CHECK_EVERY * CHECK_EVERY;
    k.clamp(start, end)
}

fn hash_row(ui: &mut egui::Ui, tape: &Tape, world: &World) {
    // Wrapped: in a narrow window (800 px) the rest goes on a line below, never off screen.
    ui.horizontal_wrapped(|ui| {
        let s = world.steps();
        ui.monospace(format!("step {s}  hash {:016x}", world.state_hash()));
        match tape.recorded_hash(s) {
            _ if tape.at_end(world) => {
                ui.weak("recording: a checkpoint hash every 60 steps");
            }
            Some(h) if h == world.state_hash() => {
                ui.colored_label(GREEN, format!("= recorded {h:016x}"));
            }
            Some(h) => {
                ui.colored_label(
                    egui::Color32::YELLOW,
                    format!("recorded {h:016x} (before this step's inputs)"),
                );
            }
            None => {
                ui.weak("(no checkpoint at this step)");
            }
        }
        ui.separator();
        if let Some((step, rec, got)) = tape.last_checked().filter(|_| !tape.at_end(world)) {
            let text = format!("last check, step {step}: {rec:016x} vs {got:016x}");
            ui.colored_label(if rec == got { GREEN } else { RED }, text);
        }
        if let Some(d) = tape.divergence() {
            ui.colored_label(
                RED,
                format!(
                    "DIVERGED at step {}: recorded {:016x}, replayed {:016x}",
                    d.step, d.recorded, d.replayed
                ),
            );
        }
        let count = |n: usize, one, many| crate::advice::counted(n as u64, one, many);
        ui.weak(format!(
            "{}, {}",
            count(tape.recorded().inputs.len(), "input", "inputs"),
            count(
                tape.recorded().checkpoints.len(),
                "checkpoint",
                "checkpoints"
            )
        ));
    });
}

/// Points the files' row needs on one line (the scene's Load at about 840, and a short note).
const ONE_ROW: f32 = 900.0;
/// Room for the Experiment button in the bottom left corner (points).
const BUTTON_ROOM: f32 = 90.0;

/// One name field per kind of file, each with its buttons, then what the last action did: one
/// row where it fits; in a narrow window (800 px) the scene's part and the note go on a row of
/// their own, so they stay on screen. The lowest row keeps room for the Experiment button.
fn files_row(ui: &mut egui::Ui, st: &mut TimelineUi, cmds: &mut Vec<TapeCmd>) {
    let one_row = ui.available_width() >= ONE_ROW;
    ui.horizontal(|ui| {
        ui.add_space(BUTTON_ROOM);
        recording_and_state(ui, st, cmds);
        if one_row {
            ui.separator();
            scene_and_note(ui, st, cmds);
        }
    });
    if !one_row {
        ui.horizontal(|ui| {
            ui.add_space(BUTTON_ROOM);
            scene_and_note(ui, st, cmds);
        });
    }
}

/// A file's name field; the path it names.
fn field(ui: &mut egui::Ui, label: &str, name: &mut String) -> PathBuf {
    ui.label(label);
    ui.add(egui::TextEdit::singleline(name).desired_width(120.0));
    PathBuf::from(name.trim())
}

fn recording_and_state(ui: &mut egui::Ui, st: &mut TimelineUi, cmds: &mut Vec<TapeCmd>) {
    let path = field(ui, "Recording", &mut st.recording);
    if ui
        .button("Save")
        .on_hover_text("Save the recording")
        .clicked()
    {
        cmds.push(TapeCmd::SaveRecording(path.clone()));
    }
    if ui
        .button("Load")
        .on_hover_text("Load a recording")
        .clicked()
    {
        cmds.push(TapeCmd::LoadRecording(path));
    }
    ui.separator();
    let path = field(ui, "State", &mut st.state);
    if ui
        .button("Save")
        .on_hover_text("Save the state now")
        .clicked()
    {
        cmds.push(TapeCmd::SaveState(path.clone()));
    }
    if ui
        .button("Load")
        .on_hover_text("Load a saved state")
        .clicked()
    {
        cmds.push(TapeCmd::LoadState(path));
    }
}

fn scene_and_note(ui: &mut egui::Ui, st: &mut TimelineUi, cmds: &mut Vec<TapeCmd>) {
    let path = field(ui, "Scene", &mut st.scene);
    if ui
        .button("Load")
        .on_hover_text("Load a scene file")
        .clicked()
    {
        cmds.push(TapeCmd::LoadScene(path));
    }
    if let Some(n) = &st.note {
        // Wrapped within the room left, never past the window's edge.
        ui.add(egui::Label::new(egui::RichText::new(n).weak()).wrap());
    }
}

fn error_window(ctx: &egui::Context, error: &mut Option<FileError>) {
    let Some(FileError {
        title,
        message: msg,
    }) = error.clone()
    else {
        return;
    };
    let mut open = true;
    let mut ok = false;
    egui::Window::new(title)
        .open(&mut open)
        .collapsible(false)
        .default_width(520.0)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.colored_label(RED, &msg);
            ui.small("The current scene keeps running.");
            ok = ui.button("OK").clicked();
        });
    if !open || ok {
        *error = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::{LOAD_FAILED, SAVE_FAILED};

    /// Where the files' row (in a bottom panel, as the bar has it) draws the text `word` on a
    /// screen `width` points wide: the right edges of each of its galleys, after a few passes.
    fn right_edges_of(word: &str, width: f32) -> Vec<f32> {
        let (ctx, mut bar) = (egui::Context::default(), TimelineUi::default());
        bar.note = Some("choose a file in the browser's window".into());
        let mut edges = Vec::new();
        for _ in 0..3 {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(
                    egui::Pos2::ZERO,
                    egui::vec2(width, 600.0),
                )),
                ..Default::default()
            };
            let out = ctx.run(input, |ctx| {
                egui::TopBottomPanel::bottom("timeline").show(ctx, |ui| {
                    files_row(ui, &mut bar, &mut Vec::new());
                });
            });
            edges = out
                .shapes
                .iter()
                .filter_map(|c| match &c.shape {
                    egui::epaint::Shape::Text(t) if t.galley.text() == word => {
                        Some(t.pos.x + t.galley.size().x)
                    }
                    _ => None,
                })
                .collect();
        }
        edges
    }

    #[test]
    fn the_scene_load_button_is_on_screen_in_an_800_point_window() {
        // The case that found it: at 800 x 600 the files' row ran past the window's edge, the
        // scene's Load and its note unreachable (the bar does not scroll).
        for width in [800.0, 1280.0] {
            let loads = right_edges_of("Load", width);
            assert_eq!(loads.len(), 3, "three Load buttons at {width}");
            assert!(loads.iter().all(|&x| x <= width), "{loads:?} at {width}");
            let note = right_edges_of("choose a file in the browser's window", width);
            assert!(note.iter().all(|&x| x <= width), "{note:?} at {width}");
        }
    }

    #[test]
    fn each_kind_of_file_starts_with_a_name_of_its_own() {
        let t = TimelineUi::default();
        assert_eq!(
            [t.recording.as_str(), t.state.as_str(), t.scene.as_str()],
            ["recording.ron", "state.ron", "scene.ron"]
        );
    }

    #[test]
    fn a_failed_save_is_titled_as_a_save_and_a_failed_load_as_a_load() {
        let p = || PathBuf::from("x.ron");
        for (cmd, title) in [
            (TapeCmd::SaveRecording(p()), SAVE_FAILED),
            (TapeCmd::SaveState(p()), SAVE_FAILED),
            (TapeCmd::LoadRecording(p()), LOAD_FAILED),
            (TapeCmd::LoadState(p()), LOAD_FAILED),
            (TapeCmd::LoadScene(p()), LOAD_FAILED),
        ] {
            assert_eq!(cmd.failure().map(|f| f.0), Some(title), "{cmd:?}");
        }
        assert_eq!(
            TapeCmd::SaveState(p()).failure().map(|f| f.1),
            Some("saving the state to x.ron failed".to_string())
        );
        assert_eq!(TapeCmd::Step.failure(), None);
    }
}
