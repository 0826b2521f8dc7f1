//! The run: the table built as the desktop builds it for `--launch N` (seed 1, brute force,
//! no rotation, discrete tests, the pair cache on), stepped through the same recorder and
//! fixed-step accumulator, drawn each frame; after `frames` frames, the summary line.

use crate::params::Params;
use crate::{draw, page};
use collide::{BroadKind, Scene, Stepper, Tape, Tunnelling, World};
use macroquad::prelude::*;

/// The scene the first page shows (the desktop's default).
const SCENE: &str = "table";

/// The desktop's default seed (`--seed`).
const SEED: u64 = 1;

/// Most wall time a headless run spends stepping before it lets the browser draw (s).
const HEADLESS_SLICE: f64 = 0.05;

/// The world, its recorder and stepper, and the physics time spent so far.
struct Sim {
    world: World,
    tape: Tape,
    stepper: Stepper,
    frames: u64,
    physics_s: f64,
    last_ms: std::collections::VecDeque<f64>,
}

impl Sim {
    /// The table as `--launch N` builds it on the desktop.
    fn new(launch: u32) -> Result<Sim, String> {
        let text = collide::scene::builtin(SCENE).ok_or("the table is not built in")?;
        let origin = format!("{SCENE} (built in)");
        let scene = Scene::parse(text, &origin).map_err(|e| e.to_string())?;
        let mut world = scene.build(SEED);
        world.set_broad_phase(BroadKind::Brute);
        world.set_clock(page::nanos);
        world.edit_settings(|s| {
            s.rotate = false;
            s.tunnelling = Tunnelling::Off;
            s.pair_cache = true;
        });
        world.launch(launch);
        let tape = Tape::recording(&origin, text, SEED, &world);
        Ok(Sim {
            world,
            tape,
            stepper: Stepper::default(),
            frames: 0,
            physics_s: 0.0,
            last_ms: Default::default(),
        })
    }

    /// One frame of `seconds` of simulated time.
    fn frame(&mut self, seconds: f64) {
        let t = page::seconds();
        let (world, tape) = (&mut self.world, &mut self.tape);
        self.stepper.advance_with(seconds, world, |w| tape.step(w));
        let spent = page::seconds() - t;
        self.physics_s += spent;
        if self.last_ms.len() == 60 {
            self.last_ms.pop_front();
        }
        self.last_ms.push_back(spent * 1000.0);
        self.frames += 1;
    }

    /// The desktop's summary line for the frames run so far.
    fn summary(&self) -> String {
        let fps = if self.physics_s > 0.0 {
            self.frames as f64 / self.physics_s
        } else {
            0.0
        };
        let mean_ms = self.physics_s * 1000.0 / self.frames.max(1) as f64;
        let last = self.last_ms.iter().sum::<f64>() / self.last_ms.len().max(1) as f64;
        collide::summary(self.frames, &self.world, fps, (mean_ms, last))
    }
}

/// Runs the page: headless to the summary line, or live (with a summary after `frames`).
pub async fn run(params: Params) {
    let mut sim = match Sim::new(params.launch) {
        Ok(s) => s,
        Err(e) => return page::error(&e),
    };
    match (params.headless, params.frames) {
        (true, Some(frames)) => headless(&mut sim, frames).await,
        _ => live(&mut sim, params.frames).await,
    }
    loop {
        draw::world(&sim.world, &format!("{} frames: done", sim.frames));
        next_frame().await;
    }
}

/// `frames` frames of 1/60 s each, as fast as they go, in slices between drawn frames.
async fn headless(sim: &mut Sim, frames: u64) {
    page::status(&format!("running {frames} frames headless ..."));
    let mut first = true;
    while sim.frames < frames {
        let start = page::seconds();
        while sim.frames < frames && page::seconds() - start < HEADLESS_SLICE {
            sim.frame(1.0 / 60.0);
        }
        draw::world(&sim.world, &format!("frame {} of {frames}", sim.frames));
        next_frame().await;
        if std::mem::take(&mut first) {
            page::first_frame();
        }
    }
    finish(sim);
}

/// Balls flying at the browser's frame rate; with `frames`, the summary after that many
/// (each 1/60 s of simulated time then, as the desktop's window run).
async fn live(sim: &mut Sim, frames: Option<u64>) {
    page::status("the table: balls launched from the lane at the bottom right");
    let mut first = true;
    loop {
        let dt = match frames {
            Some(_) => 1.0 / 60.0,
            None => get_frame_time() as f64,
        };
        sim.frame(dt);
        draw::world(&sim.world, &format!("{} balls", sim.world.balls().len()));
        next_frame().await;
        if std::mem::take(&mut first) {
            page::first_frame();
        }
        if frames == Some(sim.frames) {
            return finish(sim);
        }
    }
}

fn finish(sim: &Sim) {
    page::summary(&sim.summary());
    page::status(&format!("{} frames run", sim.frames));
}
