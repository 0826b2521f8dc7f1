//! The window's main loop ([`run`]): one frame at a time, the physics of each on a worker
//! thread while the frame is presented; and the end of a `--frames` run.

use super::frame_log::FrameLog;
use super::load_meter::LoadMeter;
use super::{keys, App, InFlight, CATCH_UP};
use crate::cli::{self, Args, LastFrames};
use crate::clock::Instant;
use crate::keymap::{self, Action};
use crate::message::Message;
use crate::prefs::Prefs;
use crate::render::renderer::Renderer;
use crate::render::{draw, raw_gl, screen};
use crate::start::Source;
use crate::state::Load;
use crate::ui::panel_cache::{self, PanelCache};
use crate::ui::widgets;
use crate::ui::windows::Seen;
use collide::{Scene, World};
use egui_macroquad::egui;
use macroquad::prelude::*;

/// The window's main loop. Each frame lays out the panels and the draw calls of the world as
/// the last frame's physics left it, applies the frame's messages, then runs this frame's
/// physics on a worker thread ([`App::launch`]) while the rest of the frame, which reads
/// nothing of the world (the canvas of balls, the panels' painting), is drawn and presented
/// (in software rendering, most of a frame), and takes the world back at the next frame's
/// start. Messages from this frame's input are applied before its physics, so a run is the
/// same as stepping on the main thread (the hashes of `--frames` runs match `--headless`).
pub async fn run(args: Args, start: (Source, Scene, World), prefs: Prefs) {
    let mut runner = Runner::new(App::new(args, start, prefs));
    loop {
        runner.frame().await;
    }
}

/// The app and what its loop keeps from one frame to the next.
struct Runner {
    app: App,
    /// `--frames`: the run ends after this many frames of physics.
    frames_limit: Option<u64>,
    /// Frames whose physics has run (or was skipped: editing, paused), and its total time (s).
    frames: u64,
    physics_total: f64,
    last_frames: LastFrames,
    /// This thread's work, its waits for the physics thread and its `next_frame`s (s).
    main_thread: Busy,
    /// The last frame's physics time (s).
    physics: f64,
    in_flight: Option<InFlight>,
    run_start: Instant,
    load_meter: LoadMeter,
    /// How long the last `next_frame` took (s): presenting the frame, and in software
    /// rendering, rasterising what was queued.
    presented: f64,
    /// The panels kept between their refreshes (`panel_cache.rs`).
    panel_cache: PanelCache,
    /// `CMT_FRAME_LOG`: the main thread's work per frame on stderr (`frame_log.rs`).
    frame_log: Option<FrameLog>,
}

/// What one frame laid out, for the rest of it.
struct Laid {
    /// egui drew the panels afresh this frame.
    egui_runs: bool,
    /// The last frame of `--frames`.
    last: bool,
}

impl Runner {
    /// The loop's start: the window fitted, the drawing path chosen (`renderer.rs`).
    fn new(mut app: App) -> Self {
        if app.prefs.persist {
            prevent_quit();
        }
        let mut panel_cache = PanelCache::default();
        crate::render::display::fit_open_window();
        let renderer = Renderer::choose(app.args.renderer);
        app.sprites.set_path(renderer.path, renderer.blits);
        panel_cache.set_path(renderer.path, renderer.blits);
        app.feedback.renderer_line = renderer.line();
        Self {
            frames_limit: app.args.frames,
            app,
            frames: 0,
            physics_total: 0.0,
            last_frames: LastFrames::default(),
            main_thread: Busy::default(),
            physics: 0.0,
            in_flight: None,
            run_start: Instant::now(),
            load_meter: LoadMeter::default(),
            presented: 0.0,
            panel_cache,
            frame_log: FrameLog::from_env(),
        }
    }

    /// One frame: the last frame's physics landed, the panels and the world laid out, the
    /// messages applied and this frame's physics started, the rest drawn and presented.
    async fn frame(&mut self) {
        // Colour writes were turned off at the end of the last frame, so macroquad's clear at
        // the start of this one wrote nothing (see there).
        raw_gl::colour_writes(true);
        screen::begin_frame();
        egui_macroquad::cfg(screen::egui_scale);
        let frame_start = Instant::now();
        let frame_time = get_frame_time() as f64;
        // With --frames each frame is 1/60 s of simulation and the effects age 1/60 s too, so
        // the result matches --headless and a frame's picture is the same on every run.
        let dt = if self.frames_limit.is_some() {
            1.0 / 60.0
        } else {
            frame_time
        };
        let waited = self.land(dt);
        let laid = self.lay_out();
        if !laid.last {
            self.launch(dt);
        }
        self.draw_rest(laid.egui_runs);
        if laid.last {
            self.finish();
        }
        self.account(frame_start, waited);
        // macroquad's queued drawing goes to GL now, and colour writes are turned off until
        // the next frame's start: macroquad begins every frame with a clear of the window,
        // which a frame showing the kept panels does not need (in llvmpipe a fill of every
        // pixel).
        // SAFETY: macroquad's documented access to its drawing state, on its thread.
        unsafe { get_internal_gl() }.flush();
        raw_gl::colour_writes(false);
        let present = Instant::now();
        next_frame().await;
        self.presented = present.elapsed().as_secs_f64();
    }

    /// Takes back the last frame's physics, if any ran, and does what follows it; returns how
    /// long this thread waited for it (s).
    fn land(&mut self, fx_time: f64) -> f64 {
        let app = &mut self.app;
        let Some(job) = self.in_flight.take() else {
            // Editing, paused, or the first frame: no steps ran.
            app.adapt_catch_up(0.0, 0.0);
            app.after_physics(fx_time);
            return 0.0;
        };
        let waited;
        (self.physics, waited) = app.land(job, fx_time);
        self.physics_total += self.physics;
        self.last_frames.push(self.physics * 1000.0);
        self.frames += 1;
        waited
    }

    /// This frame's input and panels as messages, applied (but on the last frame of
    /// `--frames`), and the world's draw calls.
    fn lay_out(&mut self) -> Laid {
        let app = &mut self.app;
        let mut msgs = app.frame_input();
        let load = app.load;
        let mut tape_msgs = Vec::new();
        // The last frame of `--frames`: drawn as it is, the world after `frames` frames of
        // physics, then the summary.
        let last = self.frames_limit.is_some_and(|n| self.frames >= n);
        // The panels are drawn afresh for a screenshot.
        let keep = !last && !app.shot_pending;
        let egui_runs = self.panel_cache.egui_runs(keep, get_time());
        if egui_runs {
            // The panels are drawn afresh, over the window cleared to their colour (they leave
            // their background unpainted, `widgets::panel_fill`). Sent to the rasterizer now,
            // the clear is done by the time the canvas is copied in, which waits for every
            // drawing queued before it. A frame that shows the kept panels covers the whole
            // window with them and the canvas: no clear.
            let mut panels = [0.0; 4];
            egui_macroquad::cfg(|ctx| panels = widgets::panel_fill(ctx));
            raw_gl::clear_colour(panels);
            raw_gl::flush();
            egui_macroquad::ui(|ctx| tape_msgs = app.panels(ctx, load, &mut msgs));
        }
        // The pointer after egui's pass of this frame: what egui took this frame (a wheel
        // turned or a button pressed over a window) never reaches the table.
        msgs.extend(app.pointer_input());
        if app.editor.active {
            let (fitted, mut cam) = (app.fitted(), app.cam);
            app.editor.mouse(fitted, &mut cam);
            msgs.extend((cam != app.cam).then_some(Message::Camera(cam)));
        }
        // The record bar's last, as they have always come.
        msgs.extend(tape_msgs);
        if !last {
            for msg in msgs {
                app.apply(msg);
            }
        }
        if app.editor.active {
            app.editor.update();
        }
        app.draw_view();
        Laid { egui_runs, last }
    }

    /// Leaves if asked, and starts this frame's physics (`dt` s) unless editing or paused.
    fn launch(&mut self, dt: f64) {
        let app = &mut self.app;
        #[cfg(target_arch = "wasm32")]
        app.web_frame(self.frames);
        if app.quit || is_quit_requested() {
            app.save_prefs();
            crate::platform::exit(0);
        }
        if app.editor.active || app.choices.paused {
            self.physics = 0.0;
            self.frames += 1;
        } else {
            self.in_flight = Some(app.launch(dt));
        }
    }

    /// What is left to draw reads nothing of the world, so it runs beside the physics: the
    /// canvas of balls laid out above, under what macroquad has queued (drawn when egui
    /// draws), and the panels; then the screenshot asked for.
    fn draw_rest(&mut self, egui_runs: bool) {
        let app = &mut self.app;
        app.sprites.draw_canvas();
        let canvas = app.sprites.copied_canvas();
        if egui_runs {
            egui_macroquad::draw();
            let mut busy = true;
            egui_macroquad::cfg(|ctx| busy = panel_cache::egui_busy(ctx, canvas));
            self.panel_cache.take(canvas, get_time(), busy);
        } else {
            self.panel_cache.put(canvas);
        }
        // Taken once the panels were drawn afresh (a frame that kept them asks the next to
        // draw them, `lay_out`).
        if egui_runs && std::mem::take(&mut app.shot_pending) {
            app.screenshot();
        }
    }

    /// The end of a `--frames` run (see [`finish`]).
    fn finish(&mut self) -> ! {
        self.main_thread.panels = (self.panel_cache.drawn_frames, self.panel_cache.kept_frames);
        let physics_ms = (
            self.physics_total * 1000.0 / self.frames.max(1) as f64,
            self.last_frames.mean(),
        );
        let (frames, start, main) = (self.frames, self.run_start, self.main_thread);
        finish(&mut self.app, frames, start, physics_ms, main)
    }

    /// This thread's time for the frame, and the load meter's reading of it.
    fn account(&mut self, frame_start: Instant, waited: f64) {
        // This thread's work, not its wait for the physics thread.
        let cpu = frame_start.elapsed().as_secs_f64() - waited;
        self.main_thread.add(cpu, waited, self.presented);
        if let Some(log) = self.frame_log.as_mut() {
            log.add(cpu, self.presented, self.panel_cache.drawn_frames);
        }
        let slow_motion = self.app.stepper.max_frame < CATCH_UP;
        let started = frame_start.duration_since(self.run_start).as_secs_f64();
        self.app.load = self
            .load_meter
            .frame(started, cpu, self.physics, slow_motion);
    }
}

impl App {
    /// This frame's keys and pinball's held controls, as messages; the editor entered as the
    /// command line asked (the first frame), the time scale handed to the stepper.
    fn frame_input(&mut self) -> Vec<Message> {
        self.sync_edit_mode();
        self.stepper.time_scale = self.choices.time_scale as f64;
        let mut msgs = self.keys();
        if !self.editor.active {
            let world = self.sim.world();
            let (wants, last) = (
                self.feedback.egui_wants_keys,
                &mut self.feedback.controls_held,
            );
            msgs.extend(keys::control_messages(world, wants, last));
        }
        msgs
    }

    /// This frame's mouse gestures on the table, as messages, read after egui's pass (see
    /// [`App::panels`]); paused, the probe follows the pointer.
    fn pointer_input(&mut self) -> Vec<Message> {
        let cmds = self.mouse();
        if self.choices.paused && !self.editor.active {
            self.probe_while_paused();
        }
        cmds
    }

    /// egui's pass: the record bar, the toolbar and side panel, the editor's panel and the
    /// windows. Adds the panels' messages to `msgs`; returns the record bar's. Notes where the
    /// panels ended and whether egui has the pointer, which the table's gestures then leave
    /// alone.
    fn panels(&mut self, ctx: &egui::Context, load: Load, msgs: &mut Vec<Message>) -> Vec<Message> {
        widgets::wheel_scroll(ctx, mouse_wheel().1);
        let hidden = self.choices.panels_hidden;
        let seen = Seen {
            world: self.sim.world(),
            scene: &self.scene,
            choices: &self.choices,
            notes: &self.feedback.notes,
            sound: &self.sound,
            renderer: &self.feedback.renderer_line,
            load,
        };
        let (tape, paused) = (self.sim.tape(), self.choices.paused);
        let bar = (!hidden).then(|| self.timeline.show(ctx, tape, seen.world, paused));
        let measured = self.panel.show(ctx, &seen, &self.windows, msgs);
        if self.editor.active && !hidden && self.editor.show(ctx) {
            msgs.push(Message::Edit(false));
        }
        if !hidden {
            self.windows.show(ctx, &seen, msgs);
        }
        self.feedback.panel_width = measured.panel_width;
        self.feedback.toolbar_height = measured.toolbar_height;
        // Once every panel and window has been laid out (one opened or moved this pass
        // included): whether the pointer is egui's this frame, for the table's gestures.
        let wants = ctx.wants_pointer_input() || ctx.is_pointer_over_area();
        (self.feedback.egui_wants_pointer, self.editor.wants_pointer) = (wants, wants);
        // Last, after every widget: what Tab or a click focused that is not a text field
        // is let go, so Space is the toy's and never presses a button.
        self.text_focus = crate::ui::focus::settle(ctx, self.text_focus);
        self.feedback.egui_wants_keys = self.text_focus.is_some();
        let tape_msgs = bar.unwrap_or_default().into_iter();
        tape_msgs.map(Message::Tape).collect()
    }

    /// The view's drawing: the world (or the editor's preview) with its overlays, the editor's
    /// handles or the launch preview, the PAUSED line and the start hint.
    fn draw_view(&mut self) {
        let view = self.view();
        self.sync_heat();
        let shown = if self.editor.active {
            &self.editor.preview
        } else {
            self.sim.world()
        };
        // The world's drawing stays in the view: the panels around it are transparent over
        // the window's clear, and kept as pixels between refreshes (`panel_cache.rs`), so a
        // shape reaching past the view (zoomed in) would show through them, or over them.
        let clip = screen::to_physical(view.pixels(screen::size()), screen::scale());
        raw_gl::clip_drawing(Some(clip));
        let time = get_time() as f32;
        let tints = self.heat_tints();
        draw::world(
            &view,
            shown,
            draw::Looks {
                fx: &self.fx,
                show: &self.choices.show,
                tints: tints.as_deref(),
            },
            time,
            &mut self.sprites,
        );
        self.draw_teaching(&view);
        if self.editor.active {
            self.editor.draw(&view);
        } else {
            self.mouse
                .draw(&view, self.sim.world().settings().ball_radius);
        }
        if self.choices.paused && !self.editor.active {
            // At the top of the view, centred, on a backdrop: clear of the table's corners
            // (the table's arc), and readable over whatever it covers.
            let (_, y, _, _) = view.rect();
            screen::centred_label(&paused_line(), y + 8.0, HINT, ORANGE, view.rect());
        }
        if let Some(line) = self.start_hint() {
            // Across the middle of the empty table.
            let (_, y, _, h) = view.rect();
            screen::centred_label(&line, y + 0.4 * h, HINT, SKYBLUE, view.rect());
        }
        raw_gl::clip_drawing(None);
    }
}

/// The main thread's time over the frames of a run (s): its own work, its waits for the
/// physics thread at the frames' start, and its `next_frame`s (each counted with the frame
/// after it: the first frame adds none).
#[derive(Clone, Copy, Debug, Default)]
struct Busy {
    frames: u64,
    work: f64,
    waited: f64,
    presented: f64,
    /// Frames whose panels egui drew, and frames that showed them as kept (`panel_cache.rs`).
    panels: (u64, u64),
}

impl Busy {
    fn add(&mut self, work: f64, waited: f64, presented: f64) {
        self.frames += 1;
        self.work += work;
        self.waited += waited;
        self.presented += presented;
    }
}

/// After `--frames`: the screenshot, a line of where the main thread's time went, the summary
/// line (last), `--record` and `--save-state`, exit.
fn finish(app: &mut App, frames: u64, start: Instant, physics_ms: (f64, f64), main: Busy) -> ! {
    if let Some(path) = &app.args.screenshot {
        get_screen_data().export_png(&path.to_string_lossy());
    }
    let per = 1000.0 / main.frames.max(1) as f64;
    println!(
        "main thread: work_ms={:.3} waited_for_physics_ms={:.3} next_frame_ms={:.3} (per frame, over {} frames) panels_drawn={} panels_kept={}",
        main.work * per,
        main.waited * per,
        main.presented * per,
        main.frames,
        main.panels.0,
        main.panels.1
    );
    let secs = start.elapsed().as_secs_f64();
    let fps = frames as f64 / secs.max(1e-9);
    println!("{}", cli::summary(frames, app.sim.world(), fps, physics_ms));
    let held = app.sim.held();
    let written = crate::start::write_outputs(&app.args, &app.source, &mut held.tape, &held.world);
    let sound = app
        .args
        .sound_out
        .as_ref()
        .map_or(Ok(()), |p| app.sound.write_wav(p));
    if let Err(e) = written.and(sound) {
        eprintln!("error: {e}");
        crate::platform::exit(2);
    }
    crate::platform::exit(0);
}

/// The size of the lines over the table (the pause, the start hint), and the least they
/// shrink to in a narrow view before breaking into lines.
const HINT: screen::Sizes = screen::Sizes {
    size: 22.0,
    least: 15.0,
};

/// The line over the table while paused: "PAUSED  (P resumes, O: one step)" ("O steps"
/// read as "0 steps").
fn paused_line() -> String {
    let (pause, step) = (
        keymap::keys_of(Action::Pause),
        keymap::keys_of(Action::Step),
    );
    format!("PAUSED  ({pause} resumes, {step}: one step)")
}

/// The hint on the empty table of a first start: "Space launches a ball  (F1: help, F3:
/// things to try)".
fn start_line() -> String {
    let keys = [Action::Launch, Action::Help, Action::Tour].map(keymap::keys_of);
    format!(
        "{} launches a ball  ({}: help, {}: things to try)",
        keys[0], keys[1], keys[2]
    )
}

impl App {
    /// The start hint, until the first ball is in play (launched, filled, dropped by the
    /// scene); never in a game (its own serve) or in the editor. Once gone it stays gone.
    fn start_hint(&mut self) -> Option<String> {
        let w = self.sim.world();
        if !w.balls().is_empty() || w.pending_launches() > 0 || w.counters().launched > 0 {
            self.played = true;
        }
        (!self.played && !w.is_game() && !self.editor.active).then(start_line)
    }
}

#[cfg(test)]
mod tests {
    use super::paused_line;
    use crate::message::Message;

    /// "PAUSED (P resumes, O steps)" read as "0 steps".
    #[test]
    fn the_paused_line_says_o_takes_one_step() {
        let line = paused_line();
        assert!(line.contains("O: one step"), "{line}");
        assert!(!line.contains("O steps"), "{line}");
    }

    /// The first start showed an empty table with no hint of what to do: it says which key
    /// launches a ball until the first launch, and not after (a Clear brings no hint back).
    #[test]
    fn an_empty_table_says_space_launches_a_ball_until_the_first_launch() {
        let mut app = crate::app::tests::app_on(&[]);
        let hint = app.start_hint().expect("a hint on the empty table");
        assert!(hint.starts_with("Space launches a ball"), "{hint}");
        app.apply(Message::World(collide::Input::Launch(1)));
        assert_eq!(app.start_hint(), None, "launched");
        app.apply(Message::World(collide::Input::Clear));
        assert_eq!(app.start_hint(), None, "cleared: no hint again");
        let mut field = crate::app::tests::app_on(&["--scene", "field"]);
        assert_eq!(field.start_hint(), None, "balls from the start");
    }
}
