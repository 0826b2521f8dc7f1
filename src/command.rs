//! What the user asked for: the panels, the keys and the mouse return [`Command`]s, and the
//! app applies them to the world between two steps, through the recorder, so a run replays
//! exactly. Nothing here reads input or draws.

use collide::{BroadKind, Vec2};

/// What the user asked for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Launch this many balls.
    Launch(u32),
    /// Replace the world's settings (the panel's edits of what it read from the world).
    Settings(collide::Settings),
    /// Remove every ball.
    Clear,
    /// Reload the scene.
    Restart,
    /// Leave.
    Quit,
    /// Use this broad phase.
    SetBroad(BroadKind),
    /// Set a parameter of the broad phase.
    SetParam(&'static str, f32),
    /// Run one frame while paused.
    Step,
    /// Replace the balls with this many at random places, of at most this radius (px).
    Fill(u32, f32),
    /// Launch a ball now at this place (px) with this velocity (px/s).
    LaunchAt(Vec2, Vec2),
    /// Put this ball here (px) with this velocity (px/s).
    MoveBall(collide::BallId, Vec2, Vec2),
    /// Delete this ball.
    RemoveBall(collide::BallId),
    /// Load the built-in scene with this index in [`crate::cli::BUILT_IN`].
    LoadScene(usize),
    /// Press (`true`) or release a game control (flippers, plunger).
    Control(collide::Control, bool),
    /// Reload the scene with this many balls in its own fill (rain, field).
    SceneFill(u32),
    /// Set the toy up for experiment `k` of Things to try (`tour/`).
    Tour(usize),
    /// Measure AABB tests against this parameter of the broad phase, on the balls as they
    /// stand (`ui/params.rs`; the world in play is not touched).
    SweepParam(&'static str),
}
