//! The control panel (egui), after the original toy's dialog. It binds widgets to [`UiState`]
//! and returns [`Command`]s; it never touches the simulation itself.

use collide::broad::Param;
use collide::world::Tally;
use collide::{BroadKind, Settings, Tunnelling, Vec2, World};
use egui_macroquad::egui;

/// The eight Show toggles.
#[derive(Clone, Debug, Default)]
pub struct Show {
    /// Fading dot at each impact.
    pub hit_points: bool,
    /// Fading trails behind balls.
    pub tracks: bool,
    /// Tangent lines at impacts on arcs, segments and circles.
    pub tangents: bool,
    /// Every box, plus the broad phase's structure (quadtree leaf grid, sectors, …).
    pub aabbs: bool,
    /// Spinning marker at impacts, styled by collision type.
    pub reticles: bool,
    /// Velocity arrows.
    pub velocity: bool,
    /// Arc interiors shaded.
    pub sectors: bool,
    /// Shapes lit briefly when hit.
    pub lights: bool,
    /// Each ball's path in the last step and the impacts found on it.
    pub sweeps: bool,
}

impl Show {
    /// Turns on the overlay called `name` (one of [`crate::cli::OVERLAYS`]).
    pub fn enable(&mut self, name: &str) {
        match name {
            "hit-points" => self.hit_points = true,
            "tracks" => self.tracks = true,
            "tangents" => self.tangents = true,
            "aabbs" => self.aabbs = true,
            "reticles" => self.reticles = true,
            "velocity" => self.velocity = true,
            "sectors" => self.sectors = true,
            "lights" => self.lights = true,
            _ => {}
        }
    }
}

/// Everything the panel edits.
#[derive(Clone, Debug)]
pub struct UiState {
    /// Physics settings, copied into the world when changed.
    pub sim: Settings,
    /// Overlays.
    pub show: Show,
    /// Balls launched by the Launch button.
    pub launch_count: u32,
    /// Broad phase chosen.
    pub broad: BroadKind,
    /// The user chose the broad phase (the panel, `--broad-phase`): Fill and Restart keep it.
    /// Otherwise they pick one for the ball count (`advice.rs`).
    pub broad_chosen: bool,
    /// Why the toy picked the broad phase it did, or why the chosen one is slow for a Fill.
    pub broad_note: Option<String>,
    /// Broad phase in use before the quadtree was ticked (to go back to).
    pub broad_before_quadtree: BroadKind,
    /// Simulation paused.
    pub paused: bool,
    /// Help window open.
    pub help_open: bool,
    /// Chart window open.
    pub chart_open: bool,
    /// Balls the Fill button puts on the table.
    pub fill_count: u32,
    /// Largest radius of filled balls (px).
    pub fill_radius: f32,
    /// What the last fill did, when worth saying.
    pub fill_message: Option<String>,
    /// Last refusal of a parameter change, shown under the sliders.
    pub param_message: Option<String>,
    /// Width the panel took last frame (px), so the table fits beside it.
    pub panel_width: f32,
    /// Height the toolbar took last frame (px).
    pub toolbar_height: f32,
    /// egui has keyboard focus (keys then go to egui, not the toy).
    pub egui_wants_keys: bool,
    /// egui has the pointer.
    pub egui_wants_pointer: bool,
    /// Simulated seconds per real second (below 1: slow motion).
    pub time_scale: f32,
    /// Tab hid the panels and windows.
    pub panels_hidden: bool,
    /// Energy window open.
    pub energy_open: bool,
    /// A note for the user (screenshot written, scene loaded), shown under the heading.
    pub message: Option<String>,
    /// Edit mode asked for (toolbar Edit, F2); the app enters or leaves it to match.
    pub editing: bool,
    /// Index of the scene in [`crate::cli::BUILT_IN`], if it is a built-in one.
    pub scene_index: Option<usize>,
    /// Name of the scene shown.
    pub scene_name: String,
    /// Balls of the scene's own fill (rain, field), when it has one.
    pub scene_fill: Option<u32>,
    /// Sound muted (the Mute box, M).
    pub muted: bool,
    /// Sound volume (0..=1).
    pub volume: f32,
    /// Where the sound goes, or that there is none, and why (set by the app each frame).
    pub sound_status: String,
    pub sound_why: Option<String>,
    /// How the frame is drawn (set by the app): the path and the GL renderer.
    pub renderer_line: String,
}

impl UiState {
    /// Defaults, with the world's settings.
    pub fn new(world: &World) -> Self {
        let broad = world.broad().kind();
        Self {
            sim: world.settings.clone(),
            show: Show {
                lights: true,
                sweeps: true,
                ..Show::default()
            },
            launch_count: 10,
            broad,
            broad_chosen: false,
            broad_note: None,
            broad_before_quadtree: if broad == BroadKind::Quadtree {
                BroadKind::Brute
            } else {
                broad
            },
            paused: false,
            help_open: false,
            chart_open: false,
            fill_count: 10_000,
            fill_radius: 3.0,
            fill_message: None,
            param_message: None,
            panel_width: 320.0,
            toolbar_height: 60.0,
            egui_wants_keys: false,
            egui_wants_pointer: false,
            time_scale: 1.0,
            panels_hidden: false,
            energy_open: false,
            message: None,
            editing: false,
            scene_index: None,
            scene_name: String::new(),
            scene_fill: None,
            muted: false,
            volume: crate::sound::DEFAULT_VOLUME,
            sound_status: String::new(),
            sound_why: None,
            renderer_line: String::new(),
        }
    }
}

/// What the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Launch this many balls.
    Launch(u32),
    /// Remove every ball.
    Clear,
    /// Reload the scene.
    Restart,
    /// Leave.
    Quit,
    /// Use this broad phase.
    SetBroad(BroadKind),
    /// Set a parameter of the broad phase.
    SetParam(&'static str, f32),
    /// Run one frame while paused.
    Step,
    /// Replace the balls with this many at random places, of at most this radius (px).
    Fill(u32, f32),
    /// Launch a ball now at this place (px) with this velocity (px/s).
    LaunchAt(Vec2, Vec2),
    /// Put ball `i` here (px) with this velocity (px/s).
    MoveBall(usize, Vec2, Vec2),
    /// Delete ball `i`.
    RemoveBall(usize),
    /// Load the built-in scene with this index in [`crate::cli::BUILT_IN`].
    LoadScene(usize),
    /// Press (`true`) or release a game control (flippers, plunger).
    Control(collide::Control, bool),
    /// Reload the scene with this many balls in its own fill (rain, field).
    SceneFill(u32),
}

/// Read-outs the panel shows (measured by the app).
#[derive(Clone, Copy, Debug, Default)]
pub struct Load {
    /// Frames per second.
    pub fps: f32,
    /// The main thread's time in the frame (input, panels, drawing; not its wait for the
    /// physics thread) over the frame time.
    pub cpu: f32,
    /// Physics time per frame (ms).
    pub physics_ms: f32,
    /// The physics thread's time over the frame time: near 1, it cannot keep up.
    pub physics_share: f32,
    /// Physics cannot keep up: one frame of simulated time per frame.
    pub slow_motion: bool,
}

/// Points scrolled per notch of the mouse wheel: egui's own line height for scrolling.
const WHEEL_POINTS: f32 = 40.0;

/// Hands egui the mouse wheel's turn this frame (`wheel`: notches, as macroquad reports them;
/// one per notch on X11). egui-macroquad passes egui a ninetieth of it, as lines, so one notch
/// scrolled a panel by under half a pixel (30 notches moved the side panel about 13 px): the
/// lower sections could be reached only by the scroll bar. Call at the start of the egui pass,
/// before any scroll area reads it; a scroll area under the pointer takes it, as egui's own.
pub fn wheel_scroll(ctx: &egui::Context, wheel: f32) {
    if wheel.is_finite() && wheel != 0.0 {
        ctx.input_mut(|i| i.smooth_scroll_delta.y += wheel * WHEEL_POINTS);
    }
}

/// Leaves the panels' own fill unpainted and returns the colour it has (RGBA, 0–1): the view
/// is one opaque image (`sprites.rs`) and the app clears the window to this colour, so the
/// panels need not paint their background. In software rendering that background was about
/// 5 ms of rasterizer time a frame here (every pixel of a panel blended); a clear is nearly
/// free. The look does not change.
pub fn panel_fill(ctx: &egui::Context) -> [f32; 4] {
    let theme = ctx.theme().default_visuals().panel_fill;
    let want = egui::Color32::TRANSPARENT;
    if ctx.style().visuals.panel_fill != want {
        ctx.style_mut(|s| s.visuals.panel_fill = want);
    }
    theme.to_array().map(|c| c as f32 / 255.0)
}

/// Draws the side panel and the help window; returns the commands.
pub fn show(
    ctx: &egui::Context,
    ui_state: &mut UiState,
    world: &World,
    load: Load,
) -> Vec<Command> {
    let mut cmds = Vec::new();
    if ui_state.panels_hidden {
        (ui_state.panel_width, ui_state.toolbar_height) = (0.0, 0.0);
        (ui_state.egui_wants_keys, ui_state.egui_wants_pointer) = (false, false);
        return cmds;
    }
    let top = egui::TopBottomPanel::top("toolbar").show(ctx, |ui| {
        ui.spacing_mut().item_spacing = egui::vec2(6.0, 3.0);
        launch_section(ui, ui_state, &mut cmds);
        show_section(ui, &mut ui_state.show);
    });
    ui_state.toolbar_height =
        top.response.rect.height() * ctx.pixels_per_point() / crate::screen::scale();
    let panel = egui::SidePanel::right("controls")
        .resizable(false)
        .exact_width(310.0)
        .show(ctx, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.spacing_mut().item_spacing = egui::vec2(6.0, 3.0);
                ui.spacing_mut().slider_width = 130.0;
                ui.heading("Collision Math Toy");
                if let Some(m) = &ui_state.message {
                    ui.colored_label(egui::Color32::LIGHT_GREEN, m);
                }
                crate::scene_ui::section(ui, ui_state, world, &mut cmds);
                balls_section(ui, world);
                fill_section(ui, ui_state, world, &mut cmds);
                load_section(ui, load, world, &ui_state.renderer_line);
                counters_section(ui, world);
                crate::contacts_ui::section(ui, &mut ui_state.sim, world);
                tunnelling_section(ui, &mut ui_state.sim, world);
                broad_section(ui, ui_state, world, &mut cmds);
                quadtree_section(ui, ui_state, world, &mut cmds);
                iterations_section(ui, &mut ui_state.sim);
                next_ball_section(ui, &mut ui_state.sim);
                other_section(ui, ui_state);
                sound_section(ui, ui_state);
            });
        });
    ui_state.panel_width =
        panel.response.rect.width() * ctx.pixels_per_point() / crate::screen::scale();
    help_window(ctx, &mut ui_state.help_open);
    ui_state.egui_wants_keys = ctx.wants_keyboard_input();
    ui_state.egui_wants_pointer = ctx.wants_pointer_input() || ctx.is_pointer_over_area();
    cmds
}

pub(crate) fn row(ui: &mut egui::Ui, label: &str, value: impl std::fmt::Display) {
    ui.label(label);
    ui.add(egui::Label::new(egui::RichText::new(value.to_string()).monospace()).wrap());
    ui.end_row();
}

pub(crate) fn grid(ui: &mut egui::Ui, id: &str, add: impl FnOnce(&mut egui::Ui)) {
    egui::Grid::new(id)
        .num_columns(2)
        .spacing([12.0, 2.0])
        .show(ui, add);
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

fn fill_section(ui: &mut egui::Ui, st: &mut UiState, world: &World, cmds: &mut Vec<Command>) {
    ui.separator();
    ui.strong("Fill");
    ui.add(
        egui::Slider::new(&mut st.fill_count, 100..=crate::cli::MAX_FILL)
            .logarithmic(true)
            .text("balls"),
    );
    ui.add(
        egui::Slider::new(&mut st.fill_radius, 0.5..=20.0)
            .logarithmic(true)
            .text("max radius (px)"),
    );
    if ui
        .button("Fill")
        .on_hover_text(
            "Replace every ball with this many at random places in the field, radii 0.7–1 × max",
        )
        .clicked()
    {
        cmds.push(Command::Fill(st.fill_count, st.fill_radius));
    }
    if let Some(msg) = &st.fill_message {
        ui.small(msg);
    }
    if let Some(note) = &st.broad_note {
        ui.colored_label(egui::Color32::from_rgb(255, 200, 120), note);
    }
    let n = world.balls().len();
    if n > crate::fx::TRACK_BALLS {
        ui.small(format!(
            "With {n} balls: tracks show the first {}, boxes and velocity arrows the first {}.",
            crate::fx::TRACK_BALLS,
            crate::draw::OVERLAY_BALLS
        ));
    }
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
    if load.slow_motion {
        ui.small("Slow motion: physics cannot keep up, so each frame simulates 1/60 s.");
    }
    if let Some(tip) = crate::advice::when_slow(world, load.physics_share, load.slow_motion) {
        ui.colored_label(egui::Color32::from_rgb(255, 200, 120), tip);
    }
}

fn next_ball_section(ui: &mut egui::Ui, sim: &mut Settings) {
    ui.separator();
    ui.strong("Next ball");
    ui.add(egui::Slider::new(&mut sim.ball_radius, 1.0..=40.0).text("radius (px)"));
    ui.add(
        egui::Slider::new(&mut sim.launch_speed, 100.0..=60000.0)
            .logarithmic(true)
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
    let (aabb, pairs, repeats, micros) = s.per_iteration();
    grid(ui, "counters", |ui| {
        row(ui, "AABB tests / iteration", format!("{aabb:.0}"));
        row(ui, "AABB tests / s", rate(s.broad.aabb_tests));
        row(ui, "Candidate pairs / iteration", format!("{pairs:.1}"));
        row(ui, "Repeats dropped / iteration", format!("{repeats:.1}"));
        row(ui, "Broad phase µs / iteration", format!("{micros:.1}"));
        row(ui, "Full tests / s", rate(s.full_tests));
        row(ui, "Collisions / s", rate(s.collisions));
        if s.cache_queries + s.cache_served + s.cache_passed > 0 {
            // The pair cache: how often the broad phase ran, and the cache's own tests.
            row(ui, "Pair cache queries / s", rate(s.cache_queries));
            row(ui, "Pair cache answers / s", rate(s.cache_served));
            row(ui, "Pair cache passed on / s", rate(s.cache_passed));
            if world.pair_cache_resting() {
                // Most recent calls had to query: the broad phase is asked directly for now.
                row(ui, "Pair cache", "standing aside");
            }
            let per = s.cache_tests as f64 / s.iterations.max(1) as f64;
            row(ui, "Pair cache tests / iteration", format!("{per:.0}"));
        }
        if s.wall_pass.aabb_tests > 0 || s.wall_pass_tests > 0 {
            // The discrete mode's last pass against the obstacles, once per step.
            row(ui, "Wall pass AABB tests / s", rate(s.wall_pass.aabb_tests));
            row(ui, "Wall pass tests / s", rate(s.wall_pass_tests));
        }
    });
}

fn broad_section(ui: &mut egui::Ui, st: &mut UiState, world: &World, cmds: &mut Vec<Command>) {
    ui.separator();
    ui.strong("Broad phase");
    let before = st.broad;
    egui::ComboBox::from_id_salt("broad")
        .selected_text(st.broad.label())
        .show_ui(ui, |ui| {
            for &k in BroadKind::ALL {
                ui.selectable_value(&mut st.broad, k, k.label());
            }
        });
    if st.broad != before {
        cmds.push(Command::SetBroad(st.broad));
        (st.broad_chosen, st.broad_note) = (true, None);
    }
    ui.checkbox(&mut st.sim.pair_cache, "Keep pairs between iterations")
        .on_hover_text(
            "Asks the broad phase with boxes grown by a margin and reuses its pairs while every \
             ball stays inside its grown box: same pairs, same simulation, fewer AABB tests \
             (the cache's own tests are counted apart)",
        );
    ui.checkbox(&mut st.sim.verify, "Verify against brute force")
        .on_hover_text("Each iteration also runs brute force and counts missed and extra pairs");
    if st.sim.verify {
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
        param_sliders(ui, world.broad().params(), cmds);
        stats_grid(ui, "broad-stats", world);
    }
    if let Some(msg) = &st.param_message {
        ui.colored_label(egui::Color32::from_rgb(255, 170, 80), msg);
    }
}

fn param_sliders(ui: &mut egui::Ui, params: Vec<Param>, cmds: &mut Vec<Command>) {
    for p in params {
        let mut v = p.value;
        let slider = egui::Slider::new(&mut v, p.min..=p.max).text(p.name);
        let slider = if p.integer { slider.integer() } else { slider };
        // Wide ranges (sizes in px) are easier to set on a log scale.
        let slider = slider.logarithmic(!p.integer && p.max > 100.0 * p.min.max(1.0));
        if ui.add(slider).on_hover_text(&p.help).changed() {
            cmds.push(Command::SetParam(p.name, v));
        }
        ui.small(&p.help);
    }
}

fn stats_grid(ui: &mut egui::Ui, id: &str, world: &World) {
    grid(ui, id, |ui| {
        for (label, value) in world.broad().stats() {
            row(ui, label, value);
        }
    });
}

fn quadtree_section(ui: &mut egui::Ui, st: &mut UiState, world: &World, cmds: &mut Vec<Command>) {
    ui.separator();
    let mut active = world.broad().kind() == BroadKind::Quadtree;
    if ui
        .checkbox(&mut active, egui::RichText::new("Quadtree").strong())
        .changed()
    {
        let to = if active {
            st.broad_before_quadtree = st.broad;
            BroadKind::Quadtree
        } else {
            st.broad_before_quadtree
        };
        st.broad = to;
        (st.broad_chosen, st.broad_note) = (true, None);
        cmds.push(Command::SetBroad(to));
    }
    if active {
        param_sliders(ui, world.broad().params(), cmds);
        stats_grid(ui, "qt-stats", world);
    } else {
        ui.small("Tick to use the array quadtree as the broad phase.");
    }
}

fn iterations_section(ui: &mut egui::Ui, sim: &mut Settings) {
    ui.separator();
    ui.strong("Iterations");
    ui.add(egui::Slider::new(&mut sim.motion_iterations, 1..=64).text("motion"));
    ui.add(egui::Slider::new(&mut sim.collision_iterations, 1..=64).text("collision"));
    ui.small(format!(
        "Physics rate {} Hz; {} collision iterations per frame",
        60 * sim.motion_iterations,
        sim.motion_iterations * sim.collision_iterations
    ));
}

fn other_section(ui: &mut egui::Ui, st: &mut UiState) {
    ui.separator();
    ui.strong("Other");
    ui.checkbox(&mut st.sim.rotate, "Rotate (kinematic shapes turn)");
    ui.add(egui::Slider::new(&mut st.sim.gravity, 0.0..=2000.0).text("gravity (px/s²)"));
    ui.add(egui::Slider::new(&mut st.sim.elasticity_scale, 0.0..=1.5).text("elasticity ×"));
    ui.add(
        egui::Slider::new(&mut st.time_scale, 0.02..=2.0)
            .logarithmic(true)
            .text("time scale ([ ])"),
    );
}

/// Mute, volume and where the sound goes (or why there is none).
fn sound_section(ui: &mut egui::Ui, st: &mut UiState) {
    ui.separator();
    ui.horizontal(|ui| {
        ui.strong("Sound");
        ui.checkbox(&mut st.muted, "Mute (M)");
    });
    let mut percent = (st.volume * 100.0).round();
    if ui
        .add(egui::Slider::new(&mut percent, 0.0..=100.0).text("volume (%)"))
        .changed()
    {
        st.volume = percent / 100.0;
    }
    let line = ui.small(&st.sound_status);
    if let Some(why) = &st.sound_why {
        line.on_hover_text(why);
    }
}

fn show_section(ui: &mut egui::Ui, show: &mut Show) {
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
    });
}

fn launch_section(ui: &mut egui::Ui, st: &mut UiState, cmds: &mut Vec<Command>) {
    ui.horizontal_wrapped(|ui| {
        ui.strong("Launch");
        ui.add(egui::Slider::new(&mut st.launch_count, 1..=1000).logarithmic(true));
        if ui.button("Launch").clicked() {
            cmds.push(Command::Launch(st.launch_count));
        }
        if ui.button("Clear").clicked() {
            cmds.push(Command::Clear);
        }
        if ui.button("Restart").clicked() {
            cmds.push(Command::Restart);
        }
        ui.separator();
        ui.checkbox(&mut st.paused, "Pause");
        ui.checkbox(&mut st.muted, "Mute")
            .on_hover_text("Sound of the impacts off (M); volume in the panel's Sound section");
        if ui.button("Step").clicked() {
            cmds.push(Command::Step);
        }
        ui.separator();
        ui.toggle_value(&mut st.editing, "Edit").on_hover_text(
            "Scene editor (F2): pauses the balls; leaving restarts from the edited scene",
        );
        ui.toggle_value(&mut st.energy_open, "Energy");
        if ui.button("Help").clicked() {
            st.help_open = !st.help_open;
        }
        let chart = egui::Button::new("Chart").selected(st.chart_open);
        if ui
            .add(chart)
            .on_hover_text("AABB tests, pairs and broad-phase time per frame, last 10 s")
            .clicked()
        {
            st.chart_open = !st.chart_open;
        }
        if ui.button("Quit").clicked() {
            cmds.push(Command::Quit);
        }
    });
}

const HELP: &[(&str, &str)] = &[
    ("Space", "launch one ball up the lane"),
    ("P", "pause / resume"),
    ("O", "one frame forward while paused"),
    ("R", "restart the scene"),
    ("F1", "this help"),
    ("F2", "scene editor on / off (leaving restarts from the edited scene)"),
    ("Delete, Backspace", "in the editor: delete the selected shape"),
    ("Ctrl+Z", "in the editor: undo the last edit"),
    ("Esc", "quit (in the editor: drop the selection and the tool)"),
    ("[  ]", "time scale: halve / double (slow motion below 1)"),
    ("Tab", "hide / show the panels"),
    ("F12", "screenshot to screenshot-DATE-TIME.png in the current folder"),
    ("1 … 9", "load a built-in scene in the order of the Scene list: 1 table, 2 lab, 3 pinball, 4 cradle, 5 pool, 6 rain, 7 field (also the Scene list)"),
    ("F or Home", "frame the whole scene (undo zoom and pan)"),
    ("E", "energy window"),
    ("M", "mute / unmute the sound"),
    ("T", "record/replay bar: timeline, hashes, save and load"),
    ("Left drag", "from empty field: launch a ball along the drag (longer = faster); on a ball: grab and throw it"),
    ("Right click", "on a ball: delete it"),
    ("Right / middle drag", "pan"),
    ("Wheel", "zoom about the cursor"),
];

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
    ("Edit", "the scene editor (F2): drag handles to reshape, bodies to move, tools to add shapes; the left panel sets elasticity and motion, saves and loads RON; leaving restarts from the edited scene"),
    ("Show", "hit points, tracks, tangents, boxes with the broad phase's structure, reticles, velocity arrows, arc sectors, lights"),
    ("Sound", "impacts heard by the kind of shape and the speed; Mute (also M) and the volume are kept between runs; the line under them says where the sound goes, or why there is none"),
];

fn help_window(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("Help")
        .open(open)
        .default_width(460.0)
        .show(ctx, |ui| {
            ui.strong("Keys");
            grid(ui, "help-keys", |ui| {
                for (k, v) in HELP.iter().chain(crate::pinball::HELP) {
                    row(ui, k, v);
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

/// The tunnelling combo box and what the mode costs (seed 002, "Shapes in Motion").
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
        ui.add(egui::Slider::new(&mut sim.linear_fractions, 1..=64).text("fractions"));
    }
    let (s, rate) = per_second(world);
    grid(ui, "tunnel-counters", |ui| {
        row(ui, "Impact tests / s", rate(s.impact_tests));
        row(ui, "Hull tests / s", rate(s.hull_tests));
        row(ui, "Hull rejections / s", rate(s.hull_rejections));
    });
}
