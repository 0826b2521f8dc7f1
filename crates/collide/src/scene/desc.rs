//! The obstacles of a scene: [`ShapeDesc`], a [`ShapeKind`] with the fields every kind
//! shares (elasticity, motion, score), and its [`MotionDesc`]. Angles are in degrees. Each
//! kind says here what its fields must be (its checks, the messages naming the field) and
//! what shapes of the library it builds into (radians); `validate.rs` checks a scene and
//! `build.rs` builds a world with them. Files write each shape as one variant carrying all its fields
//! (`Segment(a: …, b: …, elasticity: 0.9)`, a scoring shape wrapped in `Scored(…)`);
//! `text.rs` is that written form.

use super::check::{check_direction, check_num, check_vec};
use crate::geom::angle;
use crate::geom::{add_guard_points, Control, Geometry, Group, HullKind, Motion, Shape};
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// How an obstacle moves, as written in a scene.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum MotionDesc {
    /// Never moves.
    #[default]
    Static,
    /// Turns about `pivot` at `speed` rev/s while rotation is on.
    Kinematic {
        /// Centre of rotation (px).
        pivot: Vec2,
        /// Rev/s, counter-clockwise when positive.
        speed: f32,
    },
    /// A flipper: turns about `pivot` from the pose as written to `raised` degrees while
    /// `control` is held, and back when released, at `speed` rev/s (rotate setting or not).
    Flipper {
        /// Centre of rotation (px).
        pivot: Vec2,
        /// Angle when raised (degrees, counter-clockwise from the pose as written).
        raised: f32,
        /// Turn rate (rev/s).
        speed: f32,
        /// The control that raises it.
        control: Control,
    },
    /// A plunger: slides back along `-axis` at `pull_speed` px/s (at most `travel` px) while
    /// `control` is held; released, it fires forward at `stiffness` × the pull (px/s).
    Plunger {
        /// Direction it fires in (need not be unit length).
        axis: Vec2,
        /// Farthest pull (px).
        travel: f32,
        /// Pull speed while held (px/s).
        pull_speed: f32,
        /// Firing speed per pixel pulled (1/s).
        stiffness: f32,
        /// The control that pulls it (default the plunger).
        #[serde(default = "plunger_control")]
        control: Control,
    },
}

fn plunger_control() -> Control {
    Control::Plunger
}

/// One obstacle of a scene: what it is and where ([`ShapeKind`]), and what every kind shares.
/// Read and written in the scene files' form (see `scene/text.rs`), so a file reads as it
/// always did.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapeDesc {
    /// What it is and where.
    pub kind: ShapeKind,
    /// Elasticity (default 1). Not used for a group, whose members carry theirs.
    pub elasticity: f32,
    /// How it moves (default static). Gates and teardrops never move.
    pub motion: MotionDesc,
    /// What a hit on it earns, when it scores.
    pub score: Option<ScoreDesc>,
}

/// What a scoring shape is worth: each hit adds `points`; a `kick` makes the ball leave at
/// that normal speed at least (px/s); a `target` lights when hit.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ScoreDesc {
    /// Points per hit.
    pub points: u32,
    /// Least normal speed a hit sends the ball away with (px/s; 0: none).
    pub kick: f32,
    /// Lights when hit.
    pub target: bool,
}

/// The kinds of obstacle, with the fields of each.
#[derive(Clone, Debug, PartialEq)]
pub enum ShapeKind {
    /// A point.
    Point {
        /// Position (px).
        p: Vec2,
    },
    /// A segment.
    Segment {
        /// First end (px).
        a: Vec2,
        /// Second end (px).
        b: Vec2,
    },
    /// Segments joining consecutive points.
    Polyline {
        /// The corners (px), at least two.
        points: Vec<Vec2>,
    },
    /// A solid circle (bumper).
    Circle {
        /// Centre (px).
        centre: Vec2,
        /// Radius (px), > 0.
        radius: f32,
    },
    /// An arc from `start` counter-clockwise to `end` (degrees).
    Arc {
        /// Centre (px).
        centre: Vec2,
        /// Radius (px), > 0.
        radius: f32,
        /// Start angle (degrees).
        start: f32,
        /// End angle (degrees), `start < end <= start + 360`.
        end: f32,
    },
    /// A one-way gate: balls moving against `normal` faster than `threshold` pass.
    Gate {
        /// First end (px).
        a: Vec2,
        /// Second end (px).
        b: Vec2,
        /// Normal (need not be unit length), pointing to the side balls enter from.
        normal: Vec2,
        /// Speed needed to pass (px/s).
        threshold: f32,
    },
    /// A teardrop target: a round end (`centre`, `radius`) drawn out to a point `tip`; built as
    /// an arc, two tangent segments and a point at the tip.
    Teardrop {
        /// Centre of the round end (px).
        centre: Vec2,
        /// Radius of the round end (px), > 0.
        radius: f32,
        /// The tip (px), farther than `radius` from the centre.
        tip: Vec2,
    },
    /// A solid axis-aligned rectangle.
    Rect {
        /// Lower corner (px).
        min: Vec2,
        /// Upper corner (px), above `min` on both axes.
        max: Vec2,
    },
    /// A solid rectangle turned about its centre.
    OrientedRect {
        /// Centre (px).
        centre: Vec2,
        /// Half width and half height before turning (px), > 0.
        half_extents: Vec2,
        /// Angle (degrees, counter-clockwise).
        angle: f32,
    },
    /// One object made of several shapes (static ones; they move with the group), wrapped in
    /// a hull that is tested first.
    Group {
        /// The members: any shapes but gates, groups and scoring shapes, each without its own
        /// motion.
        shapes: Vec<ShapeDesc>,
        /// The hull.
        hull: HullKind,
    },
}

impl ShapeDesc {
    /// A static, non-scoring shape of `kind` with elasticity 1 (a scene file's defaults).
    pub fn new(kind: ShapeKind) -> Self {
        Self {
            kind,
            elasticity: 1.0,
            motion: MotionDesc::Static,
            score: None,
        }
    }

    /// This shape with elasticity `e`.
    pub fn with_elasticity(mut self, e: f32) -> Self {
        self.elasticity = e;
        self
    }

    /// The name a scene file writes it with (`Segment`, `Arc`, …; `Scored` when it scores).
    pub fn kind_name(&self) -> &'static str {
        if self.score.is_some() {
            return "Scored";
        }
        self.kind.name()
    }

    /// Whether it can move: gates and teardrops cannot.
    pub fn can_move(&self) -> bool {
        !matches!(
            self.kind,
            ShapeKind::Gate { .. } | ShapeKind::Teardrop { .. }
        )
    }
}

impl ShapeKind {
    /// The kind's name as written in scene files (`Segment`, `Arc`, …).
    pub fn name(&self) -> &'static str {
        match self {
            ShapeKind::Point { .. } => "Point",
            ShapeKind::Segment { .. } => "Segment",
            ShapeKind::Polyline { .. } => "Polyline",
            ShapeKind::Circle { .. } => "Circle",
            ShapeKind::Arc { .. } => "Arc",
            ShapeKind::Gate { .. } => "Gate",
            ShapeKind::Teardrop { .. } => "Teardrop",
            ShapeKind::Rect { .. } => "Rect",
            ShapeKind::OrientedRect { .. } => "OrientedRect",
            ShapeKind::Group { .. } => "Group",
        }
    }
}

impl ShapeKind {
    /// The library's shapes of this kind, each with elasticity `e` and `motion` (a gate and a
    /// teardrop's parts static), appended to `out`; a group's members go into `groups`.
    /// Degrees become radians (`f32::to_radians`, the one conversion a scene's angles get),
    /// a gate's normal is made unit length, polylines and teardrops become segments, arcs and
    /// points.
    pub(super) fn push_built(
        &self,
        e: f32,
        motion: Motion,
        out: &mut Vec<Shape>,
        groups: &mut Vec<Group>,
    ) {
        let mut push = |geom| out.push(Shape::new(geom, e, motion));
        match self {
            ShapeKind::Point { p } => push(Geometry::Point { p: *p }),
            ShapeKind::Segment { a, b } => push(Geometry::Segment { a: *a, b: *b }),
            ShapeKind::Polyline { points } => {
                for w in points.windows(2) {
                    push(Geometry::Segment { a: w[0], b: w[1] });
                }
            }
            ShapeKind::Circle { centre, radius } => push(Geometry::Circle {
                c: *centre,
                r: *radius,
            }),
            ShapeKind::Arc {
                centre,
                radius,
                start,
                end,
            } => push(Geometry::Arc {
                c: *centre,
                r: *radius,
                start: start.to_radians(),
                end: end.to_radians(),
            }),
            ShapeKind::Gate {
                a,
                b,
                normal,
                threshold,
            } => {
                let geom = Geometry::Gate {
                    a: *a,
                    b: *b,
                    normal: normal.normalize(),
                    threshold: *threshold,
                };
                out.push(Shape::new(geom, e, Motion::Static))
            }
            ShapeKind::Teardrop {
                centre,
                radius,
                tip,
            } => push_teardrop(*centre, *radius, *tip, e, out),
            ShapeKind::Rect { min, max } => push(Geometry::Rect {
                min: *min,
                max: *max,
            }),
            ShapeKind::OrientedRect {
                centre,
                half_extents,
                angle,
            } => push(Geometry::OrientedRect {
                c: *centre,
                half: *half_extents,
                angle: angle.to_radians(),
            }),
            ShapeKind::Group { shapes, hull } => push_group(shapes, *hull, motion, out, groups),
        }
    }
}

/// Builds the members (with their guard points) moving as the group, the group itself, and
/// one obstacle standing for it.
fn push_group(
    descs: &[ShapeDesc],
    hull_kind: HullKind,
    motion: Motion,
    out: &mut Vec<Shape>,
    groups: &mut Vec<Group>,
) {
    let mut members = Vec::new();
    for d in descs {
        // A hit on a group is the group's: what its members are worth is never read.
        d.push_shapes(&mut members, &mut Vec::new(), groups);
    }
    add_guard_points(&mut members);
    for m in &mut members {
        m.motion = motion;
    }
    let group = Group { members, hull_kind };
    let geom = Geometry::Group {
        id: groups.len() as u32,
        hull: group.hull(),
    };
    groups.push(group);
    out.push(Shape::new(geom, 1.0, motion));
}

/// Arc round the back plus two segments tangent to it meeting at the tip, plus the tip point.
fn push_teardrop(c: Vec2, r: f32, tip: Vec2, e: f32, out: &mut Vec<Shape>) {
    let d = tip - c;
    let dist = d.length();
    let toward = angle::atan2(d.y, d.x);
    // The tangent points sit at ±acos(r / dist) from the direction to the tip.
    let half = angle::acos(r / dist);
    let (t1, t2) = (toward + half, toward - half);
    let p1 = c + angle::from_angle(t1) * r;
    let p2 = c + angle::from_angle(t2) * r;
    let arc = Geometry::Arc {
        c,
        r,
        start: t1,
        end: t2 + std::f32::consts::TAU,
    };
    out.push(Shape::new(arc, e, Motion::Static));
    out.push(Shape::new(
        Geometry::Segment { a: p1, b: tip },
        e,
        Motion::Static,
    ));
    out.push(Shape::new(
        Geometry::Segment { a: tip, b: p2 },
        e,
        Motion::Static,
    ));
    out.push(Shape::new(Geometry::Point { p: tip }, e, Motion::Static));
}

impl ShapeKind {
    /// Checks the kind's own fields.
    pub(super) fn validate(&self) -> Result<(), String> {
        match self {
            ShapeKind::Point { p } => check_vec(*p, "p"),
            ShapeKind::Segment { a, b } => {
                check_vec(*a, "a")?;
                check_vec(*b, "b")
            }
            ShapeKind::Polyline { points } => check_polyline(points),
            ShapeKind::Circle { centre, radius } => {
                check_vec(*centre, "centre")?;
                check_num(*radius, "radius", 1e-3, 1e6)
            }
            ShapeKind::Arc {
                centre,
                radius,
                start,
                end,
            } => check_arc(*centre, *radius, *start, *end),
            ShapeKind::Gate {
                a,
                b,
                normal,
                threshold,
            } => check_gate(*a, *b, *normal, *threshold),
            ShapeKind::Teardrop {
                centre,
                radius,
                tip,
            } => check_teardrop(*centre, *radius, *tip),
            ShapeKind::Rect { min, max } => check_rect(*min, *max),
            ShapeKind::OrientedRect {
                centre,
                half_extents,
                angle,
            } => check_oriented_rect(*centre, *half_extents, *angle),
            ShapeKind::Group { shapes, .. } => check_group(shapes),
        }
    }
}

/// A polyline's corners: at least two, each finite.
fn check_polyline(points: &[Vec2]) -> Result<(), String> {
    if points.len() < 2 {
        return Err("field `points`: needs at least two points".into());
    }
    points.iter().try_for_each(|p| check_vec(*p, "points"))
}

/// An arc's centre and radius, and its angles: `end` above `start` by at most a turn.
fn check_arc(centre: Vec2, radius: f32, start: f32, end: f32) -> Result<(), String> {
    check_vec(centre, "centre")?;
    check_num(radius, "radius", 1e-3, 1e6)?;
    check_num(start, "start", -3600.0, 3600.0)?;
    check_num(end, "end", -3600.0, 3600.0)?;
    if !(end > start && end - start <= 360.0) {
        return Err(format!(
            "field `end`: must be above `start` by at most 360 degrees (start {start}, end {end})"
        ));
    }
    Ok(())
}

/// A gate's ends, its normal (a direction) and its threshold speed.
fn check_gate(a: Vec2, b: Vec2, normal: Vec2, threshold: f32) -> Result<(), String> {
    check_vec(a, "a")?;
    check_vec(b, "b")?;
    check_vec(normal, "normal")?;
    check_direction(normal, "normal")?;
    check_num(threshold, "threshold", 0.0, 1e7)
}

/// A teardrop's round end and its tip, which lies outside it.
fn check_teardrop(centre: Vec2, radius: f32, tip: Vec2) -> Result<(), String> {
    check_vec(centre, "centre")?;
    check_vec(tip, "tip")?;
    check_num(radius, "radius", 1e-3, 1e6)?;
    if (tip - centre).length() <= radius * 1.01 {
        return Err("field `tip`: must lie outside the round end".into());
    }
    Ok(())
}

/// A rectangle's corners, `max` above `min` on both axes.
fn check_rect(min: Vec2, max: Vec2) -> Result<(), String> {
    check_vec(min, "min")?;
    check_vec(max, "max")?;
    if !(min.x < max.x && min.y < max.y) {
        return Err(format!(
            "field `max`: must be above `min` on both axes (min {min}, max {max})"
        ));
    }
    Ok(())
}

/// A turned rectangle's centre, half extents and angle.
fn check_oriented_rect(centre: Vec2, half_extents: Vec2, angle: f32) -> Result<(), String> {
    check_vec(centre, "centre")?;
    check_num(half_extents.x, "half_extents", 1e-3, 1e6)?;
    check_num(half_extents.y, "half_extents", 1e-3, 1e6)?;
    check_num(angle, "angle", -3600.0, 3600.0)
}

/// A group's members: at least one, each a valid member (the message names it).
fn check_group(shapes: &[ShapeDesc]) -> Result<(), String> {
    if shapes.is_empty() {
        return Err("field `shapes`: a group needs at least one shape".into());
    }
    shapes.iter().enumerate().try_for_each(|(k, m)| {
        m.validate_member()
            .map_err(|e| format!("member {k} ({}): {e}", m.kind_name()))
    })
}

/// Checks a shape's motion as a scene file's is checked; the message names the field.
pub fn check_motion(m: &MotionDesc) -> Result<(), String> {
    match *m {
        MotionDesc::Static => Ok(()),
        MotionDesc::Kinematic { pivot, speed } => {
            check_vec(pivot, "motion.pivot")?;
            check_num(speed, "motion.speed", -100.0, 100.0)
        }
        MotionDesc::Flipper {
            pivot,
            raised,
            speed,
            ..
        } => {
            check_vec(pivot, "motion.pivot")?;
            check_num(raised, "motion.raised", -360.0, 360.0)?;
            check_num(speed, "motion.speed", 0.01, 100.0)
        }
        MotionDesc::Plunger {
            axis,
            travel,
            pull_speed,
            stiffness,
            ..
        } => {
            check_direction(axis, "motion.axis")?;
            check_num(travel, "motion.travel", 0.0, 1e5)?;
            check_num(pull_speed, "motion.pull_speed", 0.0, 1e6)?;
            check_num(stiffness, "motion.stiffness", 0.0, 1e5)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_oriented_rect_is_built_with_its_angle_turned_from_degrees_by_to_radians() {
        let d = ShapeDesc::new(ShapeKind::OrientedRect {
            centre: Vec2::new(560.0, 120.0),
            half_extents: Vec2::new(110.0, 3.0),
            angle: 20.0,
        });
        let (shapes, _) = d.built();
        let Geometry::OrientedRect { angle, .. } = shapes[0].geom else {
            panic!("an oriented rect builds into one")
        };
        assert_eq!(angle.to_bits(), 20f32.to_radians().to_bits());
    }
}
