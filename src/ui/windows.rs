//! The floating windows, as egui's demo registers its demos: [`Windows`] holds each window
//! (a type behind the one trait, `window.rs`) and the names of the open ones, and lists them
//! in one place ([`Windows::list`]). A key, the toolbar and a page's Esc open and close a
//! window by its name; a new window is a type and a line in that list.

use super::chart::Chart;
use super::energy::EnergyUi;
use super::experiment::ExperimentUi;
use super::help::HelpWindow;
use super::tour::TourUi;
pub use super::window::{Seen, Window};
use crate::message::Message;
use egui_macroquad::egui;
use std::collections::BTreeSet;

/// The windows, and which of them are open.
#[derive(Default)]
pub struct Windows {
    /// Help (F1).
    pub help: HelpWindow,
    /// Things to try (F3).
    pub tour: TourUi,
    /// Energy and momentum.
    pub energy: EnergyUi,
    /// The chart of the broad phase's work per frame.
    pub chart: Chart,
    /// The toy's Fig. 26–28 experiment.
    pub experiment: ExperimentUi,
    /// The names of the open ones.
    open: BTreeSet<&'static str>,
}

impl Windows {
    /// Every window, in the order they are drawn.
    fn list(&mut self) -> [&mut dyn Window; 5] {
        [
            &mut self.help,
            &mut self.tour,
            &mut self.experiment,
            &mut self.energy,
            &mut self.chart,
        ]
    }

    /// Draws every window (each shows itself only while open); their requests go to `out`.
    pub fn show(&mut self, ctx: &egui::Context, seen: &Seen, out: &mut Vec<Message>) {
        let mut open = std::mem::take(&mut self.open);
        for w in self.list() {
            let name = w.name();
            let mut is_open = open.contains(name);
            w.show(ctx, &mut is_open, seen, out);
            set(&mut open, name, is_open);
        }
        self.open = open;
    }

    /// Whether the window called `name` is open.
    pub fn is_open(&self, name: &str) -> bool {
        self.open.contains(name)
    }

    /// Opens or closes the window called `name`.
    pub fn set_open(&mut self, name: &'static str, open: bool) {
        set(&mut self.open, name, open);
    }

    /// Opens the window called `name` when closed, closes it when open (tests; the keys
    /// and the toolbar ask with a message).
    #[cfg(test)]
    pub fn toggle(&mut self, name: &'static str) {
        let open = !self.is_open(name);
        self.set_open(name, open);
    }

    /// Closes every window (a page's Esc); their work goes on.
    pub fn close_all(&mut self) {
        self.open.clear();
    }

    /// The names of every window (tests).
    #[cfg(test)]
    pub fn names(&mut self) -> Vec<&'static str> {
        self.list().iter().map(|w| w.name()).collect()
    }
}

/// `name` in `open` or not.
fn set(open: &mut BTreeSet<&'static str>, name: &'static str, is_open: bool) {
    if is_open {
        open.insert(name);
    } else {
        open.remove(name);
    }
}

#[cfg(test)]
mod tests {
    use super::Windows;

    #[test]
    fn each_window_opens_and_closes_by_its_own_name_and_esc_closes_them_all() {
        let mut w = Windows::default();
        let names = w.names();
        assert_eq!(names.len(), 5);
        for name in &names {
            assert!(!w.is_open(name), "{name} starts closed");
        }
        w.toggle(names[0]);
        w.toggle(names[3]);
        let open: Vec<_> = names.iter().filter(|n| w.is_open(n)).collect();
        assert_eq!(open, [&names[0], &names[3]]);
        w.toggle(names[0]);
        assert!(!w.is_open(names[0]), "toggled again, closed");
        w.close_all();
        assert!(names.iter().all(|n| !w.is_open(n)));
    }
}
