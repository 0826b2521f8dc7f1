//! The runs without a window: `bench` and `check` (subcommands), `--replay`, and
//! `--headless --frames N`.

pub mod bench;
pub mod bench_chart;
pub mod check;
pub mod headless;
pub mod replay;
