//! The runs without a window: `bench` and `check` (subcommands), `--replay`, and
//! `--headless --frames N`.

#[cfg(not(target_arch = "wasm32"))]
pub mod bench;
#[cfg(not(target_arch = "wasm32"))]
pub mod bench_chart;
#[cfg(not(target_arch = "wasm32"))]
pub mod check;
pub mod headless;
pub mod replay;
