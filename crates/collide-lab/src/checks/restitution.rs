//! Restitution audit: one ball fired or dropped at one shape; the normal speed it leaves with
//! over the normal speed it came in with must be the product of the elasticities within 1 %,
//! and the tangential speed must be kept within 1 % of the speed.
//!
//! Shapes: a segment, a bumper (circle), an arc hit from outside and from inside, a point, a
//! rectangle, an oriented rectangle and a gate hit from its closed side. Fired: angles from
//! head-on to 1° off grazing, speeds from 1 px/s to 10,000 px/s, no gravity, the path aimed
//! so that the ball's centre meets the contact place `C = P + r·n` just before the end of a step. Dropped: from rest under
//! 400 px/s² onto the top of each shape. Both in exact tunnelling and, where a step moves the
//! ball less than its radius (the discrete mode's own limit), with tunnelling off.
//!
//! The normal is the shape's own: fixed for flat faces; for round shapes the radius through
//! the ball's centre at the impact (found from the step's start and end when swept, the place
//! it was pushed out to when off).

use super::{no_panic, row_name, use_solver, CheckReport};
use crate::kinds::box_behind;
use collide::geom::{Geometry, Motion, Shape};
use collide::world::{Ball, Launcher, SoftSettings, Solver};
use collide::{Aabb, Tunnelling, World};
use glam::Vec2;

/// Size of the audit.
#[derive(Clone, Debug)]
pub struct RestitutionSize {
    /// Angles from the normal (degrees), 0 head-on, near 90 grazing.
    pub angles: Vec<f32>,
    /// Approach speeds (px/s) of fired balls.
    pub speeds: Vec<f32>,
    /// Drop heights (px) of dropped balls.
    pub heights: Vec<f32>,
    /// (ball, shape) elasticities.
    pub elasticities: Vec<(f32, f32)>,
}

impl RestitutionSize {
    /// The CI size.
    pub fn small() -> Self {
        Self {
            angles: vec![0.0, 45.0, 80.0, 89.0],
            speeds: vec![1.0, 10.0, 100.0, 1000.0, 10_000.0],
            heights: vec![0.5, 20.0, 500.0],
            elasticities: vec![(1.0, 1.0), (0.9, 0.8), (0.5, 1.0), (0.0, 1.0), (1.0, 1.5)],
        }
    }

    /// The full size.
    pub fn full() -> Self {
        Self {
            angles: vec![0.0, 10.0, 30.0, 45.0, 60.0, 75.0, 80.0, 85.0, 88.0, 89.0],
            speeds: vec![
                0.5, 1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0, 10_000.0,
            ],
            heights: vec![0.1, 0.5, 2.0, 20.0, 100.0, 500.0],
            elasticities: vec![
                (1.0, 1.0),
                (0.95, 0.9),
                (0.9, 0.8),
                (0.5, 1.0),
                (0.2, 0.5),
                (0.0, 1.0),
                (1.0, 1.3),
                (1.0, 1.5),
            ],
        }
    }
}

const RADIUS: f32 = 10.0;
const GRAVITY: f32 = 400.0;

/// One target: a shape, the point `p` where the ball should touch it, the outward normal
/// there (the side the ball comes from) and, for round shapes, the centre.
#[derive(Clone, Copy, Debug)]
struct Target {
    name: &'static str,
    geom: Geometry,
    p: Vec2,
    n: Vec2,
    round: Option<Vec2>,
}

/// Half the length of the flat targets (px): far longer than any path along them.
const HALF: f32 = 4000.0;

impl Target {
    /// A target touched at the origin, where its normal is `n`.
    fn at_origin(name: &'static str, geom: Geometry, n: Vec2, round: Option<Vec2>) -> Self {
        Target {
            name,
            geom,
            p: Vec2::ZERO,
            n,
            round,
        }
    }
}

/// Every target with its normal at `p` turned to `n` (a unit vector), in the report's order.
fn targets(n: Vec2) -> Vec<Target> {
    let [segment, rect, gate] = flat_targets(n);
    [segment]
        .into_iter()
        .chain(round_targets(n))
        .chain([rect, gate])
        .chain(axis_rect(n))
        .collect()
}

/// The flat targets, their face through the origin across `n`: a segment, an oriented
/// rectangle and a gate hit from its closed side.
fn flat_targets(n: Vec2) -> [Target; 3] {
    let o = Vec2::ZERO;
    let t = n.perp();
    let angle = n.y.atan2(n.x) - std::f32::consts::FRAC_PI_2;
    let segment = Geometry::Segment {
        a: o - t * HALF,
        b: o + t * HALF,
    };
    let rect = box_behind(o, n, HALF, angle);
    let gate = Geometry::Gate {
        a: o - t * HALF,
        b: o + t * HALF,
        normal: -n,
        threshold: 0.0,
    };
    [
        Target::at_origin("segment", segment, n, None),
        Target::at_origin("rect", rect, n, None),
        Target::at_origin("gate", gate, n, None),
    ]
}

/// The round targets, touching the origin with their radius along `n`: a bumper, an arc hit
/// from outside, one hit from inside, and a point.
fn round_targets(n: Vec2) -> [Target; 4] {
    let o = Vec2::ZERO;
    let (arc_r, arc_out_c) = (200.0, o - n * 200.0);
    // The concave arc is wide, so that a grazing ball's next contact along it is farther
    // than a step's travel (a chord of 2·R·cos θ) and each bounce is measured alone.
    let (in_r, arc_in_c) = (2000.0, o + n * 2000.0);
    let na = n.y.atan2(n.x);
    let deg = 40f32.to_radians();
    let bumper = Geometry::Circle {
        c: arc_out_c,
        r: arc_r,
    };
    let outside = Geometry::Arc {
        c: arc_out_c,
        r: arc_r,
        start: na - deg,
        end: na + deg,
    };
    let inside = Geometry::Arc {
        c: arc_in_c,
        r: in_r,
        start: na + std::f32::consts::PI - deg,
        end: na + std::f32::consts::PI + deg,
    };
    [
        Target::at_origin("bumper", bumper, n, Some(arc_out_c)),
        Target::at_origin("arc-outside", outside, n, Some(arc_out_c)),
        Target::at_origin("arc-inside", inside, n, Some(arc_in_c)),
        Target::at_origin("point", Geometry::Point { p: o }, n, Some(o)),
    ]
}

/// An axis-aligned rectangle whose top face holds the origin, when `n` is straight up.
fn axis_rect(n: Vec2) -> Option<Target> {
    let o = Vec2::ZERO;
    let rect = Geometry::Rect {
        min: o - Vec2::new(HALF, 100.0),
        max: o + Vec2::new(HALF, 0.0),
    };
    (n == Vec2::Y).then_some(Target::at_origin("axis-rect", rect, n, None))
}

/// What a bounce measured.
struct Bounce {
    /// Normal speed of the approach (px/s, positive).
    approach: f32,
    /// Measured normal coefficient.
    e: f32,
    /// Tangential speed change over the approach speed.
    slip: f32,
}

fn world_of(target: &Target, mode: Tunnelling, solver: Solver, gravity: f32) -> World {
    let shape = Shape::new(target.geom, 1.0, Motion::Static);
    let bounds = Aabb::new(Vec2::splat(-10_000.0), Vec2::splat(10_000.0));
    let launcher = Launcher {
        pos: Vec2::ZERO,
        dir: Vec2::Y,
    };
    let mut w = World::new_unguarded(vec![shape], bounds, 1).with_launcher(launcher);
    w.edit_settings(|st| st.gravity = gravity);
    w.edit_settings(|st| st.tunnelling = mode);
    use_solver(&mut w, solver);
    w
}

/// How a round shape's normal at the bounce is found.
#[derive(Clone, Copy, PartialEq)]
enum RoundNormal {
    /// From the impact inside the step (the push-out's swept modes).
    Impact,
    /// From where the ball was pushed out to (the push-out's discrete mode).
    End,
    /// From where the step started: the soft contacts' speculative contact is found there,
    /// and the solver uses that normal for the whole step.
    Start,
}

/// Steps until the ball's velocity differs from free flight; measures that bounce. With
/// soft contacts (`RoundNormal::Start`), a speculative contact may first only slow the ball
/// to meet the surface at the end of the step: the ball's velocity is read once it no longer
/// approaches (at most three more steps).
fn measure(mut w: World, target: &Target, normal: RoundNormal, max_steps: u32) -> Option<Bounce> {
    let dt = w.step_seconds() as f32;
    let g = Vec2::new(0.0, -w.settings().gravity);
    for _ in 0..max_steps {
        let (p0, v_prev) = (w.balls()[0].pos, w.balls()[0].vel);
        let v_pre = v_prev + g * dt;
        w.step();
        let mut b = w.balls()[0];
        if b.vel == v_pre {
            continue;
        }
        let n = match (target.round, normal) {
            (Some(c), RoundNormal::Impact) => {
                (impact_centre(p0, v_pre, b.pos, b.vel, dt) - c).normalize()
            }
            (Some(c), RoundNormal::End) => (b.pos - c).normalize(),
            (Some(c), RoundNormal::Start) => (p0 - c).normalize(),
            (None, _) => target.n,
        };
        // Facing the side the ball comes from (inside a concave arc, towards the centre).
        let face = |n: Vec2| if n.dot(target.n) < 0.0 { -n } else { n };
        let n = face(n);
        let mut n_out = n;
        if normal == RoundNormal::Start {
            let still_closing = -0.001 * v_pre.dot(n).abs();
            for _ in 0..3 {
                if b.vel.dot(n_out) >= still_closing {
                    break;
                }
                w.step();
                b = w.balls()[0];
                // A slow ball that stayed on a round shape is judged by the normal where it
                // is now: it slides along the surface, no longer into or off it.
                n_out = target.round.map_or(n, |c| face((b.pos - c).normalize()));
            }
        }
        let (vn_in, vn_out) = (v_pre.dot(n), b.vel.dot(n_out));
        let t = n.perp();
        let slip = (b.vel.dot(t) - v_pre.dot(t)).abs() / v_pre.length().max(1e-30);
        return Some(Bounce {
            approach: -vn_in,
            e: -vn_out / vn_in,
            slip,
        });
    }
    None
}

/// Where the ball's centre was at the impact of a swept step that started at `p0` with
/// velocity `v_pre` and ended at `p1` with `v_post`: `p1 = p0 + dt·(t·v_pre + (1 − t)·v_post)`,
/// solved for `t` by least squares.
fn impact_centre(p0: Vec2, v_pre: Vec2, p1: Vec2, v_post: Vec2, dt: f32) -> Vec2 {
    let dv = v_pre - v_post;
    let t = (p1 - p0 - v_post * dt).dot(dv) / (dt * dv.length_squared());
    p0 + v_pre * (t.clamp(0.0, 1.0) * dt)
}

/// Relative error of a measured coefficient (absolute when the set one is 0).
fn error_of(measured: f32, set: f32) -> f32 {
    if set > 0.0 {
        (measured - set).abs() / set
    } else {
        measured.abs()
    }
}

/// The shape with its elasticity set (targets are built with 1).
fn with_elasticity(mut w: World, shape_e: f32) -> World {
    let s = w.shapes()[0];
    let mut shape = s;
    shape.elasticity = shape_e;
    let (bounds, launcher, settings) = (w.bounds(), w.launcher(), w.settings().clone());
    w = World::new_unguarded(vec![shape], bounds, 1).with_launcher(launcher);
    w.set_settings(settings);
    w
}

/// The soft contacts' threshold speed: slower approaches are absorbed (`e = 0`).
pub fn soft_threshold() -> f32 {
    SoftSettings::default().restitution_speed
}

/// Runs the audit with `solver`. The push-out must keep the tangential speed too; soft
/// contacts apply friction, so only their normal coefficient is judged, against the set
/// product above the threshold speed and against 0 below it. Not judged: approaches within
/// 1 % of the threshold, and slow grazes of round shapes (more than 45° off the normal and
/// below the threshold), which slide along the curve and leave it by its geometry.
pub fn run(size: &RestitutionSize, solver: Solver) -> CheckReport {
    let mut report = CheckReport::new(&row_name("restitution", solver));
    let soft = solver == Solver::Soft;
    let threshold = soft_threshold();
    let mut worst = (0.0f32, String::new());
    let mut below = 0u64;
    let mut grazed = 0u64;
    let mut judge = |report: &mut CheckReport, what: String, got: Option<Bounce>, set: Set| {
        let Set { e: set, grazing } = set;
        let Some(b) = got else {
            report.cases += 1;
            report.fail(format!("{what}: no bounce"));
            return;
        };
        let set = match soft {
            true if (b.approach / threshold - 1.0).abs() <= 0.01 => return,
            // A slow ball grazing a curve slides along it and leaves it by the curve's
            // geometry, not by a bounce: nothing to judge.
            true if b.approach < threshold && grazing => {
                grazed += 1;
                return;
            }
            true if b.approach < threshold => {
                below += 1;
                0.0
            }
            _ => set,
        };
        report.cases += 1;
        let err = error_of(b.e, set);
        if err > worst.0 {
            worst = (err, what.clone());
        }
        let slipped = !soft && b.slip > 0.01;
        if err > 0.01 || slipped {
            report.fail(format!(
                "{what}: e {} for {set} at {} px/s (slip {:.2e})",
                b.e, b.approach, b.slip
            ));
        }
    };
    for &mode in &[Tunnelling::Exact, Tunnelling::Off] {
        fired(size, mode, solver, &mut report, &mut judge);
        dropped(size, mode, solver, &mut report, &mut judge);
    }
    report.worst = format!("{:.3} % off ({})", worst.0 * 100.0, worst.1);
    if soft {
        report.worst += &format!(
            "; threshold {threshold} px/s, {below} slower approaches absorbed (e = 0), {grazed} slow grazes of curves not judged"
        );
    }
    report
}

/// The set coefficient of a case, and whether it grazes a round shape (more than 45° off
/// its normal).
struct Set {
    e: f32,
    grazing: bool,
}

type Judge<'a> = dyn FnMut(&mut CheckReport, String, Option<Bounce>, Set) + 'a;

fn fired(
    size: &RestitutionSize,
    mode: Tunnelling,
    solver: Solver,
    report: &mut CheckReport,
    judge: &mut Judge,
) {
    let n = Vec2::from_angle(FIRING_NORMAL);
    let exact = mode == Tunnelling::Exact;
    for target in targets(n) {
        for &angle in &size.angles {
            for &speed in &size.speeds {
                let dt = 1.0 / 240.0;
                if !exact && speed * dt >= RADIUS {
                    continue;
                }
                let th = angle.to_radians();
                let dir = -n * th.cos() + n.perp() * th.sin();
                let vel = dir * speed;
                let c = target.p + target.n * RADIUS;
                // Contact near the end of the third step: the rest of that step is too short for a
                // grazing ball to reach the surface again (which, along a concave arc, it does at
                // once) and a discrete step finds it barely in contact, not past a thin corner.
                let start = c - vel * (2.999 * dt);
                for &(be, se) in &size.elasticities {
                    let what = format!(
                        "fired {} at {speed} px/s, {angle}° off normal, e {be}×{se}, tunnelling {}",
                        target.name,
                        mode.name()
                    );
                    let got = no_panic(|| fire(&target, start, vel, be, se, mode, solver))
                        .ok()
                        .flatten();
                    let grazing = target.round.is_some() && angle > 45.0;
                    judge(
                        report,
                        what,
                        got,
                        Set {
                            e: be * se,
                            grazing,
                        },
                    );
                }
            }
        }
    }
}

fn fire(
    target: &Target,
    start: Vec2,
    vel: Vec2,
    ball_e: f32,
    shape_e: f32,
    mode: Tunnelling,
    solver: Solver,
) -> Option<Bounce> {
    let mut w = with_elasticity(world_of(target, mode, solver, 0.0), shape_e);
    w.add_ball(Ball::new(start, vel, RADIUS, ball_e, 0));
    measure(w, target, round_normal(mode, solver), 10)
}

fn round_normal(mode: Tunnelling, solver: Solver) -> RoundNormal {
    match (solver, mode) {
        (Solver::Soft, _) => RoundNormal::Start,
        (Solver::PushOut, Tunnelling::Exact) => RoundNormal::Impact,
        (Solver::PushOut, _) => RoundNormal::End,
    }
}

/// One fired case by the target's name (`segment`, `bumper`, `arc-outside`, `arc-inside`,
/// `point`, `rect`, `gate`): the measured coefficient, or None if there was no bounce.
pub fn fired_case(
    name: &str,
    speed: f32,
    angle_deg: f32,
    elasticities: (f32, f32),
    mode: Tunnelling,
    solver: Solver,
) -> Option<f32> {
    let n = Vec2::from_angle(FIRING_NORMAL);
    let target = targets(n).into_iter().find(|t| t.name == name)?;
    let th = angle_deg.to_radians();
    let vel = (-n * th.cos() + n.perp() * th.sin()) * speed;
    let start = target.p + target.n * RADIUS - vel * (2.999 / 240.0);
    let (ball_e, shape_e) = elasticities;
    fire(&target, start, vel, ball_e, shape_e, mode, solver).map(|b| b.e)
}

/// Direction (rad) of the normal of every fired target: not along an axis.
const FIRING_NORMAL: f32 = 0.7;

fn dropped(
    size: &RestitutionSize,
    mode: Tunnelling,
    solver: Solver,
    report: &mut CheckReport,
    judge: &mut Judge,
) {
    let exact = mode == Tunnelling::Exact;
    for target in targets(Vec2::Y) {
        for &h in &size.heights {
            // Fastest arrival sqrt(2gh); the discrete mode needs less than a radius per step.
            if !exact && (2.0 * GRAVITY * h).sqrt() / 240.0 >= RADIUS {
                continue;
            }
            let start = target.p + Vec2::Y * (RADIUS + h);
            for &(be, se) in &size.elasticities {
                let what = format!(
                    "dropped {} from {h} px, e {be}×{se}, tunnelling {}",
                    target.name,
                    mode.name()
                );
                let got = no_panic(|| {
                    let mut w = with_elasticity(world_of(&target, mode, solver, GRAVITY), se);
                    w.add_ball(Ball::new(start, Vec2::ZERO, RADIUS, be, 0));
                    measure(w, &target, round_normal(mode, solver), 20_000)
                })
                .ok()
                .flatten();
                let grazing = false;
                judge(
                    report,
                    what,
                    got,
                    Set {
                        e: be * se,
                        grazing,
                    },
                );
            }
        }
    }
}
