//! The Things to try window (F3, `--tour N`): one experiment at a time, its text and a button
//! that sets the toy up for it, with the previous and next ones a click away and the whole
//! list below. It returns the experiment to set up; the app applies it (`app/teach.rs`), and
//! the window then folds its list and moves to the corner the experiment names, clear of
//! what it asks to watch.

use super::window::{Seen, Window};
use crate::message::Message;
use crate::tour::{self, Corner, Experiment};
use egui_macroquad::egui;

/// The window's own state: the experiment shown (F3 and `--tour N` open it, by its
/// [`NAME`]).
#[derive(Default)]
pub struct TourUi {
    /// The experiment shown (from 0).
    pub shown: usize,
    /// Passes left in which the window is put in the corner its experiment names, its list
    /// folded (after a set-up: the fold changes its size, so the corner is found again once
    /// it has its new size).
    placing: u8,
}

/// The window's width (points): on the right it lies over the side panel (310 points) alone.
const WIDTH: f32 = 290.0;
/// Room between the window and the edges of its corner (points).
const MARGIN: f32 = 8.0;
/// The window's name and id (its title).
pub const NAME: &str = "Things to try";

impl Window for TourUi {
    fn name(&self) -> &'static str {
        NAME
    }

    fn show(&mut self, ctx: &egui::Context, open: &mut bool, _: &Seen, out: &mut Vec<Message>) {
        out.extend(self.window(ctx, open).map(Message::Tour));
    }
}

impl TourUi {
    /// Moves the window to the corner the experiment shown names (`placed`), its list
    /// folded, so that it leaves clear what the experiment asks to watch (after a set-up).
    pub fn place(&mut self) {
        self.placing = 3;
    }

    /// Draws the window while open; returns the experiment whose button was pressed.
    pub fn window(&mut self, ctx: &egui::Context, open: &mut bool) -> Option<usize> {
        let list = tour::list();
        let mut chosen = None;
        self.shown = self.shown.min(list.len().saturating_sub(1));
        let view = ctx.available_rect();
        let fold = self.placing > 0 && *open;
        let mut window = egui::Window::new(NAME)
            .open(open)
            .default_width(WIDTH)
            .default_pos(placed(ctx, view, Corner::default()))
            .constrain_to(super::widgets::window_area(ctx));
        if fold {
            self.placing -= 1;
            let corner = list.get(self.shown).map(|x| x.window).unwrap_or_default();
            window = window.current_pos(placed(ctx, view, corner));
        }
        window.show(ctx, |ui| {
            if let Some(x) = list.get(self.shown) {
                chosen = self.current(ui, x, list.len());
            }
            ui.separator();
            self.titles(ui, list, fold);
        });
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

    /// Every title, the one shown selected; a click shows another. Folded when `fold`.
    fn titles(&mut self, ui: &mut egui::Ui, list: &[Experiment], fold: bool) {
        egui::CollapsingHeader::new(format!("All {} experiments", list.len()))
            .default_open(true)
            .open(fold.then_some(false))
            .show(ui, |ui| {
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
            });
    }
}

/// The left-top of the window (its size as last laid out) in `corner` of the screen beside
/// `view`, between the toolbar and the record bar (points): on the left, over the table's
/// view; on the right, over the side panel's top (the scene and the balls in play), which
/// leaves the whole table in sight.
fn placed(ctx: &egui::Context, view: egui::Rect, corner: Corner) -> egui::Pos2 {
    let screen = ctx.screen_rect();
    let view = egui::Rect::from_x_y_ranges(screen.x_range(), view.y_range());
    let size = ctx
        .memory(|m| m.area_rect(egui::Id::new(NAME)))
        .map_or(egui::vec2(WIDTH, 200.0), |r| r.size());
    let (right, bottom) = corner.sides();
    let x = if right {
        view.right() - MARGIN - size.x
    } else {
        view.left() + MARGIN
    };
    let y = if bottom {
        view.bottom() - MARGIN - size.y
    } else {
        view.top() + MARGIN
    };
    egui::pos2(x.max(view.left()), y.max(view.top()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The window's rectangle and the view's after experiment `k` was set up, on a screen of
    /// `size` points laid out as the app lays it out (toolbar, side panel, record bar).
    fn set_up(k: usize, size: egui::Vec2) -> (egui::Rect, egui::Rect) {
        let ctx = egui::Context::default();
        let mut tour = TourUi {
            shown: k,
            ..TourUi::default()
        };
        tour.place();
        let mut view = egui::Rect::NOTHING;
        for _ in 0..5 {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
                ..Default::default()
            };
            let _ = ctx.run(input, |ctx| {
                egui::TopBottomPanel::bottom("bar")
                    .exact_height(60.0)
                    .show(ctx, |_| {});
                egui::TopBottomPanel::top("toolbar")
                    .exact_height(44.0)
                    .show(ctx, |_| {});
                egui::SidePanel::right("controls")
                    .exact_width(310.0)
                    .show(ctx, |_| {});
                view = ctx.available_rect();
                tour.window(ctx, &mut true);
            });
        }
        let window = ctx.memory(|m| m.area_rect(egui::Id::new(NAME)));
        (window.expect("the window was shown"), view)
    }

    /// The window of experiment 13 (the push-out pile) covered the rain's funnel and stream:
    /// set up, it folds its list and moves over the side panel's first sections, the table
    /// in sight; experiment 12, which points at Balls in play, keeps to the table's top left.
    #[test]
    fn a_set_up_window_keeps_clear_of_what_its_experiment_asks_to_watch() {
        let n = tour::list().len();
        let pile = 12;
        assert!(tour::list()[pile].title.contains("pile sinks"));
        assert_eq!(tour::list()[pile].window, Corner::TopRight);
        assert_eq!(tour::list()[pile - 1].window, Corner::TopLeft);
        assert!(n > pile);
        for size in [egui::vec2(1280.0, 800.0), egui::vec2(884.0, 552.0)] {
            let (w, view) = set_up(pile, size);
            assert!(w.top() >= view.top(), "over the toolbar: {w:?}");
            assert!(w.right() <= size.x, "off the screen: {w:?}");
            assert!(
                w.left() >= view.right() - 4.0,
                "over the table: {w:?}, {view:?}"
            );
            assert!(w.height() < 300.0, "the list folded: {w:?}");
            let (w, view) = set_up(pile - 1, size);
            assert!(w.left() <= view.left() + MARGIN + 1.0, "top left: {w:?}");
            assert!(w.top() >= view.top(), "over the toolbar: {w:?}");
        }
    }
}
