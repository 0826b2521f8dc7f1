//! One run of one scene: every contender (an engine on a thread count) made from the same
//! setup, then stepped in turn a simulated second at a time, so a machine whose speed drifts
//! slows all of them alike. Each frame is timed alone; between frames, untimed, the bench
//! counts the awake balls, and at the end of each second it measures the overlap and the
//! balls out.

use crate::box2d::Box2d;
use crate::engine::Engine;
use crate::measure::{measure, Overlap, Walls};
use crate::rapier::Rapier;
use crate::setup::{Plan, Setup};
use crate::toy::Toy;
use std::time::Instant;

/// An engine and the threads it runs on.
#[derive(Clone, Debug)]
pub struct Contender {
    /// `toy`, `box2d`, `box2d-builtin` or `rapier`.
    pub engine: String,
    /// Threads (Box2D's workers, the toy's and rapier's pool threads).
    pub threads: usize,
}

impl Contender {
    fn make(&self, setup: &Setup, trace: bool) -> Box<dyn Engine> {
        match self.engine.as_str() {
            "toy" => Box::new(Toy::new(setup, self.threads, trace)),
            "box2d" => Box::new(Box2d::new(setup, self.threads, true)),
            "box2d-builtin" => Box::new(Box2d::new(setup, self.threads, false)),
            "rapier" => Box::new(Rapier::new(setup, self.threads)),
            other => panic!("unknown engine {other} (toy, box2d, box2d-builtin, rapier)"),
        }
    }
}

/// What one contender did in one run.
#[derive(Clone, Copy, Debug, Default)]
pub struct Figures {
    /// Mean wall time of a frame over the timed seconds (ms).
    pub ms: f64,
    /// When 90 % of the balls first were asleep (s), if they were.
    pub asleep_90: Option<f64>,
    /// The overlap and the balls out at the end.
    pub end: Overlap,
    /// Most balls out at the end of any second.
    pub lost: usize,
}

/// One contender's run in progress.
struct Lane {
    name: String,
    engine: Box<dyn Engine>,
    timed_ms: f64,
    timed_frames: u32,
    /// Wall time of the last second's frames (ms).
    second_ms: f64,
    figures: Figures,
}

/// Runs `plan` once for every contender, interleaved second by second.
pub fn run(plan: &Plan, setup: &Setup, contenders: &[Contender], trace: bool) -> Vec<Figures> {
    let mut lanes: Vec<Lane> = contenders
        .iter()
        .map(|c| Lane {
            name: format!("{} ×{}", c.engine, c.threads),
            engine: c.make(setup, trace),
            timed_ms: 0.0,
            timed_frames: 0,
            second_ms: 0.0,
            figures: Figures::default(),
        })
        .collect();
    for second in 0..plan.seconds {
        for lane in &mut lanes {
            one_second(lane, plan, setup, second);
            if trace {
                print_trace(lane, second + 1);
                if let Some(profile) = lane.engine.profile_since() {
                    println!("{:>10}        {profile}", "");
                }
            }
        }
    }
    lanes.into_iter().map(|l| l.figures).collect()
}

/// Steps `lane` through simulated second `second` (from 0), timing each frame.
fn one_second(lane: &mut Lane, plan: &Plan, setup: &Setup, second: u32) {
    let timed = (plan.timed.0..plan.timed.1).contains(&second);
    let balls = setup.discs.len();
    lane.second_ms = 0.0;
    for frame in 0..60 {
        let t = Instant::now();
        lane.engine.frame();
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        lane.second_ms += ms;
        if timed {
            lane.timed_ms += ms;
            lane.timed_frames += 1;
        }
        let f = &mut lane.figures;
        if f.asleep_90.is_none() && lane.engine.awake() * 10 <= balls {
            f.asleep_90 = Some(f64::from(second * 60 + frame + 1) / 60.0);
        }
    }
    let angle = lane.engine.turned();
    let f = &mut lane.figures;
    let walls = Walls {
        walls: &setup.walls,
        pivot: setup.pivot,
        angle,
        depth: lane.engine.wall_depth(),
    };
    f.end = measure(&lane.engine.discs(), &walls);
    f.lost = f.lost.max(f.end.lost);
    f.ms = lane.timed_ms / f64::from(lane.timed_frames.max(1));
}

/// One line of a contender's second: ms a frame over it, overlap, awake, out, speeds.
fn print_trace(lane: &mut Lane, second: u32) {
    let discs = lane.engine.discs();
    let sq = |v: [f32; 2]| f64::from(v[0] * v[0] + v[1] * v[1]);
    let rms = (discs.iter().map(|d| sq(d.vel)).sum::<f64>() / discs.len().max(1) as f64).sqrt();
    let f = &lane.figures;
    println!(
        "{:>10} t={second:>2} s  {:6.2} ms/frame  overlap mean {:.2} % worst {:.1} %  \
         awake {:>6}  out {}  speed rms {rms:.1} px/s",
        lane.name,
        lane.second_ms / 60.0,
        f.end.mean * 100.0,
        f.end.worst * 100.0,
        lane.engine.awake(),
        f.end.lost
    );
}
