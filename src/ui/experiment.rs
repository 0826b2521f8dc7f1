//! The experiment window and its button: runs the toy's Fig. 26–28 sweep (AABB tests per
//! iteration for 2 … 32 balls on the table, every broad phase;
//! `collide_lab::experiments::table_sweep`) off the frame (a thread of its own on the desktop,
//! one run a frame in a page: `platform::work`), shows a progress bar while it runs (the
//! window stays responsive), and plots the result.

use super::window::{Seen, Window};
use crate::message::Message;
use crate::platform::Worker;
use collide::{BroadKind, Scene};
use collide_lab::experiments::table_sweep::{self, Sweep, SweepConfig};
use egui_macroquad::egui;
use egui_plot::{Legend, Line, Plot, PlotPoints, VLine};
use std::sync::mpsc::TryRecvError;

/// What the worker thread reports.
enum Msg {
    Progress(f32),
    Done(Sweep),
}

/// The experiment's window state.
pub struct ExperimentUi {
    /// Simulated seconds per run (the toy's 60).
    seconds: u32,
    worker: Option<Worker<Msg>>,
    progress: f32,
    result: Option<Sweep>,
}

impl Default for ExperimentUi {
    fn default() -> Self {
        Self {
            seconds: 60,
            worker: None,
            progress: 0.0,
            result: None,
        }
    }
}

/// The window's name.
pub const NAME: &str = "Experiment";

impl Window for ExperimentUi {
    fn name(&self) -> &'static str {
        NAME
    }

    fn show(&mut self, ctx: &egui::Context, open: &mut bool, seen: &Seen, _: &mut Vec<Message>) {
        self.window_and_button(ctx, open, seen.scene);
    }
}

impl ExperimentUi {
    /// Draws the button (bottom left) and, when open, the window; polls the worker.
    fn window_and_button(&mut self, ctx: &egui::Context, open: &mut bool, scene: &Scene) {
        self.poll();
        egui::Area::new(egui::Id::new("experiment_button"))
            .anchor(egui::Align2::LEFT_BOTTOM, [8.0, -8.0])
            .show(ctx, |ui| {
                let hint =
                    "AABB tests per iteration for 2-32 balls, every broad phase (Fig. 26-28)";
                if ui.button(NAME).on_hover_text(hint).clicked() {
                    *open = true;
                }
            });
        egui::Window::new("Experiment: Fig. 26-28 on the table")
            .open(open)
            .default_size([640.0, 480.0])
            .show(ctx, |ui| self.window(ui, scene));
    }

    fn window(&mut self, ui: &mut egui::Ui, scene: &Scene) {
        ui.horizontal(|ui| {
            let running = self.worker.is_some();
            ui.add_enabled_ui(!running, |ui| {
                ui.add(egui::Slider::new(&mut self.seconds, 1..=60).text("s per run"));
                if ui.button("Run").clicked() {
                    self.start(scene);
                }
            });
        });
        ui.label(
            "Balls of radius 21 px, gravity 0, motion 1 x collision 1 iteration (one iteration \
             = one 1/60 s frame), quadtree at 5 levels (60 x 44 px leaves).",
        );
        if self.worker.is_some() {
            ui.add(egui::ProgressBar::new(self.progress).show_percentage());
        }
        if let Some(sweep) = &self.result {
            plot(ui, sweep);
        }
    }

    /// The fraction of the sweep done while one runs (the page's checks read it).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub fn running(&self) -> Option<f32> {
        self.worker.as_ref().map(|_| self.progress)
    }

    /// Starts the sweep off the frame: its progress after each run, then the result.
    fn start(&mut self, scene: &Scene) {
        let config = SweepConfig {
            seconds: self.seconds,
            ..SweepConfig::default()
        };
        let mut steps = Some(table_sweep::Steps::new(scene.clone(), config));
        let messages = std::iter::from_fn(move || {
            let s = steps.as_mut()?;
            match s.step() {
                Some(f) => Some(Msg::Progress(f)),
                None => steps.take().map(|s| Msg::Done(s.sweep)),
            }
        });
        (self.worker, self.progress) = (Some(crate::platform::work(messages)), 0.0);
    }

    /// Takes the worker's messages without blocking.
    fn poll(&mut self) {
        let Some(rx) = &mut self.worker else { return };
        loop {
            match rx.try_recv() {
                Ok(Msg::Progress(f)) => self.progress = f,
                Ok(Msg::Done(sweep)) => {
                    (self.result, self.worker) = (Some(sweep), None);
                    return;
                }
                Err(TryRecvError::Empty) => return,
                Err(TryRecvError::Disconnected) => {
                    self.worker = None;
                    return;
                }
            }
        }
    }
}

/// Tests per iteration against balls, one line per algorithm, and the fitted slopes.
fn plot(ui: &mut egui::Ui, sweep: &Sweep) {
    let summary = table_sweep::summarize(&sweep.rows);
    ui.horizontal_wrapped(|ui| {
        for s in &summary {
            let slope = s.fit.map_or(f64::NAN, |f| f.slope);
            let from = s
                .overtakes_brute_at
                .map_or("-".to_string(), |n| n.to_string());
            ui.label(format!(
                "{}: {slope:.1}/ball, beats brute from {from};",
                s.kind.name()
            ));
        }
    });
    let lines = BroadKind::ALL
        .iter()
        .map(|&kind| {
            let points = sweep
                .rows
                .iter()
                .filter(|r| r.kind == kind)
                .map(|r| [r.balls as f64, r.tests_per_iteration])
                .collect();
            let (r, g, b) = crate::render::palette::broad_colour(kind);
            PlotLine {
                name: kind.name().to_string(),
                colour: egui::Color32::from_rgb(r, g, b),
                points,
            }
        })
        .collect();
    let axes = ("balls", "AABB tests per iteration");
    line_plot(ui, "experiment_plot", axes, lines, &[], None);
}

/// One line of a plot: its name in the legend, colour and points.
pub struct PlotLine {
    /// Its name in the legend.
    pub name: String,
    pub colour: egui::Color32,
    /// (x, y) points.
    pub points: Vec<[f64; 2]>,
}

/// A plot of `lines` against the axes `(x, y)` named, with a legend, a vertical line at
/// each of `marks` (name, x, colour), `height` px high (else the room left): the experiment
/// window's and the parameter sweep's.
pub fn line_plot(
    ui: &mut egui::Ui,
    id: &str,
    axes: (&str, &str),
    lines: Vec<PlotLine>,
    marks: &[(String, f64, egui::Color32)],
    height: Option<f32>,
) {
    let plot = Plot::new(id);
    let plot = match height {
        Some(h) => plot.height(h),
        None => plot,
    };
    plot.legend(Legend::default())
        .x_axis_label(axes.0)
        .y_axis_label(axes.1)
        .show(ui, |plot_ui| {
            for l in lines {
                let line = Line::new(PlotPoints::from(l.points))
                    .name(l.name)
                    .color(l.colour)
                    .width(2.0);
                plot_ui.line(line);
            }
            for (name, at, colour) in marks {
                plot_ui.vline(VLine::new(*at).name(name).color(*colour).width(1.5));
            }
        });
}
