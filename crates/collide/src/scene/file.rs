//! A scene file: the [`Scene`] it describes, and reading it — parsed (RON), checked, and every
//! error placed at its file, line, column and field.

use super::check::At;
use super::extras::{BallDesc, FillDesc, PocketDesc, SettingsDesc, MAX_SCENE_BALLS};
use super::locate;
use super::ShapeDesc;
use crate::geom::Aabb;
use glam::Vec2;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Most shapes a scene may hold.
pub(crate) const MAX_SHAPES: usize = 100_000;

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
    /// `origin:line:col: message`, or `origin: message` for an error about the whole file
    /// (line 0: it is missing, unreadable or of another kind).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return write!(f, "{}: {}", self.origin, self.message);
        }
        write!(
            f,
            "{}:{}:{}: {}",
            self.origin, self.line, self.col, self.message
        )
    }
}

impl SceneError {
    /// An error about the whole file at `origin` (no line or column).
    pub fn whole_file(origin: &str, message: String) -> Self {
        SceneError {
            origin: origin.to_string(),
            line: 0,
            col: 0,
            message,
        }
    }

    /// The file at `path` could not be read: "no such file" when it is missing, else the
    /// system's reason.
    ///
    /// ```
    /// let e = collide::Scene::load("no/such/scene.ron".as_ref()).unwrap_err();
    /// assert_eq!(e.to_string(), "no/such/scene.ron: no such file");
    /// ```
    pub(crate) fn unreadable(path: &std::path::Path, e: &std::io::Error) -> Self {
        let message = match e.kind() {
            std::io::ErrorKind::NotFound => "no such file".to_string(),
            _ => format!("cannot read the file: {e}"),
        };
        Self::whole_file(&path.display().to_string(), message)
    }

    /// When `text` is another kind of file than `kind`, the error that says so; else `self`.
    pub(crate) fn or_wrong_kind(self, kind: super::FileKind, text: &str) -> Self {
        match kind.mismatch(text) {
            Some(m) => Self::whole_file(&self.origin, m),
            None => self,
        }
    }
}

impl std::error::Error for SceneError {}

impl Scene {
    /// Parses and validates scene text; `origin` names it in errors.
    ///
    /// ```
    /// let text = r#"Scene(
    ///     name: "box",
    ///     bounds: (min: (0, 0), max: (400, 300)),
    ///     launch: (pos: (200, 20), dir: (0, 1)),
    ///     shapes: [
    ///         Segment(a: (0, 0), b: (400, 0)),
    ///         Circle(centre: (200, 150), radius: -20),
    ///     ],
    /// )"#;
    /// let e = collide::Scene::parse(text, "box.ron").unwrap_err();
    /// assert_eq!((e.line, e.col), (7, 9));
    /// assert!(e.to_string().starts_with("box.ron:7:9: shape 1 (Circle): field `radius`"));
    /// let fixed = text.replace("radius: -20", "radius: 20");
    /// let world = collide::Scene::parse(&fixed, "box.ron").unwrap().build(1);
    /// assert_eq!(world.shapes().len(), 4, "a segment, its two guard points, a circle");
    /// ```
    pub fn parse(text: &str, origin: &str) -> Result<Scene, SceneError> {
        let scene: Scene = ron::from_str(text).map_err(|e| {
            SceneError {
                origin: origin.to_string(),
                line: e.position.line,
                col: e.position.col,
                message: e.code.to_string(),
            }
            .or_wrong_kind(super::FileKind::Scene, text)
        })?;
        scene.validate().map_err(|(at, message)| {
            let found = match at {
                At::Shape(i) => locate::shape_positions(text).get(i).copied(),
                At::Key(key) => locate::key_position(&locate::code_chars(text), key).map(|i| {
                    let (_, line, col) = locate::code_chars(text)[i];
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
    ///
    /// ```
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/scenes/pool.ron");
    /// let scene = collide::Scene::load(path.as_ref()).expect("the pool scene loads");
    /// assert_eq!(scene.name, "pool");
    /// ```
    pub fn load(path: &std::path::Path) -> Result<Scene, SceneError> {
        let (origin, text) = Self::read(path)?;
        Self::parse(&text, &origin)
    }

    /// A scene file's origin (its path, for messages) and text; a file that cannot be read
    /// is an error naming it.
    pub fn read(path: &std::path::Path) -> Result<(String, String), SceneError> {
        let origin = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| SceneError::unreadable(path, &e))?;
        Ok((origin, text))
    }

    /// Checks every number without the text: the message names the shape and the field
    /// (for a scene made in code or in the editor).
    pub(crate) fn validated_message(&self) -> Result<(), String> {
        self.validate().map_err(|(_, m)| m)
    }

    /// This scene with its fill's ball count set to `n` (unchanged when it has no fill).
    pub fn with_fill_count(mut self, n: u32) -> Self {
        if let Some(f) = &mut self.fill {
            f.count = n.min(MAX_SCENE_BALLS);
        }
        self
    }
}
