//! The command line.

use clap::Parser;
use collide::{BroadKind, Scene, SceneError, Solver, Tunnelling};
use std::path::PathBuf;

/// The built-in scenes by name, in the order of the number keys and the panel's list (the
/// library's, embedded so the toy runs from a bare binary).
pub const BUILT_IN: &[(&str, &str)] = collide::scene::BUILTIN;
/// The table scene's text (the first built-in scene), for the tests.
#[cfg(test)]
pub const TABLE_RON: &str = BUILT_IN[0].1;

/// Collision Math Toy: balls, a table of shapes, and every broad phase, measured honestly.
#[derive(Parser, Debug, Clone)]
#[command(version, about)]
pub struct Args {
    /// Scene to load: a built-in one by name (table, lab, pinball, cradle, pool, rain, field) or a
    /// file (RON). Default: table.
    #[arg(long, value_name = "NAME|FILE")]
    pub scene: Option<PathBuf>,
    /// How moving balls are tested: off (discrete), linear, binary or exact.
    #[arg(long, value_name = "MODE", default_value = "off", value_parser = parse_tunnelling)]
    pub tunnelling: Tunnelling,
    /// Contact solver: push-out (the course's; default unless the scene chooses, or a --fill
    /// of more than 1,000 balls takes soft) or soft (soft contacts, as Box2D v3).
    #[arg(long, value_name = "NAME", value_parser = parse_solver)]
    pub solver: Option<Solver>,
    /// Balls fall asleep when still: on or off (default: on with soft contacts, off with
    /// push-out, unless the scene chooses).
    #[arg(long, value_name = "on|off", value_parser = parse_on_off)]
    pub sleep: Option<bool>,
    /// Threads the step runs on (the grid's pair search from 8,192 balls; the soft contacts' narrow phase, preparing, passes
    /// and move; 1-64; default: the machine's cores, at most 8): the same simulation on any number,
    /// only faster (the summary line names the count when it is more than 1).
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_threads)]
    pub threads: Option<u32>,
    /// Balls in play from which a step uses its threads (default 4096: below it one thread
    /// is faster; 0 always uses them).
    #[arg(long, value_name = "BALLS", allow_negative_numbers = true, value_parser = parse_parallel_from)]
    pub parallel_from: Option<u32>,
    /// Seed of the world's random numbers (launch spread, ball colours).
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = parse_seed)]
    pub seed: u64,
    /// Balls to launch at the start (0-1000, as the Launch count).
    #[arg(long, default_value_t = 0, value_name = "N", allow_negative_numbers = true, value_parser = parse_launch)]
    pub launch: u32,
    /// Fill the table with N balls at random places at the start (0-100000, as the Fill
    /// slider); in a scene that fills itself (rain, field), the number of its balls instead.
    #[arg(long, default_value_t = 0, value_name = "N", allow_negative_numbers = true, value_parser = parse_fill)]
    pub fill: u32,
    /// Largest radius of the --fill balls (px, 0.5-20); radii are uniform in 0.7×R..=R,
    /// smaller when N would not fit.
    #[arg(long = "fill-radius", default_value_t = 3.0, value_name = "R", allow_negative_numbers = true, value_parser = parse_fill_radius)]
    pub fill_radius: f32,
    /// Broad phase to start with. Default: brute force, or the grid when the start has more
    /// balls than brute force handles quickly (a large --fill, or rain and field).
    #[arg(long = "broad-phase", value_name = "NAME", value_parser = parse_broad)]
    pub broad_phase: Option<BroadKind>,
    /// Run N frames (each advancing the simulation 1/60 s), print a summary line and exit.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = parse_frames)]
    pub frames: Option<u64>,
    /// With --frames: write a screenshot of the last frame to this PNG file.
    #[arg(long, value_name = "FILE.png", requires = "frames")]
    pub screenshot: Option<PathBuf>,
    /// With --frames: simulate without opening a window.
    #[arg(long, requires = "frames")]
    pub headless: bool,
    /// Multisampling for smooth edges (1 = off, up to 16). 4 is free on a real GPU but costly
    /// in software rendering, hence off by default.
    #[arg(long, default_value_t = 1, value_name = "SAMPLES", allow_negative_numbers = true, value_parser = parse_msaa)]
    pub msaa: i32,
    /// How the balls and panels are drawn: auto (from the GL renderer: software for
    /// llvmpipe, softpipe and swrast, else gpu), gpu (balls as batched quads, panels every
    /// frame) or software (small balls drawn on the CPU into one image, panels kept between
    /// refreshes).
    #[arg(long, value_name = "auto|gpu|software", default_value = "auto", value_parser = parse_renderer)]
    pub renderer: RendererChoice,
    /// Pixels per point on top of the screen's own scale (1-4): 2 draws everything twice as
    /// large and sharp, as on a high-DPI screen (also the CMT_SCALE environment variable).
    #[arg(long, value_name = "FACTOR", allow_negative_numbers = true, value_parser = parse_scale)]
    pub scale: Option<f32>,
    /// Start with the sound muted (also the Mute checkbox and the M key).
    #[arg(long)]
    pub mute: bool,
    /// With --frames: write the sound of the run's impacts, synthesised on simulated time, to
    /// this WAV file (16-bit mono, 44.1 kHz).
    #[arg(long = "sound-out", value_name = "FILE.wav", requires = "frames")]
    pub sound_out: Option<PathBuf>,
    /// Overlays to show at start, comma separated: hit-points, tracks, tangents, aabbs,
    /// reticles, velocity, sectors, lights, sweeps, heat (the broad phase's places coloured
    /// by their tests), probe (what the broad phase did for the ball under the pointer),
    /// impulses (soft contacts drawn by their impulse), colours (the same, coloured by the
    /// solver's constraint colours), islands (the same, coloured by island).
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = parse_overlay)]
    pub show: Vec<String>,
    /// Start with kinematic shapes turning.
    #[arg(long)]
    pub rotate: bool,
    /// Ask the broad phase every collision iteration instead of keeping its pairs between
    /// iterations (the simulation is the same; only the work and its counters differ).
    #[arg(long = "no-pair-cache")]
    pub no_pair_cache: bool,
    /// Start in the scene editor (F2 or Done leaves it and plays the edited scene).
    #[arg(long, conflicts_with = "headless")]
    pub edit: bool,
    /// Replay a recording headless: print the summary line and the verdict, exit 0 when
    /// every checkpoint hash matched, 1 on a divergence, 2 on a bad file.
    #[arg(long, value_name = "FILE.ron")]
    pub replay: Option<PathBuf>,
    /// Start from a saved state (a file written by Save state or --save-state) instead of a
    /// scene; --scene, --seed, --launch and --fill are then ignored.
    #[arg(long, value_name = "FILE.ron")]
    pub state: Option<PathBuf>,
    /// With --frames: write the recording of the run to this file at the end.
    #[arg(long, value_name = "FILE.ron", requires = "frames")]
    pub record: Option<PathBuf>,
    /// With --frames: write the state at the end to this file.
    #[arg(long = "save-state", value_name = "FILE.ron", requires = "frames")]
    pub save_state: Option<PathBuf>,
    /// Forget the saved settings (overlays, iterations, last scene, window size) and start
    /// with the defaults.
    #[arg(long = "reset-settings")]
    pub reset_settings: bool,
    /// Start set up for experiment N of Things to try (F3), or `list` to print them.
    #[arg(long, value_name = "N|list", allow_negative_numbers = true, value_parser = parse_tour)]
    pub tour: Option<TourArg>,
    /// A subcommand instead of the window.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Subcommands.
#[derive(clap::Subcommand, Debug, Clone)]
pub enum Command {
    /// Run an experiment headless: print a table, write CSV and a PNG chart.
    Bench(BenchArgs),
    /// Run the checks of what the toy promises and print a table: check, cases tried,
    /// failures, worst figure seen. Exit status 1 if any check failed.
    Check(CheckArgs),
}

/// `check` options.
#[derive(clap::Args, Debug, Clone)]
pub struct CheckArgs {
    /// Run at the size of the tests (`cargo test`) instead of the full size.
    #[arg(long)]
    pub quick: bool,
    /// Run only the checks whose name contains this (no-nan, energy, restitution,
    /// determinism, containment, soak, kernels, bad-files; in a page, kernels only).
    #[arg(long, value_name = "NAME")]
    pub only: Option<String>,
}

/// The experiments of `bench`.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Experiment {
    /// The 1994 sector harness: complete checks per second, four shifts vs adjacent sectors.
    Sectors,
    /// Fig. 26-28 of the toy: AABB tests per iteration for 2-32 balls on the table.
    Quadtree,
    /// Uniform random balls, 1k-1M: build-plus-all-pairs time.
    Scale,
}

/// `bench` options.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Which experiment.
    #[arg(value_enum)]
    pub experiment: Experiment,
    /// Directory for the CSV and PNG files (created if missing).
    #[arg(long, value_name = "DIR", default_value = "bench-out")]
    pub out: PathBuf,
    /// quadtree: simulated seconds measured per run.
    #[arg(long, default_value_t = 60, value_name = "S")]
    pub seconds: u32,
    /// quadtree: fewest balls.
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub min_balls: u32,
    /// quadtree: most balls.
    #[arg(long, default_value_t = 32, value_name = "N")]
    pub max_balls: u32,
    /// quadtree: gravity (px/s²); 0 as on the original table, seen from above.
    #[arg(long, default_value_t = 0.0, value_name = "PX_PER_S2")]
    pub gravity: f32,
    /// scale: largest ball count run (1000, 10000, 100000, 1000000 up to this).
    #[arg(long, default_value_t = 1_000_000, value_name = "N")]
    pub max_n: usize,
    /// sectors: random layouts (timed batches of 50 complete checks) per count.
    #[arg(long, default_value_t = 40, value_name = "N")]
    pub layouts: u32,
}

/// Most balls `--fill` and the Fill slider ask for.
pub const MAX_FILL: u32 = 100_000;

/// Which drawing path `--renderer` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RendererChoice {
    /// From the GL renderer string.
    Auto,
    /// Batched quads and egui every frame.
    Gpu,
    /// The CPU-drawn image of small balls and the kept panels.
    Software,
}

fn parse_renderer(s: &str) -> Result<RendererChoice, String> {
    match s {
        "auto" => Ok(RendererChoice::Auto),
        "gpu" => Ok(RendererChoice::Gpu),
        "software" => Ok(RendererChoice::Software),
        _ => Err(format!(
            "unknown renderer {s:?}; one of: auto, gpu, software"
        )),
    }
}

/// A number in `lo..=hi`, or a message naming the range.
fn parse_in(s: &str, lo: f32, hi: f32) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        Ok(_) => Err(format!("{s} is not in {lo}..={hi}")),
        Err(_) => Err(format!("{s:?} is not a number (allowed: {lo}..={hi})")),
    }
}

/// A whole number in `lo..=hi`, or a message naming the range in the words of [`parse_in`]
/// (a number written otherwise, `1e9` or `2.5`, is "not a whole number in" it).
fn parse_whole(s: &str, lo: i128, hi: i128) -> Result<i128, String> {
    match s.parse::<i128>() {
        Ok(v) if (lo..=hi).contains(&v) => Ok(v),
        Ok(_) => Err(format!("{s} is not in {lo}..={hi}")),
        Err(_) if s.parse::<f64>().is_ok() => {
            Err(format!("{s} is not a whole number in {lo}..={hi}"))
        }
        Err(_) => Err(format!("{s:?} is not a number (allowed: {lo}..={hi})")),
    }
}

// Each cast below is exact: `parse_whole` returned a number inside the type's range.

fn parse_threads(s: &str) -> Result<u32, String> {
    parse_whole(s, 1, 64).map(|v| v as u32)
}

fn parse_parallel_from(s: &str) -> Result<u32, String> {
    parse_whole(s, 0, u32::MAX as i128).map(|v| v as u32)
}

/// Threads when `--threads` is not given: the machine's cores, at most [`DEFAULT_THREADS_MAX`].
pub fn default_threads() -> u32 {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.min(DEFAULT_THREADS_MAX) as u32
}

/// Most threads a run takes unless told: beyond, the box pile's step gains little.
pub const DEFAULT_THREADS_MAX: usize = 8;

fn parse_seed(s: &str) -> Result<u64, String> {
    parse_whole(s, 0, u64::MAX as i128).map(|v| v as u64)
}

fn parse_launch(s: &str) -> Result<u32, String> {
    parse_whole(s, 0, 1000).map(|v| v as u32)
}

fn parse_fill(s: &str) -> Result<u32, String> {
    parse_whole(s, 0, MAX_FILL as i128).map(|v| v as u32)
}

fn parse_frames(s: &str) -> Result<u64, String> {
    parse_whole(s, 0, u64::MAX as i128).map(|v| v as u64)
}

fn parse_msaa(s: &str) -> Result<i32, String> {
    parse_whole(s, 1, 16).map(|v| v as i32)
}

fn parse_fill_radius(s: &str) -> Result<f32, String> {
    parse_in(s, 0.5, 20.0)
}

/// Scales from 1 to 4: the view and the panels stay usable in a window of 1280 × 800 px at 2.
pub fn parse_scale(s: &str) -> Result<f32, String> {
    parse_in(s, 1.0, 4.0)
}

fn parse_broad(s: &str) -> Result<BroadKind, String> {
    BroadKind::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = BroadKind::ALL.iter().map(|k| k.name()).collect();
        format!("unknown broad phase {s:?}; one of: {}", names.join(", "))
    })
}

/// The overlay names `--show` accepts.
pub const OVERLAYS: &[&str] = &[
    "hit-points",
    "tracks",
    "tangents",
    "aabbs",
    "reticles",
    "velocity",
    "sectors",
    "lights",
    "sweeps",
    "heat",
    "probe",
    "impulses",
    "colours",
    "islands",
];

fn parse_overlay(s: &str) -> Result<String, String> {
    if OVERLAYS.contains(&s) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "unknown overlay {s:?}; one of: {}",
            OVERLAYS.join(", ")
        ))
    }
}

/// What `--tour` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TourArg {
    /// Print the list and exit.
    List,
    /// Start set up for experiment `k` (from 0, always one of the list: the parser refuses
    /// the others).
    Start(usize),
}

/// `--tour`'s value: `list`, or the number of an experiment of Things to try, from 1 to the
/// length of the list.
pub fn parse_tour(s: &str) -> Result<TourArg, String> {
    if s == "list" {
        return Ok(TourArg::List);
    }
    let n = crate::tour::list().len() as i128;
    match parse_whole(s, 1, n) {
        Ok(k) => Ok(TourArg::Start(k as usize - 1)),
        Err(e) => Err(format!(
            "{e}, nor list (an experiment's number; --tour list prints them)"
        )),
    }
}

fn parse_solver(s: &str) -> Result<Solver, String> {
    Solver::from_name(s).ok_or_else(|| format!("unknown solver {s:?}; one of: push-out, soft"))
}

fn parse_on_off(s: &str) -> Result<bool, String> {
    match s {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("{s:?}: on or off")),
    }
}

fn parse_tunnelling(s: &str) -> Result<Tunnelling, String> {
    Tunnelling::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Tunnelling::ALL.iter().map(|m| m.name()).collect();
        format!(
            "unknown tunnelling mode {s:?}; one of: {}",
            names.join(", ")
        )
    })
}

/// The scene named on the command line as `(origin, text)`: a built-in one by name, else a
/// file; by default the built-in table.
pub fn scene_source(args: &Args) -> Result<(String, String), SceneError> {
    let name = args.scene.as_ref().map_or(Some("table"), |p| p.to_str());
    if let Some((n, text)) = BUILT_IN.iter().find(|(n, _)| Some(*n) == name) {
        return Ok((format!("{n} (built in)"), text.to_string()));
    }
    scene_file(args.scene.as_deref().expect("a path when not built in"))
}

/// A scene file named on the command line as `(origin, text)`; a name that is neither built
/// in nor a file is refused with the built-in names, a close match first.
fn scene_file(path: &std::path::Path) -> Result<(String, String), SceneError> {
    if !path.exists() {
        let name = path.display().to_string();
        return Err(SceneError::whole_file(
            &name,
            collide::scene::not_built_in(&name),
        ));
    }
    Scene::read(path)
}

/// The scene named on the command line: a built-in one by name, else a file; by default the
/// built-in table.
pub fn load_scene(args: &Args) -> Result<Scene, SceneError> {
    let name = args.scene.as_ref().map_or(Some("table"), |p| p.to_str());
    match BUILT_IN.iter().find(|(n, _)| Some(*n) == name) {
        Some((n, text)) => Scene::parse(text, &format!("{n} (built in)")),
        None => {
            let (origin, text) =
                scene_file(args.scene.as_deref().expect("a path when not built in"))?;
            Scene::parse(&text, &origin)
        }
    }
}

/// The one line printed after `--frames`; `physics_ms` is the mean physics time a frame over
/// the run, `physics_ms_last` over its last 60 frames. The library writes it, so the web page
/// prints the same text.
pub fn summary(frames: u64, world: &collide::World, fps: f64, physics_ms: (f64, f64)) -> String {
    let (mean, last) = physics_ms;
    collide::summary(frames, world, fps, mean, last)
}

/// The mean of the last (up to) 60 frame times kept by a run (ms).
#[derive(Clone, Debug, Default)]
pub struct LastFrames {
    ms: std::collections::VecDeque<f64>,
}

impl LastFrames {
    /// Notes one frame's physics time (ms).
    pub fn push(&mut self, ms: f64) {
        if self.ms.len() == 60 {
            self.ms.pop_front();
        }
        self.ms.push_back(ms);
    }

    /// Their mean (ms; 0 before any).
    pub fn mean(&self) -> f64 {
        self.ms.iter().sum::<f64>() / self.ms.len().max(1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_tour, TourArg};

    #[test]
    fn tour_takes_a_number_in_the_list_or_list() {
        let n = crate::tour::list().len();
        assert_eq!(parse_tour("list"), Ok(TourArg::List));
        assert_eq!(parse_tour("1"), Ok(TourArg::Start(0)));
        assert_eq!(parse_tour(&n.to_string()), Ok(TourArg::Start(n - 1)));
        let range = format!("1..={n}");
        for bad in ["0", "two", "-1", &(n + 1).to_string()] {
            let e = parse_tour(bad).unwrap_err();
            assert!(e.contains(&range) && e.contains("list"), "{e}");
        }
    }
}
