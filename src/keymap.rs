//! The key map: every key the toy answers, where it works, what it does and the line the help
//! shows for it, in one table ([`KEYS`]), and the mouse's gestures beside it ([`MOUSE`]).
//!
//! The key handling reads the table (`app/keys.rs` for the toy, the editor for its own keys,
//! pinball's controls for the held keys), the help window shows it, and the labels that name a
//! key elsewhere ("PAUSED (P resumes)", "Mute (M)") are made from it. A test holds the key
//! tables of README.md and docs/user-guide.md to it, so they cannot drift apart.

use macroquad::prelude::{is_key_down, is_key_pressed, KeyCode};

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Launch a ball up the lane; in pinball, pull the plunger while held.
    Launch,
    /// Pause or resume.
    Pause,
    /// One frame forward while paused.
    Step,
    /// Restart the scene.
    Restart,
    /// Load the built-in scene of the key's place in the list.
    Scene,
    /// The help window.
    Help,
    /// The Things to try window.
    Tour,
    /// The probe on or off.
    Probe,
    /// The scene editor on or off.
    Editor,
    /// The energy window.
    Energy,
    /// Sound off or on.
    Mute,
    /// The record-and-replay bar.
    Timeline,
    /// Hide or show the panels.
    Panels,
    /// Halve (the first key) or double (the second) the time scale.
    TimeScale,
    /// Frame the whole scene.
    Frame,
    /// Write a screenshot.
    Screenshot,
    /// The left (the first key) or right flipper, while held.
    Flippers,
    /// Leave the toy (the desktop's Esc; a page is closed, never quit).
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    Quit,
    /// Close the floating windows (a page's Esc, as browsers' users close a dialog).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    Close,
    /// The editor's undo.
    Undo,
    /// Delete the editor's selection.
    Delete,
    /// Drop the editor's selection and tool.
    Deselect,
}

/// Where a key works.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// While playing (not in the editor).
    Play,
    /// In the editor.
    Edit,
    /// Playing and in the editor.
    Both,
    /// Everywhere, even while a text field has the keyboard.
    Always,
}

impl Mode {
    /// Whether a key of this mode works in the editor (`editing`) or not.
    pub fn works(self, editing: bool) -> bool {
        match self {
            Mode::Play => !editing,
            Mode::Edit => editing,
            Mode::Both | Mode::Always => true,
        }
    }
}

/// One line of the key map.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// The keys, each doing the action (actions that tell them apart say how).
    pub keys: &'static [KeyCode],
    /// Only with Ctrl held.
    pub ctrl: bool,
    /// Where it works.
    pub mode: Mode,
    /// What it does.
    pub action: Action,
    /// The help window's line for it.
    pub help: &'static str,
}

const fn key(keys: &'static [KeyCode], mode: Mode, action: Action, help: &'static str) -> Binding {
    Binding {
        keys,
        ctrl: false,
        mode,
        action,
        help,
    }
}

/// The screenshot's key and its help: F12, to a file, on the desktop; in a page F12 stays the
/// browser's (its developer tools), so S, to a download.
#[cfg(not(target_arch = "wasm32"))]
const SCREENSHOT: (&[KeyCode], &str) = (
    &[KeyCode::F12],
    "screenshot to screenshot-DATE-TIME.png in the current folder",
);
#[cfg(target_arch = "wasm32")]
const SCREENSHOT: (&[KeyCode], &str) =
    (&[KeyCode::S], "screenshot: the window as a PNG, downloaded");

/// What Esc does while playing: quits on the desktop; in a page (closed, never quit) it closes
/// the floating windows.
#[cfg(not(target_arch = "wasm32"))]
const ESCAPE: (Action, &str) = (Action::Quit, "quit");
#[cfg(target_arch = "wasm32")]
const ESCAPE: (Action, &str) = (
    Action::Close,
    "close the windows: Help, Things to try, energy, chart, experiment",
);

/// Every key, in the order the help lists them and the keys are handled within a frame.
pub const KEYS: &[Binding] = &[
    key(
        &[KeyCode::Space],
        Mode::Play,
        Action::Launch,
        "launch one ball up the lane (in pinball: hold to pull the plunger, release to fire)",
    ),
    key(&[KeyCode::P], Mode::Play, Action::Pause, "pause / resume"),
    key(
        &[KeyCode::O],
        Mode::Play,
        Action::Step,
        "one frame forward while paused",
    ),
    key(
        &[KeyCode::R],
        Mode::Play,
        Action::Restart,
        "restart the scene",
    ),
    key(
        &[
            KeyCode::Key1,
            KeyCode::Key2,
            KeyCode::Key3,
            KeyCode::Key4,
            KeyCode::Key5,
            KeyCode::Key6,
            KeyCode::Key7,
        ],
        Mode::Play,
        Action::Scene,
        "load a built-in scene in the order of the Scene list: 1 table, 2 lab, 3 pinball, \
         4 cradle, 5 pool, 6 rain, 7 field",
    ),
    key(&[KeyCode::F1], Mode::Both, Action::Help, "this help"),
    key(
        &[KeyCode::F3],
        Mode::Play,
        Action::Tour,
        "Things to try: short experiments, each with a button that sets the toy up",
    ),
    key(
        &[KeyCode::I],
        Mode::Play,
        Action::Probe,
        "probe on / off: what the broad phase did for the ball under the pointer (click pins)",
    ),
    key(
        &[KeyCode::F2],
        Mode::Always,
        Action::Editor,
        "scene editor on / off (leaving restarts from the edited scene)",
    ),
    key(&[KeyCode::E], Mode::Play, Action::Energy, "energy window"),
    key(
        &[KeyCode::M],
        Mode::Play,
        Action::Mute,
        "mute / unmute the sound",
    ),
    key(
        &[KeyCode::T],
        Mode::Play,
        Action::Timeline,
        "record/replay bar: timeline, hashes, save and load",
    ),
    key(
        &[KeyCode::Tab],
        Mode::Both,
        Action::Panels,
        "hide / show the panels",
    ),
    key(
        &[KeyCode::LeftBracket, KeyCode::RightBracket],
        Mode::Play,
        Action::TimeScale,
        "time scale: halve / double (slow motion below 1)",
    ),
    key(
        &[KeyCode::F, KeyCode::Home],
        Mode::Both,
        Action::Frame,
        "frame the whole scene (undo zoom and pan)",
    ),
    key(SCREENSHOT.0, Mode::Both, Action::Screenshot, SCREENSHOT.1),
    key(
        &[KeyCode::LeftShift, KeyCode::RightShift],
        Mode::Play,
        Action::Flippers,
        "pinball: raise the left / right flipper while held",
    ),
    key(&[KeyCode::Escape], Mode::Play, ESCAPE.0, ESCAPE.1),
    Binding {
        ctrl: true,
        ..key(
            &[KeyCode::Z],
            Mode::Edit,
            Action::Undo,
            "in the editor: undo the last edit",
        )
    },
    key(
        &[KeyCode::Delete, KeyCode::Backspace],
        Mode::Edit,
        Action::Delete,
        "in the editor: delete the selected shape",
    ),
    key(
        &[KeyCode::Escape],
        Mode::Edit,
        Action::Deselect,
        "in the editor: drop the selection and the tool",
    ),
];

/// The mouse's gestures, for the help (`app/mouse.rs` and the editor read the mouse).
pub const MOUSE: &[(&[&str], &str)] = &[
    (
        &["Left drag"],
        "from empty field: launch a ball along the drag (longer = faster); on a ball: grab and \
         throw it",
    ),
    (&["Right click"], "on a ball: delete it"),
    (&["Right drag", "Middle drag"], "pan"),
    (&["Wheel"], "zoom about the cursor"),
];

/// The line of `action` (the first, for an action of more than one line).
pub fn binding(action: Action) -> &'static Binding {
    KEYS.iter()
        .find(|b| b.action == action)
        .expect("every action has a key")
}

/// The places in `b.keys` of the keys pressed this frame (with Ctrl held, if it asks for it).
pub fn pressed(b: &Binding) -> impl Iterator<Item = usize> + '_ {
    let ctrl = !b.ctrl || is_key_down(KeyCode::LeftControl) || is_key_down(KeyCode::RightControl);
    b.keys
        .iter()
        .enumerate()
        .filter(move |&(_, &k)| ctrl && is_key_pressed(k))
        .map(|(i, _)| i)
}

/// Whether the key at place `i` of `action`'s line is held down.
pub fn held(action: Action, i: usize) -> bool {
    binding(action).keys.get(i).is_some_and(|&k| is_key_down(k))
}

/// How the help names a key.
pub fn key_name(k: KeyCode) -> &'static str {
    use KeyCode::*;
    match k {
        Space => "Space",
        Escape => "Esc",
        Tab => "Tab",
        Home => "Home",
        Delete => "Delete",
        Backspace => "Backspace",
        LeftBracket => "[",
        RightBracket => "]",
        LeftShift => "Left Shift",
        RightShift => "Right Shift",
        F1 => "F1",
        F2 => "F2",
        F3 => "F3",
        I => "I",
        F12 => "F12",
        Key1 => "1",
        Key2 => "2",
        Key3 => "3",
        Key4 => "4",
        Key5 => "5",
        Key6 => "6",
        Key7 => "7",
        Key8 => "8",
        Key9 => "9",
        E => "E",
        F => "F",
        M => "M",
        O => "O",
        P => "P",
        R => "R",
        S => "S",
        T => "T",
        Z => "Z",
        _ => "?",
    }
}

/// The keys of a line as the help names them: "F / Home", "Ctrl+Z", a run of digits as
/// "1 … 7".
pub fn label(b: &Binding) -> String {
    let names: Vec<String> = b
        .keys
        .iter()
        .map(|&k| {
            let ctrl = if b.ctrl { "Ctrl+" } else { "" };
            format!("{ctrl}{}", key_name(k))
        })
        .collect();
    let digits = names.iter().all(|n| n.parse::<u8>().is_ok());
    match (digits, names.first(), names.last()) {
        (true, Some(first), Some(last)) if names.len() > 2 => format!("{first} … {last}"),
        _ => names.join(" / "),
    }
}

/// The label of `action`'s keys ("P", "F2", "M").
pub fn keys_of(action: Action) -> String {
    label(binding(action))
}

/// The key that loads built-in scene `k`, if there is one.
pub fn scene_key(k: usize) -> Option<&'static str> {
    binding(Action::Scene).keys.get(k).map(|&key| key_name(key))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Every key name of the table, one per key ("1" … "7", "Ctrl+Z"), lower case.
    fn table_keys() -> BTreeSet<String> {
        KEYS.iter()
            .flat_map(|b| {
                b.keys.iter().map(move |&k| {
                    let ctrl = if b.ctrl { "ctrl+" } else { "" };
                    format!("{ctrl}{}", key_name(k).to_lowercase())
                })
            })
            .collect()
    }

    fn mouse_inputs() -> BTreeSet<String> {
        MOUSE
            .iter()
            .flat_map(|(inputs, _)| inputs.iter().map(|i| i.to_lowercase()))
            .collect()
    }

    /// The first column of the first table after the heading `heading` of a Markdown text.
    fn first_column(doc: &str, heading: &str) -> Vec<String> {
        let at = doc
            .lines()
            .position(|l| l.trim() == heading)
            .unwrap_or_else(|| panic!("no heading {heading:?}"));
        doc.lines()
            .skip(at + 1)
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .skip(2)
            .map(|l| l.split('|').nth(1).unwrap_or("").trim().to_string())
            .collect()
    }

    /// The inputs a cell names, lower case: "P / O", "F or Home", "[ and ]", "Delete,
    /// Backspace"; "1 … 7" is the keys 1 to 7.
    fn inputs(cell: &str) -> Vec<String> {
        let cell = cell.replace(['*', '`'], "").to_lowercase();
        let mut out = Vec::new();
        let parts = cell
            .split(" / ")
            .flat_map(|p| p.split(", "))
            .flat_map(|p| p.split(" or "))
            .flat_map(|p| p.split(" and "));
        for p in parts.map(str::trim).filter(|p| !p.is_empty()) {
            match p.split_once(" … ") {
                Some((a, b)) => {
                    let (a, b) = (a.parse::<u8>().unwrap(), b.parse::<u8>().unwrap());
                    out.extend((a..=b).map(|d| d.to_string()));
                }
                None => out.push(p.to_string()),
            }
        }
        out
    }

    fn doc_inputs(doc: &str, heading: &str) -> BTreeSet<String> {
        first_column(doc, heading)
            .iter()
            .flat_map(|c| inputs(c))
            .collect()
    }

    /// Fails naming what only the document has and what only the table has.
    fn assert_same(doc: &str, listed: BTreeSet<String>, table: BTreeSet<String>) {
        let only_doc: Vec<_> = listed.difference(&table).collect();
        let only_table: Vec<_> = table.difference(&listed).collect();
        assert!(
            only_doc.is_empty() && only_table.is_empty(),
            "{doc} lists {only_doc:?}, which the key map (src/keymap.rs) does not have, and \
             misses {only_table:?}"
        );
    }

    #[test]
    fn the_user_guide_lists_the_keys_of_the_table() {
        let guide = include_str!("../docs/user-guide.md");
        let listed = doc_inputs(guide, "## Keys");
        assert_same("docs/user-guide.md, Keys,", listed, table_keys());
    }

    #[test]
    fn the_readme_lists_the_keys_and_the_mouse_of_the_table() {
        let readme = include_str!("../README.md");
        let mut all = table_keys();
        all.extend(mouse_inputs());
        assert_same(
            "README.md, Controls,",
            doc_inputs(readme, "## Controls"),
            all,
        );
    }

    #[test]
    fn no_key_does_two_things_in_one_place() {
        let mut seen = BTreeSet::new();
        for b in KEYS {
            for &k in b.keys {
                for editing in [false, true] {
                    if b.mode.works(editing) {
                        let name = format!("{}{}", b.ctrl, key_name(k));
                        assert!(seen.insert((name, editing)), "{k:?} twice");
                    }
                }
            }
            assert!(b.keys.iter().all(|&k| key_name(k) != "?"), "{b:?}");
        }
    }

    #[test]
    fn there_is_a_scene_key_for_each_built_in_scene_and_the_help_names_them() {
        let scenes = crate::cli::BUILT_IN;
        assert_eq!(binding(Action::Scene).keys.len(), scenes.len());
        let help = binding(Action::Scene).help;
        for (k, (name, _)) in scenes.iter().enumerate() {
            assert!(help.contains(&format!("{} {name}", k + 1)), "{help}");
        }
    }

    #[test]
    fn labels_read_as_the_docs_write_them() {
        assert_eq!(keys_of(Action::Scene), "1 … 7");
        assert_eq!(keys_of(Action::Frame), "F / Home");
        assert_eq!(keys_of(Action::Undo), "Ctrl+Z");
        assert_eq!(keys_of(Action::Flippers), "Left Shift / Right Shift");
        assert_eq!(
            inputs("Left Shift / Right Shift"),
            ["left shift", "right shift"]
        );
        assert_eq!(inputs("**F** or Home"), ["f", "home"]);
    }
}
