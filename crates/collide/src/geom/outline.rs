//! What an obstacle looks like, as data a viewer draws: an [`Outline`] made of the few
//! primitives every kind is drawn with (a dot, a line, a disc, an arc, a gate, a filled
//! polygon, a group's members). A viewer (the app, the scene editor) draws outlines and
//! never matches on the kind of a shape: a new kind says how it looks in
//! `Geometry::outline`, beside its other facts, and no viewer
//! changes.

use glam::Vec2;

/// How one obstacle is drawn. Positions in px, angles in radians, y up.
#[derive(Clone, Debug, PartialEq)]
pub enum Outline {
    /// A point at `p` (px).
    Dot(Vec2),
    /// A line from `a` to `b` (px).
    Line {
        /// First end (px).
        a: Vec2,
        /// Second end (px).
        b: Vec2,
    },
    /// A solid circle: centre `c`, radius `r` (px).
    Disc {
        /// Centre (px).
        c: Vec2,
        /// Radius (px).
        r: f32,
    },
    /// A circular arc from `start` counter-clockwise to `end` (rad).
    Arc {
        /// Centre (px).
        c: Vec2,
        /// Radius (px).
        r: f32,
        /// Start angle (rad).
        start: f32,
        /// End angle (rad), at least `start`.
        end: f32,
    },
    /// A one-way gate from `a` to `b`; balls pass against the unit `normal`.
    Gate {
        /// First end (px).
        a: Vec2,
        /// Second end (px).
        b: Vec2,
        /// Unit normal, pointing to the side balls enter from.
        normal: Vec2,
    },
    /// A solid convex polygon, its corners counter-clockwise (px).
    Polygon(Vec<Vec2>),
    /// A shape group: drawn as its members ([`crate::World::group`] with this number).
    Group(u32),
}
