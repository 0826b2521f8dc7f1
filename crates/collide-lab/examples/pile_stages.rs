//! Where the box pile's physics time goes: the per-stage profile (`Tally::stages`, the broad
//! phase's `broad_nanos`) of `bench-peers/scenes/pile.ron`, ms a frame over each second.
//!
//! `cargo run --release -p collide-lab --example pile_stages -- [N] [seconds] [threads]
//! [step|frame] [iterations]` (defaults: 10000, 5, 1, step: contacts found at every sub-step,
//! or once a frame; the scene's solve passes a sub-step). The total is the wall time of the
//! frames; "other" is what no stage's clock covers (launch, sleep's wake check, the counting,
//! the rest of the step).

use collide::{BroadKind, Scene, World};
use std::sync::OnceLock;
use std::time::Instant;

fn nanos() -> u64 {
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: u32 = args.get(1).map_or(10_000, |s| s.parse().expect("N"));
    let seconds: u32 = args.get(2).map_or(5, |s| s.parse().expect("seconds"));
    let threads: usize = args.get(3).map_or(1, |s| s.parse().expect("threads"));
    // `frame`: contacts found once a frame instead of at every sub-step (the default).
    let once_a_frame = args.get(4).is_some_and(|s| s == "frame");
    // Solve passes a sub-step (the scene's unless told).
    let iterations: Option<u32> = args.get(5).map(|s| s.parse().expect("iterations"));
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench-peers/scenes/pile.ron");
    let scene = Scene::load(&path).expect("the pile scene loads");
    let mut w: World = scene.with_fill_count(n).build(1);
    w.set_broad_phase(BroadKind::Grid);
    w.set_clock(nanos);
    w.edit_settings(|s| {
        s.threads = threads;
        s.soft.once_a_frame = once_a_frame;
        if let Some(n) = iterations {
            s.collision_iterations = n;
        }
    });
    let steps = w.steps_per_second();
    println!(
        "second  total  broad  narrow  prepare  solve  relax  restit  sleep  meter  other  asleep"
    );
    let mut sum = [0.0f64; 10];
    for s in 1..=seconds {
        let before = w.counters().total;
        let t = nanos();
        for _ in 0..steps {
            w.step();
        }
        let wall = nanos() - t;
        let (a, b) = (w.counters().total, before);
        let st = (a.stages, b.stages);
        let ms = |x: u64| x as f64 / 1e6 / 60.0;
        let row = [
            ms(wall),
            ms(a.broad_nanos - b.broad_nanos),
            ms(st.0.narrow - st.1.narrow),
            ms(st.0.prepare - st.1.prepare),
            ms(st.0.solve - st.1.solve),
            ms(st.0.relax - st.1.relax),
            ms(st.0.restitution - st.1.restitution),
            ms(st.0.sleep - st.1.sleep),
            ms(st.0.meter - st.1.meter),
        ];
        let other = row[0] - row[1..].iter().sum::<f64>();
        let mut line = format!("{s:>6}");
        for (i, v) in row.iter().chain([other].iter()).enumerate() {
            sum[i] += v;
            line += &format!(" {v:6.2}");
        }
        let finds = a.soft_finds - b.soft_finds;
        let strays = a.soft_strays - b.soft_strays;
        if std::env::var_os("PILE_CACHE").is_some() {
            eprintln!(
                "cache: queries {} served {} passed {} pairs {}",
                a.cache_queries - b.cache_queries,
                a.cache_served - b.cache_served,
                a.cache_passed - b.cache_passed,
                a.broad.pairs - b.broad.pairs
            );
        }
        let sq: f64 = w
            .balls()
            .iter()
            .map(|b| f64::from(b.vel.length_squared()))
            .sum();
        let rms = (sq / w.balls().len().max(1) as f64).sqrt();
        let o = w.counters().overlap;
        println!(
            "{line}  {:>6} {finds:>6} {strays:>6}  rms {rms:.2} px/s  overlap {:.2} % / {:.1} %",
            w.counters().asleep,
            o.sum / f64::from(o.pairs.max(1)) * 100.0,
            o.max * 100.0
        );
    }
    let mut line = "  mean".to_string();
    for v in sum {
        line += &format!(" {:6.2}", v / f64::from(seconds));
    }
    println!("{line}");
    by_thread(&w.counters().total, 60 * seconds);
}

/// The whole run's stages by thread, ms a frame: each thread's busy / idle (waiting for the
/// others within the stage) / absent (not in the stage at all) time.
fn by_thread(total: &collide::world::Tally, frames: u32) {
    let frames = f64::from(frames);
    let ms = |ns: u64| ns as f64 / 1e6 / frames;
    let threads = total.profiled_threads().max(1);
    println!("\nby thread, ms a frame: busy / idle / absent");
    for s in total.profile() {
        let mut line = format!("{:>12} {:6.2} ", s.name, ms(s.nanos));
        for k in 0..threads {
            let (b, i) = (s.spread.busy[k], s.spread.idle[k]);
            line += &format!(" | {:5.2} {:5.2} {:5.2}", ms(b), ms(i), ms(s.absent(k)));
        }
        println!("{line}");
    }
}
