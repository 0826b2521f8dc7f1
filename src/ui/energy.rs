//! The energy window: kinetic, potential and total energy and momentum of the balls, a
//! chart of the last [`HISTORY`] simulated seconds (egui_plot), and for the last impact the
//! measured coefficient of restitution (rebound over approach normal speed) beside the set one.

use super::window::{Seen, Window};
use crate::message::Message;
use collide::world::{Hit, HitWith};
use collide::{Energy, World};
use egui_macroquad::egui;
use egui_plot::{Legend, Line, Plot, PlotPoints};
use std::collections::VecDeque;

/// Simulated seconds kept in the chart.
pub const HISTORY: f64 = 20.0;

/// One sample of the chart.
#[derive(Clone, Copy, Debug)]
struct Sample {
    /// Simulated time (s).
    t: f64,
    energy: Energy,
}

/// The window's state, fed once a frame.
#[derive(Default)]
pub struct EnergyUi {
    samples: VecDeque<Sample>,
    sim_time: f64,
    last_steps: u64,
    /// The last impact recorded (any speed above the hit threshold).
    last_hit: Option<Hit>,
}

/// The window's name and title.
pub const NAME: &str = "Energy";

impl Window for EnergyUi {
    fn name(&self) -> &'static str {
        NAME
    }

    fn show(&mut self, ctx: &egui::Context, open: &mut bool, seen: &Seen, _: &mut Vec<Message>) {
        self.window(ctx, open, seen.world);
    }
}

impl EnergyUi {
    /// Takes a sample if the world stepped since the last call, and the frame's hits.
    pub fn update<'a>(&mut self, world: &World, hits: impl IntoIterator<Item = &'a Hit>) {
        if let Some(h) = hits.into_iter().last() {
            self.last_hit = Some(*h);
        }
        let steps = world.steps();
        if steps < self.last_steps {
            // A new world (restart, scene): start over.
            *self = Self::default();
        }
        if steps == self.last_steps && !self.samples.is_empty() {
            return;
        }
        self.sim_time += (steps - self.last_steps) as f64 * world.step_seconds();
        self.last_steps = steps;
        self.samples.push_back(Sample {
            t: self.sim_time,
            energy: world.energy(),
        });
        while self
            .samples
            .front()
            .is_some_and(|s| self.sim_time - s.t > HISTORY)
        {
            self.samples.pop_front();
        }
    }

    /// The window, while open.
    fn window(&mut self, ctx: &egui::Context, open: &mut bool, world: &World) {
        egui::Window::new(NAME)
            .open(open)
            .default_width(420.0)
            .default_pos([20.0, 120.0])
            .show(ctx, |ui| {
                readouts(ui, world.energy(), self.last_hit.as_ref());
                self.chart(ui);
            });
    }

    fn chart(&self, ui: &mut egui::Ui) {
        let series = |f: fn(&Energy) -> f64| -> PlotPoints {
            self.samples.iter().map(|s| [s.t, f(&s.energy)]).collect()
        };
        ui.label(format!("Energy over the last {HISTORY:.0} s (simulated)"));
        Plot::new("energy-plot")
            .height(170.0)
            .legend(Legend::default())
            .allow_scroll(false)
            .show(ui, |p| {
                p.line(Line::new(series(|e| e.kinetic)).name("kinetic"));
                p.line(Line::new(series(|e| e.potential)).name("potential"));
                p.line(Line::new(series(Energy::total)).name("total").width(2.0));
            });
        ui.label("Momentum |Σ m·v|");
        Plot::new("momentum-plot")
            .height(90.0)
            .allow_scroll(false)
            .show(ui, |p| {
                p.line(Line::new(series(|e| e.momentum.length() as f64)).name("|p|"));
            });
    }
}

fn readouts(ui: &mut egui::Ui, e: Energy, hit: Option<&Hit>) {
    egui::Grid::new("energy-grid")
        .num_columns(2)
        .spacing([12.0, 2.0])
        .show(ui, |ui| {
            let mut row = |label: &str, value: String| {
                ui.label(label);
                ui.monospace(value);
                ui.end_row();
            };
            row("Kinetic  Σ ½·m·v²", sci(e.kinetic));
            row("Potential  Σ m·g·h", sci(e.potential));
            row("Total", sci(e.total()));
            let p = e.momentum;
            row(
                "Momentum  Σ m·v",
                format!("({}, {})", sci(p.x as f64), sci(p.y as f64)),
            );
            match hit {
                Some(h) => {
                    let what = match h.with {
                        HitWith::Shape(s) => format!("{} on shape {s}", h.ball),
                        HitWith::Ball(o) => format!("{} on {o}", h.ball),
                    };
                    row("Last impact", what);
                    row(
                        "Normal speed in / out",
                        format!("{:.1} / {:.1} px/s", h.speed, h.rebound),
                    );
                    row(
                        "Restitution measured",
                        format!("{:.4}", h.rebound / h.speed.max(1e-6)),
                    );
                    row("Restitution set", format!("{:.4}", h.e));
                }
                None => row("Last impact", "none yet".to_string()),
            }
        });
    ui.small("m = radius² (px²), h above the floor of the play area: compare, not joules. Restitution: normal speed relative to the surface after the step of the impact over before.");
}

/// A number in 4 significant digits, scientific when large.
fn sci(x: f64) -> String {
    if x.abs() >= 1e5 {
        format!("{x:.3e}")
    } else {
        format!("{x:.1}")
    }
}
