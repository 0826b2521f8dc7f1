//! The keys: each frame the key map (`keymap.rs`) is read line by line, in its order, and
//! each key pressed where it works asks for its action as a [`Message`] (a toggle asks for
//! the other value of what it toggles); `App::apply` makes the change.
//!
//! Pinball's controls are held, not pressed: each frame the held keys are compared with the
//! keys held the frame before, and a key pressed or let go becomes an [`Input::Control`], so
//! a recording replays the game. Keys change nothing themselves.

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

/// Messages for the controls whose key was pressed or let go since the last frame (`last`:
/// the keys held then, updated here; none when the world is not a game, and every control
/// let go while egui has the keyboard). Only a key's change is an input: a replay's held
/// plunger or flipper is the recording's, and a key left alone does not take it back (the
/// world's controls were once brought in line with the keys every frame, which let go of a
/// replayed plunger at once and cut the recording there).
pub(super) fn control_messages(
    world: &World,
    egui_wants_keys: bool,
    last: &mut [bool; 3],
) -> Vec<Message> {
    if !world.is_game() {
        *last = [false; 3];
        return Vec::new();
    }
    let keys = Control::ALL.map(|c| !egui_wants_keys && control_held(c));
    control_changes(keys, last)
}

/// The controls whose key is held now (`keys`, in [`Control::ALL`]'s order) and was not
/// then (`last`, updated), or the other way round.
pub(super) fn control_changes(keys: [bool; 3], last: &mut [bool; 3]) -> Vec<Message> {
    Control::ALL
        .into_iter()
        .zip(keys)
        .filter_map(|(c, down)| {
            let was = std::mem::replace(&mut last[c.index()], down);
            (down != was).then_some(Message::World(Input::Control { control: c, down }))
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

#[cfg(test)]
mod tests {
    use super::control_changes;
    use crate::message::Message;
    use collide::{Control, Input};

    /// A replayed plunger is held by the recording, not by a key: the controls once followed
    /// the keys every frame, let go of it at once and cut the recording there. Now only a
    /// key's change is an input.
    #[test]
    fn a_control_changes_only_when_its_key_does() {
        // No key held, none held before: nothing, whatever the world holds.
        let mut last = [false; 3];
        assert!(control_changes([false; 3], &mut last).is_empty());
        // A key pressed, held, then let go: each change once.
        let plunger = Control::Plunger.index();
        let mut keys = [false; 3];
        keys[plunger] = true;
        let down = control_changes(keys, &mut last);
        assert!(matches!(
            down[..],
            [Message::World(Input::Control { down: true, .. })]
        ));
        assert!(control_changes(keys, &mut last).is_empty());
        let up = control_changes([false; 3], &mut last);
        assert!(matches!(
            up[..],
            [Message::World(Input::Control { down: false, .. })]
        ));
    }
}
