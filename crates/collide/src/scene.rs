//! Scene files: a serde description of a table (RON), validated and built into a [`World`].
//!
//! Angles in scene files are in degrees; the library works in radians. Every segment and arc
//! end gets a guard point (one per distinct position, moving with its shape), so a ball
//! hitting an end bounces off the end. Errors name the file, line, column and field.
//!
//! A `Group` is one object made of several shapes, built into one obstacle whose members the
//! world keeps; its members get their own guard points and move with the group.

use crate::geom::{Aabb, Geometry, Group, HullKind, Motion, Shape};
use crate::play::{Control, GameRules};
use crate::world::{Launcher, World};
use glam::Vec2;
use serde::{Deserialize, Serialize};
use std::fmt;

mod extras;
pub use extras::{BallDesc, FillDesc, PocketDesc, RainDesc, SettingsDesc, MAX_SCENE_BALLS};

/// Most shapes a scene may hold.
pub const MAX_SHAPES: usize = 100_000;

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

fn yes() -> bool {
    true
}

/// The rules of a played table, as written in a scene.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinballDesc {
    /// A ball whose centre enters this box is lost (px).
    pub drain: Aabb,
    /// Serve a new ball at the launcher when none is in play (default true).
    #[serde(default = "yes")]
    pub serve: bool,
    /// Points for lighting every target (default 0).
    #[serde(default)]
    pub bank_bonus: u32,
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

/// Where balls enter.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaunchDesc {
    /// Start point (px).
    pub pos: Vec2,
    /// Direction (need not be unit length).
    pub dir: Vec2,
}

/// A scene: play area, launcher, obstacles and a few defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scene {
    /// Name shown in the panel.
    pub name: String,
    /// Play area (px): balls outside it are strays.
    pub bounds: Aabb,
    /// Where balls enter.
    pub launch: LaunchDesc,
    /// Gravity (px/s²) to start with.
    #[serde(default)]
    pub gravity: Option<f32>,
    /// Radius of launched balls to start with (px).
    #[serde(default)]
    pub ball_radius: Option<f32>,
    /// Launch speed to start with (px/s).
    #[serde(default)]
    pub launch_speed: Option<f32>,
    /// Elasticity of launched balls to start with.
    #[serde(default)]
    pub ball_elasticity: Option<f32>,
    /// Played as a game: the drain, serving, the bonus (default none).
    #[serde(default)]
    pub pinball: Option<PinballDesc>,
    /// The obstacles.
    pub shapes: Vec<ShapeDesc>,
    /// Settings the scene starts with (iterations, elasticity scale).
    #[serde(default)]
    pub settings: SettingsDesc,
    /// Table friction: a deceleration of every ball (px/s²).
    #[serde(default)]
    pub friction: Option<f32>,
    /// Balls placed at the start, some maybe on strings.
    #[serde(default)]
    pub balls: Vec<BallDesc>,
    /// N balls at seeded random places, at the start or raining in.
    #[serde(default)]
    pub fill: Option<FillDesc>,
    /// Pockets that take balls off the table.
    #[serde(default)]
    pub pockets: Vec<PocketDesc>,
}

/// Why a scene could not be loaded: where, and what.
#[derive(Clone, Debug, PartialEq)]
pub struct SceneError {
    /// File path or built-in name.
    pub origin: String,
    /// 1-based line (0 when unknown).
    pub line: usize,
    /// 1-based column (0 when unknown).
    pub col: usize,
    /// The problem, naming the field.
    pub message: String,
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.origin, self.line, self.col, self.message
        )
    }
}

impl std::error::Error for SceneError {}

impl Scene {
    /// Parses and validates scene text; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Scene, SceneError> {
        let scene: Scene = ron::from_str(text).map_err(|e| SceneError {
            origin: origin.to_string(),
            line: e.position.line,
            col: e.position.col,
            message: e.code.to_string(),
        })?;
        scene.validate().map_err(|(at, message)| {
            let found = match at {
                At::Shape(i) => shape_positions(text).get(i).copied(),
                At::Key(key) => key_position(&code_chars(text), key).map(|i| {
                    let (_, line, col) = code_chars(text)[i];
                    (line, col)
                }),
            };
            // A value the parser accepted is somewhere in the text; 1:1 if it cannot be found.
            let (line, col) = found.unwrap_or((1, 1));
            SceneError {
                origin: origin.to_string(),
                line,
                col,
                message,
            }
        })?;
        Ok(scene)
    }

    /// Reads, parses and validates a scene file.
    pub fn load(path: &std::path::Path) -> Result<Scene, SceneError> {
        let (origin, text) = Self::read(path)?;
        Self::parse(&text, &origin)
    }

    /// A scene file's origin (its path, for messages) and text; a file that cannot be read
    /// is an error naming it.
    pub fn read(path: &std::path::Path) -> Result<(String, String), SceneError> {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| SceneError {
            origin: origin.clone(),
            line: 0,
            col: 0,
            message: format!("cannot read the file: {e}"),
        })?;
        Ok((origin, text))
    }

    /// Checks every number without the text: the message names the shape and the field
    /// (for a scene made in code or in the editor).
    pub(crate) fn validated_message(&self) -> Result<(), String> {
        self.validate().map_err(|(_, m)| m)
    }

    /// Checks every number; on failure returns the shape index (if any) and the message.
    fn validate(&self) -> Result<(), (At, String)> {
        let b = &self.bounds;
        if !(b.min.is_finite() && b.max.is_finite() && b.min.x < b.max.x && b.min.y < b.max.y) {
            return Err((
                At::Key("bounds"),
                "field `bounds`: min must be below max, all finite".into(),
            ));
        }
        check_vec(self.launch.pos, "launch.pos").map_err(|m| (At::Key("launch"), m))?;
        check_direction(self.launch.dir, "launch.dir").map_err(|m| (At::Key("launch"), m))?;
        if let Some(g) = self.gravity {
            check_num(g, "gravity", 0.0, 1e7).map_err(|m| (At::Key("gravity"), m))?;
        }
        if let Some(r) = self.ball_radius {
            check_num(r, "ball_radius", 0.0, 1e4).map_err(|m| (At::Key("ball_radius"), m))?;
        }
        if let Some(v) = self.launch_speed {
            check_num(v, "launch_speed", 0.0, 1e6).map_err(|m| (At::Key("launch_speed"), m))?;
        }
        if let Some(e) = self.ball_elasticity {
            check_num(e, "ball_elasticity", 0.0, 10.0)
                .map_err(|m| (At::Key("ball_elasticity"), m))?;
        }
        if self.shapes.len() > MAX_SHAPES {
            return Err((
                At::Key("shapes"),
                format!(
                    "field `shapes`: {} shapes, at most {MAX_SHAPES}",
                    self.shapes.len()
                ),
            ));
        }
        if let Some(p) = &self.pinball {
            let d = &p.drain;
            if !(d.min.is_finite() && d.max.is_finite() && d.min.x < d.max.x && d.min.y < d.max.y) {
                return Err((
                    At::Key("pinball"),
                    "field `pinball.drain`: min must be below max, all finite".into(),
                ));
            }
        }
        for (i, s) in self.shapes.iter().enumerate() {
            s.validate()
                .map_err(|m| (At::Shape(i), format!("shape {i} ({}): {m}", s.kind_name())))?;
        }
        extras::validate(
            &self.settings,
            self.friction,
            &self.balls,
            self.fill.as_ref(),
            &self.pockets,
        )
    }

    /// Builds the world (brute force broad phase, default settings but the scene's gravity,
    /// ball radius, launch speed, ball elasticity and `settings`), then places the scene's
    /// balls and fill and sets its friction, strings and pockets.
    pub fn build(&self, seed: u64) -> World {
        let (mut shapes, mut groups) = (Vec::new(), Vec::new());
        for d in &self.shapes {
            d.push_shapes(&mut shapes, &mut groups);
        }
        add_guard_points(&mut shapes);
        let launcher = Launcher {
            pos: self.launch.pos,
            dir: self.launch.dir.normalize(),
        };
        let mut world = World::new(shapes, self.bounds, launcher, seed);
        world.set_groups(groups);
        if let Some(p) = &self.pinball {
            world.set_game_rules(GameRules {
                drain: Some(p.drain),
                serve: p.serve,
                bank_bonus: p.bank_bonus,
            });
        }
        if let Some(v) = self.launch_speed {
            world.settings.launch_speed = v;
        }
        if let Some(e) = self.ball_elasticity {
            world.settings.ball_elasticity = e;
        }
        if let Some(g) = self.gravity {
            world.settings.gravity = g;
        }
        if let Some(r) = self.ball_radius {
            world.settings.ball_radius = r;
        }
        self.settings.apply(&mut world);
        extras::populate(
            &mut world,
            self.friction,
            &self.balls,
            self.fill.as_ref(),
            &self.pockets,
        );
        world
    }

    /// This scene with its fill's ball count set to `n` (unchanged when it has no fill).
    pub fn with_fill_count(mut self, n: u32) -> Self {
        if let Some(f) = &mut self.fill {
            f.count = n.min(MAX_SCENE_BALLS);
        }
        self
    }
}

/// Where a validation error points.
enum At {
    /// The entry of the top-level `shapes` list.
    Shape(usize),
    /// A key of the top-level struct.
    Key(&'static str),
}

fn check_num(x: f32, field: &str, lo: f32, hi: f32) -> Result<(), String> {
    if !x.is_finite() {
        return Err(format!("field `{field}`: must be a finite number, got {x}"));
    }
    if x < lo || x > hi {
        return Err(format!("field `{field}`: must be in {lo}..={hi}, got {x}"));
    }
    Ok(())
}

fn check_vec(v: Vec2, field: &str) -> Result<(), String> {
    check_num(v.x, field, -1e7, 1e7)?;
    check_num(v.y, field, -1e7, 1e7)
}

/// A direction must normalize to a unit vector in f32: finite, and neither so short nor so
/// long that its squared length underflows or overflows.
fn check_direction(v: Vec2, field: &str) -> Result<(), String> {
    let len = v.length();
    if v.is_finite() && (1e-6..=1e15).contains(&len) {
        Ok(())
    } else {
        Err(format!(
            "field `{field}`: must be a non-zero finite direction (length 1e-6..=1e15), got {v}"
        ))
    }
}

pub(crate) fn check_motion(m: &MotionDesc) -> Result<(), String> {
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

    fn validate(&self) -> Result<(), String> {
        match self {
            ShapeDesc::Point {
                p,
                elasticity,
                motion,
            } => {
                check_vec(*p, "p")?;
                check_num(*elasticity, "elasticity", 0.0, 10.0)?;
                check_motion(motion)
            }
            ShapeDesc::Segment {
                a,
                b,
                elasticity,
                motion,
            } => {
                check_vec(*a, "a")?;
                check_vec(*b, "b")?;
                check_num(*elasticity, "elasticity", 0.0, 10.0)?;
                check_motion(motion)
            }
            ShapeDesc::Polyline {
                points,
                elasticity,
                motion,
            } => {
                if points.len() < 2 {
                    return Err("field `points`: needs at least two points".into());
                }
                points.iter().try_for_each(|p| check_vec(*p, "points"))?;
                check_num(*elasticity, "elasticity", 0.0, 10.0)?;
                check_motion(motion)
            }
            ShapeDesc::Circle {
                centre,
                radius,
                elasticity,
                motion,
            } => {
                check_vec(*centre, "centre")?;
                check_num(*radius, "radius", 1e-3, 1e6)?;
                check_num(*elasticity, "elasticity", 0.0, 10.0)?;
                check_motion(motion)
            }
            ShapeDesc::Arc {
                centre,
                radius,
                start,
                end,
                elasticity,
                motion,
            } => {
                check_vec(*centre, "centre")?;
                check_num(*radius, "radius", 1e-3, 1e6)?;
                check_num(*start, "start", -3600.0, 3600.0)?;
                check_num(*end, "end", -3600.0, 3600.0)?;
                if !(end > start && end - start <= 360.0) {
                    return Err(format!("field `end`: must be above `start` by at most 360 degrees (start {start}, end {end})"));
                }
                check_num(*elasticity, "elasticity", 0.0, 10.0)?;
                check_motion(motion)
            }
            ShapeDesc::Gate {
                a,
                b,
                normal,
                threshold,
                elasticity,
            } => {
                check_vec(*a, "a")?;
                check_vec(*b, "b")?;
                check_vec(*normal, "normal")?;
                check_direction(*normal, "normal")?;
                check_num(*threshold, "threshold", 0.0, 1e7)?;
                check_num(*elasticity, "elasticity", 0.0, 10.0)
            }
            ShapeDesc::Teardrop {
                centre,
                radius,
                tip,
                elasticity,
            } => {
                check_vec(*centre, "centre")?;
                check_vec(*tip, "tip")?;
                check_num(*radius, "radius", 1e-3, 1e6)?;
                if (*tip - *centre).length() <= radius * 1.01 {
                    return Err("field `tip`: must lie outside the round end".into());
                }
                check_num(*elasticity, "elasticity", 0.0, 10.0)
            }
            ShapeDesc::Rect {
                min,
                max,
                elasticity,
                motion,
            } => {
                check_vec(*min, "min")?;
                check_vec(*max, "max")?;
                if !(min.x < max.x && min.y < max.y) {
                    return Err(format!(
                        "field `max`: must be above `min` on both axes (min {min}, max {max})"
                    ));
                }
                check_num(*elasticity, "elasticity", 0.0, 10.0)?;
                check_motion(motion)
            }
            ShapeDesc::OrientedRect {
                centre,
                half_extents,
                angle,
                elasticity,
                motion,
            } => {
                check_vec(*centre, "centre")?;
                check_num(half_extents.x, "half_extents", 1e-3, 1e6)?;
                check_num(half_extents.y, "half_extents", 1e-3, 1e6)?;
                check_num(*angle, "angle", -3600.0, 3600.0)?;
                check_num(*elasticity, "elasticity", 0.0, 10.0)?;
                check_motion(motion)
            }
            ShapeDesc::Group { shapes, motion, .. } => {
                if shapes.is_empty() {
                    return Err("field `shapes`: a group needs at least one shape".into());
                }
                shapes.iter().enumerate().try_for_each(|(k, m)| {
                    m.validate_member()
                        .map_err(|e| format!("member {k} ({}): {e}", m.kind_name()))
                })?;
                check_motion(motion)
            }
            ShapeDesc::Scored { kick, shape, .. } => {
                check_num(*kick, "kick", 0.0, 1e5)?;
                shape
                    .validate()
                    .map_err(|e| format!("field `shape` ({}): {e}", shape.kind_name()))
            }
        }
    }

    /// Checks a group member: a valid shape, not a gate or a group, and without its own motion.
    fn validate_member(&self) -> Result<(), String> {
        match self {
            ShapeDesc::Group { .. } | ShapeDesc::Gate { .. } => {
                return Err("groups hold no gates and no groups".into())
            }
            ShapeDesc::Scored { .. } => {
                return Err("a group scores as one: wrap the whole group in Scored".into())
            }
            ShapeDesc::Point { motion, .. }
            | ShapeDesc::Segment { motion, .. }
            | ShapeDesc::Polyline { motion, .. }
            | ShapeDesc::Circle { motion, .. }
            | ShapeDesc::Arc { motion, .. }
            | ShapeDesc::Rect { motion, .. }
            | ShapeDesc::OrientedRect { motion, .. }
                if *motion != MotionDesc::Static =>
            {
                return Err(
                    "field `motion`: members move with their group; give the group the motion"
                        .into(),
                )
            }
            _ => {}
        }
        self.validate()
    }

    fn push_shapes(&self, out: &mut Vec<Shape>, groups: &mut Vec<Group>) {
        let motion_of = |m: &MotionDesc| match *m {
            MotionDesc::Static => Motion::Static,
            MotionDesc::Kinematic { pivot, speed } => Motion::Kinematic { pivot, speed },
            MotionDesc::Flipper {
                pivot,
                raised,
                speed,
                control,
            } => Motion::Flipper {
                pivot,
                raised: raised.to_radians(),
                speed,
                control,
            },
            MotionDesc::Plunger {
                axis,
                travel,
                pull_speed,
                stiffness,
                control,
            } => Motion::Plunger {
                axis: axis.normalize(),
                travel,
                pull_speed,
                stiffness,
                control,
            },
        };
        match self {
            ShapeDesc::Point {
                p,
                elasticity,
                motion,
            } => out.push(Shape::new(
                Geometry::Point { p: *p },
                *elasticity,
                motion_of(motion),
            )),
            ShapeDesc::Segment {
                a,
                b,
                elasticity,
                motion,
            } => out.push(Shape::new(
                Geometry::Segment { a: *a, b: *b },
                *elasticity,
                motion_of(motion),
            )),
            ShapeDesc::Polyline {
                points,
                elasticity,
                motion,
            } => {
                for w in points.windows(2) {
                    out.push(Shape::new(
                        Geometry::Segment { a: w[0], b: w[1] },
                        *elasticity,
                        motion_of(motion),
                    ));
                }
            }
            ShapeDesc::Circle {
                centre,
                radius,
                elasticity,
                motion,
            } => out.push(Shape::new(
                Geometry::Circle {
                    c: *centre,
                    r: *radius,
                },
                *elasticity,
                motion_of(motion),
            )),
            ShapeDesc::Arc {
                centre,
                radius,
                start,
                end,
                elasticity,
                motion,
            } => {
                let geom = Geometry::Arc {
                    c: *centre,
                    r: *radius,
                    start: start.to_radians(),
                    end: end.to_radians(),
                };
                out.push(Shape::new(geom, *elasticity, motion_of(motion)))
            }
            ShapeDesc::Gate {
                a,
                b,
                normal,
                threshold,
                elasticity,
            } => {
                let geom = Geometry::Gate {
                    a: *a,
                    b: *b,
                    normal: normal.normalize(),
                    threshold: *threshold,
                };
                out.push(Shape::new(geom, *elasticity, Motion::Static))
            }
            ShapeDesc::Teardrop {
                centre,
                radius,
                tip,
                elasticity,
            } => push_teardrop(*centre, *radius, *tip, *elasticity, out),
            ShapeDesc::Rect {
                min,
                max,
                elasticity,
                motion,
            } => out.push(Shape::new(
                Geometry::Rect {
                    min: *min,
                    max: *max,
                },
                *elasticity,
                motion_of(motion),
            )),
            ShapeDesc::OrientedRect {
                centre,
                half_extents,
                angle,
                elasticity,
                motion,
            } => out.push(Shape::new(
                Geometry::OrientedRect {
                    c: *centre,
                    half: *half_extents,
                    angle: angle.to_radians(),
                },
                *elasticity,
                motion_of(motion),
            )),
            ShapeDesc::Group {
                shapes,
                hull,
                motion,
            } => push_group(shapes, *hull, motion_of(motion), out, groups),
            ShapeDesc::Scored {
                points,
                kick,
                target,
                shape,
            } => {
                let first = out.len();
                shape.push_shapes(out, groups);
                // The first shape's index names the target: unique among top-level shapes.
                let target = target.then_some(first as u32);
                for s in &mut out[first..] {
                    s.play.points = *points;
                    s.play.kick = *kick;
                    s.play.target = target;
                }
            }
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
        d.push_shapes(&mut members, groups);
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
    let toward = d.y.atan2(d.x);
    // The tangent points sit at ±acos(r / dist) from the direction to the tip.
    let half = (r / dist).acos();
    let (t1, t2) = (toward + half, toward - half);
    let p1 = c + Vec2::from_angle(t1) * r;
    let p2 = c + Vec2::from_angle(t2) * r;
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

/// Adds one point, moving with its shape, at every distinct segment, gate and arc end that
/// has no point there yet.
fn add_guard_points(shapes: &mut Vec<Shape>) {
    let mut guards: Vec<Shape> = Vec::new();
    let taken = |list: &[Shape], q: Vec2| {
        list.iter()
            .any(|s| matches!(s.geom, Geometry::Point { p } if (p - q).length_squared() < 1e-6))
    };
    for (i, s) in shapes.iter().enumerate() {
        let ends: Vec<Vec2> = match s.geom {
            Geometry::Segment { a, b } | Geometry::Gate { a, b, .. } => vec![a, b],
            Geometry::Arc { c, r, start, end } if !crate::geom::arc_is_closed(start, end) => {
                vec![
                    c + Vec2::from_angle(start) * r,
                    c + Vec2::from_angle(end) * r,
                ]
            }
            _ => vec![],
        };
        for q in ends {
            if !taken(shapes, q) && !taken(&guards, q) {
                let mut g = Shape::new(Geometry::Point { p: q }, s.elasticity, s.motion);
                g.guard_of = Some(i as u32);
                // A target's ends light with it.
                g.play.target = s.play.target;
                guards.push(g);
            }
        }
    }
    shapes.extend(guards);
}

/// Line and column (1-based) of each entry of the top-level `shapes` list, found by a light
/// scan of the text (strings and comments skipped), for error messages.
fn shape_positions(text: &str) -> Vec<(usize, usize)> {
    let code = code_chars(text);
    let Some(open) = shapes_list_start(&code) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let (mut depth, mut expect_item) = (0i32, true);
    for &(ch, line, col) in &code[open + 1..] {
        match ch {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' if depth == 0 => break,
            ']' | ')' | '}' => depth -= 1,
            ',' if depth == 0 => expect_item = true,
            c if expect_item && depth == 0 && c.is_alphabetic() => {
                out.push((line, col));
                expect_item = false;
            }
            _ => {}
        }
    }
    out
}

/// Index in `code` of the first character of the key `key` of the top-level struct (followed
/// by `:`).
fn key_position(code: &[(char, usize, usize)], key: &str) -> Option<usize> {
    let chars: Vec<char> = code.iter().map(|c| c.0).collect();
    let key: Vec<char> = key.chars().collect();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut depth = 0i32;
    for i in 0..chars.len() {
        match chars[i] {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            _ => {}
        }
        let word_start = i == 0 || !is_ident(chars[i - 1]);
        if depth != 1 || !word_start || !chars[i..].starts_with(&key) {
            continue;
        }
        let after = chars[i + key.len()..].iter().find(|c| !c.is_whitespace());
        if after == Some(&':') {
            return Some(i);
        }
    }
    None
}

/// Index in `code` of the `[` opening the list of the `shapes` key of the top-level struct.
fn shapes_list_start(code: &[(char, usize, usize)]) -> Option<usize> {
    let chars: Vec<char> = code.iter().map(|c| c.0).collect();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut depth = 0i32;
    for i in 0..chars.len() {
        match chars[i] {
            '[' | '(' | '{' => depth += 1,
            ']' | ')' | '}' => depth -= 1,
            _ => {}
        }
        let word_start = i == 0 || !is_ident(chars[i - 1]);
        if depth != 1 || !word_start || !chars[i..].starts_with(&['s', 'h', 'a', 'p', 'e', 's']) {
            continue;
        }
        // The key is followed by `:` and then `[` (whitespace aside).
        let mut rest = (i + 6..chars.len()).filter(|&k| !chars[k].is_whitespace());
        if let (Some(colon), Some(open)) = (rest.next(), rest.next()) {
            if chars[colon] == ':' && chars[open] == '[' {
                return Some(open);
            }
        }
    }
    None
}

/// Lexer state of [`code_chars`].
#[derive(Clone, Copy, PartialEq)]
enum Lex {
    Code,
    LineComment,
    /// Inside block comments nested this deep.
    BlockComment(u32),
    Str,
}

/// The characters of RON `text` outside comments and strings, each with its 1-based line and
/// column; a string is kept as its opening quote only.
fn code_chars(text: &str) -> Vec<(char, usize, usize)> {
    let mut out = Vec::new();
    let (mut line, mut col) = (1, 0);
    let mut state = Lex::Code;
    let mut chars = text.chars().peekable();
    while let Some(ch) = chars.next() {
        advance_line_col(ch, &mut line, &mut col);
        let next = chars.peek().copied();
        // Two-character tokens consume their second character here.
        let mut take_next = || {
            if let Some(n) = chars.next() {
                advance_line_col(n, &mut line, &mut col);
            }
        };
        state = match (state, ch, next) {
            (Lex::Code, '/', Some('/')) => Lex::LineComment,
            (Lex::Code, '/', Some('*')) => {
                take_next();
                Lex::BlockComment(1)
            }
            (Lex::Code, '"', _) => {
                out.push((ch, line, col));
                Lex::Str
            }
            (Lex::Code, _, _) => {
                out.push((ch, line, col));
                Lex::Code
            }
            (Lex::LineComment, '\n', _) => Lex::Code,
            (Lex::BlockComment(d), '*', Some('/')) => {
                take_next();
                if d <= 1 {
                    Lex::Code
                } else {
                    Lex::BlockComment(d - 1)
                }
            }
            (Lex::BlockComment(d), '/', Some('*')) => {
                take_next();
                Lex::BlockComment(d + 1)
            }
            (Lex::Str, '\\', _) => {
                take_next();
                Lex::Str
            }
            (Lex::Str, '"', _) => Lex::Code,
            (other, _, _) => other,
        };
    }
    out
}

/// Moves the 1-based position past `ch`: a newline starts the next line at column 0, so the
/// first character of a line is in column 1.
fn advance_line_col(ch: char, line: &mut usize, col: &mut usize) {
    if ch == '\n' {
        *line += 1;
        *col = 0;
    } else {
        *col += 1;
    }
}
