//! Sleeping balls (Parberry's Collision Math Toy course, the sleep exercise; islands as in
//! Box2D): a group of balls touching each other, touching nothing that moves, all slower
//! than [`SleepSettings::speed`] for [`SleepSettings::time`] seconds, falls asleep. An asleep
//! ball keeps still (zero velocity) and costs nothing among the other sleepers or against the
//! statics: the broad phase sees the sleepers as static boxes (see [`World::find_pairs_of_boxes`]),
//! so only awake balls are ever tested against them.
//!
//! Waking: an awake ball's contact with a sleeper wakes the sleeper at once and the rest of
//! its group at the end of the step; so do a moving kinematic shape whose box reaches it, a
//! hand grabbing, throwing or deleting near it, and any change of the settings that govern
//! motion (gravity, elasticity, iterations, solver, sleep). A group that wakes and settles
//! again falls asleep together with the awake balls touching it.
//!
//! Groups are found by union–find over the touching pairs of the last broad-phase call (two
//! balls closer than their radii plus [`TOUCH_RADII`] of the smaller), once every
//! [`CHECK_EVERY`] steps and only when some awake ball has been slow long enough. The
//! decision rests on the step count, never on time, so a run is the same at any frame rate.

use super::body::{BallIx, Body, ShapeIx};
use super::sleepers::SleepState;
use super::{Tally, World};
use crate::geom::Motion;
use glam::Vec2;

/// Two balls closer than their radii plus this fraction of the smaller radius touch.
pub const TOUCH_RADII: f32 = 0.1;
/// Steps between two searches for groups that may sleep.
pub const CHECK_EVERY: u64 = 4;

impl World {
    /// Whether balls may fall asleep now: the setting, or else on with soft contacts.
    pub fn sleep_enabled(&self) -> bool {
        let s = &self.settings;
        s.sleep.enabled.unwrap_or(s.solver == super::Solver::Soft)
    }

    /// Balls asleep now.
    pub fn asleep_count(&self) -> usize {
        self.balls.iter().filter(|b| b.asleep).count()
    }

    /// Wakes every ball.
    pub fn wake_all(&mut self) {
        let mut n = 0;
        for b in &mut self.balls {
            n += b.asleep as u64;
            b.asleep = false;
            b.slow_for = 0.0;
        }
        self.woken += n;
        self.sleep.woken_groups.clear();
    }

    /// Wakes ball `i` now and its group at the end of the step.
    pub(super) fn wake_ball(&mut self, i: usize) {
        self.sleep.wake_ball(&mut self.balls, &mut self.woken, i);
    }

    /// Wakes whichever of two touching balls sleeps (its group at the end of the step).
    pub(super) fn wake_pair(&mut self, i: usize, j: usize) {
        for k in [i, j] {
            if self.balls[k].asleep {
                self.wake_ball(k);
            }
        }
    }

    /// Wakes the sleepers within `reach` px of the disc at `p` of radius `r`, with their groups.
    pub(super) fn wake_near(&mut self, p: Vec2, r: f32, reach: f32) {
        self.sleep
            .wake_near(&mut self.balls, &mut self.woken, p, r, reach);
    }

    /// Wakes the rest of the groups woken this step.
    pub(super) fn flush_wakes(&mut self) {
        self.sleep.flush_wakes(&mut self.balls, &mut self.woken);
    }

    /// Replaces the settings; a change of those that govern motion (gravity, elasticity,
    /// iterations, solver, sleep, stiffness, tunnelling, rotation) wakes every ball.
    pub fn set_settings(&mut self, settings: super::Settings) {
        let before = self.motion_key();
        self.settings = settings;
        if self.motion_key() != before {
            self.wake_all();
        }
    }

    /// Before a step: wakes everyone when sleep is off, and the sleepers a moving kinematic
    /// shape reaches (one box test per pair, counted).
    pub(super) fn sleep_before_step(&mut self, tally: &mut Tally) {
        if !self.sleep_enabled() {
            if self.balls.iter().any(|b| b.asleep) {
                self.wake_all();
            }
            return;
        }
        let rotating = self.settings.rotate;
        for si in self.first_moving..self.shapes.len() {
            let s = &self.shapes[si];
            if !moving(s, rotating) {
                continue;
            }
            let reach = s.aabb();
            for i in 0..self.balls.len() {
                if self.balls[i].asleep {
                    tally.sleep_tests += 1;
                    if reach.overlaps(&self.balls[i].aabb()) {
                        self.wake_ball(i);
                    }
                }
            }
        }
        self.flush_wakes();
    }

    /// The settings whose change wakes every ball, as bits.
    fn motion_key(&self) -> [u32; 12] {
        let s = &self.settings;
        [
            s.gravity.to_bits(),
            s.elasticity_scale.to_bits(),
            s.motion_iterations,
            s.collision_iterations,
            s.solver as u32,
            self.sleep_enabled() as u32,
            s.sleep.speed.to_bits(),
            s.sleep.time.to_bits(),
            s.soft.hertz.to_bits(),
            s.soft.damping.to_bits(),
            s.tunnelling as u32,
            s.rotate as u32,
        ]
    }

    /// After a step: each awake ball's still time, and every so often the groups that sleep.
    pub(super) fn sleep_after_step(&mut self, dt: f32) {
        // A sleeper that something moved (a push-out, the settling pass) wakes.
        for i in 0..self.balls.len() {
            let b = &self.balls[i];
            let moved = b.vel != Vec2::ZERO || b.spin != 0.0 || b.pos != self.sweep_start(i);
            if b.asleep && moved {
                self.wake_ball(i);
            }
        }
        self.flush_wakes();
        if !self.sleep_enabled() {
            return;
        }
        let (speed, time) = (self.settings.sleep.speed, self.settings.sleep.time);
        let mut ready = false;
        for b in self.balls.iter_mut().filter(|b| !b.asleep) {
            let rim = b.spin * b.radius;
            if b.vel.length_squared() + rim * rim < speed * speed {
                b.slow_for += dt;
                ready |= b.slow_for >= time;
            } else {
                b.slow_for = 0.0;
            }
        }
        if ready && (self.steps + 1).is_multiple_of(CHECK_EVERY) {
            self.sleep_groups(time);
        }
    }

    /// Finds the groups of touching awake balls and puts to sleep those all still for `time`
    /// that touch no moving shape; sleepers they touch join their group.
    fn sleep_groups(&mut self, time: f32) {
        let n = self.balls.len();
        let mut st = std::mem::take(&mut self.sleep);
        st.parent.clear();
        st.parent.extend(0..n as u32);
        st.joins.clear();
        let rotating = self.settings.rotate;
        let mut blocked_balls: Vec<u32> = Vec::new();
        for p in &self.bodies {
            let o = match p.other {
                Body::Shape(s) => {
                    if moving(&self.shapes[s.ix()], rotating) && touching_shape(self, p.ball, s) {
                        blocked_balls.push(p.ball.0);
                    }
                    continue;
                }
                Body::Ball(o) => o,
            };
            // `a < b`, as the broad phase paired them.
            let (a, b) = (p.ball.ix(), o.ix());
            let (ba, bb) = (&self.balls[a], &self.balls[b]);
            if !touching(ba, bb) {
                continue;
            }
            match (ba.asleep, bb.asleep) {
                (false, false) => union(&mut st.parent, a as u32, b as u32),
                // The awake ball and the sleeping group it touches, to join if it sleeps.
                (true, false) => st.joins.extend([b as u32, ba.sleep_group]),
                (false, true) => st.joins.extend([a as u32, bb.sleep_group]),
                (true, true) => {}
            }
        }
        self.put_groups_to_sleep(&mut st, &blocked_balls, time);
        self.sleep = st;
    }

    fn put_groups_to_sleep(&mut self, st: &mut SleepState, blocked_balls: &[u32], time: f32) {
        let n = self.balls.len();
        st.slowest.clear();
        st.slowest.resize(n, f32::INFINITY);
        st.blocked.clear();
        st.blocked.resize(n, false);
        for i in 0..n {
            let root = find(&mut st.parent, i as u32) as usize;
            let b = &self.balls[i];
            if b.asleep {
                continue;
            }
            st.slowest[root] = st.slowest[root].min(b.slow_for);
        }
        for &b in blocked_balls {
            let root = find(&mut st.parent, b) as usize;
            st.blocked[root] = true;
        }
        let sleeps = |st: &mut SleepState, i: usize| {
            let root = find(&mut st.parent, i as u32) as usize;
            st.slowest[root] >= time && !st.blocked[root]
        };
        // Each sleeping group gets the next number, in the order of its lowest ball (a
        // group's root is its lowest ball, so it comes first).
        let mut ids = vec![u32::MAX; n];
        for i in 0..n {
            if self.balls[i].asleep || !sleeps(st, i) {
                continue;
            }
            let root = find(&mut st.parent, i as u32) as usize;
            if ids[root] == u32::MAX {
                ids[root] = st.next_group;
                st.next_group = st.next_group.wrapping_add(1);
            }
            let b = &mut self.balls[i];
            b.asleep = true;
            b.vel = Vec2::ZERO;
            b.spin = 0.0;
            b.sleep_group = ids[root];
        }
        // Sleeping groups touched by a group that fell asleep join it.
        let mut renames: Vec<(u32, u32)> = Vec::new();
        for k in (0..st.joins.len()).step_by(2) {
            let (awake, group) = (st.joins[k], st.joins[k + 1]);
            let root = find(&mut st.parent, awake) as usize;
            if ids[root] != u32::MAX && ids[root] != group {
                renames.push((group, ids[root]));
            }
        }
        if renames.is_empty() {
            return;
        }
        renames.sort_unstable();
        renames.dedup_by_key(|r| r.0);
        for b in self.balls.iter_mut().filter(|b| b.asleep) {
            if let Ok(k) = renames.binary_search_by_key(&b.sleep_group, |r| r.0) {
                b.sleep_group = renames[k].1;
            }
        }
    }
}

/// Whether shape `s` moves this step.
fn moving(s: &crate::geom::Shape, rotating: bool) -> bool {
    match s.motion {
        Motion::Static => false,
        Motion::Kinematic { speed, .. } => rotating && speed != 0.0,
        Motion::Flipper { .. } => s.play.spin != 0.0,
        Motion::Plunger { .. } => s.play.pull_rate != 0.0,
    }
}

fn touching(a: &super::Ball, b: &super::Ball) -> bool {
    let d = a.radius + b.radius + TOUCH_RADII * a.radius.min(b.radius);
    (a.pos - b.pos).length_squared() < d * d
}

fn touching_shape(w: &World, b: BallIx, si: ShapeIx) -> bool {
    let r = w.balls[b.ix()].radius * (1.0 + TOUCH_RADII);
    let mut scratch = Tally::default();
    w.reached_contact(b.ix(), si.ix(), r, &mut scratch)
        .is_some()
}

fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let up = parent[parent[i as usize] as usize];
        parent[i as usize] = up;
        i = up;
    }
    i
}

/// Joins the sets of `a` and `b`; the smaller root wins, so the result is independent of
/// the order of the pairs.
fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        parent[hi as usize] = lo;
    }
}
