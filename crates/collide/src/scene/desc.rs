//! The obstacles as a scene file writes them: [`ShapeDesc`] and its [`MotionDesc`]. Angles are
//! in degrees; `build.rs` turns them into the library's shapes (radians).

use crate::geom::Control;
use crate::geom::HullKind;
use glam::Vec2;
use serde::{Deserialize, Serialize};

fn one() -> f32 {
    1.0
}

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

/// One obstacle as written in a scene file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ShapeDesc {
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

impl ShapeDesc {
    /// The variant's name as written in scene files (`Segment`, `Arc`, …).
    pub fn kind_name(&self) -> &'static str {
        match self {
            ShapeDesc::Point { .. } => "Point",
            ShapeDesc::Segment { .. } => "Segment",
            ShapeDesc::Polyline { .. } => "Polyline",
            ShapeDesc::Circle { .. } => "Circle",
            ShapeDesc::Arc { .. } => "Arc",
            ShapeDesc::Gate { .. } => "Gate",
            ShapeDesc::Teardrop { .. } => "Teardrop",
            ShapeDesc::Rect { .. } => "Rect",
            ShapeDesc::OrientedRect { .. } => "OrientedRect",
            ShapeDesc::Group { .. } => "Group",
            ShapeDesc::Scored { .. } => "Scored",
        }
    }
}
