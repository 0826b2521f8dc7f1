//! A ball against an obstacle that may be a shape group (Schwarzl 2012, "Bounded Shape
//! Groups"; the composite-shape queries of parry): the hull is tested first, and only a ball
//! that touches it tests the members. The deepest member contact, or the earliest member
//! impact, answers for the whole group, with that member's elasticity.

use super::contact::{Contact, Impact};
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
pub(crate) fn parts_of<'a>(shape: &'a Shape, groups: &'a [Group]) -> &'a [Shape] {
    match shape.geom {
        Geometry::Group { id, .. } => groups.get(id as usize).map_or(&[], |g| &g.members),
        _ => std::slice::from_ref(shape),
    }
}

/// The contact of a ball (centre `c`, radius `r`) with a group of `members` wrapped in
/// `hull`, `contact` answering each member: the deepest member contact (the first on a tie)
/// and that member's elasticity.
pub fn contact_ball_group(
    c: Vec2,
    r: f32,
    hull: &Hull,
    members: &[Shape],
    tests: &mut GroupTests,
    mut contact: impl FnMut(&Geometry) -> Option<Contact>,
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
        .filter_map(|m| contact(&m.geom).map(|k| (k, m.elasticity)))
        .reduce(|a, b| if b.0.depth > a.0.depth { b } else { a })
}

/// The first impact of a ball (start `c`, radius `r`, move `d`) with a group of `members`
/// wrapped in `hull`: the hull is tested against the envelope of the whole move, then
/// `impact` answers each member; the earliest (the first on a tie) with its elasticity.
pub fn impact_ball_group(
    c: Vec2,
    r: f32,
    d: Vec2,
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
pub(crate) fn impact_ball_obstacle(
    c: Vec2,
    r: f32,
    d: Vec2,
    shape: &Shape,
    groups: &[Group],
    tests: &mut GroupTests,
    mut impact: impl FnMut(&Geometry) -> Option<Impact>,
) -> Option<(Impact, f32)> {
    match shape.geom {
        Geometry::Group { hull, .. } => {
            impact_ball_group(c, r, d, &hull, parts_of(shape, groups), tests, impact)
        }
        ref g => impact(g).map(|i| (i, shape.elasticity)),
    }
}
