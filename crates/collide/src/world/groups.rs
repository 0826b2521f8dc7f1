//! Shape groups in the world: the members, turning them with their group, and the discrete
//! test of a ball against a group, hull first (Schwarzl 2012, "Bounded Shape Groups").

use super::{Tally, World};
use crate::geom::clamp_speed;
use crate::geom::{Geometry, Group};
use crate::narrow::{contact_ball_shape, Contact};
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

    /// The shapes a ball meets in obstacle `si`: a group's members, else the obstacle itself.
    pub(super) fn parts_of(&self, si: usize) -> &[crate::geom::Shape] {
        match self.shapes[si].geom {
            Geometry::Group { id, .. } => self.groups.get(id as usize).map_or(&[], |g| &g.members),
            _ => std::slice::from_ref(&self.shapes[si]),
        }
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

    /// The discrete test of ball `bi` against group shape `si`: the hull, then (if the ball
    /// touches it) every member; the deepest member contact is answered.
    pub(super) fn collide_ball_group(&mut self, bi: usize, si: usize, tally: &mut Tally) -> bool {
        let (shape, ball) = (self.shapes[si], self.balls[bi]);
        let Geometry::Group { id, hull } = shape.geom else {
            return false;
        };
        tally.hull_tests += 1;
        // Early out: the ball misses the hull, so it misses every member.
        if !hull.overlaps_circle(ball.pos, ball.radius) {
            tally.hull_rejections += 1;
            return false;
        }
        let v = ball.vel - shape.velocity_at(ball.pos, self.settings.rotate);
        let Some(g) = self.groups.get(id as usize) else {
            return false;
        };
        tally.impact_tests += g.members.len() as u64;
        let deepest = g
            .members
            .iter()
            .filter_map(|m| contact_ball_shape(ball.pos, ball.radius, v, &m.geom).map(|c| (c, m)))
            .reduce(|a, b| if b.0.depth > a.0.depth { b } else { a });
        let Some((contact, member)) = deepest else {
            return false;
        };
        let e = member.elasticity;
        self.answer_shape_contact(bi, si, &contact, e);
        true
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
        record(
            &mut self.hits,
            Hit {
                point: contact.point,
                speed,
                rebound: 0.0,
                e,
                normal: contact.normal,
                ball: bi as u32,
                with: HitWith::Shape(si as u32),
                step: self.steps,
            },
        );
    }
}
