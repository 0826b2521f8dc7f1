//! A colour per broad phase, the same in the PNG charts of `bench` and in the experiment
//! window, so a line is recognised across them.

use collide::BroadKind;

/// The colour of `kind`'s lines (RGB bytes).
pub fn broad_colour(kind: BroadKind) -> (u8, u8, u8) {
    match kind {
        BroadKind::Brute => (215, 38, 38),
        BroadKind::Quadtree => (30, 150, 60),
        BroadKind::Sectors => (31, 100, 200),
        BroadKind::Adjacent => (120, 170, 240),
        BroadKind::Grid => (150, 80, 200),
        BroadKind::Rdc => (230, 140, 20),
        BroadKind::Sap => (20, 170, 170),
        BroadKind::Tree => (110, 80, 40),
    }
}
