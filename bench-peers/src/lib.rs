//! Empty: this package only holds the `scale` benchmark (benches/scale.rs).
