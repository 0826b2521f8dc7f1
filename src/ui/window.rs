//! The one trait of the floating windows, as egui's demo has for its demos: a window is a
//! type that names itself ([`Window::name`]) and draws itself while open ([`Window::show`]),
//! reading what it shows from its owners ([`Seen`]) and returning what it asks for as
//! messages. `windows.rs` holds them.

pub use super::seen::Seen;
use crate::message::Message;
use egui_macroquad::egui;

/// A floating window.
pub trait Window {
    /// Its name: how the keys, the toolbar and [`Windows`] call it.
    fn name(&self) -> &'static str;

    /// Draws it while `open` (its close button clears `open`); what it asks of the app goes
    /// to `out`. Called every frame the panels are drawn, open or not, so a window may keep
    /// something of its own on screen (the experiment's button) or work while closed.
    fn show(&mut self, ctx: &egui::Context, open: &mut bool, seen: &Seen, out: &mut Vec<Message>);
}
