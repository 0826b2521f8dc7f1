//! What the soft narrow phase's blocks of ball pairs (`blocks.rs`) need of a width beyond
//! the solver's operations ([`Wide`]); each width's file implements it beside `Wide`.

use crate::geom::Ball;
use crate::world::soft::wide::Wide;

/// What the narrow phase needs of a width beyond the solver's operations (`Wide`).
pub(crate) trait FindWide: Wide {
    /// The square root, correctly rounded (as `f32::sqrt`).
    fn sqrt(self) -> Self;
    /// Bit `i` set where lane `i` has `self >= b` (ordered: clear for a NaN).
    fn ge_bits(self, b: Self) -> u32;
    /// The balls `ids` (`LANES` of them) as centre x, y, velocity x, y, radius, mass and
    /// elasticity.
    fn balls(balls: &[Ball], ids: &[u32]) -> [Self; 7];
}
