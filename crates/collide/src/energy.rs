//! Energy and momentum of the balls: kinetic `½·m·v²`, potential `m·g·h` with `h` the height
//! above a floor, and momentum `Σ m·v`, with the library's mass `m = radius²` (px², the
//! constant density and π left out, as in the response). Units are then px⁴/s² for energy and
//! px³/s for momentum: compare values with each other, not with joules.

use crate::geom::Ball;
use glam::Vec2;

/// Energy and momentum of a set of balls.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Energy {
    /// Σ ½·m·|v|².
    pub kinetic: f64,
    /// Σ m·g·(y − floor).
    pub potential: f64,
    /// Σ m·v.
    pub momentum: Vec2,
}

impl Energy {
    /// Sums over `balls` at gravity `g` (px/s², pointing down), heights from `floor_y` (px).
    pub fn of(balls: &[Ball], g: f32, floor_y: f32) -> Self {
        let mut e = Self::default();
        for b in balls {
            let m = b.mass as f64;
            e.kinetic += 0.5 * m * b.vel.length_squared() as f64;
            e.potential += m * g as f64 * (b.pos.y - floor_y) as f64;
            e.momentum += b.vel * b.mass;
        }
        e
    }

    /// Kinetic plus potential.
    pub fn total(&self) -> f64 {
        self.kinetic + self.potential
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_ball_sums_by_hand() {
        let b = Ball::new(Vec2::new(0.0, 110.0), Vec2::new(3.0, 4.0), 2.0, 1.0, 0);
        let e = Energy::of(&[b], 10.0, 10.0);
        assert_eq!(e.kinetic, 0.5 * 4.0 * 25.0);
        assert_eq!(e.potential, 4.0 * 10.0 * 100.0);
        assert_eq!(e.total(), 50.0 + 4000.0);
        assert_eq!(e.momentum, Vec2::new(12.0, 16.0));
    }
}
