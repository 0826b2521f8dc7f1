//! The three kinds of file the toy reads and writes (a scene, a saved state, a recording),
//! told apart by their top-level keys, so that a file opened as the wrong kind is named as
//! what it is instead of failing with the parser's first unexpected field.

use super::locate::{code_chars, key_position};

/// A kind of file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A scene (`Scene(name: …, bounds: …, shapes: […])`).
    Scene,
    /// A saved state (`scene_origin`, `scene`, `seed`, `state`).
    State,
    /// A recording (`start`, `end`, `inputs`, `checkpoints`).
    Recording,
}

impl FileKind {
    /// Every kind, in the order the file row shows them.
    pub const ALL: [FileKind; 3] = [FileKind::Recording, FileKind::State, FileKind::Scene];

    /// The kind's name in a sentence, with its article: "a scene", "a saved state", …
    pub fn described(self) -> &'static str {
        match self {
            FileKind::Scene => "a scene",
            FileKind::State => "a saved state",
            FileKind::Recording => "a recording",
        }
    }

    /// The file name the app offers for this kind.
    pub fn default_file(self) -> &'static str {
        match self {
            FileKind::Scene => "scene.ron",
            FileKind::State => "state.ron",
            FileKind::Recording => "recording.ron",
        }
    }

    /// What opens this kind in the app and on the command line.
    fn opened_by(self) -> &'static str {
        match self {
            FileKind::Scene => "Load scene or --scene",
            FileKind::State => "Load state or --state",
            FileKind::Recording => "Load recording or --replay",
        }
    }

    /// Keys at the top level of the file that only this kind has.
    fn own_keys(self) -> &'static [&'static str] {
        match self {
            FileKind::Scene => &["shapes", "bounds", "launch"],
            FileKind::State => &["scene_origin", "state"],
            FileKind::Recording => &["checkpoints", "inputs", "start"],
        }
    }

    /// The kind of RON text, from its top-level keys (strings and comments skipped); `None`
    /// when no kind's keys are there.
    pub fn of_text(text: &str) -> Option<FileKind> {
        let code = code_chars(text);
        Self::ALL.into_iter().find(|k| {
            k.own_keys()
                .iter()
                .any(|key| key_position(&code, key).is_some())
        })
    }

    /// When `text` is of another kind than `self`, the message that says so: "this is a
    /// saved state, not a recording (Load state or --state opens it)".
    pub fn mismatch(self, text: &str) -> Option<String> {
        let found = Self::of_text(text).filter(|&k| k != self)?;
        Some(format!(
            "this is {}, not {} ({} opens it)",
            found.described(),
            self.described(),
            found.opened_by()
        ))
    }
}
