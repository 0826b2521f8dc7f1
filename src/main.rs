//! Collision Math Toy: the desktop app. A thin shell over the `collide` library: window,
//! input, panels and drawing. See README.md.

mod advice;
mod app;
mod bench;
mod bench_chart;
mod chart;
mod check;
mod cli;
mod contacts_ui;
mod draw;
mod editor;
mod energy;
mod experiment_ui;
mod fx;
mod input;
mod panel;
mod panel_cache;
mod pinball;
mod prefs;
mod raw_gl;
mod renderer;
mod scene_draw;
mod scene_ui;
mod screen;
mod sound;
mod splat;
mod sprites;
mod tape;
mod timeline;
mod view;

use clap::Parser;
use std::time::Instant;

fn main() {
    let mut args = cli::Args::parse();
    let prefs = prefs::Prefs::for_run(&args);
    if args.scene.is_none() && args.state.is_none() && args.replay.is_none() {
        args.scene = prefs.last_scene.as_ref().map(Into::into);
        if args.scene.is_some() && cli::load_scene(&args).is_err() {
            eprintln!(
                "warning: the last scene {:?} did not load; the table instead",
                args.scene
            );
            args.scene = None;
        }
    }
    let scene = match cli::load_scene(&args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    if let Some(cli::Command::Bench(bench_args)) = &args.command {
        std::process::exit(bench::run(bench_args, &scene));
    }
    if let Some(cli::Command::Check(check_args)) = &args.command {
        std::process::exit(check::run(check_args));
    }
    if let Some(path) = &args.replay {
        std::process::exit(tape::replay(path));
    }
    // A WAV that cannot be written is refused before the run, not after it.
    if let Some(path) = &args.sound_out {
        if let Err(e) = std::fs::File::create(path) {
            eprintln!("error: {}: cannot write the sound: {e}", path.display());
            std::process::exit(2);
        }
    }
    let start = match tape::start(&args, &scene) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    if args.headless {
        run_headless(&args, start);
        return;
    }
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        eprintln!("error: no display to open a window on (DISPLAY is not set); use --headless --frames N to run without one");
        std::process::exit(1);
    }
    software_rasterizer_threads();
    screen::force(screen::forced_from(args.scale));
    // A window of the default size grows with a forced scale, so it shows as much.
    let window = if prefs.window == prefs::Prefs::default().window {
        let f = screen::forced();
        (
            (prefs.window.0 as f32 * f) as i32,
            (prefs.window.1 as f32 * f) as i32,
        )
    } else {
        prefs.window
    };
    macroquad::Window::from_config(window_conf(args.msaa, window), app::run(args, start, prefs));
}

/// Leaves Mesa's software rasterizer (llvmpipe: a virtual display, or no GPU; a GPU driver
/// ignores this) only the cores that the main thread and the physics thread do not use, unless
/// `LP_NUM_THREADS` is set already. By default llvmpipe starts one thread per core; on two
/// cores its two threads then took turns with the main and physics threads, and rasterizing
/// on the main thread itself (0 threads) was faster: the 10k field in the window ran at 58.5
/// FPS against 50.3 over five interleaved runs each (and 64.9 against 59.2 over three).
/// Called before anything else starts a thread.
fn software_rasterizer_threads() {
    if std::env::var_os("LP_NUM_THREADS").is_none() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        std::env::set_var("LP_NUM_THREADS", cores.saturating_sub(2).to_string());
    }
}

fn window_conf(msaa: i32, (width, height): (i32, i32)) -> macroquad::conf::Conf {
    macroquad::conf::Conf {
        miniquad_conf: macroquad::miniquad::conf::Conf {
            window_title: "Collision Math Toy".to_string(),
            window_width: width,
            window_height: height,
            window_resizable: true,
            // Sharp on high-DPI screens: the framebuffer at the screen's own resolution, with
            // everything laid out in logical pixels (`screen.rs`).
            high_dpi: true,
            sample_count: msaa.clamp(1, 16),
            ..Default::default()
        },
        // Room for one ball mesh (16,383 quads) per draw call; see sprites.rs.
        draw_call_vertex_capacity: 4 * sprites::MAX_QUADS + 4,
        draw_call_index_capacity: 6 * sprites::MAX_QUADS + 6,
        ..Default::default()
    }
}

/// `--headless --frames N`: N frames of 1/60 s through the same stepper and the recorder,
/// no window.
fn run_headless(
    args: &cli::Args,
    (source, _, mut world): (tape::Source, collide::Scene, collide::World),
) {
    let frames = args.frames.unwrap_or(0);
    let mut tape = source.tape(&world);
    let mut stepper = collide::Stepper::default();
    let start = Instant::now();
    let mut last = cli::LastFrames::default();
    let mut progress = Progress::new(frames);
    // Only a run that writes its sound takes the world's impacts (taking them changes nothing
    // of the simulation either way).
    let mut sound = args.sound_out.as_ref().map(|_| {
        let mut s = sound::Sound::new(args.mute, sound::DEFAULT_VOLUME);
        s.record();
        s
    });
    for frame in 0..frames {
        let t = Instant::now();
        stepper.advance_with(1.0 / 60.0, &mut world, |w| tape.step(w));
        last.push(t.elapsed().as_secs_f64() * 1000.0);
        if let Some(s) = &mut sound {
            let hits: Vec<_> = world.drain_hits().collect();
            s.hear(&world, &hits, 1.0);
        }
        progress.tell(frame + 1, last.mean());
    }
    let secs = start.elapsed().as_secs_f64();
    let fps = if secs > 0.0 {
        frames as f64 / secs
    } else {
        0.0
    };
    let ms = secs * 1000.0 / frames.max(1) as f64;
    println!("{}", cli::summary(frames, &world, fps, (ms, last.mean())));
    let sound_written = match (&sound, &args.sound_out) {
        (Some(s), Some(path)) => s.write_wav(path),
        _ => Ok(()),
    };
    let written = tape::write_outputs(args, &source, &mut tape, &world);
    if let Err(e) = written.and(sound_written) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}

/// A run that takes a while says how far it is on stderr, every [`Progress::EVERY`] seconds,
/// so a long run is never silent (stdout keeps its one summary line).
struct Progress {
    frames: u64,
    start: Instant,
    last: Instant,
}

impl Progress {
    const EVERY: f64 = 2.0;

    fn new(frames: u64) -> Self {
        let now = Instant::now();
        Progress {
            frames,
            start: now,
            last: now,
        }
    }

    /// After frame `done`, whose recent physics took `ms` ms a frame.
    fn tell(&mut self, done: u64, ms: f64) {
        if done < self.frames && self.last.elapsed().as_secs_f64() >= Self::EVERY {
            self.last = Instant::now();
            eprintln!(
                "frame {done} of {}: physics {ms:.1} ms a frame, {:.0} s so far",
                self.frames,
                self.start.elapsed().as_secs_f64()
            );
        }
    }
}
