//! The live chart (egui_plot): AABB tests, candidate pairs and broad-phase time per frame over
//! the last [`SPAN`] seconds. Each frame's numbers are the change of the world's running
//! total (`counters().total`) across the frame, so every step of the frame counts, however
//! many the stepper ran. Frames without a step (paused) add no sample.

use super::window::{Seen, Window};
use crate::message::Message;
use collide::world::Tally;
use collide::World;
use egui_macroquad::egui;
use egui_plot::{Line, Plot, PlotPoints};
use std::collections::VecDeque;

/// Seconds of history shown.
pub const SPAN: f64 = 10.0;

/// One frame's work.
#[derive(Clone, Copy, Debug)]
struct Sample {
    /// Wall-clock time of the frame (s since start).
    t: f64,
    aabb_tests: f64,
    pairs: f64,
    broad_us: f64,
    iterations: f64,
    /// Deepest and mean overlap of the touching pairs at the frame's end (% of a radius).
    overlap_max: f64,
    overlap_mean: f64,
    /// AABB tests as a percentage of brute force's on the same boxes, and the candidates
    /// that touched as a percentage of the candidates (`share.rs`).
    brute_share: f64,
    precision: f64,
}

/// The chart's ring buffer of per-frame samples.
#[derive(Default)]
pub struct Chart {
    samples: VecDeque<Sample>,
    last_total: Option<Tally>,
}

/// The window's name.
pub const NAME: &str = "Chart";

impl Window for Chart {
    fn name(&self) -> &'static str {
        NAME
    }

    fn show(&mut self, ctx: &egui::Context, open: &mut bool, _: &Seen, _: &mut Vec<Message>) {
        self.window(ctx, open);
    }
}

impl Chart {
    /// Takes the work the world did since the last call, at wall time `t` (s).
    pub fn record(&mut self, t: f64, world: &World) {
        let total = world.counters().total;
        let prev = self.last_total.replace(total).unwrap_or(total);
        // A new world (restart) starts its totals again: take its totals as the frame's.
        let base = if total.iterations < prev.iterations {
            Tally::default()
        } else {
            prev
        };
        let iterations = total.iterations - base.iterations;
        if iterations > 0 {
            let brute = super::share::brute_per_call(world) as f64 * iterations as f64;
            let (full, touched) = (
                (total.full_tests + total.wall_pass_tests - base.full_tests - base.wall_pass_tests)
                    as f64,
                (total.collisions - base.collisions) as f64,
            );
            let aabb = (super::share::box_tests(&total) - super::share::box_tests(&base)) as f64;
            self.samples.push_back(Sample {
                brute_share: 100.0 * aabb / brute.max(1.0),
                precision: 100.0 * touched / full.max(1.0),
                t,
                aabb_tests: (total.broad.aabb_tests - base.broad.aabb_tests) as f64,
                pairs: (total.broad.pairs - base.broad.pairs) as f64,
                broad_us: (total.broad_nanos - base.broad_nanos) as f64 / 1000.0,
                iterations: iterations as f64,
                overlap_max: 100.0 * world.counters().overlap.max as f64,
                overlap_mean: 100.0 * world.counters().overlap.mean() as f64,
            });
        }
        while self.samples.front().is_some_and(|s| s.t < t - SPAN) {
            self.samples.pop_front();
        }
    }

    /// The chart window, while open: below the toolbar, within the screen, its plots scrolled
    /// when they are taller than the room there.
    fn window(&mut self, ctx: &egui::Context, open: &mut bool) {
        let area = super::widgets::window_area(ctx);
        let margin = egui::vec2(60.0, super::widgets::WINDOW_MARGIN);
        egui::Window::new("Chart: broad phase and overlap per frame")
            .open(open)
            .default_pos(area.min + margin)
            .default_width(480.0)
            .constrain_to(area)
            .default_height(super::widgets::window_content_height(area))
            .max_height(super::widgets::window_content_height(area))
            .vscroll(true)
            .resizable(true)
            .show(ctx, |ui| {
                let iters = self.latest_and_mean(|s| s.iterations).0;
                ui.small(format!(
                    "Last {SPAN:.0} s of wall time, one point per frame; {iters:.0} collision iterations in the last frame."
                ));
                let rows: [(&str, Series, egui::Color32); 7] = [
                    ("AABB tests", |s| s.aabb_tests, egui::Color32::from_rgb(110, 180, 255)),
                    ("Candidate pairs", |s| s.pairs, egui::Color32::from_rgb(255, 190, 90)),
                    ("Broad phase µs", |s| s.broad_us, egui::Color32::from_rgb(140, 230, 140)),
                    ("Overlap deepest %", |s| s.overlap_max, egui::Color32::from_rgb(255, 120, 120)),
                    ("Overlap mean %", |s| s.overlap_mean, egui::Color32::from_rgb(230, 150, 230)),
                    ("Share of brute force %", |s| s.brute_share, egui::Color32::from_rgb(255, 90, 90)),
                    ("Candidates that touched %", |s| s.precision, egui::Color32::from_rgb(200, 200, 120)),
                ];
                for (name, f, color) in rows {
                    plot_row(ui, self, name, f, color);
                }
            });
    }

    fn series(&self, f: impl Fn(&Sample) -> f64) -> Vec<[f64; 2]> {
        let now = self.samples.back().map_or(0.0, |s| s.t);
        self.samples.iter().map(|s| [s.t - now, f(s)]).collect()
    }

    fn latest_and_mean(&self, f: impl Fn(&Sample) -> f64) -> (f64, f64) {
        let n = self.samples.len().max(1) as f64;
        let latest = self.samples.back().map_or(0.0, &f);
        (latest, self.samples.iter().map(f).sum::<f64>() / n)
    }
}

/// One figure of a sample, plotted as a line.
type Series = fn(&Sample) -> f64;

fn plot_row(ui: &mut egui::Ui, chart: &Chart, name: &str, f: Series, color: egui::Color32) {
    let (latest, mean) = chart.latest_and_mean(f);
    ui.horizontal(|ui| {
        ui.colored_label(color, egui::RichText::new(name).strong());
        ui.monospace(format!("{} now, mean {}", grouped(latest), grouped(mean)));
    });
    Plot::new(name)
        .height(100.0)
        .include_x(-SPAN)
        .include_x(0.0)
        .include_y(0.0)
        .allow_drag(false)
        .allow_zoom(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .x_axis_formatter(|m, _| format!("{:.0} s", m.value))
        .y_axis_formatter(|m, _| short(m.value, m.step_size))
        .y_axis_min_width(44.0)
        .show(ui, |p| {
            p.line(
                Line::new(PlotPoints::from(chart.series(f)))
                    .color(color)
                    .fill(0.0)
                    .name(name),
            );
        });
}

/// 1234567 → "1,234,567".
fn grouped(v: f64) -> String {
    if v.abs() < 100.0 && v.fract() != 0.0 {
        return format!("{v:.2}");
    }
    let s = format!("{:.0}", v.max(0.0));
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// Axis labels: 12k, 3.4M; below a thousand, as many decimals as the marks' `step` needs
/// (the overlap's marks 0.01 apart read 0.01, 0.02, not 0, 0, 0).
fn short(v: f64, step: f64) -> String {
    match v.abs() {
        a if a >= 1e6 => format!("{:.1}M", v / 1e6),
        a if a >= 1e3 => format!("{:.0}k", v / 1e3),
        _ => {
            let places = if step > 0.0 && step < 1.0 {
                (-step.log10()).ceil().min(6.0) as usize
            } else {
                0
            };
            format!("{v:.places$}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_overlap_marks_read_with_their_decimals_not_as_zeros() {
        let marks: Vec<String> = [0.01, 0.02, 0.03].iter().map(|&v| short(v, 0.01)).collect();
        assert_eq!(marks, ["0.01", "0.02", "0.03"]);
        assert_eq!(short(0.5, 0.5), "0.5");
        assert_eq!(short(12.0, 5.0), "12");
    }
    /// The chart window's rectangle after a few passes on a screen of `size` points under a
    /// toolbar `toolbar` points tall, with ten seconds of samples.
    fn chart_rect(size: egui::Vec2, toolbar: f32) -> egui::Rect {
        let ctx = egui::Context::default();
        let mut chart = Chart::default();
        let w = world();
        for k in 0..600 {
            chart.last_total = None;
            chart.record(k as f64 / 60.0, &w);
        }
        for _ in 0..4 {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
                ..Default::default()
            };
            let _ = ctx.run(input, |ctx| {
                egui::TopBottomPanel::top("toolbar")
                    .exact_height(toolbar)
                    .show(ctx, |_| {});
                chart.window(ctx, &mut true);
            });
        }
        let id = egui::Id::new("Chart: broad phase and overlap per frame");
        ctx.memory(|m| m.area_rect(id))
            .expect("the chart was shown")
    }

    /// It hid the toolbar's Launch … Step and ran off the bottom of an 800 px window, its
    /// last plot (the candidates that touched) out of reach: now it opens below the toolbar
    /// and within the screen, and scrolls.
    #[test]
    fn the_chart_stays_below_the_toolbar_and_within_the_screen() {
        for (size, toolbar) in [
            (egui::vec2(1280.0, 800.0), 44.0),
            (egui::vec2(1024.0, 600.0), 66.0),
        ] {
            let r = chart_rect(size, toolbar);
            assert!(r.top() >= toolbar, "over the toolbar: {r:?} at {size:?}");
            assert!(
                r.bottom() <= size.y - 4.0,
                "past the bottom of {size:?}: {r:?}"
            );
            assert!(r.height() > 300.0, "room for the plots: {r:?}");
        }
    }

    use collide::world::Launcher;
    use collide::{Aabb, Vec2};

    fn world() -> World {
        let bounds = Aabb::new(Vec2::ZERO, Vec2::splat(500.0));
        let launcher = Launcher {
            pos: Vec2::splat(10.0),
            dir: Vec2::Y,
        };
        let mut w = World::new(Vec::new(), bounds, 1).with_launcher(launcher);
        w.fill_random(50, (3.0, 5.0), 100.0);
        w
    }

    #[test]
    fn a_sample_is_the_work_of_every_step_in_the_frame() {
        let (mut w, mut chart) = (world(), Chart::default());
        chart.record(0.0, &w);
        for _ in 0..3 {
            w.step();
        }
        chart.record(0.1, &w);
        let s = chart.samples.back().expect("a sample");
        assert_eq!(s.iterations, 3.0 * w.settings().collision_iterations as f64);
        assert_eq!(s.aabb_tests, w.counters().total.broad.aabb_tests as f64);
    }

    #[test]
    fn frames_without_steps_add_nothing_and_old_samples_go() {
        let (mut w, mut chart) = (world(), Chart::default());
        chart.record(0.0, &w);
        chart.record(0.5, &w);
        assert!(chart.samples.is_empty());
        w.step();
        chart.record(1.0, &w);
        w.step();
        chart.record(1.0 + SPAN + 0.5, &w);
        assert_eq!(chart.samples.len(), 1);
    }

    #[test]
    fn a_new_world_starts_the_differences_again() {
        let (mut w, mut chart) = (world(), Chart::default());
        for _ in 0..5 {
            w.step();
        }
        chart.record(0.0, &w);
        let mut fresh = world();
        fresh.step();
        chart.record(0.1, &fresh);
        let s = chart.samples.back().expect("a sample");
        assert_eq!(s.iterations, fresh.counters().total.iterations as f64);
    }

    #[test]
    fn numbers_read_well() {
        assert_eq!(grouped(1_234_567.0), "1,234,567");
        assert_eq!(grouped(12.0), "12");
        assert_eq!(short(3_400_000.0, 1e6), "3.4M");
        assert_eq!(short(12_000.0, 1e3), "12k");
    }
}
