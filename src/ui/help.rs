//! The help window (F1, the toolbar's Help): the keys and the mouse from the key map
//! (`keymap.rs`), and what each control of the panel means.

use super::widgets::{grid, row};
use super::window::{Seen, Window};
use crate::keymap::{self, KEYS, MOUSE};
use crate::message::Message;
use egui_macroquad::egui;

/// The help window (F1 and the toolbar open and close it, by its [`NAME`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct HelpWindow;

/// The window's name and title.
pub const NAME: &str = "Help";

impl Window for HelpWindow {
    fn name(&self) -> &'static str {
        NAME
    }

    fn show(&mut self, ctx: &egui::Context, open: &mut bool, _: &Seen, _: &mut Vec<Message>) {
        self.window(ctx, open);
    }
}

impl HelpWindow {
    /// The window, while open: under the toolbar, no taller than the window, its text
    /// scrolled when it is longer.
    pub fn window(&mut self, ctx: &egui::Context, open: &mut bool) {
        let area = super::widgets::window_area(ctx);
        let margin = egui::vec2(MARGIN, super::widgets::WINDOW_MARGIN);
        egui::Window::new(NAME)
            .open(open)
            .default_width(460.0)
            .default_pos(area.min + margin)
            .constrain_to(area)
            .max_height(super::widgets::window_content_height(area))
            .vscroll(true)
            .show(ctx, |ui| {
                ui.strong("Keys");
                grid(ui, "help-keys", |ui| {
                    for b in KEYS {
                        row(ui, &keymap::label(b), b.help);
                    }
                    for (inputs, help) in MOUSE {
                        row(ui, &inputs.join(" / "), help);
                    }
                });
                ui.separator();
                ui.strong("Controls");
                for (k, v) in CONTROLS {
                    ui.label(egui::RichText::new(*k).strong());
                    ui.label(*v);
                }
            });
    }
}

/// Room kept free at the window's left (points).
const MARGIN: f32 = 16.0;

/// What each part of the panel means.
pub(crate) const CONTROLS: &[(&str, &str)] = &[
    ("Balls in play", "launched since Clear; balls in play (and waiting to enter); co-located = balls sitting on another ball's centre; strays = balls outside the table"),
    ("Fill", "replace every ball with N at random places in the field, clear of obstacles and each other; radii shrink when N would not fit, and where even the smallest find no room for all, fewer are placed and the line under Fill says why"),
    ("Chart", "AABB tests, candidate pairs and broad-phase µs per frame over the last 10 s"),
    ("Load", "frames per second, physics time per frame, and the share of the frame the main thread spent on input, panels and drawing"),
    ("Next ball", "radius and launch speed of the next ball"),
    ("AABB tests", "box-overlap tests of the broad phase, including its own structure work, per collision iteration and per second"),
    ("Full tests", "narrow-phase tests, one per candidate pair; collisions are the tests that found contact"),
    ("Broad phase", "the algorithm that finds candidate pairs; switching it never changes the simulation"),
    ("Quadtree", "the original's array quadtree; levels count the root (3 = a 4 x 4 leaf grid)"),
    ("Iterations", "motion: physics steps per 1/60 s; collision: broad+narrow passes per step"),
    ("Tunnelling", "how moving balls are tested: off = at the end of each step only; linear = at fixed fractions of the move; binary = halving the move inside an envelope circle; exact = time of impact in closed form. Impact tests count every sample, envelope or closed form; hull tests are the group hulls tried first"),
    ("Rotate", "kinematic shapes (orange) turn about their pivots"),
    ("Gravity, elasticity ×", "gravity in px/s²; a factor on every combined elasticity"),
    ("Edit", "the scene editor: drag handles to reshape, bodies to move, tools to add shapes; the left panel sets elasticity and motion, saves and loads RON; leaving restarts from the edited scene"),
    ("Show", "hit points, tracks, tangents, AABBs (every box, with the broad phase's structure), reticles, velocity arrows, arc sectors, lights, swept paths (each ball's path in the last step), heat map (the broad phase's places coloured by the box tests they cost), probe (what the broad phase did for the ball under the pointer), impulses (soft contacts drawn as thick as their impulse, coloured by kind, by solver colour or by island)"),
    ("Sound", "impacts heard by the kind of shape and the speed; Mute and the volume are kept between runs; the line under them says where the sound goes, or why there is none"),
];

#[cfg(test)]
mod words;

#[cfg(test)]
mod tests {
    use super::*;

    /// The help window's rectangle on a screen of `size` points under a toolbar `toolbar`
    /// points tall, after a few passes.
    fn help_rect(size: egui::Vec2, toolbar: f32) -> egui::Rect {
        let ctx = egui::Context::default();
        for _ in 0..4 {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
                ..Default::default()
            };
            let _ = ctx.run(input, |ctx| {
                egui::TopBottomPanel::top("toolbar")
                    .exact_height(toolbar)
                    .show(ctx, |_| {});
                HelpWindow.window(ctx, &mut true)
            });
        }
        ctx.memory(|m| m.area_rect(egui::Id::new("Help")))
            .expect("the help window was shown")
    }

    #[test]
    fn help_fits_the_window_below_the_toolbar_and_scrolls_the_rest() {
        for (size, toolbar) in [
            (egui::vec2(1280.0, 800.0), 44.0),
            (egui::vec2(1024.0, 480.0), 66.0),
        ] {
            let r = help_rect(size, toolbar);
            assert!(r.top() >= toolbar, "over the toolbar: {r:?}");
            assert!(r.bottom() <= size.y, "past the bottom of {size:?}: {r:?}");
        }
    }

    #[test]
    fn help_names_the_panel_rows_as_the_panel_does() {
        let balls = CONTROLS
            .iter()
            .find(|(k, _)| *k == "Balls in play")
            .unwrap()
            .1;
        assert!(balls.contains("co-located"), "{balls}");
        assert!(!balls.contains("overlaps"), "{balls}");
    }
}
