//! The Scene section of the panel: the list of built-in scenes (the number keys pick them in
//! this order), the ball count of scenes that fill (rain, field), and what the scene adds:
//! pockets, rain still to fall, and the cradle's read-out of how an impact passes through the
//! row of balls (collision iterations; Parberry, Collision Math Toy, Fig. 16).

use crate::cli::BUILT_IN;
use crate::keymap;
use crate::message::Message;
use collide::rules::Transfer;
use collide::{Scene, World};
use egui_macroquad::egui;

/// The ball count the section's slider holds for the next Reload: the scene's own until the
/// user moves it, and again whenever the scene's changes.
#[derive(Clone, Copy, Debug, Default)]
pub struct FillPick {
    /// The scene's count the slider was last set to.
    of: u32,
    /// The slider's value.
    balls: u32,
}

/// Draws the section for `scene`; returns messages through `cmds`.
pub fn ui(
    ui: &mut egui::Ui,
    scene: &Scene,
    world: &World,
    pick: &mut FillPick,
    cmds: &mut Vec<Message>,
) {
    ui.separator();
    ui.horizontal(|ui| {
        ui.strong("Scene");
        let index = BUILT_IN.iter().position(|(n, _)| *n == scene.name);
        let mut pick = index;
        egui::ComboBox::from_id_salt("scene")
            .selected_text(&scene.name)
            .show_ui(ui, |ui| {
                for (k, (name, _)) in BUILT_IN.iter().enumerate() {
                    let key = keymap::scene_key(k).map_or("   ".into(), |d| format!("{d}  "));
                    ui.selectable_value(&mut pick, Some(k), format!("{key}{name}"));
                }
            });
        if pick != index {
            if let Some(k) = pick {
                cmds.push(Message::LoadScene(k));
            }
        }
    });
    if let Some(count) = scene.fill.map(|f| f.count) {
        if pick.of != count {
            *pick = FillPick {
                of: count,
                balls: count,
            };
        }
        let n = &mut pick.balls;
        ui.horizontal(|ui| {
            ui.add(
                egui::Slider::new(n, 10..=100_000)
                    .logarithmic(true)
                    .text("balls"),
            );
            if ui
                .button("Reload")
                .on_hover_text("Reload the scene with this many balls")
                .clicked()
            {
                cmds.push(Message::SceneFill(*n));
            }
        });
    }
    rules_rows(ui, world);
}

fn rules_rows(ui: &mut egui::Ui, world: &World) {
    let r = world.rules();
    if !r.pockets.is_empty() {
        ui.label(format!(
            "Pocketed {}  on the table {}",
            r.pocketed,
            world.balls().len()
        ));
    }
    if r.friction > 0.0 {
        ui.small(format!("Table friction {:.0} px/s²", r.friction));
    }
    if let Some(rain) = r.rain {
        ui.label(format!(
            "Still to fall {}  (radius {:.2}–{:.2} px)",
            rain.remaining, rain.radius.0, rain.radius.1
        ));
    }
    if r.tethers.len() >= 3 {
        cradle_rows(ui, world);
    }
}

fn cradle_rows(ui: &mut egui::Ui, world: &World) {
    let meter = &world.rules().transfer;
    let ci = world.settings().collision_iterations;
    // The grid is there before the first impact too (its values dashes), so the impact's
    // figures move nothing below them when they come.
    transfer_grid(ui, meter.current.or(meter.last).as_ref());
    ui.small("Drag an end ball up and let go to measure the impact.");
    if world.settings().solver == collide::Solver::Soft {
        ui.small(
            "Soft contacts pass about two thirds: they solve the touching row as one block \
             and restore the bounce only where a contact closed faster than the threshold \
             before the solve, the first pair, so the impact spreads along the row (Box2D's \
             solver does the same). Pick Push-out to see the whole impact pass.",
        );
        return;
    }
    ui.small(format!(
        "{ci} collision iteration(s) per step. With 1, each middle ball carries the speed \
         for a step in turn and the far ball leaves steps late (lift the right ball: its \
         impact runs against the pair order, as in the original toy's Fig. 16)."
    ));
}

/// The cradle's figures of impact `t`, or dashes before the first.
fn transfer_grid(ui: &mut egui::Ui, t: Option<&Transfer>) {
    let values = t.map_or_else(
        || ["–".to_string(), "–".into(), "–".into(), "–".into()],
        transfer_values,
    );
    let labels = [
        "Ball in",
        "Far ball out",
        "Middle balls, most",
        "Far ball left",
    ];
    egui::Grid::new("cradle")
        .num_columns(2)
        .spacing([12.0, 2.0])
        .show(ui, |ui| {
            for (label, value) in labels.iter().zip(values) {
                ui.label(*label);
                ui.monospace(value);
                ui.end_row();
            }
        });
}

/// The figures of impact `t`: the speed in, the far ball's out, the middle balls' most, and
/// when the far ball left.
fn transfer_values(t: &Transfer) -> [String; 4] {
    let pct = |v: f32| 100.0 * v / t.incoming.max(1e-6);
    let left = match t.steps_to_leave {
        Some(0) => "in the impact step".to_string(),
        Some(1) => "1 step late".to_string(),
        Some(k) => format!("{k} steps late"),
        None => "not yet".to_string(),
    };
    [
        format!("{:.0} px/s", t.incoming),
        format!("{:.0} px/s ({:.0}%)", t.outgoing, pct(t.outgoing)),
        format!("{:.0} px/s ({:.0}%)", t.middle_peak, pct(t.middle_peak)),
        left,
    ]
}
