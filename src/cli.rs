//! The command line.

use clap::Parser;
use collide::{BroadKind, Scene, SceneError};
use std::path::PathBuf;

/// The table scene, embedded so the toy runs from a bare binary.
pub const TABLE_RON: &str = include_str!("../assets/scenes/table.ron");

/// Collision Math Toy: balls, a table of shapes, and every broad phase, measured honestly.
#[derive(Parser, Debug, Clone)]
#[command(version, about)]
pub struct Args {
    /// Scene file (RON) to load instead of the built-in table.
    #[arg(long, value_name = "FILE")]
    pub scene: Option<PathBuf>,
    /// Seed of the world's random numbers (launch spread, ball colours).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Balls to launch at the start.
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub launch: u32,
    /// Fill the table with N balls at random places at the start (see the Fill control).
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub fill: u32,
    /// Largest radius of the --fill balls (px); radii are uniform in 0.7×R..=R, smaller when
    /// N would not fit.
    #[arg(long = "fill-radius", default_value_t = 3.0, value_name = "R")]
    pub fill_radius: f32,
    /// Broad phase to start with.
    #[arg(long = "broad-phase", value_name = "NAME", default_value = "brute", value_parser = parse_broad)]
    pub broad_phase: BroadKind,
    /// Run N frames (each advancing the simulation 1/60 s), print a summary line and exit.
    #[arg(long, value_name = "N")]
    pub frames: Option<u64>,
    /// With --frames: write a screenshot of the last frame to this PNG file.
    #[arg(long, value_name = "FILE.png", requires = "frames")]
    pub screenshot: Option<PathBuf>,
    /// With --frames: simulate without opening a window.
    #[arg(long, requires = "frames")]
    pub headless: bool,
    /// Multisampling for smooth edges (1 = off). 4 is free on a real GPU but costly in
    /// software rendering, hence off by default.
    #[arg(long, default_value_t = 1, value_name = "SAMPLES")]
    pub msaa: i32,
    /// Start with kinematic shapes turning.
    #[arg(long)]
    pub rotate: bool,
}

fn parse_broad(s: &str) -> Result<BroadKind, String> {
    BroadKind::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = BroadKind::ALL.iter().map(|k| k.name()).collect();
        format!("unknown broad phase {s:?}; one of: {}", names.join(", "))
    })
}

/// The scene named on the command line, or the built-in table.
pub fn load_scene(args: &Args) -> Result<Scene, SceneError> {
    match &args.scene {
        Some(path) => Scene::load(path),
        None => Scene::parse(TABLE_RON, "table (built in)"),
    }
}

/// Nanoseconds since the first call: the clock the world times its broad phase with.
pub fn nanos() -> u64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// The one line printed after `--frames`.
pub fn summary(frames: u64, world: &collide::World, fps: f64, physics_ms: f64) -> String {
    let c = world.counters();
    format!(
        "frames={frames} balls={} strays={} overlaps={} aabb_tests={} broad={} fps={fps:.1} physics_ms={physics_ms:.3} hash={:016x}",
        world.balls().len(),
        c.strays,
        c.overlaps,
        c.total.broad.aabb_tests,
        world.broad().kind().name(),
        world.state_hash()
    )
}
