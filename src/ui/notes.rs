//! The passing notes: the lines that come and go by themselves while nobody touches the
//! panel (slow motion, the setting that would help the frame rate, a parameter sweep's
//! progress). They sit in a strip at the foot of the side panel, laid over the bottom of its
//! scrolled sections: a note appearing or going moves none of the controls above it, so a
//! click aimed at one lands on it (the sections never jump under the pointer).

use super::params::ParamsUi;
use crate::state::{Load, Show};
use collide::World;
use egui_macroquad::egui;

/// The colour of advice in the panel.
pub const ADVICE: egui::Color32 = egui::Color32::from_rgb(255, 200, 120);

/// The notes of the moment, in order: slow motion, then the one setting that would help most
/// (the physics' first, else the drawing's).
pub fn lines(world: &World, show: &Show, load: &Load) -> Vec<String> {
    let mut out = Vec::new();
    if load.slow_motion {
        out.push("Slow motion: physics cannot keep up, so each frame simulates 1/60 s.".into());
    }
    let physics = crate::advice::when_slow(world, load.physics_share, load.slow_motion);
    out.extend(physics.or_else(|| crate::advice::when_drawing_slow(show, load)));
    out
}

/// The strip at the foot of the side panel, while it has something to say: call inside the
/// side panel before its scrolled sections, which it then leaves the rest of the room to.
pub fn strip(ui: &mut egui::Ui, world: &World, show: &Show, load: &Load, params: &ParamsUi) {
    let lines = lines(world, show, load);
    if lines.is_empty() && !params.running() {
        return;
    }
    egui::TopBottomPanel::bottom("passing notes").show_inside(ui, |ui| {
        params.progress(ui);
        for (k, line) in lines.iter().enumerate() {
            // The slow-motion line is a statement; the advice stands out.
            if k == 0 && load.slow_motion {
                ui.small(line);
            } else {
                ui.colored_label(ADVICE, line);
            }
        }
    });
}
