//! The help window (F1, the toolbar's Help): the keys and the mouse from the key map
//! (`keymap.rs`), and what each control of the panel means.

use super::widgets::{grid, row};
use crate::keymap::{self, KEYS, MOUSE};
use egui_macroquad::egui;

/// The help window; its open flag is the app's (F1 and the toolbar toggle it).
#[derive(Clone, Copy, Debug, Default)]
pub struct HelpWindow;

impl HelpWindow {
    /// The window, while `open`.
    pub fn show(&mut self, ctx: &egui::Context, open: &mut bool) {
        egui::Window::new("Help")
            .open(open)
            .default_width(460.0)
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

/// What each part of the panel means.
const CONTROLS: &[(&str, &str)] = &[
    ("Balls in play", "launched since Clear; balls in play; overlaps = balls sitting on another ball's centre; strays = balls outside the table"),
    ("Fill", "replace every ball with N at random places in the field, clear of obstacles and each other; radii shrink when N would not fit"),
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
    ("Show", "hit points, tracks, tangents, boxes with the broad phase's structure, reticles, velocity arrows, arc sectors, lights"),
    ("Sound", "impacts heard by the kind of shape and the speed; Mute and the volume are kept between runs; the line under them says where the sound goes, or why there is none"),
];
