//! The keys: each frame the key map (`keymap.rs`) is read line by line, in its order, and
//! each key pressed where it works does its action: a command, or a change of the window's
//! own state (a window opened, the camera reset).
//!
//! Pinball's controls are held, not pressed: each frame the held keys are compared with the
//! controls the world holds, and a difference becomes a [`Command::Control`], so a recording
//! of commands replays the game. Keys never touch the world.

use super::App;
use crate::cli;
use crate::command::Command;
use crate::keymap::{self, Action, Mode, KEYS};
use crate::render::view::Camera;
use crate::ui::{energy, help, tour};
use collide::{Control, World};

impl App {
    /// This frame's keys as commands, and what they change in the window. In the editor only
    /// the keys of [`Mode::Edit`] and [`Mode::Both`] work; while a text field has the keyboard,
    /// only those of [`Mode::Always`].
    pub(super) fn keys(&mut self) -> Vec<Command> {
        let mut cmds = Vec::new();
        let editing = self.editor.active;
        for b in KEYS {
            if !b.mode.works(editing) || (self.ui.egui_wants_keys && b.mode != Mode::Always) {
                continue;
            }
            let mut pressed = keymap::pressed(b);
            if by_place(b.action) {
                pressed.for_each(|k| self.key(b.action, k, &mut cmds));
            } else if let Some(k) = pressed.next() {
                self.key(b.action, k, &mut cmds);
            }
        }
        cmds
    }

    /// What `action` does, pressed by the key at place `k` of its line.
    pub(super) fn key(&mut self, action: Action, k: usize, cmds: &mut Vec<Command>) {
        let ui = &mut self.ui;
        match action {
            // In a game Space is the plunger, held (see `control_commands`).
            Action::Launch if !self.sim.world().is_game() => cmds.push(Command::Launch(1)),
            Action::Pause => ui.paused = !ui.paused,
            Action::Step if ui.paused => cmds.push(Command::Step),
            Action::Restart => cmds.push(Command::Restart),
            Action::Scene if k < cli::BUILT_IN.len() => cmds.push(Command::LoadScene(k)),
            Action::Help => self.windows.toggle(help::NAME),
            Action::Tour => self.windows.toggle(tour::NAME),
            Action::Probe => ui.show.probe = !ui.show.probe,
            Action::Editor => ui.editing = !ui.editing,
            Action::Energy => self.windows.toggle(energy::NAME),
            Action::Mute => ui.muted = !ui.muted,
            Action::Timeline => self.timeline.open = !self.timeline.open,
            Action::Panels => ui.panels_hidden = !ui.panels_hidden,
            Action::TimeScale if k == 0 => ui.time_scale = (ui.time_scale * 0.5).max(0.02),
            Action::TimeScale => ui.time_scale = (ui.time_scale * 2.0).min(2.0),
            Action::Frame => self.cam = Camera::default(),
            Action::Screenshot => self.shot_pending = true,
            Action::Quit => cmds.push(Command::Quit),
            Action::Close => self.windows.close_all(),
            Action::Undo | Action::Delete | Action::Deselect => self.editor.key(action),
            Action::Launch | Action::Step | Action::Scene | Action::Flippers => {}
        }
    }
}

/// Whether each key of `action`'s line does something of its own (a scene each, halve and
/// double), rather than all of them the one thing.
fn by_place(action: Action) -> bool {
    matches!(action, Action::Scene | Action::TimeScale)
}

/// Commands that bring the world's held controls in line with the held keys (none when the
/// world is not a game; every control let go while egui has the keyboard).
pub(super) fn control_commands(world: &World, egui_wants_keys: bool) -> Vec<Command> {
    if !world.is_game() {
        return Vec::new();
    }
    let held = world.play().held;
    Control::ALL
        .into_iter()
        .filter_map(|c| {
            let down = !egui_wants_keys && control_held(c);
            (down != held[c.index()]).then_some(Command::Control(c, down))
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
