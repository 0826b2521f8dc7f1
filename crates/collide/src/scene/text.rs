//! The written form of a shape: one variant per kind, each with every field it takes, as
//! scene files have always had them (`Segment(a: …, b: …, elasticity: 0.9)`, a scoring shape
//! as `Scored(points: …, shape: …)`). [`ShapeDesc`] reads and writes itself through it, so
//! the fields, their defaults and the parser's messages (file, line, field) are the file's.
//! A gate or teardrop is written without motion (it cannot move), a group without elasticity
//! (its members carry theirs).

use super::{MotionDesc, ScoreDesc, ShapeDesc, ShapeKind};
use crate::geom::HullKind;
use glam::Vec2;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

fn one() -> f32 {
    1.0
}

/// One obstacle as a scene file writes it: one variant per kind, each with every field it
/// takes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
// Named as the description it reads into: the parser's messages name the enum.
#[serde(deny_unknown_fields, rename = "ShapeDesc")]
pub(super) enum ShapeText {
    /// A point.
    Point {
        /// Position (px).
        p: Vec2,
        /// Elasticity (default 1).
        #[serde(default = "one")]
        elasticity: f32,
        /// Motion (default static).
        #[serde(default)]
        motion: MotionDesc,
    },
    /// A segment.
    Segment {
        /// First end (px).
        a: Vec2,
        /// Second end (px).
        b: Vec2,
        /// Elasticity (default 1).
        #[serde(default = "one")]
        elasticity: f32,
        /// Motion (default static).
        #[serde(default)]
        motion: MotionDesc,
    },
    /// Segments joining consecutive points.
    Polyline {
        /// The corners (px), at least two.
        points: Vec<Vec2>,
        /// Elasticity (default 1).
        #[serde(default = "one")]
        elasticity: f32,
        /// Motion (default static).
        #[serde(default)]
        motion: MotionDesc,
    },
    /// A solid circle (bumper).
    Circle {
        /// Centre (px).
        centre: Vec2,
        /// Radius (px), > 0.
        radius: f32,
        /// Elasticity (default 1).
        #[serde(default = "one")]
        elasticity: f32,
        /// Motion (default static).
        #[serde(default)]
        motion: MotionDesc,
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
        /// Elasticity (default 1).
        #[serde(default = "one")]
        elasticity: f32,
        /// Motion (default static).
        #[serde(default)]
        motion: MotionDesc,
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
        #[serde(default)]
        threshold: f32,
        /// Elasticity (default 1).
        #[serde(default = "one")]
        elasticity: f32,
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
        /// Elasticity (default 1).
        #[serde(default = "one")]
        elasticity: f32,
    },
    /// A solid axis-aligned rectangle.
    Rect {
        /// Lower corner (px).
        min: Vec2,
        /// Upper corner (px), above `min` on both axes.
        max: Vec2,
        /// Elasticity (default 1).
        #[serde(default = "one")]
        elasticity: f32,
        /// Motion (default static).
        #[serde(default)]
        motion: MotionDesc,
    },
    /// A solid rectangle turned about its centre.
    OrientedRect {
        /// Centre (px).
        centre: Vec2,
        /// Half width and half height before turning (px), > 0.
        half_extents: Vec2,
        /// Angle (degrees, counter-clockwise; default 0).
        #[serde(default)]
        angle: f32,
        /// Elasticity (default 1).
        #[serde(default = "one")]
        elasticity: f32,
        /// Motion (default static).
        #[serde(default)]
        motion: MotionDesc,
    },
    /// A shape (or group) that scores: each hit adds `points`; a `kick` makes the ball leave
    /// at that normal speed at least (px/s); a `target` lights when hit.
    Scored {
        /// Points per hit (default 0).
        #[serde(default)]
        points: u32,
        /// Least normal speed a hit sends the ball away with (px/s, default 0: none).
        #[serde(default)]
        kick: f32,
        /// Lights when hit (default false).
        #[serde(default)]
        target: bool,
        /// The shape.
        shape: Box<ShapeDesc>,
    },
    /// One object made of several shapes (static ones; they move with the group), wrapped in
    /// a hull that is tested first.
    Group {
        /// The members: any shapes but gates and groups, each without its own motion.
        shapes: Vec<ShapeDesc>,
        /// The hull (default `Rect`).
        #[serde(default)]
        hull: HullKind,
        /// Motion of the whole group (default static).
        #[serde(default)]
        motion: MotionDesc,
    },
}

// A `ShapeDesc` is read and written as its text form.
impl Serialize for ShapeDesc {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ShapeText::from(self.clone()).serialize(s)
    }
}

impl<'de> Deserialize<'de> for ShapeDesc {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        ShapeText::deserialize(d).map(ShapeDesc::from)
    }
}

impl From<ShapeText> for ShapeDesc {
    fn from(t: ShapeText) -> Self {
        ShapeDesc {
            score: t.score(),
            elasticity: t.elasticity(),
            motion: t.motion(),
            kind: t.into_kind(),
        }
    }
}

impl ShapeText {
    /// The score of a `Scored` text. A scored shape inside another takes the outer score: the
    /// outer one is the one that counts.
    fn score(&self) -> Option<ScoreDesc> {
        match *self {
            ShapeText::Scored {
                points,
                kick,
                target,
                ..
            } => Some(ScoreDesc {
                points,
                kick,
                target,
            }),
            _ => None,
        }
    }

    /// The elasticity written, or the scored shape's; 1 for a group, whose members carry
    /// theirs.
    fn elasticity(&self) -> f32 {
        match self {
            ShapeText::Point { elasticity, .. }
            | ShapeText::Segment { elasticity, .. }
            | ShapeText::Polyline { elasticity, .. }
            | ShapeText::Circle { elasticity, .. }
            | ShapeText::Arc { elasticity, .. }
            | ShapeText::Gate { elasticity, .. }
            | ShapeText::Teardrop { elasticity, .. }
            | ShapeText::Rect { elasticity, .. }
            | ShapeText::OrientedRect { elasticity, .. } => *elasticity,
            ShapeText::Group { .. } => 1.0,
            ShapeText::Scored { shape, .. } => shape.elasticity,
        }
    }

    /// The motion written, or the scored shape's; static for a gate or a teardrop, which
    /// cannot move.
    fn motion(&self) -> MotionDesc {
        match self {
            ShapeText::Point { motion, .. }
            | ShapeText::Segment { motion, .. }
            | ShapeText::Polyline { motion, .. }
            | ShapeText::Circle { motion, .. }
            | ShapeText::Arc { motion, .. }
            | ShapeText::Rect { motion, .. }
            | ShapeText::OrientedRect { motion, .. }
            | ShapeText::Group { motion, .. } => *motion,
            ShapeText::Gate { .. } | ShapeText::Teardrop { .. } => MotionDesc::Static,
            ShapeText::Scored { shape, .. } => shape.motion,
        }
    }

    /// The kind with its own fields, or the scored shape's.
    fn into_kind(self) -> ShapeKind {
        match self {
            ShapeText::Point { p, .. } => ShapeKind::Point { p },
            ShapeText::Segment { a, b, .. } => ShapeKind::Segment { a, b },
            ShapeText::Polyline { points, .. } => ShapeKind::Polyline { points },
            ShapeText::Circle { centre, radius, .. } => ShapeKind::Circle { centre, radius },
            ShapeText::Arc {
                centre,
                radius,
                start,
                end,
                ..
            } => ShapeKind::Arc {
                centre,
                radius,
                start,
                end,
            },
            ShapeText::Gate {
                a,
                b,
                normal,
                threshold,
                ..
            } => ShapeKind::Gate {
                a,
                b,
                normal,
                threshold,
            },
            ShapeText::Teardrop {
                centre,
                radius,
                tip,
                ..
            } => ShapeKind::Teardrop {
                centre,
                radius,
                tip,
            },
            ShapeText::Rect { min, max, .. } => ShapeKind::Rect { min, max },
            ShapeText::OrientedRect {
                centre,
                half_extents,
                angle,
                ..
            } => ShapeKind::OrientedRect {
                centre,
                half_extents,
                angle,
            },
            ShapeText::Group { shapes, hull, .. } => ShapeKind::Group { shapes, hull },
            ShapeText::Scored { shape, .. } => shape.kind,
        }
    }

    /// The text of an unscored shape of a kind that can move: its fields, its elasticity (but
    /// a group's, whose members carry theirs) and its motion. A gate or a teardrop is written
    /// as [`ShapeText::still`] writes it, without the motion.
    fn moving(kind: ShapeKind, elasticity: f32, motion: MotionDesc) -> Self {
        match kind {
            ShapeKind::Point { p } => ShapeText::Point {
                p,
                elasticity,
                motion,
            },
            ShapeKind::Segment { a, b } => ShapeText::Segment {
                a,
                b,
                elasticity,
                motion,
            },
            ShapeKind::Polyline { points } => ShapeText::Polyline {
                points,
                elasticity,
                motion,
            },
            ShapeKind::Circle { centre, radius } => ShapeText::Circle {
                centre,
                radius,
                elasticity,
                motion,
            },
            ShapeKind::Arc {
                centre,
                radius,
                start,
                end,
            } => ShapeText::Arc {
                centre,
                radius,
                start,
                end,
                elasticity,
                motion,
            },
            ShapeKind::Rect { min, max } => ShapeText::Rect {
                min,
                max,
                elasticity,
                motion,
            },
            ShapeKind::OrientedRect {
                centre,
                half_extents,
                angle,
            } => ShapeText::OrientedRect {
                centre,
                half_extents,
                angle,
                elasticity,
                motion,
            },
            ShapeKind::Group { shapes, hull } => ShapeText::Group {
                shapes,
                hull,
                motion,
            },
            kind @ (ShapeKind::Gate { .. } | ShapeKind::Teardrop { .. }) => {
                ShapeText::still(kind, elasticity)
            }
        }
    }

    /// The text of an unscored shape of a kind that cannot move: its fields and its
    /// elasticity. A shape of any other kind is written as [`ShapeText::moving`] writes one
    /// that stays where it is.
    fn still(kind: ShapeKind, elasticity: f32) -> Self {
        match kind {
            ShapeKind::Gate {
                a,
                b,
                normal,
                threshold,
            } => ShapeText::Gate {
                a,
                b,
                normal,
                threshold,
                elasticity,
            },
            ShapeKind::Teardrop {
                centre,
                radius,
                tip,
            } => ShapeText::Teardrop {
                centre,
                radius,
                tip,
                elasticity,
            },
            kind => ShapeText::moving(kind, elasticity, MotionDesc::Static),
        }
    }
}

impl From<ShapeDesc> for ShapeText {
    fn from(d: ShapeDesc) -> Self {
        if let Some(s) = d.score {
            return ShapeText::Scored {
                points: s.points,
                kick: s.kick,
                target: s.target,
                shape: Box::new(ShapeDesc { score: None, ..d }),
            };
        }
        ShapeText::moving(d.kind, d.elasticity, d.motion)
    }
}
