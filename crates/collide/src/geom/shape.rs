//! Obstacle shapes (everything a ball can hit that is not another ball).
//!
//! A [`Shape`] is its current [`Geometry`], the geometry it was built with (`base`, angle 0),
//! an elasticity and a [`Motion`]. Kinematic shapes turn about a pivot; their current geometry
//! is always recomputed from `base` and the angle, so no error builds up over time.

use super::Control;
use super::{oriented_rect_aabb, oriented_rect_corners, Aabb, Hull, Outline};
use crate::geom::angle;
use glam::Vec2;
use serde::{Deserialize, Serialize};
use std::f32::consts::TAU;

/// The geometry of an obstacle. Angles in radians, counter-clockwise, y up.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Geometry {
    /// A single point (a guard point at a segment end, or a target's tip).
    Point {
        /// Position (px).
        p: Vec2,
    },
    /// A line segment from `a` to `b`. Its ends are handled by guard points, not by the segment.
    Segment {
        /// First end (px).
        a: Vec2,
        /// Second end (px).
        b: Vec2,
    },
    /// A solid circle.
    Circle {
        /// Centre (px).
        c: Vec2,
        /// Radius (px).
        r: f32,
    },
    /// A circular arc from `start` counter-clockwise to `end` (`start <= end <= start + 2π`).
    /// Balls hit it from inside or outside.
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
    /// A one-way gate: a segment with a unit normal. Balls moving against the normal faster
    /// than `threshold` pass; all others bounce as off a segment.
    Gate {
        /// First end (px).
        a: Vec2,
        /// Second end (px).
        b: Vec2,
        /// Unit normal, pointing to the side balls may enter from.
        normal: Vec2,
        /// Speed against the normal needed to pass (px/s).
        threshold: f32,
    },
    /// A solid axis-aligned rectangle. Turned about a pivot it becomes an oriented one.
    Rect {
        /// Lower corner (px).
        min: Vec2,
        /// Upper corner (px).
        max: Vec2,
    },
    /// A solid rectangle turned by `angle` about its centre.
    OrientedRect {
        /// Centre (px).
        c: Vec2,
        /// Half width and half height before turning (px).
        half: Vec2,
        /// Angle (rad), counter-clockwise.
        angle: f32,
    },
    /// A shape group: several shapes moving as one, wrapped in a hull. The members live in
    /// the world ([`crate::World::group`]); the shape carries the group's number and hull.
    Group {
        /// Index of the group in the world.
        id: u32,
        /// The hull around all members.
        hull: Hull,
    },
}

/// How an obstacle moves.
#[derive(Clone, Copy, Debug, PartialEq, Default, Serialize, Deserialize)]
pub enum Motion {
    /// Never moves.
    #[default]
    Static,
    /// Turns about `pivot` at `speed` rev/s (counter-clockwise when positive) while rotation is on.
    Kinematic {
        /// Centre of rotation (px).
        pivot: Vec2,
        /// Turn rate (rev/s).
        speed: f32,
    },
    /// A flipper: turns about `pivot` from its pose as built (angle 0) towards `raised` while
    /// `control` is held and back to 0 when released, at `speed` rev/s either way, whatever
    /// the rotate setting. Its angular velocity over the last step is [`Shape::spin`].
    Flipper {
        /// Centre of rotation (px).
        pivot: Vec2,
        /// Angle when fully raised (rad, counter-clockwise from the pose as built).
        raised: f32,
        /// Turn rate (rev/s, > 0).
        speed: f32,
        /// The control that raises it.
        control: Control,
    },
    /// A plunger: slides back along `-axis` at `pull_speed` while `control` is held (at most
    /// `travel` px); on release it springs forward along `axis` at `stiffness` × the pulled
    /// distance (px/s) until it is home. Its offset and speed are [`Shape::pull`] and
    /// [`Shape::pull_rate`].
    Plunger {
        /// Unit direction it fires in.
        axis: Vec2,
        /// Farthest pull (px).
        travel: f32,
        /// Pull speed while held (px/s).
        pull_speed: f32,
        /// Firing speed per pixel pulled (1/s).
        stiffness: f32,
        /// The control that pulls it.
        control: Control,
    },
}

/// An obstacle: geometry, elasticity, motion.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shape {
    /// Current geometry.
    pub geom: Geometry,
    /// Geometry at angle 0, from which kinematic shapes are recomputed.
    pub base: Geometry,
    /// Coefficient of restitution of this shape; the response uses the product with the ball's.
    pub elasticity: f32,
    /// Static or kinematic.
    pub motion: Motion,
    /// Current rotation angle about the pivot (rad).
    pub angle: f32,
    /// For a guard point: the index of the shape it guards.
    pub guard_of: Option<u32>,
    /// A flipper's angular velocity over the last step (rad/s, counter-clockwise); 0 for
    /// every other shape.
    #[serde(default)]
    pub spin: f32,
    /// How far a plunger is pulled back from its pose as built (px); 0 for every other shape.
    #[serde(default)]
    pub pull: f32,
    /// The rate `pull` changed at over the last step (px/s; negative while firing).
    #[serde(default)]
    pub pull_rate: f32,
}

fn rotate_about(p: Vec2, pivot: Vec2, rot: Vec2) -> Vec2 {
    pivot + rot.rotate(p - pivot)
}

impl Geometry {
    /// The bounding box (px).
    pub fn aabb(&self) -> Aabb {
        match *self {
            Geometry::Point { p } => Aabb { min: p, max: p },
            Geometry::Segment { a, b } | Geometry::Gate { a, b, .. } => Aabb::new(a, b),
            Geometry::Circle { c, r } => Aabb::around(c, r),
            Geometry::Arc { c, r, start, end } => arc_aabb(c, r, start, end),
            Geometry::Rect { min, max } => Aabb::new(min, max),
            Geometry::OrientedRect { c, half, angle } => oriented_rect_aabb(c, half, angle),
            Geometry::Group { hull, .. } => hull.aabb(),
        }
    }

    /// Distance (px) from `p` to the farthest point of the shape, or a little more (an arc
    /// counts its whole circle): the radius a circle hull centred at `p` needs.
    pub(crate) fn reach_from(&self, p: Vec2) -> f32 {
        let far = |q: Vec2| (q - p).length();
        match *self {
            Geometry::Point { p: q } => far(q),
            Geometry::Segment { a, b } | Geometry::Gate { a, b, .. } => far(a).max(far(b)),
            Geometry::Circle { c, r } | Geometry::Arc { c, r, .. } => far(c) + r.max(0.0),
            Geometry::Rect { min, max } => far(min)
                .max(far(max))
                .max(far(Vec2::new(min.x, max.y)))
                .max(far(Vec2::new(max.x, min.y))),
            Geometry::OrientedRect { c, half, angle } => oriented_rect_corners(c, half, angle)
                .into_iter()
                .map(far)
                .fold(0.0, f32::max),
            Geometry::Group { hull, .. } => match hull {
                Hull::Circle { c, r } => far(c) + r,
                Hull::Rect(b) => Geometry::Rect {
                    min: b.min,
                    max: b.max,
                }
                .reach_from(p),
            },
        }
    }

    /// This geometry turned by `angle` (rad) about `pivot`.
    pub(crate) fn rotated(&self, pivot: Vec2, angle: f32) -> Geometry {
        let rot = angle::from_angle(angle);
        match *self {
            Geometry::Point { p } => Geometry::Point {
                p: rotate_about(p, pivot, rot),
            },
            Geometry::Segment { a, b } => Geometry::Segment {
                a: rotate_about(a, pivot, rot),
                b: rotate_about(b, pivot, rot),
            },
            Geometry::Circle { c, r } => Geometry::Circle {
                c: rotate_about(c, pivot, rot),
                r,
            },
            Geometry::Arc { c, r, start, end } => Geometry::Arc {
                c: rotate_about(c, pivot, rot),
                r,
                start: start + angle,
                end: end + angle,
            },
            Geometry::Gate {
                a,
                b,
                normal,
                threshold,
            } => Geometry::Gate {
                a: rotate_about(a, pivot, rot),
                b: rotate_about(b, pivot, rot),
                normal: rot.rotate(normal),
                threshold,
            },
            Geometry::Rect { min, max } if angle == 0.0 => Geometry::Rect { min, max },
            Geometry::Rect { min, max } => Geometry::OrientedRect {
                c: rotate_about((min + max) * 0.5, pivot, rot),
                half: (max - min) * 0.5,
                angle,
            },
            Geometry::OrientedRect { c, half, angle: a } => Geometry::OrientedRect {
                c: rotate_about(c, pivot, rot),
                half,
                angle: a + angle,
            },
            Geometry::Group { id, hull } => Geometry::Group {
                id,
                hull: hull.rotated(pivot, angle),
            },
        }
    }

    /// This geometry moved by `d` (px). A group's hull moves; its members are the world's.
    pub(crate) fn translated(&self, d: Vec2) -> Geometry {
        match *self {
            Geometry::Point { p } => Geometry::Point { p: p + d },
            Geometry::Segment { a, b } => Geometry::Segment { a: a + d, b: b + d },
            Geometry::Circle { c, r } => Geometry::Circle { c: c + d, r },
            Geometry::Arc { c, r, start, end } => Geometry::Arc {
                c: c + d,
                r,
                start,
                end,
            },
            Geometry::Gate {
                a,
                b,
                normal,
                threshold,
            } => Geometry::Gate {
                a: a + d,
                b: b + d,
                normal,
                threshold,
            },
            Geometry::Rect { min, max } => Geometry::Rect {
                min: min + d,
                max: max + d,
            },
            Geometry::OrientedRect { c, half, angle } => Geometry::OrientedRect {
                c: c + d,
                half,
                angle,
            },
            Geometry::Group { id, hull } => Geometry::Group {
                id,
                hull: hull.translated(d),
            },
        }
    }

    /// How this geometry is drawn.
    pub fn outline(&self) -> Outline {
        match *self {
            Geometry::Point { p } => Outline::Dot(p),
            Geometry::Segment { a, b } => Outline::Line { a, b },
            Geometry::Circle { c, r } => Outline::Disc { c, r },
            Geometry::Arc { c, r, start, end } => Outline::Arc { c, r, start, end },
            Geometry::Gate { a, b, normal, .. } => Outline::Gate { a, b, normal },
            Geometry::Rect { min, max } => Outline::Polygon(vec![
                min,
                Vec2::new(max.x, min.y),
                max,
                Vec2::new(min.x, max.y),
            ]),
            Geometry::OrientedRect { c, half, angle } => {
                Outline::Polygon(oriented_rect_corners(c, half, angle).to_vec())
            }
            Geometry::Group { id, .. } => Outline::Group(id),
        }
    }

    /// Short name of the kind, for panels and messages.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Geometry::Point { .. } => "point",
            Geometry::Segment { .. } => "segment",
            Geometry::Circle { .. } => "circle",
            Geometry::Arc { .. } => "arc",
            Geometry::Gate { .. } => "gate",
            Geometry::Rect { .. } => "rect",
            Geometry::OrientedRect { .. } => "oriented rect",
            Geometry::Group { .. } => "group",
        }
    }
}

/// True when the arc from `start` counter-clockwise to `end` (rad) is a whole circle: its
/// extent reaches a full turn within the rounding of its two angles. Angles given in degrees
/// that add up to 360° land a few f32 roundings short of `2π` (more, the larger the angles),
/// so the slack is four roundings of the largest of `|start|`, `|end|` and `2π`. The one
/// notion of a closed arc: its contact and swept tests see no ends, and a scene gives it no
/// guard points.
pub(crate) fn arc_is_closed(start: f32, end: f32) -> bool {
    let slack = 4.0 * f32::EPSILON * start.abs().max(end.abs()).max(TAU);
    end - start >= TAU - slack
}

/// Box of an arc: the two end points plus every axis extreme (0, 90, 180, 270°) inside the sweep.
fn arc_aabb(c: Vec2, r: f32, start: f32, end: f32) -> Aabb {
    let r = r.max(0.0);
    let p0 = c + angle::from_angle(start) * r;
    let mut b = Aabb::new(p0, c + angle::from_angle(end) * r);
    let extent = end - start;
    for k in 0..4 {
        let theta = k as f32 * TAU / 4.0;
        // Angle from start to this extreme, counter-clockwise, in [0, 2π).
        let d = (theta - start).rem_euclid(TAU);
        if d <= extent {
            let p = c + angle::from_angle(theta) * r;
            b = b.merged(&Aabb { min: p, max: p });
        }
    }
    b
}

impl Shape {
    /// A shape at rest in its base position.
    pub fn new(geom: Geometry, elasticity: f32, motion: Motion) -> Self {
        Self {
            geom,
            base: geom,
            elasticity,
            motion,
            angle: 0.0,
            guard_of: None,
            spin: 0.0,
            pull: 0.0,
            pull_rate: 0.0,
        }
    }

    /// True for shapes that move (kinematic, flippers, plungers): they come after the statics.
    pub fn is_kinematic(&self) -> bool {
        !matches!(self.motion, Motion::Static)
    }

    /// Sets the rotation angle (rad) of a kinematic shape or flipper and recomputes the
    /// current geometry from the base.
    pub(crate) fn set_angle(&mut self, angle: f32) {
        if let Motion::Kinematic { pivot, .. } | Motion::Flipper { pivot, .. } = self.motion {
            self.angle = angle;
            self.geom = self.base.rotated(pivot, angle);
        }
    }

    /// Sets how far (px) a plunger is pulled back and recomputes its geometry from the base.
    pub(crate) fn set_pull(&mut self, pull: f32) {
        if let Motion::Plunger { axis, .. } = self.motion {
            self.pull = pull;
            self.geom = self.base.translated(axis * -pull);
        }
    }

    /// Velocity (px/s) of the material point at `p`: a kinematic shape's while rotation is on,
    /// a flipper's or plunger's as it moved over the last step.
    pub fn velocity_at(&self, p: Vec2, rotating: bool) -> Vec2 {
        match self.motion {
            Motion::Kinematic { pivot, speed } if rotating => {
                // v = ω × r, with ω = 2π·speed rad/s about the z axis.
                (p - pivot).perp() * (speed * TAU)
            }
            Motion::Flipper { pivot, .. } => (p - pivot).perp() * self.spin,
            // Pulling back raises `pull`, moving the face along -axis.
            Motion::Plunger { axis, .. } => axis * -self.pull_rate,
            _ => Vec2::ZERO,
        }
    }

    /// The bounding box of the current geometry.
    pub fn aabb(&self) -> Aabb {
        self.geom.aabb()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::PI;

    #[test]
    fn a_ring_from_90_to_450_degrees_is_closed_though_its_extent_rounds_short_of_a_turn() {
        // As a scene file gives it: the extent is one f32 step short of 2π.
        let (start, end) = (90f32.to_radians(), 450f32.to_radians());
        assert!(end - start < std::f32::consts::TAU);
        assert!(arc_is_closed(start, end));
    }

    #[test]
    fn quarter_arc_box_covers_only_its_quadrant() {
        let g = Geometry::Arc {
            c: Vec2::ZERO,
            r: 2.0,
            start: 0.0,
            end: PI / 2.0,
        };
        let b = g.aabb();
        assert!((b.min - Vec2::ZERO).length() < 1e-5);
        assert!((b.max - Vec2::splat(2.0)).length() < 1e-5);
    }

    #[test]
    fn arc_box_includes_extremes_across_zero() {
        let g = Geometry::Arc {
            c: Vec2::ZERO,
            r: 1.0,
            start: -0.5,
            end: 0.5,
        };
        assert!((g.aabb().max.x - 1.0).abs() < 1e-6);
    }

    #[test]
    fn rotation_keeps_lengths() {
        let g = Geometry::Segment {
            a: Vec2::new(1.0, 0.0),
            b: Vec2::new(3.0, 0.0),
        };
        if let Geometry::Segment { a, b } = g.rotated(Vec2::ZERO, PI / 2.0) {
            assert!((a - Vec2::new(0.0, 1.0)).length() < 1e-5);
            assert!(((b - a).length() - 2.0).abs() < 1e-5);
        } else {
            unreachable!()
        }
    }

    #[test]
    fn a_rect_is_drawn_as_its_four_corners_counter_clockwise_from_min() {
        let g = Geometry::Rect {
            min: Vec2::new(1.0, 2.0),
            max: Vec2::new(4.0, 6.0),
        };
        let Outline::Polygon(k) = g.outline() else {
            panic!("a rect is a polygon")
        };
        assert_eq!(
            k,
            [(1.0, 2.0), (4.0, 2.0), (4.0, 6.0), (1.0, 6.0)].map(|(x, y)| Vec2::new(x, y))
        );
    }

    #[test]
    fn a_turned_rect_is_drawn_as_the_corners_its_contact_test_uses() {
        let (c, half, angle) = (Vec2::new(3.0, 4.0), Vec2::new(2.0, 1.0), 0.5);
        let g = Geometry::OrientedRect { c, half, angle };
        assert_eq!(
            g.outline(),
            Outline::Polygon(oriented_rect_corners(c, half, angle).to_vec())
        );
    }
}
