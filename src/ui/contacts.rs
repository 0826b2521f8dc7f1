//! The panel's "Contacts and rest" section: the contact solver and its settings, sleep, and
//! the meters that say how deep the touching balls sink and how many sleep.

use super::widgets::{grid, row};
use collide::{Settings, Solver, World};
use egui_macroquad::egui;

/// Shows the section; its widgets edit `sim`, which the app records as a settings input;
/// `note` says why a Fill took soft contacts. Returns true when the user picked a solver.
pub fn ui(ui: &mut egui::Ui, sim: &mut Settings, world: &World, note: Option<&str>) -> bool {
    ui.separator();
    ui.strong("Contacts and rest");
    let before = sim.solver;
    egui::ComboBox::from_id_salt("solver")
        .selected_text(sim.solver.label())
        .show_ui(ui, |ui| {
            for &s in Solver::ALL {
                ui.selectable_value(&mut sim.solver, s, s.label());
            }
        })
        .response
        .on_hover_text(
            "Push-out: move each ball out and reflect its speed, pair by pair (the course's). \
             Soft contacts: impulses solved together, warm-started, with a soft spring and friction (Box2D v3).",
        );
    let picked = sim.solver != before;
    if let Some(note) = note.filter(|_| !picked) {
        ui.small(note);
    }
    if sim.solver == Solver::Soft {
        soft_sliders(ui, sim);
    }
    sleep_controls(ui, sim, world);
    meters(ui, world);
    picked
}

fn soft_sliders(ui: &mut egui::Ui, sim: &mut Settings) {
    let k = sim.collision_iterations.clamp(1, 64);
    ui.small(format!(
        "Each step: {k} solve passes (the collision iterations) push overlaps apart with the \
         spring, then {} relax passes take back the speed the push added ({} of them over the \
         firm contacts alone, those a pile's weight made stiffer), so the pile rests.",
        4 * k,
        2 * k
    ));
    // A page runs on one thread: no slider there.
    #[cfg(not(target_arch = "wasm32"))]
    ui.add(egui::Slider::new(&mut sim.threads, 1..=8).clamping(egui::SliderClamping::Edits).text("threads"))
        .on_hover_text("Threads the step runs on (the grid's pair search from 8,192 balls; the soft contacts' narrow phase, the preparing of the contacts, the passes colour by colour and the move): the same simulation, bit for bit, only faster");
    let s = &mut sim.soft;
    ui.checkbox(&mut s.once_a_frame, "find contacts once a frame")
        .on_hover_text(
            "As Box2D does: the frame's first sub-step finds the contacts for the whole frame's \
             motion and the others track how far apart the balls are by their moves (found \
             again when a gap is about to close or a ball strays). Off: at every sub-step",
        );
    ui.add(
        egui::Slider::new(&mut s.hertz, 1.0..=1000.0)
            .clamping(egui::SliderClamping::Edits)
            .logarithmic(true)
            .fixed_decimals(0)
            .text("stiffness (Hz)"),
    )
    .on_hover_text(
        "How hard contacts push back: a pile sinks by its weight / (mass × (2π·Hz)²). \
         A contact at rest under a load that would sink it more than 0.5 % of a radius is \
         made stiffer, up to four times this, so a deep pile's bottom holds firm; \
         the walls are never softer than a quarter of the sub-step rate",
    );
    ui.add(
        egui::Slider::new(&mut s.damping, 0.0..=20.0)
            .clamping(egui::SliderClamping::Edits)
            .fixed_decimals(1)
            .text("damping ratio"),
    );
    ui.add(
        egui::Slider::new(&mut s.push_speed, 1.0..=1000.0)
            .clamping(egui::SliderClamping::Edits)
            .logarithmic(true)
            .fixed_decimals(0)
            .text("push-out (px/s)"),
    )
    .on_hover_text("Push-out speed: the fastest the soft spring moves overlapping balls apart");
    ui.add(
        egui::Slider::new(&mut s.restitution_speed, 0.0..=200.0)
            .clamping(egui::SliderClamping::Edits)
            .fixed_decimals(0)
            .text("bounce above (px/s)"),
    )
    .on_hover_text("Contacts closing slower than this do not bounce: they come to rest");
    ui.add(
        egui::Slider::new(&mut s.friction, 0.0..=1.5)
            .clamping(egui::SliderClamping::Edits)
            .fixed_decimals(2)
            .text("friction"),
    );
    ui.add(
        egui::Slider::new(&mut s.rolling, 0.0..=0.5)
            .clamping(egui::SliderClamping::Edits)
            .fixed_decimals(2)
            .text("rolling resistance"),
    );
}

fn sleep_controls(ui: &mut egui::Ui, sim: &mut Settings, world: &World) {
    let mut on = sim.sleep.enabled.unwrap_or(sim.solver == Solver::Soft);
    let follows = sim.sleep.enabled.is_none();
    let label = if follows {
        "Sleep (follows the solver)"
    } else {
        "Sleep"
    };
    if ui
        .checkbox(&mut on, label)
        .on_hover_text(
            "Groups of touching balls still for a while stop and cost nothing until touched",
        )
        .changed()
    {
        sim.sleep.enabled = Some(on);
    }
    if on {
        ui.add(
            egui::Slider::new(&mut sim.sleep.speed, 0.1..=50.0)
                .clamping(egui::SliderClamping::Edits)
                .logarithmic(true)
                .fixed_decimals(1)
                .text("still below (px/s)"),
        );
        ui.add(
            egui::Slider::new(&mut sim.sleep.time, 0.05..=5.0)
                .clamping(egui::SliderClamping::Edits)
                .logarithmic(true)
                .fixed_decimals(2)
                .text("for (s)"),
        );
    }
    let (s, factor) = world.recent_second();
    let c = world.counters();
    let n = world.balls().len() as u32;
    grid(ui, "sleep", |ui| {
        row(
            ui,
            "Asleep / awake",
            format!("{} / {}", c.asleep, n - c.asleep.min(n)),
        );
        row(ui, "Wake-ups / s", (s.wakeups as f64 * factor).round());
    });
}

fn meters(ui: &mut egui::Ui, world: &World) {
    let m = world.counters().overlap;
    let pct = |x: f32| format!("{:.2} %", 100.0 * x);
    grid(ui, "overlap", |ui| {
        ui.label("Overlap deepest / mean").on_hover_text(
            "Over the touching pairs: (r1 + r2 − distance) / smaller radius, or depth / radius against an obstacle. A good engine keeps a pile near 1 %.",
        );
        ui.add(egui::Label::new(
            egui::RichText::new(format!("{} / {}", pct(m.max), pct(m.mean()))).monospace(),
        ));
        ui.end_row();
        row(ui, "Touching pairs", m.pairs);
        row(
            ui,
            "Deeper than 1 % / 10 %",
            format!("{} / {}", m.over_1pct, m.over_10pct),
        );
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The texts of the section shown in a side panel as wide as the app's, with its
    /// spacing, on a screen of `size` points, each with whether it runs past the panel's
    /// content into its margin, where the scroll bar covers it (those wholly in view from
    /// top to bottom only).
    fn texts(size: egui::Vec2) -> Vec<(String, bool)> {
        let world = collide::Scene::parse(crate::cli::TABLE_RON, "table")
            .unwrap()
            .build(1);
        let mut sim = world.settings().clone();
        sim.solver = Solver::Soft;
        let ctx = egui::Context::default();
        let (mut texts, mut right) = (Vec::new(), 0.0);
        for _ in 0..3 {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
                ..Default::default()
            };
            let out = ctx.run(input, |ctx| {
                egui::SidePanel::right("controls")
                    .resizable(false)
                    .exact_width(310.0)
                    .show(ctx, |ui| {
                        egui::ScrollArea::vertical().show(ui, |ui| {
                            ui.spacing_mut().item_spacing = egui::vec2(6.0, 3.0);
                            ui.spacing_mut().slider_width = 130.0;
                            right = ui.max_rect().right();
                            super::ui(ui, &mut sim, &world, None);
                        });
                    });
            });
            texts = (out.shapes.iter())
                .filter_map(|c| match &c.shape {
                    egui::Shape::Text(t) => Some((c.clip_rect, t)),
                    _ => None,
                })
                .map(|(clip, t)| (clip, t.galley.rect.translate(t.pos.to_vec2()), t))
                .filter(|(clip, r, _)| r.top() >= clip.top() && r.bottom() <= clip.bottom())
                .map(|(_, r, t)| (t.galley.text().to_string(), r.right() > right + 0.5))
                .collect();
        }
        texts
    }

    /// At 1280 wide, "push-out speed (px/s)" lost its ")" under the panel's scroll bar.
    #[test]
    fn soft_contact_slider_labels_end_inside_the_panel() {
        for size in [egui::vec2(1280.0, 800.0), egui::vec2(1024.0, 600.0)] {
            let texts = texts(size);
            assert!(
                texts.iter().any(|(t, _)| t.starts_with("push-out")),
                "{texts:?}"
            );
            let cut: Vec<_> = texts.iter().filter(|t| t.1).collect();
            assert!(cut.is_empty(), "{size:?}: cut off {cut:?}");
        }
    }
}
