//! # collide-lab — the test harness of the `collide` library
//!
//! What the app's `check` and `bench` commands, the library's tests and the benchmarks run on
//! top of the library's public interface; a program that only simulates does not need it.
//!
//! - [`checks`]: the promises as functions, each trying many seeded cases.
//! - [`experiments`]: the source documents' measurements, returning rows.
//! - [`kinds`]: each obstacle kind as the lab sees it, in one place.
//! - [`shots`]: seeded shots at closed containers, the measure of tunnelling.
//! - [`scenarios`]: seeded inputs for the broad phases' equivalence tests and benchmarks.
#![warn(missing_docs)]

pub mod checks;
pub mod experiments;
pub mod kinds;
pub mod scenarios;
pub mod shots;
