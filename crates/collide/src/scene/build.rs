//! Building a [`World`] from a scene: the shapes (degrees to radians, polylines and teardrops
//! into segments, arcs and points, groups with their members and their guard points), the
//! table's rules and the scene's settings, balls and fill.

use super::{extras, MotionDesc, Scene, ShapeDesc, ShapeKind};
use crate::geom::angle;
use crate::geom::{add_guard_points, Geometry, Group, HullKind, Motion, Shape};
use crate::rules::{GameRules, ShapePlay};
use crate::world::{Launcher, World};
use glam::Vec2;

impl Scene {
    /// Builds the world (brute force broad phase, default settings but the scene's gravity,
    /// ball radius, launch speed, ball elasticity and `settings`), then places the scene's
    /// balls and fill and sets its friction, strings and pockets.
    pub fn build(&self, seed: u64) -> World {
        let (mut shapes, mut plays, mut groups) = (Vec::new(), Vec::new(), Vec::new());
        for d in &self.shapes {
            d.push_shapes(&mut shapes, &mut plays, &mut groups);
        }
        let launcher = Launcher {
            pos: self.launch.pos,
            dir: self.launch.dir.normalize(),
        };
        // The world adds the guard points of the top-level shapes; push_group adds the members'.
        let world = World::with_plays(shapes, plays, self.bounds, seed);
        let mut world = world.with_launcher(launcher);
        world.set_groups(groups);
        if let Some(p) = &self.pinball {
            world.set_game_rules(GameRules {
                drain: Some(p.drain),
                serve: p.serve,
                bank_bonus: p.bank_bonus,
            });
        }
        if let Some(v) = self.launch_speed {
            world.edit_settings(|st| st.launch_speed = v);
        }
        if let Some(e) = self.ball_elasticity {
            world.edit_settings(|st| st.ball_elasticity = e);
        }
        if let Some(g) = self.gravity {
            world.edit_settings(|st| st.gravity = g);
        }
        if let Some(r) = self.ball_radius {
            world.edit_settings(|st| st.ball_radius = r);
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
}

impl ShapeDesc {
    /// The shapes this description builds into, appended to `out` with their worth in a game
    /// beside them in `plays` (a group's members into `groups`); a scoring shape's parts all
    /// score.
    pub(super) fn push_shapes(
        &self,
        out: &mut Vec<Shape>,
        plays: &mut Vec<ShapePlay>,
        groups: &mut Vec<Group>,
    ) {
        let first = out.len();
        self.push_unscored(out, groups);
        plays.resize(out.len(), ShapePlay::default());
        if let Some(score) = &self.score {
            // The first shape's index names the target: unique among top-level shapes.
            let target = score.target.then_some(first as u32);
            for p in &mut plays[first..] {
                p.points = score.points;
                p.kick = score.kick;
                p.target = target;
            }
        }
    }

    /// The obstacles this description builds into, as a world would hold them but without
    /// the guard points the world adds at the ends of top-level shapes, and the groups its
    /// group shapes name (numbered from 0; a group's members carry their guard points). What
    /// a viewer draws a description with.
    pub fn built(&self) -> (Vec<Shape>, Vec<Group>) {
        let (mut shapes, mut groups) = (Vec::new(), Vec::new());
        self.push_unscored(&mut shapes, &mut groups);
        (shapes, groups)
    }

    /// The shapes of the kind, with this description's elasticity and motion.
    fn push_unscored(&self, out: &mut Vec<Shape>, groups: &mut Vec<Group>) {
        let (e, motion) = (self.elasticity, self.motion.built());
        let mut push = |geom| out.push(Shape::new(geom, e, motion));
        match &self.kind {
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

impl MotionDesc {
    /// The library's motion: degrees to radians, a plunger's axis made unit length.
    fn built(&self) -> Motion {
        match *self {
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
