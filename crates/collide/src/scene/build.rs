//! Building a [`World`] from a scene: the shapes (each kind's own building is beside it in
//! `desc.rs`; here the scoring and the motions, degrees to radians), the table's rules and
//! the scene's settings, balls and fill.

use super::{extras, MotionDesc, Scene, ShapeDesc};
use crate::geom::{Group, Motion, Shape};
use crate::rules::{GameRules, ShapePlay};
use crate::world::{Launcher, World};

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
        self.kind
            .push_built(self.elasticity, self.motion.built(), out, groups);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geom::Geometry;
    use crate::scene::ShapeKind;
    use glam::Vec2;

    #[test]
    fn a_teardrop_is_built_for_a_viewer_as_its_arc_two_tangents_and_tip_without_guard_points() {
        let tip = Vec2::new(0.0, 70.0);
        let d = ShapeDesc::new(ShapeKind::Teardrop {
            centre: Vec2::ZERO,
            radius: 20.0,
            tip,
        });
        let (shapes, groups) = d.built();
        let kinds: Vec<_> = shapes.iter().map(|s| s.geom.kind_name()).collect();
        assert_eq!(kinds, ["arc", "segment", "segment", "point"]);
        assert_eq!(shapes[3].geom, Geometry::Point { p: tip });
        assert!(shapes.iter().all(|s| s.guard_of.is_none()) && groups.is_empty());
    }
}
