//! Checking a scene's numbers before it is built: every value finite and in range, every
//! direction non-zero, every shape well formed (each kind's own checks are beside it in
//! `desc.rs`). Messages name the field (and the shape, by index and kind); `Scene::parse`
//! adds where in the text it is.

use super::check::{check_direction, check_num, check_vec, At};
use super::{check_motion, extras, MotionDesc, Scene, ShapeDesc, ShapeKind, MAX_SHAPES};

impl Scene {
    /// Checks every number; on failure returns the shape index (if any) and the message.
    pub(super) fn validate(&self) -> Result<(), (At, String)> {
        let b = &self.bounds;
        if !(b.min.is_finite() && b.max.is_finite() && b.min.x < b.max.x && b.min.y < b.max.y) {
            return Err((
                At::Key("bounds"),
                "field `bounds`: min must be below max, all finite".into(),
            ));
        }
        // Every coordinate of a scene is in the same range, the play area's corners too: a
        // larger area could not be filled, nor simulated in f32.
        check_vec(b.min, "bounds.min")
            .and_then(|()| check_vec(b.max, "bounds.max"))
            .map_err(|m| (At::Key("bounds"), m))?;
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
}

impl ShapeDesc {
    /// Checks every field; the message names the field (`field \`shape\` (…)` first for the
    /// shape a `Scored` wraps).
    fn validate(&self) -> Result<(), String> {
        let Some(score) = &self.score else {
            return self.validate_unscored();
        };
        check_num(score.kick, "kick", 0.0, 1e5)?;
        self.validate_unscored()
            .map_err(|e| format!("field `shape` ({}): {e}", self.kind.name()))
    }

    /// Checks the kind's fields, then the elasticity and the motion.
    fn validate_unscored(&self) -> Result<(), String> {
        self.kind.validate()?;
        if matches!(self.kind, ShapeKind::Group { .. }) {
            // A group's members carry their own elasticities.
            return check_motion(&self.motion);
        }
        check_num(self.elasticity, "elasticity", 0.0, 10.0)?;
        if self.can_move() {
            check_motion(&self.motion)
        } else if self.motion != MotionDesc::Static {
            Err("field `motion`: gates and teardrops do not move".into())
        } else {
            Ok(())
        }
    }

    /// Checks a group member: a valid shape, not a gate, a group or a scoring shape, and
    /// without its own motion.
    pub(super) fn validate_member(&self) -> Result<(), String> {
        if self.score.is_some() {
            return Err("a group scores as one: wrap the whole group in Scored".into());
        }
        if matches!(self.kind, ShapeKind::Group { .. } | ShapeKind::Gate { .. }) {
            return Err("groups hold no gates and no groups".into());
        }
        if self.motion != MotionDesc::Static {
            return Err(
                "field `motion`: members move with their group; give the group the motion".into(),
            );
        }
        self.validate()
    }
}
