//! rapier2d 0.36 as its docs advise for a world not in metres: `length_unit` set to the typical
//! object size (the mean ball diameter), which scales its allowed error, speculative margin,
//! push-out speed, speed cap and sleep speeds. Every other parameter is its default (a frame
//! of 1/60 s solved in 4 sub-steps, the toy's count). Balls are dynamic balls (density 1),
//! the walls free segments, or solid boxes behind the drum's faces on one kinematic
//! velocity-based body turning at its rate about its centre. Friction and restitution as the toy's; rapier has no rolling
//! resistance. Built with its `parallel` feature: it steps on a rayon pool of its own, of
//! the thread count asked.

use crate::engine::{Disc, Engine};
use crate::setup::{Setup, DRUM_WALL};
use rapier2d::prelude::*;

/// A rapier world, its balls and the body its walls turn on.
pub struct Rapier {
    world: PhysicsWorld,
    walls: Option<RigidBodyHandle>,
    balls: Vec<(RigidBodyHandle, f32)>,
    /// Depth of the walls behind their faces (px).
    depth: f32,
}

impl Rapier {
    /// rapier on `threads` threads with `setup`'s balls.
    pub fn new(setup: &Setup, threads: usize) -> Self {
        let mut world = PhysicsWorld {
            gravity: Vector::new(0.0, -setup.gravity),
            ..PhysicsWorld::default()
        };
        world.integration_parameters.length_unit = setup.length_unit();
        world.integration_parameters.num_solver_iterations = setup.substeps as usize;
        world
            .physics_pipeline
            .configure_thread_pool(threads)
            .expect("rapier's thread pool starts");
        let walls = add_walls(&mut world, setup);
        let balls = setup.discs.iter().map(|d| {
            let body = RigidBodyBuilder::dynamic()
                .translation(Vector::new(d.pos[0], d.pos[1]))
                .linvel(Vector::new(d.vel[0], d.vel[1]));
            let ball = ColliderBuilder::ball(d.r)
                .friction(setup.friction)
                .restitution(setup.restitution);
            (world.insert(body, ball).0, d.r)
        });
        let balls = balls.collect();
        Self {
            world,
            walls,
            balls,
            depth: if setup.spin != 0.0 { DRUM_WALL } else { 0.0 },
        }
    }
}

/// The walls: free segments when still, else solid boxes behind the drum's faces
/// ([`DRUM_WALL`]) on a kinematic body at the pivot.
fn add_walls(world: &mut PhysicsWorld, setup: &Setup) -> Option<RigidBodyHandle> {
    let body = (setup.spin != 0.0).then(|| {
        let at = Vector::new(setup.pivot[0], setup.pivot[1]);
        let b = RigidBodyBuilder::kinematic_velocity_based()
            .translation(at)
            .angvel(setup.spin);
        world.insert_body(b)
    });
    let origin = body.map_or([0.0, 0.0], |_| setup.pivot);
    let local = |p: [f32; 2]| Vector::new(p[0] - origin[0], p[1] - origin[1]);
    for w in &setup.walls {
        let wall = match body {
            Some(_) => {
                let slab = w.slab(setup.pivot, DRUM_WALL);
                ColliderBuilder::cuboid(slab.half[0], slab.half[1])
                    .translation(local(slab.centre))
                    .rotation(slab.angle)
            }
            None => ColliderBuilder::segment(local(w.a), local(w.b)),
        };
        world.insert_collider(
            wall.friction(setup.friction).restitution(setup.restitution),
            body,
        );
    }
    body
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

    fn turned(&self) -> f32 {
        self.walls
            .map_or(0.0, |h| self.world.bodies[h].rotation().angle())
    }

    fn wall_depth(&self) -> f32 {
        self.depth
    }
}
