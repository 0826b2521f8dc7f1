//! Bounding hulls (Schwarzl 2012, "Bounding Shapes"): the cheap rectangle or circle a shape
//! group is wrapped in and tested first (see [`Group`](super::Group)). A hull test is one box or
//! one circle test.

use super::Aabb;
use crate::geom::angle;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Which hull a group is wrapped in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum HullKind {
    /// An axis-aligned rectangle.
    #[default]
    Rect,
    /// A circle.
    Circle,
}

/// A bounding hull (px).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Hull {
    /// An axis-aligned rectangle.
    Rect(Aabb),
    /// A circle.
    Circle {
        /// Centre (px).
        c: Vec2,
        /// Radius (px).
        r: f32,
    },
}

impl Hull {
    /// The hull's bounding box.
    pub fn aabb(&self) -> Aabb {
        match *self {
            Hull::Rect(b) => b,
            Hull::Circle { c, r } => Aabb::around(c, r),
        }
    }

    /// True when the circle (`c`, `r`) touches or overlaps the hull: the conservative test,
    /// so a member can never be hit while its hull is missed.
    pub(crate) fn overlaps_circle(&self, c: Vec2, r: f32) -> bool {
        let r = r.max(0.0);
        match *self {
            // Closest point of the box to the centre, then a squared distance.
            Hull::Rect(b) => (c - c.clamp(b.min, b.max)).length_squared() <= r * r,
            Hull::Circle { c: hc, r: hr } => {
                let reach = r + hr.max(0.0);
                (c - hc).length_squared() <= reach * reach
            }
        }
    }

    /// This hull turned by `angle` (rad) about `pivot`. A rectangle hull becomes the box of
    /// its turned corners: still a hull, but no longer the tightest (recompute it from the
    /// members when they are at hand).
    pub(crate) fn rotated(&self, pivot: Vec2, angle: f32) -> Hull {
        let rot = angle::from_angle(angle);
        match *self {
            Hull::Rect(b) => {
                let k = [
                    b.min,
                    Vec2::new(b.max.x, b.min.y),
                    b.max,
                    Vec2::new(b.min.x, b.max.y),
                ]
                .map(|p| pivot + rot.rotate(p - pivot));
                Hull::Rect(Aabb::new(k[0], k[2]).merged(&Aabb::new(k[1], k[3])))
            }
            Hull::Circle { c, r } => Hull::Circle {
                c: pivot + rot.rotate(c - pivot),
                r,
            },
        }
    }
}

impl Hull {
    /// This hull moved by `d` (px).
    pub(crate) fn translated(&self, d: Vec2) -> Hull {
        match *self {
            Hull::Rect(b) => Hull::Rect(Aabb {
                min: b.min + d,
                max: b.max + d,
            }),
            Hull::Circle { c, r } => Hull::Circle { c: c + d, r },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_overlap_counts_touching() {
        let h = Hull::Rect(Aabb::new(Vec2::ZERO, Vec2::ONE));
        assert!(h.overlaps_circle(Vec2::new(2.0, 0.5), 1.0));
        assert!(!h.overlaps_circle(Vec2::new(2.0, 2.0), 1.0));
    }
}
