//! What the user asked for: the keys, the mouse, the toolbar and side panel, the windows and
//! the record bar return [`Message`]s, and `App::apply` (`app/apply.rs`) applies them, in
//! the order they came, between two steps: the one place the app's state changes. A change of
//! the world is the library's own [`Input`], applied through the recorder there, so a run
//! replays exactly. Nothing here reads input or draws.

use crate::state::Show;
use collide::{BroadKind, Input};
use std::path::PathBuf;

/// What the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// Change the world (recorded): a launch, a clear, a place, a grab or a delete (the ball
    /// by id), a control, the settings, a broad-phase parameter, a fill.
    World(Input),
    /// Use this broad phase, the user's choice: Fill and Restart keep it.
    ChooseBroad(BroadKind),
    /// The user chose the contact solver (the panel's choice is in the settings beside it):
    /// a Fill keeps it.
    SolverChosen,
    /// Reload the scene.
    Restart,
    /// Leave.
    Quit,
    /// Run one frame while paused.
    Step,
    /// Load the built-in scene with this index in [`crate::cli::BUILT_IN`].
    LoadScene(usize),
    /// Reload the scene with this many balls in its own fill (rain, field).
    SceneFill(u32),
    /// Set the toy up for experiment `k` of Things to try (`tour/`).
    Tour(usize),
    /// Measure AABB tests against this parameter of the broad phase, on the balls as they
    /// stand (`ui/params.rs`; the world in play is not touched).
    SweepParam(&'static str),
    /// The record bar's: seek, step, files.
    Tape(TapeCmd),
    /// Pause (`true`) or run.
    Pause(bool),
    /// Draw these overlays.
    Show(Show),
    /// Simulated seconds per real second.
    TimeScale(f32),
    /// Hide (`true`) or show the panels and windows.
    HidePanels(bool),
    /// Enter (`true`) or leave edit mode.
    Edit(bool),
    /// Mute (`true`) or sound the impacts.
    Mute(bool),
    /// The sound's volume (0..=1).
    Volume(f32),
    /// Open (`true`) or close the window of this name (`ui/windows.rs`).
    Window(&'static str, bool),
    /// Close every window.
    CloseWindows,
    /// Open (`true`) or close the record bar.
    Timeline(bool),
    /// Look through this camera (the mouse's pans and zooms; the default frames the table).
    Camera(crate::render::view::Camera),
    /// Pin the probe on this ball (its place in the world's list), or let go of the pinned one.
    Pin(Option<usize>),
    /// Write a screenshot after this frame.
    Screenshot,
    /// An editor key (undo, delete, deselect).
    EditorKey(crate::keymap::Action),
}

/// What the record bar (`ui/timeline.rs`) asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum TapeCmd {
    /// Put the world at this step of the recording.
    Seek(u64),
    /// One frame forward (as the Step button).
    Step,
    /// Pause (`true`) or play.
    Pause(bool),
    /// Write the recording so far.
    SaveRecording(PathBuf),
    /// Load a recording (at its start, ready to replay).
    LoadRecording(PathBuf),
    /// Write the state now.
    SaveState(PathBuf),
    /// Load a state (a new recording starts from it).
    LoadState(PathBuf),
    /// Load a scene file.
    LoadScene(PathBuf),
}

impl TapeCmd {
    /// For a file command that failed: the error window's title and the status line's words.
    pub fn failure(&self) -> Option<(&'static str, String)> {
        let (title, what, path) = match self {
            TapeCmd::SaveRecording(p) => (SAVE_FAILED, "saving the recording to", p),
            TapeCmd::LoadRecording(p) => (LOAD_FAILED, "loading the recording", p),
            TapeCmd::SaveState(p) => (SAVE_FAILED, "saving the state to", p),
            TapeCmd::LoadState(p) => (LOAD_FAILED, "loading the state", p),
            TapeCmd::LoadScene(p) => (LOAD_FAILED, "loading the scene", p),
            TapeCmd::Seek(_) | TapeCmd::Step | TapeCmd::Pause(_) => return None,
        };
        Some((title, format!("{what} {} failed", path.display())))
    }
}

/// The error window's title for a file that would not save.
pub const SAVE_FAILED: &str = "Could not save";
/// The error window's title for a file that would not load.
pub const LOAD_FAILED: &str = "Could not load";
