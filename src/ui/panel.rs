//! The toolbar and the side panel (egui), after the original toy's dialog. They read what
//! they show from its owners ([`Seen`]), bind widgets to the panel's own settings ([`Panel`])
//! and to copies, and return a [`Message`] for each change; they never change the simulation
//! or the app's state themselves.

use super::seen::Seen;
use super::widgets::{grid, row};
use super::windows::Windows;
use super::{chart, energy, help};
use crate::keymap::{self, Action};
use crate::message::Message;
use crate::state::{Choices, Colouring, Load, Show};
use collide::world::Tally;
use collide::{BroadKind, Input, Settings, Tunnelling, World};
use egui_macroquad::egui;

/// The panel's own settings: what its widgets hold for the next click.
pub struct Panel {
    /// Balls launched by the Launch button.
    launch_count: u32,
    /// Balls the Fill button puts on the table.
    fill_count: u32,
    /// Largest radius of filled balls (px).
    fill_radius: f32,
    /// Broad phase in use before the quadtree was ticked (to go back to).
    broad_before_quadtree: BroadKind,
    /// The broad phase's parameters, their rules and sweeps.
    pub params: super::params::ParamsUi,
    /// The Scene section's ball count for the next Reload.
    scene_fill: super::scene::FillPick,
}

impl Panel {
    /// Defaults, for a world with this broad phase.
    pub fn new(broad: BroadKind) -> Self {
        Self {
            launch_count: 10,
            fill_count: 10_000,
            fill_radius: 3.0,
            broad_before_quadtree: if broad == BroadKind::Quadtree {
                BroadKind::Brute
            } else {
                broad
            },
            params: Default::default(),
            scene_fill: Default::default(),
        }
    }

    /// Draws the toolbar and the side panel; their changes go to `out`. The toolbar opens
    /// and closes `windows`. Returns where they ended.
    pub fn show(
        &mut self,
        ctx: &egui::Context,
        seen: &Seen,
        windows: &Windows,
        out: &mut Vec<Message>,
    ) -> Measured {
        if seen.choices.panels_hidden {
            return Measured::default();
        }
        let top = egui::TopBottomPanel::top("toolbar").show(ctx, |ui| {
            ui.spacing_mut().item_spacing = egui::vec2(6.0, 3.0);
            launch_section(ui, seen, windows, &mut self.launch_count, out);
            show_section(ui, &seen.choices.show, out);
        });
        let panel = egui::SidePanel::right("controls")
            .resizable(false)
            .exact_width(310.0)
            .show(ctx, |ui| self.side(ui, seen, out));
        self.params.window(ctx);
        let px = |points: f32| points * ctx.pixels_per_point() / crate::render::screen::scale();
        Measured {
            panel_width: px(panel.response.rect.width()),
            toolbar_height: px(top.response.rect.height()),
        }
    }

    /// The side panel's contents: the passing notes at its foot (`notes.rs`), laid over the
    /// bottom of the sections, which scroll above them.
    pub(super) fn side(&mut self, ui: &mut egui::Ui, seen: &Seen, out: &mut Vec<Message>) {
        let show = &seen.choices.show;
        super::notes::strip(ui, seen.world, show, &seen.load, &self.params);
        egui::ScrollArea::vertical().show(ui, |ui| {
            ui.spacing_mut().item_spacing = egui::vec2(6.0, 3.0);
            ui.spacing_mut().slider_width = 130.0;
            self.sections(ui, seen, out);
        });
    }

    /// The side panel's sections, top to bottom. Whatever comes and goes by itself is in the
    /// passing notes instead, and the rows a setting brings follow the setting, not the
    /// counts of the moment: nothing here moves while nobody touches it.
    fn sections(&mut self, ui: &mut egui::Ui, seen: &Seen, out: &mut Vec<Message>) {
        let (world, notes) = (seen.world, seen.notes);
        ui.heading("Collision Math Toy");
        if let Some(m) = &notes.message {
            ui.colored_label(egui::Color32::LIGHT_GREEN, m);
        }
        super::scene::ui(ui, seen.scene, world, &mut self.scene_fill, out);
        balls_section(ui, world);
        self.fill_section(ui, seen, out);
        load_section(ui, seen.load, world, seen.renderer);
        counters_section(ui, world);
        super::share::ui(ui, world);
        // The widgets edit a copy of the world's settings; a change is a message. Their sliders
        // clamp only what the user edits: a value from a scene or file beyond a slider stays.
        let mut sim = world.settings().clone();
        if super::contacts::ui(ui, &mut sim, world, notes.solver_note.as_deref()) {
            out.push(Message::SolverChosen);
        }
        tunnelling_section(ui, &mut sim, world);
        broad_section(ui, seen, &mut sim, &mut self.params, out);
        self.quadtree_section(ui, world, out);
        iterations_section(ui, &mut sim);
        next_ball_section(ui, &mut sim);
        other_section(ui, seen.choices, &mut sim, out);
        sound_section(ui, seen, out);
        if sim != *world.settings() {
            out.push(Message::World(Input::Settings(sim)));
        }
    }

    fn fill_section(&mut self, ui: &mut egui::Ui, seen: &Seen, cmds: &mut Vec<Message>) {
        ui.separator();
        ui.strong("Fill");
        ui.add(
            egui::Slider::new(&mut self.fill_count, 100..=crate::cli::MAX_FILL)
                .logarithmic(true)
                .text("balls"),
        );
        ui.add(
            egui::Slider::new(&mut self.fill_radius, 0.5..=20.0)
                .logarithmic(true)
                .fixed_decimals(2)
                .text("max radius (px)"),
        );
        if ui
            .button("Fill")
            .on_hover_text(
                "Replace every ball with this many at random places in the field, radii 0.7–1 × max",
            )
            .clicked()
        {
            let radius = crate::start::fill_radii(self.fill_radius);
            let (n, speed) = (self.fill_count, crate::start::FILL_SPEED);
            cmds.push(Message::World(Input::Fill { n, radius, speed }));
        }
        if let Some(msg) = &seen.notes.fill_message {
            ui.small(msg);
        }
        if let Some(note) = &seen.notes.broad_note {
            ui.colored_label(super::notes::ADVICE, note);
        }
        // Always there, so that balls arriving past the count move nothing below.
        let t = |n: usize| crate::advice::thousands(n as u64);
        ui.small(format!(
            "Tracks show the first {} balls, boxes and velocity arrows the first {}.",
            t(crate::render::fx::TRACK_BALLS),
            t(crate::render::draw::OVERLAY_BALLS)
        ));
    }

    fn quadtree_section(&mut self, ui: &mut egui::Ui, world: &World, cmds: &mut Vec<Message>) {
        ui.separator();
        let mut active = world.broad().kind() == BroadKind::Quadtree;
        if ui
            .checkbox(&mut active, egui::RichText::new("Quadtree").strong())
            .changed()
        {
            let to = if active {
                self.broad_before_quadtree = world.broad().kind();
                BroadKind::Quadtree
            } else {
                self.broad_before_quadtree
            };
            cmds.push(Message::ChooseBroad(to));
        }
        if active {
            self.params.ui(ui, world, cmds);
            stats_grid(ui, "qt-stats", world);
        } else {
            ui.small("Tick to use the array quadtree as the broad phase.");
        }
    }
}

fn balls_section(ui: &mut egui::Ui, world: &World) {
    ui.separator();
    ui.strong("Balls in play");
    let c = world.counters();
    grid(ui, "balls", |ui| {
        row(ui, "Launched", c.launched);
        row(
            ui,
            "In play (waiting)",
            format!("{} ({})", world.balls().len(), world.pending_launches()),
        );
        row(ui, "Co-located", c.co_located);
        row(ui, "Strays", c.strays);
    });
}

fn load_section(ui: &mut egui::Ui, load: Load, world: &World, renderer: &str) {
    ui.separator();
    ui.horizontal(|ui| {
        ui.strong("Load");
        ui.monospace(format!(
            "{:5.1} FPS  physics {:.2} ms",
            load.fps, load.physics_ms
        ));
    });
    ui.add(
        egui::ProgressBar::new(load.cpu.clamp(0.0, 1.0))
            .text(format!("main thread {:.0}% of the frame", load.cpu * 100.0)),
    )
    .on_hover_text(
        "Input, panels and drawing; the physics runs beside them on a thread of its own \
         (its time is the figure above)",
    );
    if !renderer.is_empty() {
        ui.small(renderer);
    }
    // Slow motion and the advice are passing notes (`notes.rs`): here they would move every
    // section below as they come and go.
    ui.small(profile_line(world)).on_hover_text(
        "Physics time by stage over the last simulated second, ms a frame: the broad \
         phase and pair cache, then (soft contacts) finding the contacts, preparing and \
         colouring them, the solve and relax passes, restitution; sleep and the meter",
    );
    threads_section(ui, world);
}

/// The physics time by stage over the last simulated second, ms a frame: the stages of the
/// solver in use, each always named (so the line keeps its length); before a second has
/// passed, or without a clock, a line saying so.
fn profile_line(world: &World) -> String {
    let c = world.counters();
    if c.last_second == Default::default() {
        return "Profile (ms a frame): after a simulated second".into();
    }
    let soft = world.settings().solver == collide::Solver::Soft;
    let stages = c
        .last_second
        .profile()
        .iter()
        .filter(|s| soft || !s.soft)
        .map(|s| format!("{} {:.2}", s.name, ms_a_frame(s.nanos)))
        .collect::<Vec<_>>();
    format!("Profile (ms a frame): {}", stages.join(", "))
}

/// `ns` over a simulated second as ms a frame.
fn ms_a_frame(ns: u64) -> f64 {
    ns as f64 / 60.0 / 1.0e6
}

/// The last second's stages by thread, when the step ran on more than one: each thread's
/// busy time a frame, and below, the time it waited for the others or was absent.
fn threads_section(ui: &mut egui::Ui, world: &World) {
    let t = &world.counters().last_second;
    let threads = t.profiled_threads();
    if threads < 2 {
        return;
    }
    egui::CollapsingHeader::new(format!("Profile by thread ({threads})"))
        .id_salt("profile by thread")
        .show(ui, |ui| {
            let stages = t.profile();
            egui::Grid::new("by thread").striped(true).show(ui, |ui| {
                ui.label("ms a frame");
                for k in 0..threads {
                    ui.label(if k == 0 {
                        "caller".into()
                    } else {
                        format!("worker {k}")
                    });
                }
                ui.end_row();
                for s in stages.iter().filter(|s| s.nanos > 0) {
                    ui.label(s.name);
                    for k in 0..threads {
                        ui.monospace(format!("{:5.2}", ms_a_frame(s.spread.busy[k])));
                    }
                    ui.end_row();
                }
                ui.label("waiting").on_hover_text(
                    "Time within the stages a thread spent waiting for the others, or \
                     absent (a worker that started late or not at all)",
                );
                for k in 0..threads {
                    let idle: u64 = stages.iter().map(|s| s.spread.idle[k] + s.absent(k)).sum();
                    ui.monospace(format!("{:5.2}", ms_a_frame(idle)));
                }
                ui.end_row();
            });
        });
}

fn next_ball_section(ui: &mut egui::Ui, sim: &mut Settings) {
    ui.separator();
    ui.strong("Next ball");
    ui.add(
        egui::Slider::new(&mut sim.ball_radius, 1.0..=40.0)
            .clamping(egui::SliderClamping::Edits)
            .fixed_decimals(1)
            .text("radius (px)"),
    );
    ui.add(
        egui::Slider::new(&mut sim.launch_speed, 100.0..=60000.0)
            .clamping(egui::SliderClamping::Edits)
            .logarithmic(true)
            .fixed_decimals(0)
            .text("speed (px/s)"),
    );
}

/// The counters of the last simulated second ([`World::recent_second`]:
/// the second in progress until one has completed) and a function turning a count of them
/// into a rate per simulated second.
fn per_second(world: &World) -> (&Tally, impl Fn(u64) -> u64) {
    let (s, factor) = world.recent_second();
    (s, move |count: u64| (count as f64 * factor).round() as u64)
}

fn counters_section(ui: &mut egui::Ui, world: &World) {
    ui.separator();
    ui.strong("Collision detection and response");
    let (s, rate) = per_second(world);
    let (_, pairs, repeats, micros) = s.per_iteration();
    grid(ui, "counters", |ui| {
        row(ui, "AABB tests / iteration", aabb_per_iteration(s));
        row(ui, "AABB tests / s", rate(s.broad.aabb_tests));
        row(ui, "Candidate pairs / iteration", format!("{pairs:.1}"));
        row(ui, "Repeats dropped / iteration", format!("{repeats:.1}"));
        row(ui, "Broad phase µs / iteration", format!("{micros:.1}"));
        row(ui, "Full tests / s", rate(s.full_tests));
        row(ui, "Collisions / s", rate(s.collisions));
        // The rows a setting brings are there while it is on, whatever the counts: rows
        // coming and going with the balls would move every section below.
        let settings = world.settings();
        if settings.pair_cache {
            // The pair cache: how often the broad phase ran, and the cache's own tests.
            row(ui, "Pair cache queries / s", rate(s.cache_queries));
            row(ui, "Pair cache answers / s", rate(s.cache_served));
            row(ui, "Pair cache passed on / s", rate(s.cache_passed));
            // Most recent calls had to query: the broad phase is asked directly for now.
            let resting = world.pair_cache_resting();
            row(
                ui,
                "Pair cache",
                if resting { "standing aside" } else { "in use" },
            );
            let per = s.cache_tests as f64 / s.iterations.max(1) as f64;
            row(ui, "Pair cache tests / iteration", format!("{per:.0}"));
        }
        if settings.solver == collide::Solver::PushOut && settings.tunnelling == Tunnelling::Off {
            // The discrete mode's last pass against the obstacles, once per step.
            row(ui, "Wall pass AABB tests / s", rate(s.wall_pass.aabb_tests));
            row(ui, "Wall pass tests / s", rate(s.wall_pass_tests));
        }
    });
}

/// AABB tests per collision iteration, and why they are 0 when the pair cache answered the
/// calls in the broad phase's place (balls flying, no box tested: its own tests are below).
fn aabb_per_iteration(s: &Tally) -> String {
    let aabb = s.per_iteration().0;
    if aabb < 0.5 && s.cache_served > 0 {
        "0 (cache answered)".into()
    } else {
        format!("{aabb:.0}")
    }
}

fn broad_section(
    ui: &mut egui::Ui,
    seen: &Seen,
    sim: &mut Settings,
    params: &mut super::params::ParamsUi,
    cmds: &mut Vec<Message>,
) {
    let world = seen.world;
    ui.separator();
    ui.strong("Broad phase");
    let before = world.broad().kind();
    let mut kind = before;
    egui::ComboBox::from_id_salt("broad")
        .selected_text(kind.label())
        .show_ui(ui, |ui| {
            for &k in BroadKind::ALL {
                ui.selectable_value(&mut kind, k, k.label());
            }
        });
    if kind != before {
        cmds.push(Message::ChooseBroad(kind));
    }
    ui.checkbox(&mut sim.pair_cache, "Keep pairs between iterations")
        .on_hover_text(
            "Asks the broad phase with boxes grown by a margin and reuses its pairs while every \
             ball stays inside its grown box: same pairs, same simulation, fewer AABB tests \
             (the cache's own tests are counted apart)",
        );
    ui.checkbox(&mut sim.verify, "Verify against brute force")
        .on_hover_text("Each iteration also runs brute force and counts missed and extra pairs");
    if sim.verify {
        let (s, factor) = world.recent_second();
        let window = if factor == 1.0 {
            "last second"
        } else {
            "so far"
        };
        let colour = if s.missed + s.extra == 0 {
            egui::Color32::LIGHT_GREEN
        } else {
            egui::Color32::RED
        };
        ui.colored_label(
            colour,
            format!("missed {}  extra {}  ({window})", s.missed, s.extra),
        );
    }
    if world.broad().kind() != BroadKind::Quadtree {
        params.ui(ui, world, cmds);
        stats_grid(ui, "broad-stats", world);
    }
    if let Some(msg) = &seen.notes.param_message {
        ui.colored_label(egui::Color32::from_rgb(255, 170, 80), msg);
    }
}

fn stats_grid(ui: &mut egui::Ui, id: &str, world: &World) {
    grid(ui, id, |ui| {
        for (label, value) in world.broad().stats() {
            row(ui, label, value);
        }
    });
}

fn iterations_section(ui: &mut egui::Ui, sim: &mut Settings) {
    ui.separator();
    ui.strong("Iterations");
    ui.add(
        egui::Slider::new(&mut sim.motion_iterations, 1..=64)
            .clamping(egui::SliderClamping::Edits)
            .text("motion"),
    );
    ui.add(
        egui::Slider::new(&mut sim.collision_iterations, 1..=64)
            .clamping(egui::SliderClamping::Edits)
            .text("collision"),
    );
    ui.small(format!(
        "Physics rate {} Hz; {} collision iterations per frame",
        60 * sim.motion_iterations,
        sim.motion_iterations * sim.collision_iterations
    ));
}

fn other_section(ui: &mut egui::Ui, choices: &Choices, sim: &mut Settings, out: &mut Vec<Message>) {
    ui.separator();
    ui.strong("Other");
    ui.checkbox(&mut sim.rotate, "Rotate (kinematic shapes turn)");
    ui.add(
        egui::Slider::new(&mut sim.gravity, 0.0..=2000.0)
            .clamping(egui::SliderClamping::Edits)
            .fixed_decimals(0)
            .text("gravity (px/s²)"),
    );
    ui.add(
        egui::Slider::new(&mut sim.elasticity_scale, 0.0..=1.5)
            .clamping(egui::SliderClamping::Edits)
            .fixed_decimals(2)
            .text("elasticity ×"),
    );
    let mut time_scale = choices.time_scale;
    let slider = egui::Slider::new(&mut time_scale, 0.02..=2.0)
        .logarithmic(true)
        .fixed_decimals(2)
        .text(format!(
            "time scale ({})",
            keymap::keys_of(Action::TimeScale)
        ));
    if ui.add(slider).changed() {
        out.push(Message::TimeScale(time_scale));
    }
}

/// Mute, volume and where the sound goes (or why there is none).
fn sound_section(ui: &mut egui::Ui, seen: &Seen, out: &mut Vec<Message>) {
    let sound = seen.sound;
    ui.separator();
    ui.horizontal(|ui| {
        ui.strong("Sound");
        let mut muted = sound.muted();
        let mute = format!("Mute ({})", keymap::keys_of(Action::Mute));
        if ui.checkbox(&mut muted, mute).changed() {
            out.push(Message::Mute(muted));
        }
    });
    let mut percent = (sound.volume() * 100.0).round();
    if ui
        .add(
            egui::Slider::new(&mut percent, 0.0..=100.0)
                .fixed_decimals(0)
                .text("volume (%)"),
        )
        .changed()
    {
        out.push(Message::Volume(percent / 100.0));
    }
    let line = ui.small(sound.status());
    if let Some(why) = sound.silent_because() {
        line.on_hover_text(why);
    }
}

fn show_section(ui: &mut egui::Ui, shown: &Show, out: &mut Vec<Message>) {
    let mut show = shown.clone();
    ui.horizontal_wrapped(|ui| {
        ui.strong("Show");
        ui.checkbox(&mut show.hit_points, "hit points");
        ui.checkbox(&mut show.tracks, "tracks");
        ui.checkbox(&mut show.tangents, "tangents");
        ui.checkbox(&mut show.aabbs, "AABBs + structure");
        ui.checkbox(&mut show.reticles, "reticles");
        ui.checkbox(&mut show.velocity, "velocity");
        ui.checkbox(&mut show.sectors, "sectors");
        ui.checkbox(&mut show.lights, "lights");
        ui.checkbox(&mut show.sweeps, "swept paths");
        ui.checkbox(&mut show.heat, "heat map")
            .on_hover_text("The broad phase's cells, sectors or leaves coloured by the box tests they cost over the last simulated second (the balls, for algorithms without places)");
        ui.checkbox(&mut show.probe, format!("probe ({})", keymap::keys_of(Action::Probe)))
            .on_hover_text("What the broad phase did for the ball under the pointer in its last call; a click pins a ball");
        ui.checkbox(&mut show.impulses, "impulses")
            .on_hover_text("Soft contacts drawn as thick as their normal impulse");
        if show.impulses {
            colouring_choice(ui, &mut show.colouring);
        }
    });
    if show != *shown {
        out.push(Message::Show(show));
    }
}

fn colouring_choice(ui: &mut egui::Ui, how: &mut Colouring) {
    egui::ComboBox::from_id_salt("colouring")
        .selected_text(match how {
            Colouring::Kind => "by kind",
            Colouring::Colours => "by solver colour",
            Colouring::Islands => "by island",
        })
        .show_ui(ui, |ui| {
            ui.selectable_value(how, Colouring::Kind, "by kind")
                .on_hover_text("White: between two balls; orange: with an obstacle");
            ui.selectable_value(how, Colouring::Colours, "by solver colour")
                .on_hover_text("The solver's graph colours: no two contacts of a colour share a ball, so a colour is solved eight at a time; obstacle colours (pale) are solved last");
            ui.selectable_value(how, Colouring::Islands, "by island")
                .on_hover_text("Balls joined by touching, as sleep sees them: an island falls asleep as one");
        });
}

fn launch_section(
    ui: &mut egui::Ui,
    seen: &Seen,
    windows: &Windows,
    count: &mut u32,
    cmds: &mut Vec<Message>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.strong("Launch");
        ui.add(egui::Slider::new(count, 1..=1000).logarithmic(true));
        if ui.button("Launch").clicked() {
            cmds.push(Message::World(Input::Launch(*count)));
        }
        if ui.button("Clear").clicked() {
            cmds.push(Message::World(Input::Clear));
        }
        if ui.button("Restart").clicked() {
            cmds.push(Message::Restart);
        }
        ui.separator();
        let choices = seen.choices;
        let mut paused = choices.paused;
        if ui.checkbox(&mut paused, "Pause").changed() {
            cmds.push(Message::Pause(paused));
        }
        let mut muted = seen.sound.muted();
        let mute = ui.checkbox(&mut muted, "Mute").on_hover_text(format!(
            "Sound of the impacts off ({}); volume in the panel's Sound section",
            keymap::keys_of(Action::Mute)
        ));
        if mute.changed() {
            cmds.push(Message::Mute(muted));
        }
        if ui.button("Step").clicked() {
            cmds.push(Message::Step);
        }
        ui.separator();
        let mut editing = choices.editing;
        let edit = ui.toggle_value(&mut editing, "Edit").on_hover_text(format!(
            "Scene editor ({}): pauses the balls; leaving restarts from the edited scene",
            keymap::keys_of(Action::Editor)
        ));
        if edit.changed() {
            cmds.push(Message::Edit(editing));
        }
        let mut energy_open = windows.is_open(energy::NAME);
        if ui.toggle_value(&mut energy_open, energy::NAME).changed() {
            cmds.push(Message::Window(energy::NAME, energy_open));
        }
        if ui.button(help::NAME).clicked() {
            cmds.push(Message::Window(help::NAME, !windows.is_open(help::NAME)));
        }
        let chart = egui::Button::new(chart::NAME).selected(windows.is_open(chart::NAME));
        if ui
            .add(chart)
            .on_hover_text("AABB tests, pairs and broad-phase time per frame, last 10 s")
            .clicked()
        {
            cmds.push(Message::Window(chart::NAME, !windows.is_open(chart::NAME)));
        }
        // A page is closed, never quit: no Quit there.
        if cfg!(not(target_arch = "wasm32")) && ui.button("Quit").clicked() {
            cmds.push(Message::Quit);
        }
    });
}

/// The tunnelling combo box and what the mode costs (Schwarzl 2012, "Shapes in Motion").
fn tunnelling_section(ui: &mut egui::Ui, sim: &mut Settings, world: &World) {
    ui.separator();
    ui.strong("Tunnelling");
    egui::ComboBox::from_id_salt("tunnelling")
        .selected_text(sim.tunnelling.label())
        .show_ui(ui, |ui| {
            for &m in Tunnelling::ALL {
                ui.selectable_value(&mut sim.tunnelling, m, m.label());
            }
        });
    if sim.tunnelling == Tunnelling::Linear {
        ui.add(
            egui::Slider::new(&mut sim.linear_fractions, 1..=64)
                .clamping(egui::SliderClamping::Edits)
                .text("fractions"),
        );
    }
    grid(ui, "tunnel-counters", |ui| {
        for (label, value) in tunnel_rows(world) {
            row(ui, label, value);
        }
    });
}

/// The tunnelling section's counters, a second's worth each. Impact tests only in the swept
/// modes: with Tunnelling off each pair is tested once, at the step's end, and those tests
/// are the Full tests above (the library counts them as impact tests too, one per pair).
fn tunnel_rows(world: &World) -> Vec<(&'static str, u64)> {
    let (s, rate) = per_second(world);
    let swept = world.settings().tunnelling != Tunnelling::Off;
    let impact = swept.then(|| ("Impact tests / s", rate(s.impact_tests)));
    impact
        .into_iter()
        .chain([
            ("Hull tests / s", rate(s.hull_tests)),
            ("Hull rejections / s", rate(s.hull_rejections)),
        ])
        .collect()
}

/// Where the toolbar and the side panel ended (px; none while hidden).
#[derive(Clone, Copy, Debug, Default)]
pub struct Measured {
    /// The side panel's width.
    pub panel_width: f32,
    /// The toolbar's height.
    pub toolbar_height: f32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sound::Sound;
    use crate::state::Notes;

    /// The toolbar laid out by egui alone, with a click (pressed one pass, let go the next)
    /// on the text `label`: what it returned.
    fn toolbar_click(label: &str, choices: &Choices, sound: &Sound) -> Vec<Message> {
        let scene = collide::Scene::parse(crate::cli::TABLE_RON, "table").unwrap();
        let world = scene.build(1);
        let notes = Notes::default();
        let seen = Seen {
            world: &world,
            scene: &scene,
            choices,
            notes: &notes,
            sound,
            renderer: "",
            load: Load::default(),
        };
        let windows = Windows::default();
        let ctx = egui::Context::default();
        let mut at = None;
        let mut out = Vec::new();
        let pass = |events: Vec<egui::Event>, out: &mut Vec<Message>| {
            let input = egui::RawInput {
                screen_rect: Some(egui::Rect::from_min_size(
                    egui::Pos2::ZERO,
                    [1280.0, 200.0].into(),
                )),
                events,
                ..Default::default()
            };
            ctx.run(input, |ctx| {
                egui::CentralPanel::default().show(ctx, |ui| {
                    launch_section(ui, &seen, &windows, &mut 10, out);
                });
            })
        };
        for shape in pass(Vec::new(), &mut out).shapes {
            if let egui::Shape::Text(t) = shape.shape {
                if t.galley.text() == label {
                    at = Some(t.pos + t.galley.size() / 2.0);
                }
            }
        }
        let at = at.expect("the label laid out");
        let button = |pressed| egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Default::default(),
        };
        out.clear();
        pass(vec![egui::Event::PointerMoved(at), button(true)], &mut out);
        pass(vec![button(false)], &mut out);
        out
    }

    /// The toolbar once flipped pause and mute in the state it was handed (one of four routes
    /// by which the state changed): now it is handed the state to read and asks for a change.
    #[test]
    fn the_toolbar_asks_for_each_change_as_a_message() {
        let sound = Sound::new(false, 0.5);
        let choices = Choices::default();
        let asked = |label| toolbar_click(label, &choices, &sound);
        assert_eq!(asked("Pause"), [Message::Pause(true)]);
        assert_eq!(asked("Mute"), [Message::Mute(true)]);
        assert_eq!(asked("Edit"), [Message::Edit(true)]);
        assert_eq!(asked("Help"), [Message::Window(help::NAME, true)]);
        assert_eq!(asked("Clear"), [Message::World(Input::Clear)]);
        assert!(!sound.muted() && !choices.paused, "nothing changed");
    }

    /// "AABB tests / iteration 0" while balls flew, because the pair cache answered: the line
    /// says so.
    #[test]
    fn no_aabb_tests_while_balls_fly_say_the_pair_cache_answered() {
        let mut s = Tally {
            iterations: 24,
            cache_served: 24,
            ..Tally::default()
        };
        assert_eq!(aabb_per_iteration(&s), "0 (cache answered)");
        s.broad.aabb_tests = 24 * 65;
        assert_eq!(aabb_per_iteration(&s), "65");
        assert_eq!(
            aabb_per_iteration(&Tally::default()),
            "0",
            "no balls, no calls"
        );
    }

    #[test]
    fn impact_tests_are_shown_only_when_tunnelling_is_on() {
        let scene = collide::Scene::parse(crate::cli::TABLE_RON, "table").unwrap();
        let mut w = scene.build(1);
        w.launch(10);
        for _ in 0..240 {
            w.step();
        }
        let labels = |w: &World| tunnel_rows(w).into_iter().map(|r| r.0).collect::<Vec<_>>();
        assert!(
            !labels(&w).contains(&"Impact tests / s"),
            "{:?}",
            labels(&w)
        );
        w.edit_settings(|s| s.tunnelling = Tunnelling::Exact);
        for _ in 0..240 {
            w.step();
        }
        let rows = tunnel_rows(&w);
        assert_eq!(rows[0].0, "Impact tests / s");
        assert!(rows[0].1 > 0, "{rows:?}");
    }
}
