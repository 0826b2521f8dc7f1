//! One scene as every engine is given it: the toy's scene file read once, its balls placed
//! once by the toy's seeded fill, and the walls, their turn, gravity, friction, restitution,
//! rolling resistance, frame and sub-steps read from the toy's settings, so that the three
//! engines start from the same balls in the same box.

use crate::engine::Disc;
use collide::scene::{MotionDesc, ShapeKind};
use collide::{Aabb, Ball, Scene, World};
use std::f32::consts::TAU;
use std::path::Path;

/// What one measured scene is: its file, its balls and how long it runs.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// The name the table shows (`pile`, `drum`).
    pub name: &'static str,
    /// The toy's scene file, relative to this package.
    pub file: &'static str,
    /// Balls.
    pub balls: u32,
    /// Simulated seconds run.
    pub seconds: u32,
    /// The simulated seconds whose frames are timed, `[from, to)`.
    pub timed: (u32, u32),
}

/// A wall segment at the walls' starting pose (px).
#[derive(Clone, Copy, Debug)]
pub struct Wall {
    pub a: [f32; 2],
    pub b: [f32; 2],
}

/// Thickness of the solid walls the peers' drum is made of, behind the square's faces (px).
/// Box2D and rapier pushed a tenth to a quarter of the balls through a turning wall of bare
/// segments (a kinematic body gets no continuous collision, and their piles sink deeper than
/// a radius into a wall); the toy keeps its segments.
pub const DRUM_WALL: f32 = 100.0;

/// A solid box behind a wall: centre (px), half length along the wall and half thickness
/// (px), angle of the wall (rad).
#[derive(Clone, Copy, Debug)]
pub struct Slab {
    pub centre: [f32; 2],
    pub half: [f32; 2],
    pub angle: f32,
}

impl Wall {
    /// The box `thickness` px deep behind this wall (on the side away from `inside`), reaching
    /// `thickness` past each end so that neighbouring walls close their corner.
    pub fn slab(&self, inside: [f32; 2], thickness: f32) -> Slab {
        let d = [self.b[0] - self.a[0], self.b[1] - self.a[1]];
        let length = d[0].hypot(d[1]);
        let mut out = [d[1] / length, -d[0] / length];
        let mid = [(self.a[0] + self.b[0]) / 2.0, (self.a[1] + self.b[1]) / 2.0];
        if (inside[0] - mid[0]) * out[0] + (inside[1] - mid[1]) * out[1] > 0.0 {
            out = [-out[0], -out[1]];
        }
        let h = thickness / 2.0;
        Slab {
            centre: [mid[0] + out[0] * h, mid[1] + out[1] * h],
            half: [length / 2.0 + thickness, h],
            angle: d[1].atan2(d[0]),
        }
    }
}

/// Everything the engines share for one scene.
pub struct Setup {
    /// The toy's scene, without its fill (the balls are `discs`).
    pub scene: Scene,
    /// The seed the toy's fill used.
    pub seed: u64,
    /// The balls at the start, as the toy's fill made them.
    pub balls: Vec<Ball>,
    /// The same balls as the peers are given them.
    pub discs: Vec<Disc>,
    /// The walls at their starting pose.
    pub walls: Vec<Wall>,
    /// The point the walls turn about (px): the drum's centre; the box's centre for still walls.
    pub pivot: [f32; 2],
    /// The walls' turn rate (rad/s, counter-clockwise; 0: still).
    pub spin: f32,
    /// Gravity (px/s², pointing down).
    pub gravity: f32,
    /// Friction coefficient at every contact.
    pub friction: f32,
    /// Rolling resistance (the toy's: opposing torque per unit of normal force and radius).
    pub rolling: f32,
    /// Restitution at every contact.
    pub restitution: f32,
    /// Sub-steps a frame of 1/60 s.
    pub substeps: u32,
}

impl Setup {
    /// Reads `plan`'s scene from this package and places its balls with the toy's fill
    /// (seeded), the walls held still while it does.
    pub fn new(plan: &Plan, seed: u64) -> Self {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(plan.file);
        let scene = Scene::load(&path)
            .unwrap_or_else(|e| panic!("{}: the scene does not load: {e}", path.display()));
        let filled = still(&scene).with_fill_count(plan.balls).build(seed);
        let balls = filled.balls().to_vec();
        let discs = balls.iter().map(Disc::of).collect();
        let (walls, pivot, spin) = walls(&scene);
        let settings = filled.settings();
        let restitution = settings.ball_elasticity * scene.shapes[0].elasticity;
        Self {
            balls,
            discs,
            walls,
            pivot: pivot.unwrap_or_else(|| scene.bounds.centre().into()),
            spin,
            gravity: settings.gravity,
            friction: settings.soft.friction,
            rolling: settings.soft.rolling,
            restitution,
            substeps: filled.steps_per_second() / 60,
            scene: Scene {
                fill: None,
                ..scene
            },
            seed,
        }
    }

    /// The length unit the peers are told, as their docs advise for a world not in metres:
    /// the mean ball diameter (px).
    pub fn length_unit(&self) -> f32 {
        let sum: f64 = self.discs.iter().map(|d| f64::from(d.r)).sum();
        (2.0 * sum / self.discs.len().max(1) as f64) as f32
    }

    /// A fresh toy world of this scene with these balls (the walls not yet turned).
    pub fn toy_world(&self) -> World {
        let mut world = self.scene.build(self.seed);
        for b in &self.balls {
            world.add_ball(*b);
        }
        world
    }
}

/// `scene` with every shape still and, where some turned, its play area cut to the walls'
/// box, so that the fill places the balls inside the drum (the fill keeps clear of all a
/// turning shape sweeps, and puts its balls in the largest open region).
fn still(scene: &Scene) -> Scene {
    let mut s = scene.clone();
    let turning = s.shapes.iter().any(|d| d.motion != MotionDesc::Static);
    let mut walls_box: Option<Aabb> = None;
    for shape in &mut s.shapes {
        shape.motion = MotionDesc::Static;
        if let ShapeKind::Segment { a, b } = shape.kind {
            let b = Aabb::new(a, b);
            walls_box = Some(walls_box.map_or(b, |w| w.merged(&b)));
        }
    }
    if let Some(walls_box) = walls_box.filter(|_| turning) {
        s.bounds = walls_box;
    }
    s
}

/// The scene's segments, the pivot of the turning ones and their turn rate (rad/s). Panics on
/// any other shape: the peers are given segments only.
fn walls(scene: &Scene) -> (Vec<Wall>, Option<[f32; 2]>, f32) {
    let (mut walls, mut pivot, mut spin) = (Vec::new(), None, 0.0);
    for shape in &scene.shapes {
        let ShapeKind::Segment { a, b } = shape.kind else {
            panic!("{}: the peers are given segments only", scene.name);
        };
        walls.push(Wall {
            a: a.into(),
            b: b.into(),
        });
        if let MotionDesc::Kinematic { pivot: p, speed } = shape.motion {
            pivot = Some(p.into());
            spin = speed * TAU;
        }
    }
    (walls, pivot, spin)
}
