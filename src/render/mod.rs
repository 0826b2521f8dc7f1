//! Drawing: the camera, the world and its overlays, and the two drawing paths.
//!
//! - `view.rs`: the camera, world to screen. `screen.rs`: logical and physical pixels, text.
//! - `draw.rs`: the world with its overlays; `scene_draw.rs` pockets and strings;
//!   `pinball.rs` what a played table shows; `fx.rs` the effects fed by the hits.
//! - `renderer.rs`: the drawing path chosen from the GL renderer. `sprites.rs`: the balls as
//!   batched quads or one CPU-drawn image (`splat.rs`), copied into the window (`raw_gl.rs`).
//! - `palette.rs`: a colour per broad phase, shared by the charts.
//! - `heat.rs`, `probe.rs`, `solver_view.rs`: the heat map, the probe and the solver view,
//!   drawn from the world's records (`World::probe`, `World::solver_contacts`);
//!   `heat_paint.rs` the heat's places as texels, painted into the canvas of balls.
//! - `display.rs`: the screen's size, and a window larger than it made to fit.

pub mod display;
pub mod draw;
pub mod fx;
pub mod heat;
pub mod heat_paint;
pub mod palette;
pub mod pinball;
pub mod probe;
pub mod raw_gl;
pub mod renderer;
pub mod scene_draw;
pub mod screen;
pub mod solver_view;
pub mod splat;
pub mod sprites;
pub mod view;
