//! Collision Math Toy: the desktop app. A thin shell over the `collide` library: window,
//! input, panels and drawing. See README.md.

// First, so that in a browser its `println!` and `eprintln!` (into the page) are the ones
// the modules below use.
#[cfg(any(test, target_arch = "wasm32"))]
#[macro_use]
mod web;

mod advice;
mod app;
mod cli;
mod clock;
mod commands;
mod editor;
mod keymap;
mod message;
mod param_rules;
mod platform;
mod prefs;
mod render;
mod sound;
mod start;
mod state;
mod tour;
mod ui;

#[cfg(not(target_arch = "wasm32"))]
use clap::Parser;
use render::{screen, sprites};

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    run(cli::Args::parse());
}

/// In a browser: the flags from the URL's parameters (`web/args.rs`); a refusal is shown in
/// the page, and nothing runs.
#[cfg(target_arch = "wasm32")]
fn main() {
    if let Some(args) = web::args() {
        run(args);
    }
}

/// The run the flags ask for: a subcommand, `--replay`, `--headless` or the window.
fn run(mut args: cli::Args) {
    let prefs = prefs::Prefs::for_run(&args);
    use_last_scene(&mut args, &prefs);
    if tour_answered(&args) {
        return;
    }
    let scene = match cli::load_scene(&args) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            platform::exit(2);
        }
    };
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(cli::Command::Bench(bench_args)) = &args.command {
        platform::exit(commands::bench::run(bench_args, &scene));
    }
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(cli::Command::Check(check_args)) = &args.command {
        platform::exit(commands::check::run(check_args));
    }
    #[cfg(target_arch = "wasm32")]
    if let Some(cli::Command::Check(check_args)) = &args.command {
        platform::exit(web::check::run(check_args));
    }
    if let Some(path) = &args.replay {
        platform::exit(commands::replay::run(path));
    }
    // A WAV that cannot be written is refused before the run, not after it.
    if let Some(path) = &args.sound_out {
        if let Err(e) = std::fs::File::create(path) {
            eprintln!("error: {}: cannot write the sound: {e}", path.display());
            platform::exit(2);
        }
    }
    let start = match start::start(&args, &scene) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            platform::exit(2);
        }
    };
    if args.headless {
        commands::headless::run(&args, start);
        return;
    }
    require_display();
    #[cfg(not(target_arch = "wasm32"))]
    software_rasterizer_threads();
    screen::force(screen::forced_from(args.scale));
    macroquad::Window::from_config(
        window_conf(args.msaa, window_size(&prefs)),
        app::frame::run(args, start, prefs),
    );
}

/// With no scene, state or replay named, the scene of the last run, unless it no longer loads
/// (then the table, with a warning).
fn use_last_scene(args: &mut cli::Args, prefs: &prefs::Prefs) {
    if args.scene.is_none() && args.state.is_none() && args.replay.is_none() {
        args.scene = prefs.last_scene.as_ref().map(Into::into);
        if args.scene.is_some() && cli::load_scene(args).is_err() {
            let name = args.scene.as_deref().unwrap_or_else(|| "?".as_ref());
            let why = match cfg!(target_arch = "wasm32") {
                true => " (a file chosen in the browser is not kept from one visit to the next)",
                false => "",
            };
            platform::notice(&format!(
                "warning: the last scene, {}, did not load{why}; the table instead",
                name.display()
            ));
            args.scene = None;
        }
    }
}

/// `--tour list` prints the tours and answers the run (true: nothing else runs); a number
/// outside the list never gets here (the parser refuses it with the range).
fn tour_answered(args: &cli::Args) -> bool {
    if let Some(cli::TourArg::List) = args.tour {
        platform::show_text(&tour::list_text());
        return true;
    }
    false
}

/// On Linux, a window needs a display: without one the program ends with status 1 and says
/// how to run headless.
fn require_display() {
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        eprintln!("error: no display to open a window on (DISPLAY is not set); use --headless --frames N to run without one");
        platform::exit(1);
    }
}

/// The window's size (logical px): the one remembered, or the default grown by a forced scale
/// (so it shows as much) when none other was remembered. Read after the scale is forced.
fn window_size(prefs: &prefs::Prefs) -> (i32, i32) {
    if prefs.window == prefs::Prefs::default().window {
        let f = screen::forced();
        (
            (prefs.window.0 as f32 * f) as i32,
            (prefs.window.1 as f32 * f) as i32,
        )
    } else {
        prefs.window
    }
}

/// Leaves Mesa's software rasterizer (llvmpipe: a virtual display, or no GPU; a GPU driver
/// ignores this) only the cores that the main thread and the physics thread do not use, unless
/// `LP_NUM_THREADS` is set already: by default llvmpipe starts a thread per core, and threads
/// taking turns with the main and physics threads on the same cores slow the frame down more
/// than rasterizing on the main thread does. Called before anything else starts a thread.
#[cfg(not(target_arch = "wasm32"))]
fn software_rasterizer_threads() {
    if std::env::var_os("LP_NUM_THREADS").is_none() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        std::env::set_var("LP_NUM_THREADS", cores.saturating_sub(2).to_string());
    }
}

fn window_conf(msaa: i32, size: (i32, i32)) -> macroquad::conf::Conf {
    let (width, height) = size;
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
