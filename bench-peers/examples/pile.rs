//! The box pile, the toy's soft contacts and rapier2d side by side, interleaved second by
//! second: an open box of three segments (880 × 670 px), gravity 400 px/s², N balls of
//! radius 2.1–3 px on the fill's seeded jittered grid at up to 50 px/s, restitution 0,
//! friction 0.6, frames of 1/60 s (the toy: 4 sub-steps; rapier: its defaults, in pixel
//! units), one thread each unless `--threads` (the toy's), the toy with the grid broad phase.
//!
//! ```text
//! cargo run --release --manifest-path bench-peers/Cargo.toml --example pile -- \
//!     [--balls 10000] [--seconds 20] [--engines toy,rapier] [--seed 1] \
//!     [--iterations K] [--hertz HZ] [--push PX_PER_S] [--threads N] [--trace] [--once-a-frame]
//! ```
//!
//! `--once-a-frame`: the toy finds its contacts once a frame instead of at every sub-step
//! (`SoftSettings::once_a_frame`, off by default).
//!
//! Prints, per engine, a line a simulated second with `--trace` (physics ms a frame over that
//! second, mean and worst overlap of the touching pairs as a fraction of the smaller radius,
//! awake balls, balls out of the box, the balls' rms and largest speed), then a summary: physics a frame over the first 5 s,
//! when 90 % first were asleep, the overlap at the end, balls lost. Both engines start from
//! the same balls and are measured from their positions the same way.

use collide::{BroadKind, Scene, World};
use rapier2d::prelude::*;
use std::time::Instant;

const SCENE: &str = "scenes/pile.ron";
const WIDTH: f32 = 880.0;

struct Args {
    balls: u32,
    seconds: u32,
    engines: Vec<String>,
    seed: u64,
    iterations: Option<u32>,
    hertz: Option<f32>,
    threads: usize,
    push: Option<f32>,
    trace: bool,
    once_a_frame: bool,
}

fn args() -> Args {
    let mut a = Args {
        balls: 10_000,
        seconds: 20,
        engines: vec!["toy".into(), "rapier".into()],
        seed: 1,
        iterations: None,
        hertz: None,
        threads: 1,
        push: None,
        trace: false,
        once_a_frame: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--balls" => a.balls = value().parse().expect("--balls N"),
            "--seconds" => a.seconds = value().parse().expect("--seconds S"),
            "--engines" => a.engines = value().split(',').map(String::from).collect(),
            "--seed" => a.seed = value().parse().expect("--seed N"),
            "--iterations" => a.iterations = Some(value().parse().expect("--iterations K")),
            "--hertz" => a.hertz = Some(value().parse().expect("--hertz HZ")),
            "--push" => a.push = Some(value().parse().expect("--push PX_PER_S")),
            "--threads" => a.threads = value().parse().expect("--threads N"),
            "--trace" => a.trace = true,
            "--once-a-frame" => a.once_a_frame = true,
            other => panic!("unknown flag {other}"),
        }
    }
    a
}

/// A ball as both engines see it: centre (px), velocity (px/s), radius (px).
#[derive(Clone, Copy)]
struct Disc {
    pos: [f32; 2],
    vel: [f32; 2],
    r: f32,
}

/// One engine under test.
trait Engine {
    fn frame(&mut self);
    fn discs(&self) -> Vec<Disc>;
    fn awake(&self) -> usize;
}

struct Toy(World);

impl Engine for Toy {
    fn frame(&mut self) {
        for _ in 0..self.0.steps_per_second() / 60 {
            self.0.step();
        }
    }
    fn discs(&self) -> Vec<Disc> {
        let disc = |b: &collide::Ball| Disc {
            pos: b.pos.into(),
            vel: b.vel.into(),
            r: b.radius,
        };
        self.0.balls().iter().map(disc).collect()
    }
    fn awake(&self) -> usize {
        self.0.balls().len() - self.0.asleep_count()
    }
}

struct Rapier {
    world: PhysicsWorld,
    balls: Vec<(RigidBodyHandle, f32)>,
}

impl Rapier {
    fn new(discs: &[Disc], gravity: f32) -> Self {
        let mut world = PhysicsWorld {
            gravity: Vector::new(0.0, -gravity),
            ..PhysicsWorld::default()
        };
        let wall = |a: (f32, f32), b: (f32, f32)| {
            ColliderBuilder::segment(Vector::new(a.0, a.1), Vector::new(b.0, b.1))
                .friction(0.6)
                .restitution(0.0)
        };
        world.insert_collider(wall((0.0, 0.0), (WIDTH, 0.0)), None);
        world.insert_collider(wall((0.0, 0.0), (0.0, 670.0)), None);
        world.insert_collider(wall((WIDTH, 0.0), (WIDTH, 670.0)), None);
        let balls = discs
            .iter()
            .map(|d| {
                let body = RigidBodyBuilder::dynamic()
                    .translation(Vector::new(d.pos[0], d.pos[1]))
                    .linvel(Vector::new(d.vel[0], d.vel[1]));
                let ball = ColliderBuilder::ball(d.r).friction(0.6).restitution(0.0);
                (world.insert(body, ball).0, d.r)
            })
            .collect();
        Self { world, balls }
    }
}

impl Engine for Rapier {
    fn frame(&mut self) {
        self.world.step();
    }
    fn discs(&self) -> Vec<Disc> {
        let disc = |&(h, r): &(RigidBodyHandle, f32)| {
            let b = &self.world.bodies[h];
            Disc {
                pos: [b.translation().x, b.translation().y],
                vel: [b.linvel().x, b.linvel().y],
                r,
            }
        };
        self.balls.iter().map(disc).collect()
    }
    fn awake(&self) -> usize {
        let awake = |(h, _): &&(RigidBodyHandle, f32)| !self.world.bodies[*h].is_sleeping();
        self.balls.iter().filter(awake).count()
    }
}

/// Mean and worst overlap of the touching pairs (ball pairs by a sweep along x, each ball
/// against the floor and the two walls), as fractions of the smaller radius; balls whose
/// centre left the box (below the floor, beside a wall).
fn measure(discs: &[Disc]) -> (f64, f32, usize) {
    let mut order: Vec<usize> = (0..discs.len()).collect();
    order.sort_by(|&i, &j| discs[i].pos[0].total_cmp(&discs[j].pos[0]));
    let (mut sum, mut worst, mut pairs) = (0.0f64, 0.0f32, 0u64);
    let mut add = |depth: f32, r: f32| {
        sum += f64::from(depth / r);
        worst = worst.max(depth / r);
        pairs += 1;
    };
    for (n, &i) in order.iter().enumerate() {
        let a = discs[i];
        for &j in &order[n + 1..] {
            let b = discs[j];
            if b.pos[0] - a.pos[0] > a.r + b.r {
                break;
            }
            let d = ((a.pos[0] - b.pos[0]).powi(2) + (a.pos[1] - b.pos[1]).powi(2)).sqrt();
            if d < a.r + b.r {
                add(a.r + b.r - d, a.r.min(b.r));
            }
        }
        for gap in [a.pos[1], a.pos[0], WIDTH - a.pos[0]] {
            if gap < a.r {
                add(a.r - gap, a.r);
            }
        }
    }
    let lost = discs
        .iter()
        .filter(|d| d.pos[1] < 0.0 || d.pos[0] < 0.0 || d.pos[0] > WIDTH)
        .count();
    (sum / pairs.max(1) as f64, worst, lost)
}

/// The balls' root-mean-square and largest speed (px/s).
fn speeds(discs: &[Disc]) -> (f64, f32) {
    let sq = |d: &Disc| d.vel[0] * d.vel[0] + d.vel[1] * d.vel[1];
    let sum: f64 = discs.iter().map(|d| f64::from(sq(d))).sum();
    let max = discs.iter().map(sq).fold(0.0f32, f32::max);
    ((sum / discs.len().max(1) as f64).sqrt(), max.sqrt())
}

/// What one engine did over the run.
#[derive(Default)]
struct Run {
    ms_first_5s: Vec<f64>,
    asleep_90: Option<u32>,
    end: (f64, f32, usize),
}

fn main() {
    let a = args();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SCENE);
    let scene = Scene::load(&path).expect("the pile scene loads");
    let toy = || {
        let mut w = scene.clone().with_fill_count(a.balls).build(a.seed);
        w.set_broad_phase(BroadKind::Grid); // as the app's Fill of more than 1,000 balls
        w.edit_settings(|s| {
            if let Some(k) = a.iterations {
                s.collision_iterations = k;
            }
            s.soft.hertz = a.hertz.unwrap_or(s.soft.hertz);
            s.soft.push_speed = a.push.unwrap_or(s.soft.push_speed);
            s.threads = a.threads;
            s.soft.once_a_frame = a.once_a_frame;
        });
        Toy(w)
    };
    let start = toy();
    let gravity = start.0.settings().gravity;
    let discs = start.discs();
    let mut engines: Vec<(String, Box<dyn Engine>, Run)> = Vec::new();
    for name in &a.engines {
        let e: Box<dyn Engine> = match name.as_str() {
            "toy" => Box::new(toy()),
            "rapier" => Box::new(Rapier::new(&discs, gravity)),
            other => panic!("unknown engine {other} (toy, rapier)"),
        };
        engines.push((name.clone(), e, Run::default()));
    }
    println!("{} balls, {} s, seed {}", discs.len(), a.seconds, a.seed);
    for second in 1..=a.seconds {
        for (name, e, run) in &mut engines {
            let t = Instant::now();
            for _ in 0..60 {
                e.frame();
            }
            let ms = t.elapsed().as_secs_f64() * 1000.0 / 60.0;
            if second <= 5 {
                run.ms_first_5s.push(ms);
            }
            let awake = e.awake();
            if run.asleep_90.is_none() && awake * 10 <= discs.len() {
                run.asleep_90 = Some(second);
            }
            run.end = measure(&e.discs());
            if a.trace {
                let (mean, worst, lost) = run.end;
                let (rms, fastest) = speeds(&e.discs());
                println!(
                    "{name:>6} t={second:>2} s  physics {ms:6.2} ms/frame  overlap mean {:.2} % \
                     worst {:.1} %  awake {awake:>6}  lost {lost}  speed rms {rms:.2} max {fastest:.1} px/s",
                    mean * 100.0,
                    worst * 100.0
                );
            }
        }
    }
    for (name, _, run) in &engines {
        let first5 = run.ms_first_5s.iter().sum::<f64>() / run.ms_first_5s.len().max(1) as f64;
        let asleep = run.asleep_90.map_or("never".into(), |s| format!("{s} s"));
        let (mean, worst, lost) = run.end;
        println!(
            "{name:>6}: physics {first5:.2} ms/frame over the first 5 s; 90 % asleep: {asleep}; \
             overlap at the end mean {:.2} % worst {:.1} %; lost {lost}",
            mean * 100.0,
            worst * 100.0
        );
    }
}
