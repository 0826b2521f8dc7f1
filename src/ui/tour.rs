//! The Things to try window (F3, `--tour N`): one experiment at a time, its text and a button
//! that sets the toy up for it, with the previous and next ones a click away and the whole
//! list below. It returns the experiment to set up; the app applies it (`app/teach.rs`).

use crate::tour::{self, Experiment};
use egui_macroquad::egui;

/// The window's own state: whether it is open, the experiment shown.
#[derive(Default)]
pub struct TourUi {
    /// Whether it is shown (F3, `--tour N`).
    pub open: bool,
    /// The experiment shown (from 0).
    pub shown: usize,
}

impl TourUi {
    /// Opens it when closed, closes it when open.
    pub fn toggle(&mut self) {
        self.open = !self.open;
    }

    /// Draws the window while open; returns the experiment whose button was pressed.
    pub fn show(&mut self, ctx: &egui::Context) -> Option<usize> {
        let list = tour::list();
        let mut chosen = None;
        let mut open = self.open;
        egui::Window::new("Things to try")
            .open(&mut open)
            .default_width(400.0)
            .default_pos([20.0, 120.0])
            .show(ctx, |ui| {
                self.shown = self.shown.min(list.len().saturating_sub(1));
                if let Some(x) = list.get(self.shown) {
                    chosen = self.current(ui, x, list.len());
                }
                ui.separator();
                self.titles(ui, list);
            });
        self.open = open;
        chosen
    }

    /// The experiment shown: its title, text, and the buttons.
    fn current(&mut self, ui: &mut egui::Ui, x: &Experiment, n: usize) -> Option<usize> {
        let mut chosen = None;
        ui.heading(format!("{}. {}", self.shown + 1, x.title));
        ui.label(&x.text);
        ui.horizontal(|ui| {
            if ui
                .button("Set it up")
                .on_hover_text("Loads what the experiment names; leaves everything else as it is")
                .clicked()
            {
                chosen = Some(self.shown);
            }
            if ui
                .add_enabled(self.shown > 0, egui::Button::new("Previous"))
                .clicked()
            {
                self.shown -= 1;
            }
            if ui
                .add_enabled(self.shown + 1 < n, egui::Button::new("Next"))
                .clicked()
            {
                self.shown += 1;
            }
        });
        chosen
    }

    /// Every title, the one shown selected; a click shows another.
    fn titles(&mut self, ui: &mut egui::Ui, list: &[Experiment]) {
        egui::ScrollArea::vertical()
            .max_height(180.0)
            .show(ui, |ui| {
                for (k, x) in list.iter().enumerate() {
                    let title = format!("{}. {}", k + 1, x.title);
                    if ui.selectable_label(k == self.shown, title).clicked() {
                        self.shown = k;
                    }
                }
            });
    }
}
