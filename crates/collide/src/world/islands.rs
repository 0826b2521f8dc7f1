//! Islands for a viewer: the balls joined by touching, as sleep sees them (Box2D v3's
//! islands, Catto 2024). Two awake balls of the last broad-phase call's pairs that touch
//! (closer than their radii plus a tenth of the smaller, sleep's own test) are in one
//! island; obstacles join nothing, since they do not move; a sleeping ball is in the island
//! it fell asleep with. Sleep splits an island by what is still (`sleep.rs`): its settled
//! balls fall asleep, all but those touching a ball still moving, so a pile whose top still
//! moves is one island above a sleeping one. Computed when asked, never in the step.

use super::body::Body;
use super::sleep::{find, touching, union};
use super::step::World;

/// The island of one ball (see the module notes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Island {
    /// Awake, in the island whose lowest ball has this index.
    Awake(u32),
    /// Asleep, in this sleeping group.
    Asleep(u32),
}

impl World {
    /// Every ball's island, by ball index (see [`Island`]): awake balls joined over the
    /// last step's touching pairs, sleeping ones by the group they fell asleep with.
    pub fn islands(&self) -> Vec<Island> {
        let (balls, rests) = (self.balls(), self.balls.rests());
        let mut parent: Vec<u32> = (0..balls.len() as u32).collect();
        for p in self.stages.pair_bodies() {
            let Body::Ball(o) = p.other else {
                continue;
            };
            let (i, j) = (p.ball.ix(), o.ix());
            let (Some(a), Some(b)) = (balls.get(i), balls.get(j)) else {
                continue;
            };
            if !self.balls.asleep(i) && !self.balls.asleep(j) && touching(a, b) {
                union(&mut parent, p.ball.0, o.0);
            }
        }
        (0..balls.len())
            .map(|i| match rests[i].asleep {
                true => Island::Asleep(rests[i].group),
                false => Island::Awake(find(&mut parent, i as u32)),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::Ball;
    use glam::Vec2;

    #[test]
    fn touching_balls_share_an_island_and_a_lone_ball_has_its_own() {
        let mut w = crate::world::step::empty_world(3);
        for x in [100.0, 110.0, 120.0, 300.0] {
            w.add_ball(Ball::new(Vec2::new(x, 500.0), Vec2::ZERO, 5.0, 0.0, 0));
        }
        w.step();
        let isl = w.islands();
        assert_eq!(isl.len(), 4);
        assert_eq!(isl[0], isl[1]);
        assert_eq!(isl[1], isl[2]);
        assert_ne!(isl[2], isl[3]);
        assert_eq!(isl[3], Island::Awake(3));
    }
}
