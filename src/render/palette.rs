//! A colour per broad phase, the same in the PNG charts of `bench` and in the experiment
//! window, so a line is recognised across them: the colour each broad phase declares in the
//! library (`BroadInfo::colour`).

use collide::BroadKind;

/// The colour of `kind`'s lines (RGB bytes).
pub fn broad_colour(kind: BroadKind) -> (u8, u8, u8) {
    let [r, g, b] = kind.describe().colour;
    (r, g, b)
}
