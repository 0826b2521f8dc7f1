//! The panels and windows (egui). Each reads what it shows from its owner (`seen.rs`) and
//! returns messages (`message.rs`); none changes the world or the app's state, which is why
//! a replay is exact.
//!
//! - `panel.rs`: the toolbar and the side panel, after the original toy's dialog; its sections
//!   `scene.rs` (the scene list and what a scene adds) and `contacts.rs` (the contact solver,
//!   sleep, the overlap meter).
//! - `window.rs`: the floating windows' one trait (`Window`: a name, `show(ctx, open)`);
//!   `windows.rs`: the one list of them with the names of the open ones (`Windows`).
//! - `help.rs`: the help window, from the key map. `chart.rs`, `energy.rs`, `experiment.rs`:
//!   the chart, energy and experiment windows; `tour.rs` below. `timeline.rs`: the
//!   record-and-replay bar.
//! - `params.rs`: the broad phase's parameters with their rules of thumb, Auto and Sweep.
//! - `notes.rs`: the lines that come and go by themselves (slow motion, advice, a sweep's
//!   progress), at the side panel's foot where they move nothing.
//! - `tour.rs`: Things to try (F3). `share.rs`: the share of brute force and the precision.
//! - `focus.rs`: who has the keyboard after a pass (only a text field the user clicked).
//! - `widgets.rs`: the grid rows every panel uses, and egui's set-up for the frame.
//! - `panel_cache.rs`: the panels kept as pixels between refreshes (software rendering).
//! - `panel_steady.rs` (tests): the side panel holds still while nobody touches it.
//!
//! Every slider of a decimal value fixes its decimals: egui otherwise picks them from the
//! slider's width in pixels, so one value would read "3.00" at one scale and "3.0" at another.

pub mod chart;
pub mod contacts;
pub mod energy;
pub mod experiment;
pub mod focus;
pub mod help;
pub mod notes;
pub mod panel;
pub mod panel_cache;
#[cfg(test)]
mod panel_steady;
pub mod params;
pub mod scene;
pub mod seen;
pub mod share;
pub mod timeline;
pub mod tour;
pub mod widgets;
pub mod window;
pub mod windows;
