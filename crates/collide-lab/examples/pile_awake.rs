//! Which balls keep a settling pile awake: each second, the awake balls whose sleep speed
//! (`|v|² + (spin·r)²`, as sleep measures it) is at or above the sleep speed, where they are
//! and what they touch.
//!
//! `cargo run --release -p collide-lab --example pile_awake -- [N] [seconds] [from second]
//! [list]` (defaults: 10000, 10, 4, 20): the table filled as the app's Fill does, soft
//! contacts; from `from second` on, each second lists up to `list` of the fastest awake balls.

use collide::{Scene, Solver};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, d: u32| args.get(i).map_or(d, |s| s.parse().expect("number"));
    let (n, seconds, from, list) = (arg(1, 10_000), arg(2, 10), arg(3, 4), arg(4, 20));
    let scene = Scene::parse(collide_lab::checks::TABLE_RON, "table").expect("table");
    let mut w = scene.build(1);
    w.set_broad_phase(collide::BroadKind::from_name("grid").expect("grid"));
    w.edit_settings(|st| st.solver = Solver::Soft);
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<f32>().ok());
    if let Some(r) = env("ROLLING") {
        w.edit_settings(|st| st.soft.rolling = r);
    }
    if let Some(r) = env("FRICTION") {
        w.edit_settings(|st| st.soft.friction = r);
    }
    if let Some(r) = env("RESTITUTION_SPEED") {
        w.edit_settings(|st| st.soft.restitution_speed = r);
    }
    w.fill_random(n, (2.1, 3.0), 300.0);
    let steps = w.steps_per_second();
    let limit = w.settings().sleep.speed;
    for s in 1..=seconds {
        let mut woken = 0;
        let mut resets = vec![0u32; w.balls().len()];
        for _ in 0..steps {
            w.step();
            woken += w.counters().last_step.wakeups;
            for (i, b) in w.balls().iter().enumerate() {
                let v2 = b.vel.length_squared() + (b.spin * b.radius).powi(2);
                if !w.asleep(i) && v2 >= limit * limit {
                    resets[i] += 1;
                }
            }
        }
        let balls = w.balls();
        let speed = |i: usize| {
            let b = &balls[i];
            (b.vel.length_squared() + (b.spin * b.radius).powi(2)).sqrt()
        };
        let awake: Vec<usize> = (0..balls.len()).filter(|&i| !w.asleep(i)).collect();
        let mut fast: Vec<usize> = awake
            .iter()
            .copied()
            .filter(|&i| speed(i) >= limit)
            .collect();
        let spin_only = fast
            .iter()
            .filter(|&&i| balls[i].vel.length() < limit)
            .count();
        let isl = w.islands();
        let mut sizes = std::collections::BTreeMap::new();
        for &i in &awake {
            *sizes.entry(isl[i]).or_insert(0u32) += 1;
        }
        let biggest = sizes.values().copied().max().unwrap_or(0);
        println!(
            "second {s}: asleep {} awake {} islands {} biggest {biggest} fast {} (spin only {spin_only}) woken {woken}",
            w.asleep_count(),
            awake.len(),
            sizes.len(),
            fast.len()
        );
        if s < from {
            continue;
        }
        let mut groups: std::collections::BTreeMap<_, (u32, glam::Vec2, f32, u32)> =
            Default::default();
        for &i in &awake {
            let e = groups
                .entry(isl[i])
                .or_insert((0, glam::Vec2::ZERO, 0.0, 0));
            e.0 += 1;
            e.1 += balls[i].pos;
            e.2 = e.2.max(speed(i));
            e.3 += (speed(i) >= limit) as u32;
        }
        for (k, (c, sum, top, nf)) in &groups {
            if *nf > 0 || *c > 1 {
                let m = *sum / *c as f32;
                println!(
                    "  island {k:?}: {c} balls about ({:.0},{:.0}), {nf} fast, fastest {top:.1}",
                    m.x, m.y
                );
            }
        }
        let mut flick: Vec<usize> = (0..balls.len())
            .filter(|&i| resets[i] > 0 && speed(i) < limit)
            .collect();
        flick.sort_by_key(|&i| std::cmp::Reverse(resets[i]));
        println!(
            "  {} balls slow now were fast in some step of this second",
            flick.len()
        );
        for &i in flick.iter().take(list as usize) {
            let b = &balls[i];
            println!(
                "  flick {i:>5} at ({:>6.1},{:>6.1}) steps {} v ({:.2},{:.2}) rim {:.2} isl {:?}",
                b.pos.x,
                b.pos.y,
                resets[i],
                b.vel.x,
                b.vel.y,
                b.spin * b.radius,
                isl[i]
            );
        }
        fast.sort_by(|&a, &b| speed(b).total_cmp(&speed(a)));
        let contacts = w.solver_contacts();
        for &i in fast.iter().take(list as usize) {
            let b = &balls[i];
            let mine: Vec<String> = contacts
                .iter()
                .filter(|c| c.ball == i || format!("{:?}", c.other) == format!("Ball({i})"))
                .map(|c| {
                    let mut other = format!("{:?}", c.other);
                    if other == format!("Ball({i})") {
                        other = format!("Ball({})", c.ball);
                    }
                    format!("{other}:{:.0}", c.impulse * 1000.0)
                })
                .collect();
            println!(
                "  ball {i:>5} at ({:>6.1},{:>6.1}) r {:.2} v ({:>7.2},{:>7.2}) rim {:>7.2} speed {:>6.2} isl {:?}  {}",
                b.pos.x,
                b.pos.y,
                b.radius,
                b.vel.x,
                b.vel.y,
                b.spin * b.radius,
                speed(i),
                isl[i],
                mine.join(" ")
            );
        }
    }
}
