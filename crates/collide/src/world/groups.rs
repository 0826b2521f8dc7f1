//! Shape groups in the world: the members and turning them with their group (a ball meets a
//! group in the narrow phase, `narrow/group.rs`).

use super::World;
use crate::geom::{Geometry, Group};

impl World {
    /// Sets the groups that [`Geometry::Group`] shapes refer to by number (scene building).
    pub(crate) fn set_groups(&mut self, groups: Vec<Group>) {
        self.groups = groups;
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
}
