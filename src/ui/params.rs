//! The broad phase's parameters with their reasons: each slider with its rule of thumb and
//! source (declared by the broad phase, `BroadKind::rule`) and the balls' mean diameter; "Auto", which sets the value the
//! rule gives; and "Sweep", which measures AABB tests per collision iteration against the
//! parameter on the balls as they stand (`collide_lab::experiments::param_sweep`, on a
//! background thread: the window stays responsive) and plots them with the experiment
//! window's plot. Every value gives the same pairs, so the sweep changes no simulation, and
//! the one in play is not touched.

use super::experiment::{line_plot, PlotLine};
use crate::message::Message;
use crate::param_rules::{ball_sizes, BallSizes, Rule};
use collide::broad::Param;
use collide::{Input, Scene, World};
use collide_lab::experiments::param_sweep::{self, ParamPoint, ParamSweepConfig};
use egui_macroquad::egui;
use std::sync::mpsc::{self, Receiver, TryRecvError};

/// What the worker thread reports.
enum Msg {
    Progress(f32),
    Done(Result<Vec<ParamPoint>, String>),
}

/// A sweep: what was asked, and what came back so far.
struct Sweep {
    /// "grid: cell size".
    title: String,
    /// The balls it ran on, in words.
    balls: String,
    /// Why its counts leave out the sleeping balls, when some sleep.
    asleep: Option<String>,
    /// The parameter's value in play, and the rule's, to mark.
    now: f32,
    rule: Option<f32>,
    /// The worker, while it runs, and its progress.
    worker: Option<Receiver<Msg>>,
    progress: f32,
    result: Option<Result<Vec<ParamPoint>, String>>,
}

/// The parameters' state between frames: the last sweep and its window.
#[derive(Default)]
pub struct ParamsUi {
    sweep: Option<Sweep>,
    open: bool,
}

impl ParamsUi {
    /// The broad phase's parameters in the panel: the balls' sizes once, then each slider
    /// with its help, its rule of thumb, "Auto" and "Sweep".
    pub fn ui(&mut self, ui: &mut egui::Ui, world: &World, cmds: &mut Vec<Message>) {
        let params = world.broad().params();
        if params.is_empty() {
            return;
        }
        let kind = world.broad().kind();
        let sizes = ball_sizes(world);
        ui.small(sizes_line(&sizes));
        if world.settings().pair_cache {
            ui.small(
                "Keeping pairs, the broad phase is asked with boxes grown by a margin: its \
                 own rule line below says what size it used. The sweep asks without.",
            );
        }
        let running = self.running();
        for p in params {
            slider(ui, &p, cmds);
            ui.small(&p.help);
            if let Some(rule) = kind.rule(p.name, &sizes) {
                rule_row(ui, &p, &rule, running, cmds);
            }
        }
    }

    /// The running sweep's progress bar, if one runs (in the panel's passing notes,
    /// `notes.rs`: it goes when the sweep ends, and moves nothing as it goes).
    pub fn progress(&self, ui: &mut egui::Ui) {
        if let Some(s) = self.sweep.as_ref().filter(|s| s.worker.is_some()) {
            ui.add(egui::ProgressBar::new(s.progress).text(format!("Sweeping {}", s.title)));
        }
    }

    /// Whether a sweep is running.
    pub fn running(&self) -> bool {
        self.sweep.as_ref().is_some_and(|s| s.worker.is_some())
    }

    /// Starts the sweep of `param` on `world` as it stands (built from `scene`), unless one
    /// is running; opens the window.
    pub fn start(&mut self, param: &str, scene: &Scene, world: &World) {
        let kind = world.broad().kind();
        let sizes = ball_sizes(world);
        let (Some(p), Some(rule)) = (
            world.broad().params().into_iter().find(|p| p.name == param),
            kind.rule(param, &sizes),
        ) else {
            return;
        };
        if self.running() {
            return;
        }
        let config = ParamSweepConfig::new(param, rule.sweep.clone());
        let (tx, rx) = mpsc::channel();
        let (scene, state) = (scene.clone(), world.save_state());
        crate::platform::spawn(move || {
            let progress = tx.clone();
            let clock = Some(crate::clock::nanos as fn() -> u64);
            let points = param_sweep::run(&scene, &state, &config, clock, &mut |f| {
                let _ = progress.send(Msg::Progress(f));
            });
            let _ = tx.send(Msg::Done(points));
        });
        self.sweep = Some(Sweep {
            title: format!("{}: {param}", kind.name()),
            balls: sizes_of(&sizes),
            asleep: asleep_note(&sizes),
            now: p.value,
            rule: rule.value,
            worker: Some(rx),
            progress: 0.0,
            result: None,
        });
        self.open = true;
    }

    /// The sweep's window, while open; takes the worker's messages.
    pub fn window(&mut self, ctx: &egui::Context) {
        let Some(sweep) = self.sweep.as_mut() else {
            return;
        };
        sweep.poll();
        if sweep.worker.is_some() {
            ctx.request_repaint();
        }
        let mut open = self.open;
        egui::Window::new(format!("Sweep: {}", sweep.title))
            .id(egui::Id::new("param_sweep"))
            .open(&mut open)
            .default_size([560.0, 440.0])
            .show(ctx, |ui| sweep.show(ui));
        self.open = open;
    }
}

impl Sweep {
    /// Takes the worker's messages without blocking.
    fn poll(&mut self) {
        let Some(rx) = &self.worker else { return };
        loop {
            match rx.try_recv() {
                Ok(Msg::Progress(f)) => self.progress = f,
                Ok(Msg::Done(r)) => {
                    (self.result, self.worker) = (Some(r), None);
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

    fn show(&self, ui: &mut egui::Ui) {
        ui.label(format!(
            "AABB tests per collision iteration against {}, on the balls as they stand \
             ({}), up to 60 collision iterations per value (fewer for a value that makes hundreds \
             of millions of tests), the pair cache off. Every value finds the same \
             pairs: the simulation is the same, only its cost differs.",
            self.title, self.balls
        ));
        if self.worker.is_some() {
            ui.add(egui::ProgressBar::new(self.progress).show_percentage());
        }
        match &self.result {
            Some(Ok(points)) => self.plots(ui, points),
            Some(Err(e)) => {
                ui.colored_label(egui::Color32::RED, format!("The sweep was refused: {e}"));
            }
            None => {}
        }
    }

    fn plots(&self, ui: &mut egui::Ui, points: &[ParamPoint]) {
        ui.label(summary(points, self.asleep.as_deref()));
        let mut marks = Vec::new();
        if self.now > 0.0 {
            let now = (
                "now".to_string(),
                self.now as f64,
                egui::Color32::LIGHT_BLUE,
            );
            marks.push(now);
        }
        if let Some(r) = self.rule {
            marks.push(("rule".to_string(), r as f64, egui::Color32::LIGHT_GREEN));
        }
        let param = self.title.split(": ").nth(1).unwrap_or("value");
        let series = |f: fn(&ParamPoint) -> Option<f64>| -> Vec<[f64; 2]> {
            points
                .iter()
                .filter_map(|p| Some([p.value as f64, f(p)?]))
                .collect()
        };
        let tests = PlotLine {
            name: "AABB tests / iteration".into(),
            colour: egui::Color32::from_rgb(255, 170, 60),
            points: series(|p| Some(p.tests_per_iteration)),
        };
        let height = (ui.available_height() / 2.0 - 8.0).max(120.0);
        let axes = (param, "AABB tests / iteration");
        line_plot(ui, "sweep_tests", axes, vec![tests], &marks, Some(height));
        let time = PlotLine {
            name: "broad phase µs / iteration".into(),
            colour: egui::Color32::from_rgb(120, 200, 255),
            points: series(|p| p.micros_per_iteration),
        };
        let axes = (param, "µs / iteration");
        line_plot(ui, "sweep_time", axes, vec![time], &marks, Some(height));
    }
}

/// The fewest tests and where, and whether every value followed one trajectory; `asleep`
/// says why sleeping balls are not counted, when some sleep.
fn summary(points: &[ParamPoint], asleep: Option<&str>) -> String {
    let t = |x: f64| crate::advice::thousands(x.round() as u64);
    let best = points
        .iter()
        .min_by(|a, b| a.tests_per_iteration.total_cmp(&b.tests_per_iteration));
    // Values run as many steps reach the same state.
    let same = points.iter().all(|a| {
        points
            .iter()
            .all(|b| a.steps != b.steps || a.state_hash == b.state_hash)
    });
    let mut s = match best {
        Some(b) => format!("Fewest: {} tests at {}", t(b.tests_per_iteration), b.value),
        None => "No values".into(),
    };
    let most = points
        .iter()
        .map(|p| p.tests_per_iteration)
        .fold(0.0, f64::max);
    s += &format!("; most: {}", t(most));
    s += if same {
        "; one state hash for every value at the same step (same simulation)."
    } else {
        "; the state hashes differ: a bug, the broad phases must agree."
    };
    if let Some(note) = asleep {
        let mut c = note.chars();
        let first = c.next().map(|f| f.to_uppercase().collect::<String>());
        s += &format!(" {}{}.", first.unwrap_or_default(), c.as_str());
    }
    s
}

/// The balls' sizes in one line, and how many sleep.
fn sizes_line(b: &BallSizes) -> String {
    let line = sizes_of(b);
    match asleep_note(b) {
        Some(note) => format!("{line} ({note})"),
        None => line,
    }
}

/// The balls' sizes in one line.
fn sizes_of(b: &BallSizes) -> String {
    if b.count == 0 {
        return format!(
            "No balls: the next ball's diameter is {:.1} px",
            b.mean_diameter
        );
    }
    match b.none_given() {
        true => format!(
            "{}: mean diameter {:.1} px",
            crate::advice::counted(b.count as u64, "ball", "balls"),
            b.mean_diameter
        ),
        false => format!(
            "{}: mean diameter {:.1} px, largest box {:.1} px",
            crate::advice::counted(b.count as u64, "ball", "balls"),
            b.mean_diameter,
            b.largest
        ),
    }
}

/// What sleep hides from the broad phase, when any ball sleeps: the sizes, the counts and a
/// sweep are the awake balls' only.
fn asleep_note(b: &BallSizes) -> Option<String> {
    let t = |n: usize| crate::advice::thousands(n as u64);
    let asleep = b.count - b.given.min(b.count);
    match asleep {
        0 => None,
        _ if b.none_given() => Some(format!(
            "all {} balls asleep: a sleeping ball is a static box to the broad phase, not a \
             ball it is given, so it is given none and makes no tests; wake them to measure",
            t(asleep)
        )),
        _ => Some(format!(
            "{} balls asleep: a sleeping ball is a static box to the broad phase, not a ball \
             it is given; the figures are the {} awake balls'",
            t(asleep),
            t(b.given)
        )),
    }
}

/// One parameter's slider (a log scale for wide ranges of sizes).
fn slider(ui: &mut egui::Ui, p: &Param, cmds: &mut Vec<Message>) {
    let mut v = p.value;
    let slider = egui::Slider::new(&mut v, p.min..=p.max).text(p.name);
    let slider = if p.integer {
        slider.integer()
    } else {
        slider.fixed_decimals(2)
    };
    // Wide ranges (sizes in px) are easier to set on a log scale.
    let slider = slider.logarithmic(!p.integer && p.max > 100.0 * p.min.max(1.0));
    if ui.add(slider).on_hover_text(&p.help).changed() {
        cmds.push(Message::World(Input::SetParam {
            name: p.name.to_string(),
            value: v,
        }));
    }
}

/// The rule of thumb under a slider, with "Auto" and "Sweep".
fn rule_row(ui: &mut egui::Ui, p: &Param, rule: &Rule, running: bool, cmds: &mut Vec<Message>) {
    ui.small(format!("Rule of thumb: {} ({}).", rule.says, rule.source));
    ui.horizontal_wrapped(|ui| {
        let auto = ui
            .button("Auto")
            .on_hover_text(format!("Sets {} from the rule", p.name));
        if auto.clicked() {
            cmds.push(Message::World(Input::SetParam {
                name: p.name.to_string(),
                value: rule.auto,
            }));
        }
        let hint = format!(
            "Measures AABB tests per iteration for {} = {:?} on these balls",
            p.name, rule.sweep
        );
        let sweep = ui.add_enabled(!running, egui::Button::new("Sweep"));
        if sweep.on_hover_text(hint).clicked() {
            cmds.push(Message::SweepParam(p.name));
        }
        ui.small(format!("Auto: {}", rule.auto_why));
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide::BroadKind;

    fn point(value: f32, tests: f64, hash: u64) -> ParamPoint {
        ParamPoint {
            value,
            iterations: 60,
            steps: 10,
            tests_per_iteration: tests,
            pairs_per_iteration: 3.0,
            micros_per_iteration: None,
            state_hash: hash,
        }
    }

    #[test]
    fn summary_names_the_fewest_tests_and_one_trajectory() {
        let points = [
            point(8.0, 900.0, 1),
            point(16.0, 400.0, 1),
            point(32.0, 1200.0, 1),
        ];
        assert_eq!(
            summary(&points, None),
            "Fewest: 400 tests at 16; most: 1,200; one state hash for every value at the same \
             step (same simulation)."
        );
        let split = [point(8.0, 900.0, 1), point(16.0, 400.0, 2)];
        assert!(summary(&split, None).contains("differ"));
        // A value stopped early (its tests ran over the budget) is elsewhere on the way.
        let mut short = point(4.0, 5000.0, 9);
        short.steps = 1;
        let mixed = [point(8.0, 900.0, 1), short, point(16.0, 400.0, 1)];
        assert!(
            summary(&mixed, None).contains("one state hash"),
            "{}",
            summary(&mixed, None)
        );
    }

    /// `--scene table --fill 3000 --solver soft`, asleep: the cell size sweep plotted 0 tests
    /// for every value without saying why.
    #[test]
    fn a_sweep_of_the_sleeping_table_counts_nothing_and_says_why() {
        let world = crate::param_rules::tests::sleeping_table();
        let scene = Scene::parse(crate::cli::TABLE_RON, "table").unwrap();
        let mut ui = ParamsUi::default();
        ui.start("cell size", &scene, &world);
        let sweep = ui.sweep.as_mut().expect("started");
        let rx = sweep.worker.take().expect("a worker");
        let points = loop {
            match rx.recv().expect("the worker reports") {
                Msg::Progress(_) => {}
                Msg::Done(r) => break r.expect("the sweep runs"),
            }
        };
        assert!(points.iter().all(|p| p.tests_per_iteration == 0.0));
        let said = summary(&points, sweep.asleep.as_deref());
        assert!(
            said.contains("All 120 balls asleep") && said.contains("no tests"),
            "{said}"
        );
        let panel = sizes_line(&ball_sizes(&world));
        assert!(panel.contains("asleep"), "{panel}");
    }

    #[test]
    fn a_sweep_of_the_table_returns_one_point_per_value_of_the_rule() {
        let scene = Scene::parse(crate::cli::TABLE_RON, "table").unwrap();
        let mut world = scene.build(1);
        world.set_broad_phase(BroadKind::Sectors);
        world.launch(6);
        for _ in 0..300 {
            world.step();
        }
        let mut ui = ParamsUi::default();
        ui.start("sector size", &scene, &world);
        let rule = BroadKind::Sectors.rule("sector size", &ball_sizes(&world));
        let sweep = ui.sweep.as_mut().expect("started");
        let rx = sweep.worker.take().expect("a worker");
        let points = loop {
            match rx.recv().expect("the worker reports") {
                Msg::Progress(_) => {}
                Msg::Done(r) => break r.expect("the sweep runs"),
            }
        };
        let values: Vec<f32> = points.iter().map(|p| p.value).collect();
        assert_eq!(values, rule.unwrap().sweep);
        assert!(points.iter().all(|p| p.state_hash == points[0].state_hash));
    }
}
