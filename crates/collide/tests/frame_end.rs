//! The contact list's frame's end (`World::frame_end_contacts`): at the end of each frame it
//! holds exactly the pairs touching then (a brute-force test of every pair agrees), awake and
//! asleep, with either solver, and the overlap meter is the reduction of that list; after the
//! push-out it holds the contacts its last moves made, which its last broad-phase call never
//! paired.

use collide::narrow::{contact_ball_ball, contact_ball_shape};
use collide::world::{Ball, ContactWith, OverlapMeter, PairContact};
use collide::{Aabb, Geometry, Input, Motion, Pair, Shape, Solver, Vec2, World};

/// A 400 × 400 px box (floor and walls) with a settled, sleeping pile of 20 balls stacked in
/// a bin on the left, and 36 balls thrown about on the right, far from it, with `solver`.
fn two_piles(solver: Solver) -> World {
    let v = Vec2::new;
    let wall = |a: Vec2, b: Vec2| Shape::new(Geometry::Segment { a, b }, 0.3, Motion::Static);
    let shapes = vec![
        wall(v(0.0, 0.0), v(400.0, 0.0)),
        wall(v(0.0, 0.0), v(0.0, 400.0)),
        wall(v(400.0, 0.0), v(400.0, 400.0)),
        wall(v(48.6, 0.0), v(48.6, 120.0)),
    ];
    let mut w = World::new(shapes, Aabb::new(Vec2::ZERO, v(400.0, 400.0)), 5);
    w.edit_settings(|st| {
        st.solver = solver;
        st.sleep.enabled = Some(true);
        // The broad phase's own pairs, no wider than the balls' boxes (no cache margin).
        st.pair_cache = false;
    });
    for k in 0..20 {
        let (col, row) = ((k % 4) as f32, (k / 4) as f32);
        let at = v(6.1 + 12.1 * col, 6.0 + 12.0 * row);
        w.add_ball(Ball::new(at, Vec2::ZERO, 6.0, 0.3, 0));
    }
    for _ in 0..2 * w.steps_per_second() {
        w.step();
    }
    for k in 0..36 {
        let (col, row) = ((k % 6) as f32, (k / 6) as f32);
        let at = v(220.0 + 12.5 * col + 2.0 * row, 20.0 + 13.0 * row);
        let vel = v(
            ((k * 37) % 11 - 5) as f32 * 60.0,
            ((k * 53) % 7 - 3) as f32 * 80.0,
        );
        w.add_ball(Ball::new(at, vel, 5.0 + 0.25 * col, 0.3, 0));
    }
    w
}

/// A closed 200 × 200 px box crowded with 150 lively balls (elasticity 0.9) flung every way
/// at 300 px/s, with the push-out and no sleep.
fn crowded_box() -> World {
    let v = Vec2::new;
    let wall = |a: Vec2, b: Vec2| Shape::new(Geometry::Segment { a, b }, 0.3, Motion::Static);
    let shapes = vec![
        wall(v(0.0, 0.0), v(200.0, 0.0)),
        wall(v(0.0, 0.0), v(0.0, 200.0)),
        wall(v(200.0, 0.0), v(200.0, 200.0)),
        wall(v(0.0, 200.0), v(200.0, 200.0)),
    ];
    let mut w = World::new(shapes, Aabb::new(Vec2::ZERO, v(200.0, 200.0)), 5);
    w.edit_settings(|st| st.solver = Solver::PushOut);
    for k in 0..150 {
        let (col, row) = ((k % 12) as f32, (k / 12) as f32);
        let turn = k as f32 * 2.4;
        let vel = v(turn.cos(), turn.sin()) * 300.0;
        w.add_ball(Ball::new(
            v(20.0 + 13.0 * col, 20.0 + 13.0 * row),
            vel,
            6.0,
            0.9,
            0,
        ));
    }
    w
}

/// A contact as compared: the ball, what it touches (kind and index) and the depth's bits.
type Key = (u32, u32, u32, u32);

fn key(c: &PairContact) -> Key {
    let with = match c.with {
        ContactWith::Shape(s) => (0, s),
        ContactWith::Ball(o) => (1, o),
    };
    (c.ball, with.0, with.1, c.depth.to_bits())
}

/// Every touching pair of `w` by testing all of them: ball–ball and ball–obstacle (the
/// obstacles are static, so a ball's velocity is its velocity relative to them).
fn brute_force(w: &World) -> Vec<Key> {
    let balls = w.balls();
    let mut out = Vec::new();
    for (i, a) in balls.iter().enumerate() {
        for (s, shape) in w.shapes().iter().enumerate() {
            if let Some(c) = contact_ball_shape(a.pos, a.radius, a.vel, &shape.geom) {
                out.push((i as u32, 0, s as u32, c.depth.to_bits()));
            }
        }
        for (j, b) in balls.iter().enumerate().skip(i + 1) {
            if let Some(c) = contact_ball_ball(a.pos, a.radius, b.pos, b.radius) {
                out.push((i as u32, 1, j as u32, c.depth.to_bits()));
            }
        }
    }
    out.sort_unstable();
    out
}

/// The overlap meter of `contacts` among `balls`, in their order.
fn reduced(balls: &[Ball], contacts: &[PairContact]) -> OverlapMeter {
    let mut m = OverlapMeter::default();
    for c in contacts {
        let r = balls[c.ball as usize].radius;
        let size = match c.with {
            ContactWith::Ball(o) => r.min(balls[o as usize].radius),
            ContactWith::Shape(_) => r,
        };
        m.add(c.depth / size);
    }
    m
}

/// Runs `frames` frames of `w`, checking the frame's end after each; returns the most
/// contacts seen in its awake and its asleep part at one frame.
fn check_frames(w: &mut World, frames: u32, solver: Solver) -> (usize, usize) {
    let per_frame = w.settings().motion_iterations;
    let mut most = (0, 0);
    for frame in 0..frames {
        for _ in 0..per_frame {
            w.step();
        }
        let end = w.frame_end_contacts();
        let mut listed: Vec<Key> = end.awake.iter().chain(end.asleep).map(key).collect();
        listed.sort_unstable();
        assert_eq!(listed, brute_force(w), "{solver:?}, frame {frame}");
        let every = end.awake.iter().chain(end.asleep);
        assert!(every.clone().all(|c| c.iteration == PairContact::FRAME_END));
        let balls = w.balls();
        let meter = w.counters().overlap;
        let expected = merged(reduced(balls, end.awake), reduced(balls, end.asleep));
        assert_eq!(meter.pairs, expected.pairs, "{solver:?}, frame {frame}");
        assert_eq!(meter.max.to_bits(), expected.max.to_bits());
        assert_eq!(meter.sum.to_bits(), expected.sum.to_bits());
        assert_eq!(
            (meter.over_1pct, meter.over_10pct),
            (expected.over_1pct, expected.over_10pct)
        );
        most = (most.0.max(end.awake.len()), most.1.max(end.asleep.len()));
    }
    most
}

/// The meter of the awake part with the asleep part's added after it, as the meter merges.
fn merged(a: OverlapMeter, b: OverlapMeter) -> OverlapMeter {
    OverlapMeter {
        pairs: a.pairs + b.pairs,
        max: a.max.max(b.max),
        sum: a.sum + b.sum,
        over_1pct: a.over_1pct + b.over_1pct,
        over_10pct: a.over_10pct + b.over_10pct,
    }
}

#[test]
fn frame_end_contacts_are_exactly_the_touching_pairs_and_the_meter_reduces_them() {
    for solver in [Solver::PushOut, Solver::Soft] {
        let mut w = two_piles(solver);
        assert!(
            w.counters().asleep >= 10,
            "{solver:?}: the left pile sleeps"
        );
        let (awake, asleep) = check_frames(&mut w, 40, solver);
        assert!(awake > 0, "{solver:?}: the dropped balls touch");
        assert!(asleep > 0, "{solver:?}: the sleeping pile touches");
        assert!(w.counters().overlap.pairs > 0, "{solver:?}");
        // A sleeper at the bottom of the pile leaves: the balls above it wake and fall.
        let id = w.ball_id(0).expect("a ball");
        w.apply_input(&Input::RemoveBall(id)).expect("removed");
        check_frames(&mut w, 20, solver);
    }
}

#[test]
fn after_the_push_out_the_frame_end_holds_contacts_its_last_broad_phase_call_never_paired() {
    let mut w = crowded_box();
    let n_shapes = w.shapes().len() as u32;
    let mut unpaired = 0;
    for frame in 0..60 {
        for _ in 0..w.settings().motion_iterations {
            w.step();
        }
        let end = w.frame_end_contacts();
        let mut listed: Vec<Key> = end.awake.iter().chain(end.asleep).map(key).collect();
        listed.sort_unstable();
        assert_eq!(listed, brute_force(&w), "frame {frame}");
        // The same pair in the broad phase's numbering (obstacles, then balls).
        let raw = |c: &PairContact| -> Pair {
            match c.with {
                ContactWith::Shape(s) => (s, n_shapes + c.ball),
                ContactWith::Ball(o) => (n_shapes + c.ball, n_shapes + o),
            }
        };
        let last = w.last_pairs();
        unpaired += end.awake.iter().filter(|c| !last.contains(&raw(c))).count();
    }
    assert!(
        unpaired > 0,
        "the last responses and walls make new contacts"
    );
}
