//! Seeded shots at closed containers built from one shape type: the measure of tunnelling.
//!
//! Each container is a ring of one static shape type around the origin (points 1.5 radii
//! apart, a star of thin segments whose inner corners are free segment ends, bumpers, concave
//! arcs, convex arc bumps, a box of thin rectangles, a ring of thin oriented rectangles),
//! with gaps narrower than a ball. The play area is the box around it. A shot puts one ball at
//! a random place inside, aims it at a random place on a random shape of the ring (guard
//! points included, give or take a radius sideways, so ends and grazes are common) at a given
//! speed in ball radii per step, and runs the world until the ball could have crossed the ring
//! and left the play area. Without gravity and with elasticity 1 nothing slows the ball, so a
//! ball outside the play area at the end tunnelled: the world's own strays counter decides.

use crate::kinds::turned_rect;
use collide::geom::Aabb;
use collide::scene::{LaunchDesc, Scene, ShapeDesc, ShapeKind};
use collide::tunnel::Tunnelling;
use collide::world::{Ball, World};
use glam::Vec2;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::f32::consts::TAU;

/// Ball radius of every shot (px).
pub const BALL_RADIUS: f32 = 5.0;
/// Inner radius of every ring (px): 30 ball radii.
pub const RING: f32 = 150.0;

/// The shape type a container is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Points 1.5 radii apart.
    Point,
    /// A 16-pointed star of thin segments: the inner corners are free segment ends.
    Segment,
    /// Bumpers with gaps narrower than a ball.
    Circle,
    /// Six 60° arcs, hit on their concave side.
    Arc,
    /// Overlapping half-circle arcs bulging inwards, hit on their convex side.
    ArcConvex,
    /// A box of four rectangles 2 px thick.
    Rect,
    /// Twelve oriented rectangles 2 px thick.
    Oriented,
}

impl Target {
    /// Every container.
    pub const ALL: &'static [Target] = &[
        Target::Point,
        Target::Segment,
        Target::Circle,
        Target::Arc,
        Target::ArcConvex,
        Target::Rect,
        Target::Oriented,
    ];

    /// Short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Target::Point => "point",
            Target::Segment => "segment",
            Target::Circle => "circle",
            Target::Arc => "arc",
            Target::ArcConvex => "arc convex",
            Target::Rect => "rect",
            Target::Oriented => "oriented rect",
        }
    }

    /// The container's shapes.
    pub fn shapes(self) -> Vec<ShapeDesc> {
        match self {
            Target::Point => ring(126, |_, a| point(polar(RING, a))),
            Target::Segment => {
                let corner = |k: usize| {
                    polar(
                        if k.is_multiple_of(2) {
                            RING / 0.85
                        } else {
                            RING
                        },
                        k as f32 * TAU / 16.0,
                    )
                };
                let points = (0..=16).map(|k| corner(k % 16)).collect();
                vec![ShapeDesc::new(ShapeKind::Polyline { points })]
            }
            Target::Circle => ring(30, |_, a| {
                ShapeDesc::new(ShapeKind::Circle {
                    centre: polar(RING + 15.0, a),
                    radius: 15.0,
                })
            }),
            Target::Arc => ring(6, |_, a| arc(Vec2::ZERO, RING, a, a + 60.0f32.to_radians())),
            Target::ArcConvex => ring(24, |_, a| {
                let c = polar(RING + 20.0, a);
                arc(c, 20.0, a + TAU / 4.0, a + 3.0 * TAU / 4.0)
            }),
            Target::Rect => {
                let (s, t) = (RING, 2.0);
                [
                    (Vec2::new(-s - t, -s - t), Vec2::new(-s, s + t)),
                    (Vec2::new(s, -s - t), Vec2::new(s + t, s + t)),
                    (Vec2::new(-s - t, -s - t), Vec2::new(s + t, -s)),
                    (Vec2::new(-s - t, s), Vec2::new(s + t, s + t)),
                ]
                .map(|(min, max)| ShapeDesc::new(ShapeKind::Rect { min, max }))
                .to_vec()
            }
            Target::Oriented => ring(12, |_, a| {
                turned_rect(
                    polar(RING + 1.0, a),
                    Vec2::new(RING * (TAU / 24.0).tan() + 3.0, 1.0),
                    (a + TAU / 4.0).to_degrees(),
                )
            }),
        }
    }

    /// The container as a scene: no gravity, the play area just around the ring.
    pub fn scene(self) -> Scene {
        let mut s = Scene {
            name: format!("shots at {}", self.name()),
            bounds: Aabb::new(Vec2::ZERO, Vec2::ONE),
            launch: LaunchDesc {
                pos: Vec2::ZERO,
                dir: Vec2::Y,
            },
            gravity: Some(0.0),
            ball_radius: Some(BALL_RADIUS),
            launch_speed: None,
            ball_elasticity: Some(1.0),
            pinball: None,
            shapes: self.shapes(),
            settings: Default::default(),
            friction: None,
            balls: Vec::new(),
            fill: None,
            pockets: Vec::new(),
        };
        let w = s.build(0);
        let around = w
            .shapes()
            .iter()
            .map(|s| s.aabb())
            .reduce(|a, b| a.merged(&b));
        s.bounds = around
            .expect("a ring has shapes")
            .expanded(2.0 * BALL_RADIUS);
        s
    }
}

fn polar(dist: f32, angle: f32) -> Vec2 {
    Vec2::from_angle(angle) * dist
}

fn ring(n: usize, f: impl Fn(usize, f32) -> ShapeDesc) -> Vec<ShapeDesc> {
    (0..n).map(|k| f(k, k as f32 * TAU / n as f32)).collect()
}

fn point(p: Vec2) -> ShapeDesc {
    ShapeDesc::new(ShapeKind::Point { p })
}

fn arc(c: Vec2, r: f32, start: f32, end: f32) -> ShapeDesc {
    ShapeDesc::new(ShapeKind::Arc {
        centre: c,
        radius: r,
        start: start.to_degrees(),
        end: end.to_degrees(),
    })
}

/// What a series of shots gave.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ShotStats {
    /// Shots fired.
    pub shots: u64,
    /// Shots whose ball ended outside the play area.
    pub strays: u64,
    /// Impact tests run (samples, envelopes, closed forms or discrete tests).
    pub impact_tests: u64,
    /// Candidate pairs tested.
    pub full_tests: u64,
    /// Steps run.
    pub steps: u64,
}

impl ShotStats {
    /// Strays per 10,000 shots.
    pub fn strays_per_10k(&self) -> f64 {
        self.strays as f64 * 10_000.0 / self.shots.max(1) as f64
    }

    /// Impact tests per shot.
    pub fn tests_per_shot(&self) -> f64 {
        self.impact_tests as f64 / self.shots.max(1) as f64
    }
}

/// Fires `shots` balls at the container of `target` with tunnelling `mode`, each at a speed
/// drawn from `speeds` (ball radii per step; a single value for `a..=a`), seeded by `seed`.
pub fn fire(
    target: Target,
    mode: Tunnelling,
    speeds: std::ops::RangeInclusive<f32>,
    shots: u64,
    seed: u64,
) -> ShotStats {
    let mut world = target.scene().build(seed);
    // The uniform grid keeps the ring between steps: the same pairs as brute force, cheaper.
    world.set_broad_phase(collide::BroadKind::Grid);
    world.edit_settings(|st| st.tunnelling = mode);
    let aims: Vec<Aabb> = world.shapes().iter().map(|s| s.aabb()).collect();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut stats = ShotStats::default();
    for _ in 0..shots {
        let speed = rng.gen_range(speeds.clone());
        let ball = aimed_ball(&mut rng, &aims, speed, world.step_seconds() as f32);
        stats.strays += shoot(&mut world, ball, speed, &mut stats.steps) as u64;
        stats.shots += 1;
    }
    stats.impact_tests = world.counters().total.impact_tests;
    stats.full_tests = world.counters().total.full_tests;
    stats
}

/// A ball somewhere inside the ring (in the middle half), aimed at a random place of a
/// random shape's box, up to a radius aside.
fn aimed_ball(rng: &mut StdRng, aims: &[Aabb], speed: f32, dt: f32) -> Ball {
    let start = polar(
        RING * 0.5 * rng.gen::<f32>().sqrt(),
        rng.gen_range(0.0..TAU),
    );
    let b = aims[rng.gen_range(0..aims.len())];
    let on = Vec2::new(
        rng.gen_range(b.min.x..=b.max.x),
        rng.gen_range(b.min.y..=b.max.y),
    );
    let dir = (on - start).normalize_or(Vec2::X);
    let aim = on + dir.perp() * rng.gen_range(-BALL_RADIUS..=BALL_RADIUS);
    let dir = (aim - start).normalize_or(Vec2::X);
    Ball::new(start, dir * speed * BALL_RADIUS / dt, BALL_RADIUS, 1.0, 0)
}

/// Runs one shot; true when the ball strayed.
fn shoot(world: &mut World, ball: Ball, speed: f32, steps: &mut u64) -> bool {
    world.clear();
    world.add_ball(ball);
    // Enough steps to cross the ring and, having tunnelled, the margin beyond it.
    let travel = 3.0 * RING / (speed * BALL_RADIUS).max(1e-3);
    let n = (travel.ceil() as u64).clamp(1, 10_000) + 2;
    for _ in 0..n {
        world.step();
        *steps += 1;
        if world.counters().strays > 0 {
            return true;
        }
    }
    false
}
