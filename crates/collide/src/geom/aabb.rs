//! Axis-aligned bounding boxes.
//!
//! Boxes are closed: two boxes that touch exactly (share an edge or a corner) overlap. Every
//! broad phase uses [`Aabb::overlaps`], so "touching" means the same thing everywhere.

use glam::Vec2;
use serde::{Deserialize, Serialize};

/// An axis-aligned box, `min <= max` on both axes (pixels). Laid out as
/// `[min x, min y, max x, max y]` (`repr(C)`), so one 4-wide load reads a box.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
#[repr(C)]
pub struct Aabb {
    /// Lower corner.
    pub min: Vec2,
    /// Upper corner.
    pub max: Vec2,
}

impl Aabb {
    /// A box from two corners (in any order).
    pub fn new(a: Vec2, b: Vec2) -> Self {
        Self {
            min: a.min(b),
            max: a.max(b),
        }
    }

    /// The box of a circle.
    pub fn around(centre: Vec2, radius: f32) -> Self {
        let r = Vec2::splat(radius.max(0.0));
        Self {
            min: centre - r,
            max: centre + r,
        }
    }

    /// Closed-interval overlap on both axes: touching boxes overlap.
    #[inline(always)]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }

    /// True when `p` lies inside or on the box.
    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }

    /// The smallest box holding both.
    pub fn merged(&self, other: &Aabb) -> Aabb {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The box grown by `margin` on every side.
    pub fn expanded(&self, margin: f32) -> Aabb {
        Aabb {
            min: self.min - Vec2::splat(margin),
            max: self.max + Vec2::splat(margin),
        }
    }

    /// The box with both corners clamped into `bounds` (monotone, so overlap is preserved).
    pub fn clamped(&self, bounds: &Aabb) -> Aabb {
        Aabb {
            min: self.min.clamp(bounds.min, bounds.max),
            max: self.max.clamp(bounds.min, bounds.max),
        }
    }

    /// Width and height.
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    /// Centre point.
    pub fn centre(&self) -> Vec2 {
        (self.min + self.max) * 0.5
    }

    /// Area (px²).
    pub fn area(&self) -> f32 {
        let s = self.size();
        s.x * s.y
    }

    /// Half the perimeter, the cost measure of AABB trees.
    pub(crate) fn half_perimeter(&self) -> f32 {
        let s = self.size();
        s.x + s.y
    }

    /// True when `other` lies entirely inside this box.
    pub(crate) fn encloses(&self, other: &Aabb) -> bool {
        self.min.x <= other.min.x
            && self.min.y <= other.min.y
            && other.max.x <= self.max.x
            && other.max.y <= self.max.y
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touching_boxes_overlap() {
        let a = Aabb::new(Vec2::ZERO, Vec2::ONE);
        let b = Aabb::new(Vec2::new(1.0, 0.0), Vec2::new(2.0, 1.0));
        let c = Aabb::new(Vec2::new(1.0, 1.0), Vec2::new(2.0, 2.0));
        assert!(a.overlaps(&b) && b.overlaps(&a));
        assert!(a.overlaps(&c), "corner contact counts");
        let d = Aabb::new(Vec2::new(1.001, 0.0), Vec2::new(2.0, 1.0));
        assert!(!a.overlaps(&d));
    }

    #[test]
    fn clamping_preserves_overlap() {
        let bounds = Aabb::new(Vec2::ZERO, Vec2::splat(10.0));
        let a = Aabb::new(Vec2::new(-20.0, 2.0), Vec2::new(-5.0, 3.0));
        let b = Aabb::new(Vec2::new(-6.0, 2.5), Vec2::new(-1.0, 8.0));
        assert!(a.overlaps(&b));
        assert!(a.clamped(&bounds).overlaps(&b.clamped(&bounds)));
    }
}
