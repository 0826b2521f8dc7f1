//! Collision Math Toy: the desktop app. A thin shell over the `collide` library: window,
//! input, panels and drawing. See README.md.

mod app;
mod bench;
mod bench_chart;
mod chart;
mod check;
mod cli;
mod draw;
mod editor;
mod energy;
mod experiment_ui;
mod fx;
mod input;
mod panel;
mod pinball;
mod scene_draw;
mod scene_ui;
mod sprites;
mod view;

use clap::Parser;
use std::time::Instant;

fn main() {
    let args = cli::Args::parse();
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
    if args.headless {
        run_headless(&args, &scene);
        return;
    }
    if cfg!(target_os = "linux")
        && std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
    {
        eprintln!("error: no display to open a window on (DISPLAY is not set); use --headless --frames N to run without one");
        std::process::exit(1);
    }
    macroquad::Window::from_config(window_conf(args.msaa), app::run(args, scene));
}

fn window_conf(msaa: i32) -> macroquad::conf::Conf {
    macroquad::conf::Conf {
        miniquad_conf: macroquad::miniquad::conf::Conf {
            window_title: "Collision Math Toy".to_string(),
            window_width: 1280,
            window_height: 800,
            window_resizable: true,
            sample_count: msaa.clamp(1, 16),
            ..Default::default()
        },
        // Room for one ball mesh (16,383 quads) per draw call; see sprites.rs.
        draw_call_vertex_capacity: 4 * sprites::MAX_QUADS + 4,
        draw_call_index_capacity: 6 * sprites::MAX_QUADS + 6,
        ..Default::default()
    }
}

/// `--headless --frames N`: N frames of 1/60 s through the same stepper, no window.
fn run_headless(args: &cli::Args, scene: &collide::Scene) {
    let frames = args.frames.unwrap_or(0);
    let mut world = app::new_world(args, scene);
    let mut stepper = collide::Stepper::default();
    let start = Instant::now();
    for _ in 0..frames {
        stepper.advance(1.0 / 60.0, &mut world);
    }
    let secs = start.elapsed().as_secs_f64();
    let fps = if secs > 0.0 {
        frames as f64 / secs
    } else {
        0.0
    };
    let ms = secs * 1000.0 / frames.max(1) as f64;
    println!("{}", cli::summary(frames, &world, fps, ms));
}
