//! A world from a built-in scene, twenty balls launched up the lane, ten simulated seconds,
//! the balls read back: `cargo run -p collide --example quickstart`.

use collide::{BroadKind, Scene};

fn main() {
    let scene = Scene::builtin("table").expect("the table is built in");
    let mut world = scene.build(1); // the seed of the world's random numbers
    world.set_broad_phase(BroadKind::Grid); // any broad phase: the same pairs, the same run
    world.launch(20); // queued; they enter up the lane one at a time
    for _ in 0..10 * world.steps_per_second() {
        world.step();
    }
    for (i, b) in world.balls().iter().enumerate() {
        println!("ball {i:2}: at {:.1} px, moving {:.1} px/s", b.pos, b.vel);
    }
    let c = world.counters();
    println!("{} AABB tests in all", c.total.broad.aabb_tests);
    println!("state hash {:016x}", world.state_hash());
}
