//! The camera: world pixels (y up) to screen pixels (y down), fitted to the free area.

use collide::{Aabb, Vec2};

/// Maps the world box into a screen rectangle, keeping the aspect ratio.
#[derive(Clone, Copy, Debug)]
pub struct View {
    origin: Vec2,
    scale: f32,
    world: Aabb,
    area: (Vec2, Vec2),
}

impl View {
    /// Fits `world` into the screen rectangle `min`..`max` with a small margin.
    pub fn fit(world: Aabb, min: Vec2, max: Vec2) -> Self {
        let avail = (max - min - Vec2::splat(24.0)).max(Vec2::splat(10.0));
        let size = world.size().max(Vec2::splat(1e-3));
        let scale = (avail.x / size.x).min(avail.y / size.y);
        let used = size * scale;
        let origin = min + (max - min - used) * 0.5;
        Self {
            origin,
            scale,
            world,
            area: (min, max),
        }
    }

    /// The screen rectangle the view was fitted into (`min`, `max`, px).
    pub fn area(&self) -> (Vec2, Vec2) {
        self.area
    }

    /// Screen position of a world point.
    pub fn pt(&self, p: Vec2) -> Vec2 {
        Vec2::new(
            self.origin.x + (p.x - self.world.min.x) * self.scale,
            self.origin.y + (self.world.max.y - p.y) * self.scale,
        )
    }

    /// Screen length of a world length.
    pub fn len(&self, l: f32) -> f32 {
        l * self.scale
    }

    /// Pixels per world pixel.
    pub fn scale(&self) -> f32 {
        self.scale
    }
}
