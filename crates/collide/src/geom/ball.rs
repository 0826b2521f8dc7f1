//! A ball: the one dynamic body, a circle with a velocity, a mass and a spin (whether it
//! sleeps is the sleep stage's, kept beside it in the world's ball table). The world moves balls; the response (`response.rs`) and the energy
//! (`energy.rs`) read and change them.

use super::Aabb;
use glam::Vec2;

/// Fastest a ball may go (px/s): keeps positions finite whatever the elasticities.
pub(crate) const MAX_SPEED: f32 = 1.0e6;

/// A dynamic ball: a circle with a velocity; mass is proportional to its area.
///
/// Aligned to 16 bytes (48 in all), so a ball's place and velocity never straddle two cache
/// lines: the push-out's pair loop reads and writes them at random. Laid out as written
/// (`repr(C)`): the soft narrow phase's vectors read a ball's first eight fields as one
/// 32-byte row of floats (`world/soft/find/blocks.rs`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[repr(C, align(16))]
pub struct Ball {
    /// Centre (px).
    pub pos: Vec2,
    /// Velocity (px/s).
    pub vel: Vec2,
    /// Radius (px).
    pub radius: f32,
    /// Mass, `radius²` (the constant π cancels in every response).
    pub mass: f32,
    /// Elasticity of the ball.
    pub elasticity: f32,
    /// Colour index (a hue seed for the app).
    pub color: u32,
    /// Angular velocity (rad/s, counter-clockwise): only the soft solver's friction turns it.
    #[serde(default)]
    pub spin: f32,
}

impl Ball {
    /// A ball; radius is clamped to ≥ 0 and the mass kept positive so responses stay finite.
    pub fn new(pos: Vec2, vel: Vec2, radius: f32, elasticity: f32, color: u32) -> Self {
        let radius = if radius.is_finite() {
            radius.max(0.0)
        } else {
            0.0
        };
        Self {
            pos,
            vel,
            radius,
            mass: (radius * radius).max(1e-6),
            elasticity,
            color,
            spin: 0.0,
        }
    }

    /// The ball's box.
    pub fn aabb(&self) -> Aabb {
        Aabb::around(self.pos, self.radius)
    }
}

/// `v` with its length capped at [`MAX_SPEED`]; zero when not finite.
pub(crate) fn clamp_speed(v: Vec2) -> Vec2 {
    if !v.is_finite() {
        return Vec2::ZERO;
    }
    let s2 = v.length_squared();
    if s2 > MAX_SPEED * MAX_SPEED {
        v * (MAX_SPEED / s2.sqrt())
    } else {
        v
    }
}
