//! Guard points (Parberry, Collision Math Toy: "segment ends carry guard points"): a point at
//! each end of a segment, gate or open arc, moving with its shape, so a ball that hits an end
//! bounces off the end the way it would off a corner. The narrow phase of a segment or arc
//! alone answers only for its interior; the point answers at the end. A world adds them to
//! its obstacles ([`crate::World::new`]), a scene to each group's members.

use super::{arc_is_closed, Geometry, Shape};
use crate::geom::angle;
use glam::Vec2;

/// Adds one point, moving with its shape, at every distinct segment, gate and arc end that
/// has no point there yet (so a second call adds nothing). Each guard names the shape it
/// guards in [`Shape::guard_of`] (by which a target's ends light with it).
pub(crate) fn add_guard_points(shapes: &mut Vec<Shape>) {
    let mut guards: Vec<Shape> = Vec::new();
    let taken = |list: &[Shape], q: Vec2| {
        list.iter()
            .any(|s| matches!(s.geom, Geometry::Point { p } if (p - q).length_squared() < 1e-6))
    };
    for (i, s) in shapes.iter().enumerate() {
        let ends: Vec<Vec2> = match s.geom {
            Geometry::Segment { a, b } | Geometry::Gate { a, b, .. } => vec![a, b],
            Geometry::Arc { c, r, start, end } if !arc_is_closed(start, end) => {
                vec![
                    c + angle::from_angle(start) * r,
                    c + angle::from_angle(end) * r,
                ]
            }
            _ => vec![],
        };
        for q in ends {
            if !taken(shapes, q) && !taken(&guards, q) {
                let mut g = Shape::new(Geometry::Point { p: q }, s.elasticity, s.motion);
                g.guard_of = Some(i as u32);
                guards.push(g);
            }
        }
    }
    shapes.extend(guards);
}
