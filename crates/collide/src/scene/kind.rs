//! The three kinds of file the toy reads and writes (a scene, a saved state, a recording),
//! told apart by their top-level keys (all the required fields of one kind and nothing of
//! another's, brackets balanced), so that a file opened as the wrong kind is named as what it is instead of failing with the parser's
//! first unexpected field.

use super::locate::code_chars;

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
    pub(crate) fn described(self) -> &'static str {
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

    /// Whether a file with exactly these top-level keys is of this kind: it has every
    /// required key, and (states and recordings refusing unknown fields) no other; a scene
    /// has none of the other kinds' keys.
    fn fits(self, keys: &[String]) -> bool {
        let has = |k: &&str| keys.iter().any(|key| key == k);
        if !self.required_keys().iter().all(has) {
            return false;
        }
        let named = |kind: FileKind, key: &String| kind.required_keys().contains(&key.as_str());
        match self {
            FileKind::Scene => !keys
                .iter()
                .any(|k| named(FileKind::State, k) || named(FileKind::Recording, k)),
            kind => keys.iter().all(|k| named(kind, k)),
        }
    }

    /// The kind of RON text: the one kind its top-level keys fit ([`FileKind::fits`]),
    /// strings and comments skipped. `None` when the brackets do not balance or no kind fits:
    /// a damaged file is left to the parser, which says where.
    pub fn of_text(text: &str) -> Option<FileKind> {
        let keys = top_level_keys(text)?;
        let mut kinds = Self::ALL.into_iter().filter(|k| k.fits(&keys));
        match (kinds.next(), kinds.next()) {
            (Some(k), None) => Some(k),
            _ => None,
        }
    }

    /// When `text` is of another kind than `self`, the message that says so: "this is a
    /// saved state, not a recording (Load state or --state opens it)".
    pub(crate) fn mismatch(self, text: &str) -> Option<String> {
        let found = Self::of_text(text).filter(|&k| k != self)?;
        Some(format!(
            "this is {}, not {} ({} opens it)",
            found.described(),
            self.described(),
            found.opened_by()
        ))
    }
}

/// The keys of the top-level struct (an identifier followed by `:` one bracket deep), or
/// `None` when the brackets close more than they open or do not all close.
fn top_level_keys(text: &str) -> Option<Vec<String>> {
    let chars: Vec<char> = code_chars(text).into_iter().map(|c| c.0).collect();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let (mut depth, mut keys) = (0i32, Vec::new());
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            c if depth == 1 && is_ident(c) && (i == 0 || !is_ident(chars[i - 1])) => {
                let end = (i..chars.len())
                    .find(|&k| !is_ident(chars[k]))
                    .unwrap_or(chars.len());
                let after = chars[end..].iter().find(|c| !c.is_whitespace());
                if after == Some(&':') {
                    keys.push(chars[i..end].iter().collect());
                }
                i = end;
                continue;
            }
            _ => {}
        }
        if depth < 0 {
            return None;
        }
        i += 1;
    }
    (depth == 0).then_some(keys)
}
