//! Shape groups and their hulls (Schwarzl 2012, "Bounding Shapes" and "Bounded Shape Groups").
//!
//! A [`Group`] is one object made of several shapes (a flipper, a compound bumper). It is
//! wrapped in one cheap hull, tested first: when the ball misses the hull it misses every
//! member, and the member tests are saved. Two hulls, computed as Schwarzl (2012) does:
//!
//! - rectangle hull: the union of the members' bounding rectangles
//!   (`rectangles_rectangle_hull`); exact for shapes that do not turn;
//! - circle hull: centred on the rectangle hull's centre, with the radius reaching the
//!   farthest point of any member (`circles_circle_hull`); not the smallest circle, but cheap,
//!   and it survives rotation about its centre.
//!
//! Cost: a hull test is one box or one circle test; computing a hull is linear in members.

use super::{Aabb, Geometry, Hull, HullKind, Shape};
use serde::{Deserialize, Serialize};

/// The members of one shape group, in their current pose.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Group {
    /// The shapes, guard points included. They move with the group.
    pub members: Vec<Shape>,
    /// The hull the group is wrapped in.
    pub hull_kind: HullKind,
}

impl Group {
    /// The hull of the members in their current pose.
    pub fn hull(&self) -> Hull {
        let geoms = || self.members.iter().map(|m| &m.geom);
        match self.hull_kind {
            HullKind::Rect => Hull::Rect(rect_hull(geoms())),
            HullKind::Circle => circle_hull(geoms()),
        }
    }
}

/// The rectangle hull of shapes: the union of their bounding rectangles (empty: a zero box).
pub(crate) fn rect_hull<'a>(geoms: impl Iterator<Item = &'a Geometry>) -> Aabb {
    geoms
        .map(Geometry::aabb)
        .reduce(|h, b| h.merged(&b))
        .unwrap_or_default()
}

/// The circle hull of shapes: centre of the rectangle hull, radius to the farthest point.
pub(crate) fn circle_hull<'a>(geoms: impl Iterator<Item = &'a Geometry> + Clone) -> Hull {
    let c = rect_hull(geoms.clone()).centre();
    let r = geoms.map(|g| g.reach_from(c)).fold(0.0, f32::max);
    Hull::Circle { c, r }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Motion;
    use glam::Vec2;

    fn circle(x: f32, y: f32, r: f32) -> Shape {
        Shape::new(
            Geometry::Circle {
                c: Vec2::new(x, y),
                r,
            },
            1.0,
            Motion::Static,
        )
    }

    #[test]
    fn rect_hull_is_the_union_of_member_boxes() {
        let g = Group {
            members: vec![circle(0.0, 0.0, 1.0), circle(10.0, 4.0, 2.0)],
            hull_kind: HullKind::Rect,
        };
        let Hull::Rect(b) = g.hull() else { panic!() };
        assert_eq!(b, Aabb::new(Vec2::new(-1.0, -1.0), Vec2::new(12.0, 6.0)));
    }

    #[test]
    fn circle_hull_is_schwarzls_and_encloses_every_member() {
        let g = Group {
            members: vec![circle(0.0, 0.0, 1.0), circle(10.0, 0.0, 3.0)],
            hull_kind: HullKind::Circle,
        };
        let Hull::Circle { c, r } = g.hull() else {
            panic!()
        };
        // Rectangle hull x ∈ [-1, 13] → centre x = 6; reach = max(6 + 1, 4 + 3) = 7.
        assert!((c - Vec2::new(6.0, 0.0)).length() < 1e-5);
        assert!((r - 7.0).abs() < 1e-5);
    }
}
