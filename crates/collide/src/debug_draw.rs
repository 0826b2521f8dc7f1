//! The debug-draw boundary: the library describes overlays as primitives, the app draws them
//! (the Box2D `b2DebugDraw` / rapier `DebugRenderBackend` pattern). Coordinates are world
//! pixels, y up.

use crate::geom::Aabb;
use glam::Vec2;

/// A colour, components in 0..=1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rgba(pub f32, pub f32, pub f32, pub f32);

impl Rgba {
    /// The same colour with alpha `a`.
    pub(crate) fn with_alpha(self, a: f32) -> Rgba {
        Rgba(self.0, self.1, self.2, a)
    }

    /// A colour on a blue→green→yellow→red ramp for `t` in 0..=1 (heat maps).
    pub(crate) fn heat(t: f32) -> Rgba {
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let r = (t * 2.0).min(1.0);
        let g = if t < 0.5 { t * 2.0 } else { 2.0 - t * 2.0 };
        let b = (1.0 - t * 2.0).max(0.0);
        Rgba(r, g.max(0.25 * b), b, 1.0)
    }

    /// A distinct colour for small integers (depth, shift, group), cycling through 8 hues.
    pub fn palette(i: usize) -> Rgba {
        const P: [Rgba; 8] = [
            Rgba(0.95, 0.30, 0.85, 1.0),
            Rgba(0.25, 0.85, 0.95, 1.0),
            Rgba(0.98, 0.80, 0.20, 1.0),
            Rgba(0.40, 0.95, 0.40, 1.0),
            Rgba(1.00, 0.45, 0.30, 1.0),
            Rgba(0.55, 0.55, 1.00, 1.0),
            Rgba(0.90, 0.90, 0.90, 1.0),
            Rgba(0.60, 0.80, 0.30, 1.0),
        ];
        P[i % P.len()]
    }
}

/// One thing to draw.
#[derive(Clone, Debug, PartialEq)]
pub enum Prim {
    /// A box, optionally filled and optionally outlined.
    Rect {
        /// The box (px).
        aabb: Aabb,
        /// Fill colour.
        fill: Option<Rgba>,
        /// Outline colour.
        stroke: Option<Rgba>,
    },
    /// A line.
    Line {
        /// Start (px).
        a: Vec2,
        /// End (px).
        b: Vec2,
        /// Colour.
        color: Rgba,
    },
    /// A short text label at a world point.
    Text {
        /// Anchor (px).
        at: Vec2,
        /// The text.
        text: String,
        /// Colour.
        color: Rgba,
    },
}

/// What the app implements to draw library overlays.
pub trait DebugDraw {
    /// Draws one primitive.
    fn draw(&mut self, prim: Prim);
}

/// A [`DebugDraw`] that keeps the primitives, for tests.
#[cfg(test)]
#[derive(Default, Debug)]
pub struct Recorder {
    /// Everything drawn so far.
    pub prims: Vec<Prim>,
}

#[cfg(test)]
impl DebugDraw for Recorder {
    fn draw(&mut self, prim: Prim) {
        self.prims.push(prim);
    }
}
