//! The keys: each frame the key map (`keymap.rs`) is read line by line, in its order, and
//! each key pressed where it works asks for its action as a [`Message`] (a toggle asks for
//! the other value of what it toggles); `App::apply` makes the change.
//!
//! Pinball's controls are held, not pressed: each frame the held keys are compared with the
//! controls the world holds, and a difference becomes an [`Input::Control`], so a recording
//! replays the game. Keys change nothing themselves.

use super::App;
use crate::cli;
use crate::keymap::{self, Action, Mode, KEYS};
use crate::message::Message;
use crate::render::view::Camera;
use crate::state::Show;
use crate::ui::{energy, help, tour};
use collide::{Control, Input, World};

impl App {
    /// This frame's keys as messages. In the editor only the keys of [`Mode::Edit`] and
    /// [`Mode::Both`] work; while a text field has the keyboard, only those of [`Mode::Always`].
    pub(super) fn keys(&self) -> Vec<Message> {
        let mut msgs = Vec::new();
        let editing = self.editor.active;
        for b in KEYS {
            let text = self.feedback.egui_wants_keys && b.mode != Mode::Always;
            if !b.mode.works(editing) || text {
                continue;
            }
            let mut pressed = keymap::pressed(b);
            if by_place(b.action) {
                msgs.extend(pressed.filter_map(|k| self.key(b.action, k)));
            } else if let Some(k) = pressed.next() {
                msgs.extend(self.key(b.action, k));
            }
        }
        msgs
    }

    /// What `action` asks for, pressed by the key at place `k` of its line, read against the
    /// state it changes (a toggle asks for the other value).
    pub(super) fn key(&self, action: Action, k: usize) -> Option<Message> {
        let c = &self.choices;
        let window = |name: &'static str| Message::Window(name, !self.windows.is_open(name));
        Some(match action {
            // In a game Space is the plunger, held (see `control_messages`).
            Action::Launch if !self.sim.world().is_game() => Message::World(Input::Launch(1)),
            Action::Pause => Message::Pause(!c.paused),
            Action::Step if c.paused => Message::Step,
            Action::Restart => Message::Restart,
            Action::Scene if k < cli::BUILT_IN.len() => Message::LoadScene(k),
            Action::Help => window(help::NAME),
            Action::Tour => window(tour::NAME),
            Action::Energy => window(energy::NAME),
            Action::Probe => Message::Show(Show {
                probe: !c.show.probe,
                ..c.show.clone()
            }),
            Action::Editor => Message::Edit(!c.editing),
            Action::Mute => Message::Mute(!self.sound.muted()),
            Action::Timeline => Message::Timeline(!self.timeline.open),
            Action::Panels => Message::HidePanels(!c.panels_hidden),
            Action::TimeScale if k == 0 => Message::TimeScale((c.time_scale * 0.5).max(0.02)),
            Action::TimeScale => Message::TimeScale((c.time_scale * 2.0).min(2.0)),
            Action::Frame => Message::Camera(Camera::default()),
            Action::Screenshot => Message::Screenshot,
            Action::Quit => Message::Quit,
            Action::Close => Message::CloseWindows,
            Action::Undo | Action::Delete | Action::Deselect => Message::EditorKey(action),
            Action::Launch | Action::Step | Action::Scene | Action::Flippers => return None,
        })
    }
}

/// Whether each key of `action`'s line does something of its own (a scene each, halve and
/// double), rather than all of them the one thing.
fn by_place(action: Action) -> bool {
    matches!(action, Action::Scene | Action::TimeScale)
}

/// Messages that bring the world's held controls in line with the held keys (none when the
/// world is not a game; every control let go while egui has the keyboard).
pub(super) fn control_messages(world: &World, egui_wants_keys: bool) -> Vec<Message> {
    if !world.is_game() {
        return Vec::new();
    }
    let held = world.play().held;
    Control::ALL
        .into_iter()
        .filter_map(|c| {
            let down = !egui_wants_keys && control_held(c);
            (down != held[c.index()]).then_some(Message::World(Input::Control { control: c, down }))
        })
        .collect()
}

/// Whether the key of control `c` is held: the flippers' keys, and Space for the plunger.
fn control_held(c: Control) -> bool {
    match c {
        Control::LeftFlipper => keymap::held(Action::Flippers, 0),
        Control::RightFlipper => keymap::held(Action::Flippers, 1),
        Control::Plunger => keymap::held(Action::Launch, 0),
    }
}
