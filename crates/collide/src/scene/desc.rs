//! The obstacles of a scene: [`ShapeDesc`], a [`ShapeKind`] with the fields every kind
//! shares (elasticity, motion, score), and its [`MotionDesc`]. Angles are in degrees; each
//! kind says here what shapes of the library it builds into (radians), and `build.rs` builds
//! a world from them. Files write each shape as one variant carrying all its fields
//! (`Segment(a: …, b: …, elasticity: 0.9)`, a scoring shape wrapped in `Scored(…)`);
//! `text.rs` is that written form.

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
