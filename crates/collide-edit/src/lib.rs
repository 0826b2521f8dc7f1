//! The scene editor's edits: editing a [`Scene`] by hand through the `collide` library's
//! public scene descriptions: the handles of every shape, picking what is under a point,
//! moving handles and whole shapes, adding, deleting, setting elasticity and motion. The
//! library writes the result back as RON ([`Scene::to_ron`], [`Scene::save`]).
//!
//! The editor works on the scene description, not on a built world: an edit changes a
//! [`ShapeDesc`], and the app builds a world from the edited scene. Every edit keeps the
//! shape valid: a target that is not finite is refused, radii stay at least [`MIN_RADIUS`],
//! an arc keeps `start < end <= start + 360` with at least [`MIN_EXTENT`] degrees, a
//! rectangle keeps `min < max`, a teardrop's tip stays outside its round end. Picking costs
//! one distance per handle and per shape (a scene of n shapes: O(n)); ties go to the lower
//! index, so the same scene and point always pick the same thing.

#![warn(missing_docs)]

use collide::geom::angle;
use collide::scene::{MotionDesc, Scene, ShapeDesc, ShapeKind};
use glam::Vec2;

/// Smallest radius a handle drag leaves (px).
pub const MIN_RADIUS: f32 = 1.0;
/// Smallest arc extent a handle drag leaves (degrees).
pub const MIN_EXTENT: f32 = 1.0;
/// Smallest side a rectangle drag leaves (px).
pub(crate) const MIN_SIDE: f32 = 1.0;
/// Distance of the gate's direction handle from the gate's middle (px).
pub const GATE_ARROW: f32 = 30.0;
/// A drag shorter than this (px) adds the default-sized shape at the press point.
pub(crate) const MIN_DRAG: f32 = 4.0;
/// Highest elasticity a scene accepts.
pub const MAX_ELASTICITY: f32 = 10.0;
/// Fastest kinematic turn a scene accepts (rev/s, either way).
pub(crate) const MAX_SPEED: f32 = 100.0;

/// What a handle controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A point's position.
    At,
    /// First end of a segment or gate.
    A,
    /// Second end of a segment or gate.
    B,
    /// Corner `i` of a polyline.
    Vertex(usize),
    /// Centre of a circle, arc, teardrop or oriented rectangle, or the middle of a group.
    Centre,
    /// A point on the circle or arc: its distance from the centre is the radius.
    Radius,
    /// The start end of an arc (angles grow counter-clockwise from it).
    Start,
    /// The end end of an arc.
    End,
    /// The tip of the gate's direction arrow: the way balls pass (against the normal, which
    /// points to the side they enter from).
    Normal,
    /// The tip of a teardrop.
    Tip,
    /// Corner `i` of a rectangle, counter-clockwise from `min` (0 = min, 2 = max); for an
    /// oriented rectangle only corner 2 (its half extents).
    Corner(u8),
    /// The pivot of a kinematic shape.
    Pivot,
}

/// One handle of one shape of a scene.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Handle {
    /// Index of the shape in [`Scene::shapes`].
    pub shape: usize,
    /// What it controls.
    pub role: Role,
    /// Where it is (px).
    pub pos: Vec2,
}

/// What is under a point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pick {
    /// A handle (handles win over shape bodies).
    Handle(Handle),
    /// The body of shape `i`.
    Shape(usize),
}

/// The kinds of shape the editor adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NewKind {
    /// A segment from the press to the release point.
    Segment,
    /// An arc centred on the press point, radius the drag, 180° facing the drag.
    Arc,
    /// A circle (elasticity 1) centred on the press point, radius the drag.
    Circle,
    /// A bumper: a circle with elasticity 1.5.
    Bumper,
    /// A one-way gate from the press to the release point; balls enter from its left.
    Gate,
    /// An axis-aligned rectangle with the press and release points as corners.
    Rect,
}

impl NewKind {
    /// Every kind, in tool-bar order.
    pub const ALL: [NewKind; 6] = [
        NewKind::Segment,
        NewKind::Arc,
        NewKind::Circle,
        NewKind::Bumper,
        NewKind::Gate,
        NewKind::Rect,
    ];

    /// Name shown on the tool button.
    pub fn name(self) -> &'static str {
        match self {
            NewKind::Segment => "Segment",
            NewKind::Arc => "Arc",
            NewKind::Circle => "Circle",
            NewKind::Bumper => "Bumper",
            NewKind::Gate => "Gate",
            NewKind::Rect => "Rect",
        }
    }
}

/// The handles of one shape (`shape` is its index), pivot last when kinematic.
pub fn shape_handles(shape: usize, d: &ShapeDesc) -> Vec<Handle> {
    let h = |role, pos| Handle { shape, role, pos };
    let mut out = match &d.kind {
        ShapeKind::Point { p } => vec![h(Role::At, *p)],
        ShapeKind::Segment { a, b } => vec![h(Role::A, *a), h(Role::B, *b)],
        ShapeKind::Polyline { points } => points
            .iter()
            .enumerate()
            .map(|(i, p)| h(Role::Vertex(i), *p))
            .collect(),
        ShapeKind::Circle { centre, radius } => vec![
            h(Role::Centre, *centre),
            h(Role::Radius, *centre + Vec2::X * *radius),
        ],
        ShapeKind::Arc {
            centre,
            radius,
            start,
            end,
        } => {
            let at = |deg: f32| *centre + angle::from_angle(deg.to_radians()) * *radius;
            vec![
                h(Role::Centre, *centre),
                h(Role::Radius, at((start + end) * 0.5)),
                h(Role::Start, at(*start)),
                h(Role::End, at(*end)),
            ]
        }
        ShapeKind::Gate { a, b, normal, .. } => vec![
            h(Role::A, *a),
            h(Role::B, *b),
            h(Role::Normal, gate_arrow_tip(*a, *b, *normal)),
        ],
        ShapeKind::Teardrop {
            centre,
            radius,
            tip,
        } => {
            // The radius handle sits on the round end, opposite the tip.
            let away = (*centre - *tip).normalize_or_zero();
            vec![
                h(Role::Centre, *centre),
                h(Role::Radius, *centre + away * *radius),
                h(Role::Tip, *tip),
            ]
        }
        ShapeKind::Rect { min, max } => rect_corners(*min, *max)
            .into_iter()
            .enumerate()
            .map(|(i, p)| h(Role::Corner(i as u8), p))
            .collect(),
        ShapeKind::OrientedRect {
            centre,
            half_extents,
            angle,
        } => vec![
            h(Role::Centre, *centre),
            h(
                Role::Corner(2),
                *centre + angle::from_angle(angle.to_radians()).rotate(*half_extents),
            ),
        ],
        ShapeKind::Group { shapes, .. } => vec![h(Role::Centre, group_middle(shapes))],
    };
    if let Some(MotionDesc::Kinematic { pivot, .. } | MotionDesc::Flipper { pivot, .. }) =
        motion_of(d)
    {
        out.push(h(Role::Pivot, pivot));
    }
    out
}

/// The handles of every shape of the scene, shape by shape.
pub fn scene_handles(scene: &Scene) -> Vec<Handle> {
    scene
        .shapes
        .iter()
        .enumerate()
        .flat_map(|(i, d)| shape_handles(i, d))
        .collect()
}

/// Tip of a gate's direction arrow: [`GATE_ARROW`] px from the middle the way balls pass,
/// against the normal (as the play view's arrow points).
pub fn gate_arrow_tip(a: Vec2, b: Vec2, normal: Vec2) -> Vec2 {
    (a + b) * 0.5 - normal.normalize_or_zero() * GATE_ARROW
}

/// Corners of an axis-aligned rectangle, counter-clockwise from `min`.
fn rect_corners(min: Vec2, max: Vec2) -> [Vec2; 4] {
    [min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)]
}

/// What is under `p`: the nearest handle within `slop` (px), else the nearest shape body
/// within `slop`, else nothing. Ties go to the lower shape index.
pub fn pick(scene: &Scene, p: Vec2, slop: f32) -> Option<Pick> {
    if !p.is_finite() {
        return None;
    }
    let mut best: Option<(f32, Handle)> = None;
    for h in scene_handles(scene) {
        let d = h.pos.distance(p);
        if d <= slop && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, h));
        }
    }
    if let Some((_, h)) = best {
        return Some(Pick::Handle(h));
    }
    let mut best_shape: Option<(f32, usize)> = None;
    for (i, s) in scene.shapes.iter().enumerate() {
        let d = body_distance(s, p);
        if d <= slop && best_shape.is_none_or(|(bd, _)| d < bd) {
            best_shape = Some((d, i));
        }
    }
    best_shape.map(|(_, i)| Pick::Shape(i))
}

/// Distance (px) from `p` to a shape's body: 0 inside a solid shape.
pub(crate) fn body_distance(d: &ShapeDesc, p: Vec2) -> f32 {
    match &d.kind {
        ShapeKind::Point { p: q } => p.distance(*q),
        ShapeKind::Segment { a, b } | ShapeKind::Gate { a, b, .. } => segment_distance(p, *a, *b),
        ShapeKind::Polyline { points } => points
            .windows(2)
            .map(|w| segment_distance(p, w[0], w[1]))
            .fold(f32::INFINITY, f32::min),
        ShapeKind::Circle { centre, radius } => (p.distance(*centre) - radius).max(0.0),
        ShapeKind::Arc {
            centre,
            radius,
            start,
            end,
        } => arc_distance(p, *centre, *radius, *start, *end),
        ShapeKind::Teardrop {
            centre,
            radius,
            tip,
        } => {
            // Near enough: the round end, or the line out to the tip.
            let round = (p.distance(*centre) - radius).max(0.0);
            round.min(segment_distance(p, *centre, *tip))
        }
        ShapeKind::Rect { min, max } => {
            // Distance to a box: the length of how far p is outside it on each axis.
            (*min - p).max(p - *max).max(Vec2::ZERO).length()
        }
        ShapeKind::OrientedRect {
            centre,
            half_extents,
            angle,
        } => {
            let local = angle::from_angle(-angle.to_radians()).rotate(p - *centre);
            (local.abs() - *half_extents).max(Vec2::ZERO).length()
        }
        ShapeKind::Group { shapes, .. } => shapes
            .iter()
            .map(|m| body_distance(m, p))
            .fold(f32::INFINITY, f32::min),
    }
}

/// Distance from `p` to the segment `a`–`b` (a point when `a == b`).
fn segment_distance(p: Vec2, a: Vec2, b: Vec2) -> f32 {
    let ab = b - a;
    let len2 = ab.length_squared();
    // Closest point a + t·ab with t = (p − a)·ab / |ab|², clamped to the segment.
    let t = if len2 > 0.0 {
        ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}

/// Distance from `p` to an arc (angles in degrees): to the circle inside the arc's angles,
/// else to the nearer end.
fn arc_distance(p: Vec2, c: Vec2, r: f32, start: f32, end: f32) -> f32 {
    let v = p - c;
    let deg = angle::atan2(v.y, v.x).to_degrees();
    if v != Vec2::ZERO && (deg - start).rem_euclid(360.0) <= end - start {
        return (v.length() - r).abs();
    }
    let at = |a: f32| c + angle::from_angle(a.to_radians()) * r;
    p.distance(at(start)).min(p.distance(at(end)))
}

/// The middle of a group's members' handles (px).
fn group_middle(shapes: &[ShapeDesc]) -> Vec2 {
    let pts: Vec<Vec2> = shapes
        .iter()
        .flat_map(|m| shape_handles(0, m))
        .map(|h| h.pos)
        .collect();
    if pts.is_empty() {
        return Vec2::ZERO;
    }
    let lo = pts
        .iter()
        .fold(Vec2::splat(f32::INFINITY), |a, p| a.min(*p));
    let hi = pts
        .iter()
        .fold(Vec2::splat(f32::NEG_INFINITY), |a, p| a.max(*p));
    (lo + hi) * 0.5
}

/// Moves the handle `role` of shape `d` to `to` (px), keeping the shape valid. Returns
/// whether the shape changed (`false` for a target that is not finite or a role the shape
/// does not have).
pub fn move_handle(d: &mut ShapeDesc, role: Role, to: Vec2) -> bool {
    if !to.is_finite() {
        return false;
    }
    let before = d.clone();
    if role == Role::Pivot {
        set_pivot(d, to);
    } else if role == Role::Centre {
        let from = shape_handles(0, d)
            .into_iter()
            .find(|h| h.role == Role::Centre)
            .map(|h| h.pos);
        if let Some(from) = from {
            translate_body(d, to - from);
        }
    } else {
        move_shape_handle(d, role, to);
    }
    *d != before
}

/// Moves a handle other than the centre and the pivot.
fn move_shape_handle(d: &mut ShapeDesc, role: Role, to: Vec2) {
    match (&mut d.kind, role) {
        (ShapeKind::Point { p }, Role::At) => *p = to,
        (ShapeKind::Segment { a, .. } | ShapeKind::Gate { a, .. }, Role::A) => *a = to,
        (ShapeKind::Segment { b, .. } | ShapeKind::Gate { b, .. }, Role::B) => *b = to,
        (ShapeKind::Polyline { points }, Role::Vertex(i)) if i < points.len() => points[i] = to,
        (ShapeKind::Circle { centre, radius }, Role::Radius) => {
            *radius = centre.distance(to).max(MIN_RADIUS)
        }
        (
            ShapeKind::Arc {
                centre,
                radius,
                start,
                end,
            },
            role,
        ) => move_arc_handle(*centre, radius, start, end, role, to),
        (ShapeKind::Gate { a, b, normal, .. }, Role::Normal) => {
            // The handle points the way balls pass; the normal faces where they come from.
            let n = (*a + *b) * 0.5 - to;
            // Too short to give a direction: keep the old one.
            if n.length() > 1e-3 {
                *normal = n.normalize();
            }
        }
        (
            ShapeKind::Teardrop {
                centre,
                radius,
                tip,
            },
            role,
        ) => move_teardrop_handle(*centre, radius, tip, role, to),
        (ShapeKind::Rect { min, max }, Role::Corner(i)) => move_rect_corner(min, max, i, to),
        (
            ShapeKind::OrientedRect {
                centre,
                half_extents,
                angle,
            },
            Role::Corner(2),
        ) => {
            let local = angle::from_angle(-angle.to_radians()).rotate(to - *centre);
            *half_extents = local.abs().max(Vec2::splat(MIN_SIDE * 0.5));
        }
        _ => {}
    }
}

/// Radius handle: the distance to the centre. Start or end handle: the angle to the centre,
/// the other end staying where it was; the extent kept within `MIN_EXTENT..=360`.
fn move_arc_handle(c: Vec2, r: &mut f32, start: &mut f32, end: &mut f32, role: Role, to: Vec2) {
    let v = to - c;
    if role == Role::Radius {
        *r = v.length().max(MIN_RADIUS);
        return;
    }
    if v.length_squared() < 1e-12 {
        return;
    }
    let deg = angle::atan2(v.y, v.x).to_degrees().rem_euclid(360.0);
    match role {
        Role::Start => {
            let extent = (*end - deg).rem_euclid(360.0).max(MIN_EXTENT);
            *start = deg;
            *end = deg + extent;
        }
        Role::End => {
            let extent = (deg - *start).rem_euclid(360.0).max(MIN_EXTENT);
            *end = *start + extent;
        }
        _ => {}
    }
}

/// Radius handle: the distance to the centre, kept inside the tip. Tip handle: kept outside
/// the round end (moved out along its direction, or refused on the centre).
fn move_teardrop_handle(c: Vec2, r: &mut f32, tip: &mut Vec2, role: Role, to: Vec2) {
    // Validation wants |tip − centre| > 1.01 r; leave a margin.
    const OUTSIDE: f32 = 1.02;
    match role {
        Role::Radius => {
            let most = c.distance(*tip) / OUTSIDE;
            *r = c.distance(to).min(most).max(MIN_RADIUS.min(most));
        }
        Role::Tip => {
            let v = to - c;
            if v.length_squared() < 1e-12 {
                return;
            }
            let dist = v.length().max(*r * OUTSIDE + 1e-3);
            *tip = c + v.normalize() * dist;
        }
        _ => {}
    }
}

/// Moves corner `i` (counter-clockwise from `min`) to `to`, the opposite corner staying;
/// a corner cannot cross the opposite sides.
fn move_rect_corner(min: &mut Vec2, max: &mut Vec2, i: u8, to: Vec2) {
    // Corners 0 and 3 carry min.x, corners 0 and 1 carry min.y.
    if i == 0 || i == 3 {
        min.x = to.x.min(max.x - MIN_SIDE);
    } else {
        max.x = to.x.max(min.x + MIN_SIDE);
    }
    if i == 0 || i == 1 {
        min.y = to.y.min(max.y - MIN_SIDE);
    } else {
        max.y = to.y.max(min.y + MIN_SIDE);
    }
}

/// Moves a whole shape by `delta` (px), its pivot with it. Returns `false` (and leaves the
/// shape) for a delta that is not finite.
pub fn translate(d: &mut ShapeDesc, delta: Vec2) -> bool {
    if !delta.is_finite() {
        return false;
    }
    translate_body(d, delta);
    if let Some(MotionDesc::Kinematic { pivot, .. } | MotionDesc::Flipper { pivot, .. }) =
        motion_of(d)
    {
        set_pivot(d, pivot + delta);
    }
    true
}

/// Moves every position of the shape (not its pivot) by `delta`.
fn translate_body(d: &mut ShapeDesc, delta: Vec2) {
    match &mut d.kind {
        ShapeKind::Point { p } => *p += delta,
        ShapeKind::Segment { a, b } | ShapeKind::Gate { a, b, .. } => {
            *a += delta;
            *b += delta;
        }
        ShapeKind::Polyline { points } => points.iter_mut().for_each(|p| *p += delta),
        ShapeKind::Circle { centre, .. }
        | ShapeKind::Arc { centre, .. }
        | ShapeKind::OrientedRect { centre, .. } => *centre += delta,
        ShapeKind::Teardrop { centre, tip, .. } => {
            *centre += delta;
            *tip += delta;
        }
        ShapeKind::Rect { min, max } => {
            *min += delta;
            *max += delta;
        }
        ShapeKind::Group { shapes, .. } => shapes.iter_mut().for_each(|m| translate_body(m, delta)),
    }
}

/// A new shape of `kind` dragged from `from` to `to` (px); a drag shorter than
/// [`MIN_DRAG`] gives the kind's default size at `from`. `None` when a point is not finite.
pub fn new_shape(kind: NewKind, from: Vec2, to: Vec2) -> Option<ShapeDesc> {
    if !(from.is_finite() && to.is_finite()) {
        return None;
    }
    let drag = to - from;
    let short = drag.length() < MIN_DRAG;
    let length_or = |default: f32| if short { default } else { drag.length() };
    let (a, b) = if short {
        (from - Vec2::X * 50.0, from + Vec2::X * 50.0)
    } else {
        (from, to)
    };
    let (shape, elasticity) = match kind {
        NewKind::Segment => (ShapeKind::Segment { a, b }, 0.9),
        NewKind::Arc => {
            let facing = if short {
                90.0
            } else {
                angle::atan2(drag.y, drag.x).to_degrees().rem_euclid(360.0)
            };
            let arc = ShapeKind::Arc {
                centre: from,
                radius: length_or(60.0).max(MIN_RADIUS),
                start: facing - 90.0,
                end: facing + 90.0,
            };
            (arc, 0.9)
        }
        NewKind::Circle | NewKind::Bumper => {
            let circle = ShapeKind::Circle {
                centre: from,
                radius: length_or(24.0).max(MIN_RADIUS),
            };
            (circle, if kind == NewKind::Bumper { 1.5 } else { 1.0 })
        }
        NewKind::Gate => {
            let gate = ShapeKind::Gate {
                a,
                b,
                // Balls enter from the left of a → b.
                normal: (b - a).normalize().perp(),
                threshold: 150.0,
            };
            (gate, 0.9)
        }
        NewKind::Rect => {
            let (lo, hi) = if short {
                (from - Vec2::new(30.0, 20.0), from + Vec2::new(30.0, 20.0))
            } else {
                (from.min(to), from.max(to))
            };
            let rect = ShapeKind::Rect {
                min: lo,
                max: hi.max(lo + Vec2::splat(MIN_SIDE)),
            };
            (rect, 0.9)
        }
    };
    Some(ShapeDesc::new(shape).with_elasticity(elasticity))
}

/// Adds a shape of `kind` dragged from `from` to `to` (px) at the end of the scene; returns
/// its index, or `None` when a point is not finite.
pub fn add(scene: &mut Scene, kind: NewKind, from: Vec2, to: Vec2) -> Option<usize> {
    let shape = new_shape(kind, from, to)?;
    scene.shapes.push(shape);
    Some(scene.shapes.len() - 1)
}

/// Removes shape `i` and returns it (`None` when there is no such shape). Later shapes move
/// down one index.
pub fn delete(scene: &mut Scene, i: usize) -> Option<ShapeDesc> {
    (i < scene.shapes.len()).then(|| scene.shapes.remove(i))
}

/// The shape's elasticity (`None` for a group: its members carry theirs).
pub fn elasticity_of(d: &ShapeDesc) -> Option<f32> {
    match d.kind {
        ShapeKind::Group { .. } => None,
        _ => Some(d.elasticity),
    }
}

/// Sets the elasticity, clamped to `0..=MAX_ELASTICITY`; for a group, every member's.
/// Returns `false` (and changes nothing) for a value that is not finite.
pub fn set_elasticity(d: &mut ShapeDesc, e: f32) -> bool {
    if !e.is_finite() {
        return false;
    }
    let e = e.clamp(0.0, MAX_ELASTICITY);
    match &mut d.kind {
        ShapeKind::Group { shapes, .. } => shapes.iter_mut().for_each(|m| {
            set_elasticity(m, e);
        }),
        _ => d.elasticity = e,
    }
    true
}

/// The shape's motion; `None` for gates and teardrops, which cannot move.
pub fn motion_of(d: &ShapeDesc) -> Option<MotionDesc> {
    d.can_move().then_some(d.motion)
}

/// Sets the motion (a kinematic speed is clamped to ±[`MAX_SPEED`] rev/s). Returns `false`
/// (and changes nothing) for a shape that cannot move or numbers that are not finite.
pub fn set_motion(d: &mut ShapeDesc, m: MotionDesc) -> bool {
    let m = match m {
        MotionDesc::Static => m,
        // Driven motions: refused unless they are as a scene file may write them.
        MotionDesc::Flipper { .. } | MotionDesc::Plunger { .. } => {
            if collide::scene::check_motion(&m).is_err() {
                return false;
            }
            m
        }
        MotionDesc::Kinematic { pivot, speed } => {
            if !(pivot.is_finite() && speed.is_finite()) {
                return false;
            }
            MotionDesc::Kinematic {
                pivot,
                speed: speed.clamp(-MAX_SPEED, MAX_SPEED),
            }
        }
    };
    if !d.can_move() {
        return false;
    }
    d.motion = m;
    true
}

/// Moves a kinematic shape's pivot; nothing for a static one.
fn set_pivot(d: &mut ShapeDesc, to: Vec2) {
    match motion_of(d) {
        Some(MotionDesc::Kinematic { speed, .. }) => {
            set_motion(d, MotionDesc::Kinematic { pivot: to, speed });
        }
        Some(MotionDesc::Flipper {
            raised,
            speed,
            control,
            ..
        }) => {
            let pivot = to;
            set_motion(
                d,
                MotionDesc::Flipper {
                    pivot,
                    raised,
                    speed,
                    control,
                },
            );
        }
        _ => {}
    }
}

/// A natural pivot for a shape made kinematic: the middle of its handles (px).
pub fn default_pivot(d: &ShapeDesc) -> Vec2 {
    group_middle(std::slice::from_ref(d))
}
