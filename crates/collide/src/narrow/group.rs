//! A ball against an obstacle that may be a shape group (Schwarzl 2012, "Bounded Shape
//! Groups"; the composite-shape queries of parry): the hull is tested first, and only a ball
//! that touches it tests the members. The deepest member contact, or the earliest member
//! impact, answers for the whole group, with that member's elasticity.

use super::{contact_ball_shape, Contact, Impact};
use crate::geom::{Geometry, Group, Hull, Shape};
use glam::Vec2;

/// The tests a group query ran: hulls tested, hulls missed (sparing their members), and
/// member contact tests (the swept queries count their member tests themselves).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupTests {
    /// Hulls tested.
    pub hulls: u64,
    /// Hull tests that missed.
    pub rejections: u64,
    /// Member contact tests.
    pub members: u64,
}

/// The shapes a ball meets in obstacle `shape`: a group's members (none for a group number
/// `groups` lacks), else the obstacle itself.
pub fn parts_of<'a>(shape: &'a Shape, groups: &'a [Group]) -> &'a [Shape] {
    match shape.geom {
        Geometry::Group { id, .. } => groups.get(id as usize).map_or(&[], |g| &g.members),
        _ => std::slice::from_ref(shape),
    }
}

/// The contact of a ball (centre `c`, radius `r`, velocity `v` relative to the group) with a
/// group of `members` wrapped in `hull`: the deepest member contact (the first on a tie) and
/// that member's elasticity.
pub fn contact_ball_group(
    (c, r, v): (Vec2, f32, Vec2),
    hull: &Hull,
    members: &[Shape],
    tests: &mut GroupTests,
) -> Option<(Contact, f32)> {
    tests.hulls += 1;
    // Early out: the ball misses the hull, so it misses every member.
    if !hull.overlaps_circle(c, r) {
        tests.rejections += 1;
        return None;
    }
    tests.members += members.len() as u64;
    members
        .iter()
        .filter_map(|m| contact_ball_shape(c, r, v, &m.geom).map(|k| (k, m.elasticity)))
        .reduce(|a, b| if b.0.depth > a.0.depth { b } else { a })
}

/// The contact of a ball (centre `c`, radius `r`, velocity `v` relative to the obstacle) with
/// obstacle `shape`, a group answered by its deepest member (see [`contact_ball_group`]), and
/// the elasticity of what it touches.
pub fn contact_ball_obstacle(
    (c, r, v): (Vec2, f32, Vec2),
    shape: &Shape,
    groups: &[Group],
    tests: &mut GroupTests,
) -> Option<(Contact, f32)> {
    match shape.geom {
        Geometry::Group { hull, .. } => {
            contact_ball_group((c, r, v), &hull, parts_of(shape, groups), tests)
        }
        ref g => contact_ball_shape(c, r, v, g).map(|k| (k, shape.elasticity)),
    }
}

/// The first impact of a ball (start `c`, radius `r`, move `d`) with a group of `members`
/// wrapped in `hull`: the hull is tested against the envelope of the whole move, then
/// `impact` answers each member; the earliest (the first on a tie) with its elasticity.
pub fn impact_ball_group(
    (c, r, d): (Vec2, f32, Vec2),
    hull: &Hull,
    members: &[Shape],
    tests: &mut GroupTests,
    mut impact: impl FnMut(&Geometry) -> Option<Impact>,
) -> Option<(Impact, f32)> {
    tests.hulls += 1;
    // Early out: the envelope of the move misses the hull, so it misses every member.
    if !hull.overlaps_circle(c + d * 0.5, r + d.length() * 0.5) {
        tests.rejections += 1;
        return None;
    }
    members
        .iter()
        .filter_map(|m| impact(&m.geom).map(|i| (i, m.elasticity)))
        .reduce(|a, b| if b.0.t < a.0.t { b } else { a })
}

/// The first impact of a ball (start `c`, radius `r`, move `d`) with obstacle `shape` as
/// `impact` finds it for one geometry, a group answered by its earliest member (see
/// [`impact_ball_group`]); with the elasticity of what it hits.
pub fn impact_ball_obstacle(
    (c, r, d): (Vec2, f32, Vec2),
    shape: &Shape,
    groups: &[Group],
    tests: &mut GroupTests,
    mut impact: impl FnMut(&Geometry) -> Option<Impact>,
) -> Option<(Impact, f32)> {
    match shape.geom {
        Geometry::Group { hull, .. } => {
            impact_ball_group((c, r, d), &hull, parts_of(shape, groups), tests, impact)
        }
        ref g => impact(g).map(|i| (i, shape.elasticity)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::{HullKind, Motion};
    use crate::narrow::toi_ball_shape;

    /// Two floors at y = 0 (elasticity 0.25) and y = 2 (elasticity 0.75), grouped.
    fn two_floors() -> (Hull, Vec<Shape>) {
        let floor = |y: f32, e: f32| {
            let g = Geometry::Segment {
                a: Vec2::new(-50.0, y),
                b: Vec2::new(50.0, y),
            };
            Shape::new(g, e, Motion::Static)
        };
        let group = Group {
            members: vec![floor(0.0, 0.25), floor(2.0, 0.75)],
            hull_kind: HullKind::Rect,
        };
        (group.hull(), group.members)
    }

    #[test]
    fn a_group_touches_as_its_deepest_member() {
        let (hull, members) = two_floors();
        let mut tests = GroupTests::default();
        let ball = (Vec2::new(0.0, 3.0), 4.0, Vec2::ZERO);
        let (c, e) = contact_ball_group(ball, &hull, &members, &mut tests).expect("touches");
        assert_eq!(
            e, 0.75,
            "the upper floor, listed second, is the deeper contact"
        );
        assert!((c.depth - 3.0).abs() < 1e-5);
        assert_eq!((tests.hulls, tests.rejections, tests.members), (1, 0, 2));
    }

    #[test]
    fn a_group_is_hit_first_by_its_earliest_member() {
        let (hull, members) = two_floors();
        let mut tests = GroupTests::default();
        let (c, r, d) = (Vec2::new(0.0, 20.0), 4.0, Vec2::new(0.0, -30.0));
        let impact = |g: &Geometry| toi_ball_shape(c, r, d, d, g);
        let (hit, e) =
            impact_ball_group((c, r, d), &hull, &members, &mut tests, impact).expect("hits");
        assert_eq!(e, 0.75, "the upper floor is met first");
        assert!((c.y + d.y * hit.t - 6.0).abs() < 1e-3);
    }

    #[test]
    fn a_ball_missing_the_hull_tests_no_member() {
        let (hull, members) = two_floors();
        let mut tests = GroupTests::default();
        let far = (Vec2::new(0.0, 100.0), 4.0, Vec2::ZERO);
        assert!(contact_ball_group(far, &hull, &members, &mut tests).is_none());
        assert_eq!((tests.hulls, tests.rejections, tests.members), (1, 1, 0));
    }
}
