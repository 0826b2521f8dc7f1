//! The three kinds of file the toy reads and writes (a scene, a saved state, a recording),
//! told apart by their top-level keys (all the required fields of one kind), so that a file
//! opened as the wrong kind is named as what it is instead of failing with the parser's
//! first unexpected field.

use super::locate::{code_chars, key_position};

/// A kind of file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A scene (`Scene(name: …, bounds: …, launch: …, shapes: […])`).
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

    /// The keys every file of this kind has at its top level (its required fields).
    fn required_keys(self) -> &'static [&'static str] {
        match self {
            FileKind::Scene => &["name", "bounds", "launch", "shapes"],
            FileKind::State => &["scene_origin", "scene", "seed", "state"],
            FileKind::Recording => &["start", "end", "inputs", "checkpoints"],
        }
    }

    /// The kind of RON text: the one kind whose required keys are all at its top level
    /// (strings and comments skipped). `None` when no kind's are (a damaged file is left to
    /// the parser, which says where), or more than one's.
    pub fn of_text(text: &str) -> Option<FileKind> {
        let code = code_chars(text);
        let has_all = |k: &FileKind| {
            k.required_keys()
                .iter()
                .all(|key| key_position(&code, key).is_some())
        };
        let mut kinds = Self::ALL.into_iter().filter(has_all);
        match (kinds.next(), kinds.next()) {
            (Some(k), None) => Some(k),
            _ => None,
        }
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
