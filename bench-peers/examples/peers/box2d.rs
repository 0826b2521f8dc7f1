//! Box2D v3 (3.2, built from the C sources `boxdd-sys` ships, AVX2) as its docs advise for a
//! world in pixels: `b2SetLengthUnitsPerMeter` set to the mean ball diameter before anything
//! is made, so its slop, speculative margin, contact push speed and sleep speed scale with
//! the balls. Every other world setting is its default (contacts at 30 Hz, damping ratio
//! 10, continuous collision on). Balls are dynamic circles (density 1), the walls segments
//! on one body: still segments, or solid boxes behind the drum's faces on a kinematic body
//! turning at its rate about its centre. Friction,
//! restitution and rolling resistance as the toy's. On more than one thread, Box2D's workers
//! run on [`crate::tasks`] (or, as `box2d-builtin`, on the scheduler this Box2D starts itself
//! when given no task functions); on one, its serial path.

use crate::engine::{Disc, Engine};
use crate::setup::{Setup, DRUM_WALL};
use crate::tasks::{self, Tasks};
use boxdd_sys::ffi::*;

/// A Box2D world, its balls and, past one thread, the pool its workers run on.
pub struct Box2d {
    world: b2WorldId,
    walls: b2BodyId,
    balls: Vec<(b2BodyId, f32)>,
    substeps: i32,
    /// Depth of the walls behind their faces (px).
    depth: f32,
    /// Dropped after the world (see `Drop`).
    tasks: Option<Tasks>,
}

fn v(p: [f32; 2]) -> b2Vec2 {
    b2Vec2 { x: p[0], y: p[1] }
}

impl Box2d {
    /// Box2D on `threads` workers with `setup`'s balls, past one thread on [`crate::tasks`]
    /// (`own_tasks`) or on the scheduler Box2D starts itself when given no task functions.
    pub fn new(setup: &Setup, threads: usize, own_tasks: bool) -> Self {
        // SAFETY: plain calls into Box2D's C API with definitions made by its own defaults.
        unsafe {
            b2SetLengthUnitsPerMeter(setup.length_unit());
            let mut def = b2DefaultWorldDef();
            def.gravity = v([0.0, -setup.gravity]);
            def.workerCount = threads as i32;
            let tasks = (threads > 1 && own_tasks).then(|| Tasks::new(threads - 1));
            if let Some(t) = &tasks {
                def.enqueueTask = Some(tasks::enqueue);
                def.finishTask = Some(tasks::finish);
                def.userTaskContext = t.context();
            }
            let world = b2CreateWorld(&def);
            let walls = add_walls(world, setup);
            let balls = setup.discs.iter().map(|d| (add_ball(world, setup, d), d.r));
            Self {
                world,
                walls,
                balls: balls.collect(),
                substeps: setup.substeps as i32,
                depth: if setup.spin != 0.0 { DRUM_WALL } else { 0.0 },
                tasks,
            }
        }
    }
}

/// The shape definition every wall and ball gets: the toy's friction, restitution and
/// rolling resistance, Box2D's default density (1).
unsafe fn shape_def(setup: &Setup) -> b2ShapeDef {
    // SAFETY: Box2D's default definition, then plain fields.
    let mut def = unsafe { b2DefaultShapeDef() };
    def.material.friction = setup.friction;
    def.material.restitution = setup.restitution;
    def.material.rollingResistance = setup.rolling;
    def
}

/// The walls on one body at the pivot: segments; when the scene's walls turn, a kinematic
/// body turning at their rate, each wall a solid box behind its face ([`DRUM_WALL`]).
unsafe fn add_walls(world: b2WorldId, setup: &Setup) -> b2BodyId {
    // SAFETY: definitions from Box2D's defaults, a live world.
    unsafe {
        let mut def = b2DefaultBodyDef();
        def.position = v(setup.pivot);
        if setup.spin != 0.0 {
            def.type_ = b2BodyType_b2_kinematicBody;
            def.angularVelocity = setup.spin;
        }
        let body = b2CreateBody(world, &def);
        let shape = shape_def(setup);
        let local = |p: [f32; 2]| v([p[0] - setup.pivot[0], p[1] - setup.pivot[1]]);
        for w in &setup.walls {
            if setup.spin != 0.0 {
                let slab = w.slab(setup.pivot, DRUM_WALL);
                let turn = b2ComputeCosSin(slab.angle);
                let rot = b2Rot {
                    c: turn.cosine,
                    s: turn.sine,
                };
                let solid = b2MakeOffsetBox(slab.half[0], slab.half[1], local(slab.centre), rot);
                b2CreatePolygonShape(body, &shape, &solid);
            } else {
                let segment = b2Segment {
                    point1: local(w.a),
                    point2: local(w.b),
                };
                b2CreateSegmentShape(body, &shape, &segment);
            }
        }
        body
    }
}

/// One ball: a dynamic body with a circle.
unsafe fn add_ball(world: b2WorldId, setup: &Setup, d: &Disc) -> b2BodyId {
    // SAFETY: definitions from Box2D's defaults, a live world.
    unsafe {
        let mut def = b2DefaultBodyDef();
        def.type_ = b2BodyType_b2_dynamicBody;
        def.position = v(d.pos);
        def.linearVelocity = v(d.vel);
        let body = b2CreateBody(world, &def);
        let circle = b2Circle {
            center: v([0.0, 0.0]),
            radius: d.r,
        };
        b2CreateCircleShape(body, &shape_def(setup), &circle);
        body
    }
}

impl Engine for Box2d {
    fn frame(&mut self) {
        // SAFETY: a live world.
        unsafe { b2World_Step(self.world, 1.0 / 60.0, self.substeps) };
    }

    fn discs(&self) -> Vec<Disc> {
        let disc = |&(id, r): &(b2BodyId, f32)| {
            // SAFETY: a live body of a live world.
            let (p, vel) = unsafe { (b2Body_GetPosition(id), b2Body_GetLinearVelocity(id)) };
            Disc {
                pos: [p.x, p.y],
                vel: [vel.x, vel.y],
                r,
            }
        };
        self.balls.iter().map(disc).collect()
    }

    fn awake(&self) -> usize {
        // SAFETY: live bodies of a live world.
        let awake = |(id, _): &&(b2BodyId, f32)| unsafe { b2Body_IsAwake(*id) };
        self.balls.iter().filter(awake).count()
    }

    fn turned(&self) -> f32 {
        // SAFETY: a live body of a live world.
        let q = unsafe { b2Body_GetRotation(self.walls) };
        q.s.atan2(q.c)
    }

    fn wall_depth(&self) -> f32 {
        self.depth
    }
}

impl Drop for Box2d {
    fn drop(&mut self) {
        // SAFETY: the world is live and destroyed once; its workers' pool outlives it.
        unsafe { b2DestroyWorld(self.world) };
        drop(self.tasks.take());
    }
}
