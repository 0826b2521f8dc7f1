//! Shape groups in the world: the members and turning them with their group (a ball meets a
//! group in the narrow phase, `narrow/group.rs`); and the push-out's answer to a ball
//! touching an obstacle.

use super::World;
use crate::geom::clamp_speed;
use crate::geom::{Geometry, Group};
use crate::narrow::Contact;
use crate::response::respond_ball_obstacle;
use crate::response::{record, Hit, HitWith};

impl World {
    /// Sets the groups that [`Geometry::Group`] shapes refer to by number (scene building).
    pub fn set_groups(&mut self, groups: Vec<Group>) {
        self.groups = groups;
    }

    /// The shape groups.
    pub fn groups(&self) -> &[Group] {
        &self.groups
    }

    /// Group number `id`.
    pub fn group(&self, id: u32) -> Option<&Group> {
        self.groups.get(id as usize)
    }

    /// Turns the members of every kinematic group to its angle and recomputes its hull.
    pub(super) fn turn_groups(&mut self) {
        for s in &mut self.shapes[self.first_moving..] {
            let Geometry::Group { id, .. } = s.geom else {
                continue;
            };
            let Some(g) = self.groups.get_mut(id as usize) else {
                continue;
            };
            for m in &mut g.members {
                m.set_angle(s.angle);
            }
            s.geom = Geometry::Group { id, hull: g.hull() };
        }
    }

    /// Responds to ball `bi` touching obstacle `si` (elasticity `shape_e`, which for a group
    /// is the member's) and records the hit.
    pub(super) fn answer_shape_contact(
        &mut self,
        bi: usize,
        si: usize,
        contact: &Contact,
        shape_e: f32,
    ) {
        let shape = &self.shapes[si];
        let ball = &mut self.balls[bi];
        let e = ball.elasticity * shape_e * self.settings.elasticity_scale;
        let surface = shape.velocity_at(contact.point, self.settings.rotate);
        let speed = respond_ball_obstacle(ball, contact, e, surface);
        ball.vel = clamp_speed(ball.vel);
        let at = (contact.point, contact.normal);
        let with = (bi as u32, HitWith::Shape(si as u32));
        record(&mut self.hits, Hit::new(at, speed, e, with, self.steps));
    }
}
