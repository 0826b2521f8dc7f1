//! Helpers shared by the integration tests: the library's, and the harness's (which include
//! this file by its path, so there is one copy).
#![allow(dead_code)]

use collide::{Scene, World};

/// The table scene shipped with the app.
pub const TABLE: &str = include_str!("../../scenes/table.ron");

/// The table, built with `seed`.
pub fn table(seed: u64) -> World {
    Scene::parse(TABLE, "table.ron")
        .expect("the table scene parses")
        .build(seed)
}

/// Relative closeness with one tolerance rule for every test.
pub fn close(a: f32, b: f32, rel: f32) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1.0)
}

/// [`close`] on both components of two vectors.
pub fn close_v(a: collide::Vec2, b: collide::Vec2, rel: f32) -> bool {
    close(a.x, b.x, rel) && close(a.y, b.y, rel)
}
