//! Sleeping balls (Parberry's Collision Math Toy course, the sleep exercise; islands as in
//! Box2D, split by what is still): a ball slower than [`SleepSettings::speed`] for
//! [`SleepSettings::time`] seconds has *settled*. Settled balls touching each other form a
//! group; a group touching no moving shape falls asleep, all but its *fringe*, the settled
//! balls that touch an awake ball not yet settled. So the still part of a pile sleeps while a
//! few balls still roll or land on its top, as the still part of a Box2D island would if
//! its moving bodies were split off: the fringe keeps one layer of awake balls between the
//! moving ones and the sleepers. An asleep ball keeps still (zero velocity) and costs nothing
//! among the other sleepers or against the statics: the broad phase sees the sleepers as
//! static boxes (see [`World::find_pairs_of_boxes`]), so only awake balls are ever tested
//! against them, and to an awake ball a sleeper is a support of infinite mass, as a wall is
//! (`soft/find.rs`).
//!
//! Waking: a contact closing on a sleeper faster than the sleep speed (a hit, not a ball
//! resting or rolling on it) wakes the sleeper at once and the rest of its group at the end
//! of the step; so do a moving kinematic shape whose box reaches it, a hand grabbing,
//! throwing or deleting near it, and any change of the settings that govern motion
//! (gravity, elasticity, iterations, solver, sleep). Groups never merge while asleep (a
//! Box2D island asleep is never joined either), so a hit wakes the group it lands on, not
//! the whole pile; the balls a woken group pushes faster than the sleep speed wake theirs.
//!
//! With the push-out, which wakes a sleeper at any touch, a group sleeps whole: every awake
//! ball touching it joins, and one not settled keeps it awake.
//!
//! Groups are found by union–find over the touching pairs of the last broad-phase call (two
//! balls closer than their radii plus [`TOUCH_RADII`] of the smaller), once every
//! [`CHECK_EVERY`] steps and only when some awake ball has been slow long enough. The
//! decision rests on the step count, never on time, so a run is the same at any frame rate.

use super::body::{BallIx, Body, BodyPair, ShapeIx};
use super::context::{Frame, StepContext};
use super::narrow_stage::{touches_obstacle, Disc};
use super::settings::Solver;
use crate::balls::{BallSet, Rest};
use crate::geom::{Aabb, Ball, Motion, Shape};
use crate::workers;
use glam::Vec2;
use std::sync::atomic::{AtomicBool, Ordering};

/// Two balls closer than their radii plus this fraction of the smaller radius touch.
pub(crate) const TOUCH_RADII: f32 = 0.1;
/// A ball pressed into another deeper than this fraction of the smaller radius has not
/// settled, however slow: the pile above it is still landing and its contacts still push
/// the two apart (the overlap a 10,000-ball pile keeps at rest stays under it,
/// `docs/benchmarks.md`). Asleep, the pair would keep that overlap.
pub(crate) const PRESSED: f32 = 0.05;
/// Balls from which the per-ball loops run on the step's threads.
const PARALLEL_BALLS: usize = 8192;
/// Pairs from which the search for groups reads them on the step's threads.
const PARALLEL_PAIRS: usize = 8192;
/// Steps between two searches for groups that may sleep.
pub const CHECK_EVERY: u64 = 4;

/// Sleep's state: the wakes, the number of the next sleeping group, and the union–find
/// scratch of the search for groups, kept between steps to avoid allocating.
#[derive(Clone, Debug, Default)]
pub(super) struct SleepStage {
    pub(super) next_group: u32,
    parent: Vec<u32>,
    blocked: Vec<bool>,
    /// Settled balls touching an awake ball that has not settled: they stay awake, a layer
    /// between the moving balls and the region that sleeps.
    fringe: Vec<bool>,
    /// Awake balls pressed into another deeper than [`PRESSED`]: not settled.
    pressed: Vec<bool>,
    /// Balls touching a moving shape and the number given to each sleeping group's root:
    /// kept so that a steady step allocates nothing.
    blocked_balls: Vec<u32>,
    ids: Vec<u32>,
    /// The sleepers something moved this step, and the threads' lists of them.
    moved: Vec<u32>,
    parts: Vec<Vec<u32>>,
    /// The boxes of the kinematic shapes moving this step (`before_step`).
    reaches: Vec<Aabb>,
    found: Vec<u32>,
    /// What the last pairs do to the groups, and the threads' lists of it.
    joins: Vec<Join>,
    join_parts: Vec<Vec<Join>>,
}

/// What a touching pair does to the groups ([`SleepStage::find_groups`]): a ball touching a
/// moving shape blocks its group, two balls join one, a settled ball touching one not
/// settled is fringe. [`SleepStage::mark_pressed`] lists the pressed pairs as `Union`s.
#[derive(Clone, Copy, Debug)]
enum Join {
    Block(u32),
    Union(u32, u32),
    Fringe(u32),
}

/// How [`SleepStage::find_groups`] joins balls: whether kinematic shapes turn, the time a
/// ball must be still (s), and whether a group splits off its fringe (soft contacts).
#[derive(Clone, Copy)]
struct Grouping {
    rotating: bool,
    time: f32,
    split: bool,
    /// The threads the pairs are read on.
    threads: usize,
}

impl SleepStage {
    /// A stage that numbers the next sleeping group `next_group`, keeping the count of
    /// balls woken since the last step's count.
    pub(super) fn restored(&self, next_group: u32) -> Self {
        Self {
            next_group,
            ..Self::default()
        }
    }

    /// Before a step: wakes everyone when sleep is off, and the sleepers a moving kinematic
    /// shape reaches (one box test per pair, counted).
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
    pub(super) fn before_step(&mut self, w: &mut Frame, cx: &mut StepContext) {
        if !cx.settings.sleep_on() {
            if w.balls.any_asleep() {
                w.balls.wake_all();
            }
            return;
        }
        let rotating = cx.settings.rotate;
        let turning = w.shapes[w.first_moving..]
            .iter()
            .filter(|s| moving(s, rotating));
        let reaches = &mut self.reaches;
        reaches.clear();
        reaches.extend(turning.map(|s| s.aabb()));
        if !reaches.is_empty() {
            // Each sleeper against the moving shapes in order, until one wakes it: the tests
            // and the wakes of a pass over the balls for each shape in turn, in one pass.
            for i in 0..w.balls.len() {
                if !w.balls.asleep(i) {
                    continue;
                }
                let b = w.balls[i].aabb();
                for reach in reaches.iter() {
                    cx.tally.sleep_tests += 1;
                    if reach.overlaps(&b) {
                        w.balls.wake_ball(i);
                        break;
                    }
                }
            }
        }
        w.balls.flush_wakes();
    }

    /// After a step: wakes the sleepers something moved (from `starts`, where the balls
    /// began the step), then each awake ball's still time, and every so often the groups of
    /// the last pairs (`bodies`) that sleep.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
    pub(super) fn after_step(&mut self, w: &mut Frame, bodies: &[BodyPair], cx: &StepContext) {
        let threads = cx.settings.threads;
        self.wake_moved(w.balls, threads);
        if !cx.settings.sleep_on() {
            return;
        }
        let (speed, time) = (cx.settings.sleep.speed, cx.settings.sleep.time);
        let ready = AtomicBool::new(false);
        let (balls, rests) = w.balls.with_rests();
        workers::chunks(threads, rests, PARALLEL_BALLS, |start, run| {
            let mut slow_enough = false;
            for (b, r) in balls[start..].iter().zip(run).filter(|(_, r)| !r.asleep) {
                let rim = b.spin * b.radius;
                if b.vel.length_squared() + rim * rim < speed * speed {
                    r.slow_for += cx.dt;
                    slow_enough |= r.slow_for >= time;
                } else {
                    r.slow_for = 0.0;
                }
            }
            if slow_enough {
                ready.store(true, Ordering::Relaxed);
            }
        });
        if ready.into_inner() && (cx.step + 1).is_multiple_of(CHECK_EVERY) {
            let mut blocked = std::mem::take(&mut self.blocked_balls);
            // Only soft contacts hold an awake ball on a sleeper: with the push-out, a
            // touch wakes it, so a group sleeps whole (any ball not settled blocks it).
            let split = cx.settings.solver == Solver::Soft;
            let how = Grouping {
                rotating: cx.settings.rotate,
                time,
                split,
                threads,
            };
            self.find_groups(w, bodies, how, &mut blocked);
            self.put_groups_to_sleep(w.balls, &blocked, time);
            self.blocked_balls = blocked;
        }
    }

    /// Wakes the sleepers something moved this step (a push-out, the settling pass), found
    /// on up to `threads` threads and woken in the balls' order.
    fn wake_moved(&mut self, balls: &mut BallSet, threads: usize) {
        let mut moved = std::mem::take(&mut self.moved);
        moved.clear();
        let (all, starts, rests) = (&balls[..], balls.starts(), balls.rests());
        let is_moved = |i: usize| {
            let b = &all[i];
            let start = starts.get(i).copied().unwrap_or(b.pos);
            let moved = b.vel != Vec2::ZERO || b.spin != 0.0 || b.pos != start;
            (rests[i].asleep && moved).then_some(i as u32)
        };
        let (n, lists) = (all.len(), (&mut self.parts, &mut self.found));
        workers::each_found(threads, n, PARALLEL_BALLS, lists, is_moved, |i| {
            moved.push(i)
        });
        for &i in &moved {
            balls.wake_ball(i as usize);
        }
        balls.flush_wakes();
        self.moved = moved;
    }

    /// Joins the touching settled balls of `bodies` (awake and still for `time` s) into
    /// groups (union–find) and marks the settled balls touching an unsettled one as the
    /// fringe; the balls touching a moving shape go to `blocked_balls`. Unless `split`, every
    /// touching awake pair joins and each ball not settled blocks its group instead.
    fn find_groups(
        &mut self,
        w: &Frame,
        bodies: &[BodyPair],
        how: Grouping,
        blocked_balls: &mut Vec<u32>,
    ) {
        let Grouping {
            rotating,
            time,
            split,
            threads,
        } = how;
        let n = w.balls.len();
        self.parent.clear();
        self.parent.extend(0..n as u32);
        blocked_balls.clear();
        self.mark_pressed(w, bodies, split, threads);
        let pressed = std::mem::take(&mut self.pressed);
        // A pressed ball stays awake, as the fringe does.
        self.fringe.clone_from(&pressed);
        let settled = |i: usize, r: &Rest| r.slow_for >= time && !pressed[i];
        let rests = w.balls.rests();
        // Each pair's part, found on the threads; then applied in the pairs' order.
        let join_of = |k: usize| {
            let p = bodies[k];
            let o = match p.other {
                Body::Shape(s) => {
                    let blocks = moving(&w.shapes[s.ix()], rotating)
                        && touching_shape(w, p.ball, s, rotating);
                    return blocks.then_some(Join::Block(p.ball.0));
                }
                Body::Ball(o) => o,
            };
            // `a < b`, as the broad phase paired them.
            let (a, b) = (p.ball.ix(), o.ix());
            let (ra, rb) = (&rests[a], &rests[b]);
            // A sleeper is a support, as an obstacle is: it joins no group.
            if ra.asleep || rb.asleep || !touching(&w.balls[a], &w.balls[b]) {
                return None;
            }
            match (settled(a, ra), settled(b, rb), split) {
                (true, true, _) | (_, _, false) => Some(Join::Union(a as u32, b as u32)),
                (true, false, true) => Some(Join::Fringe(a as u32)),
                (false, true, true) => Some(Join::Fringe(b as u32)),
                (false, false, true) => None,
            }
        };
        let (parent, fringe) = (&mut self.parent, &mut self.fringe);
        let apply = |j: Join| match j {
            Join::Block(b) => blocked_balls.push(b),
            Join::Union(a, b) => union(parent, a, b),
            Join::Fringe(a) => fringe[a as usize] = true,
        };
        let (m, lists) = (bodies.len(), (&mut self.join_parts, &mut self.joins));
        workers::each_found(threads, m, PARALLEL_PAIRS, lists, join_of, apply);
        if !split {
            let moving = (0..n).filter(|&i| !rests[i].asleep && !settled(i, &rests[i]));
            blocked_balls.extend(moving.map(|i| i as u32));
        }
        self.pressed = pressed;
    }

    /// Marks the balls pressed into another (awake or asleep) deeper than [`PRESSED`] of the
    /// smaller radius: the contacts are still pushing them apart, so they have not settled.
    /// Marks nothing unless `split` (the push-out never sleeps a group part by part). The
    /// pairs are tested on up to `threads` threads.
    fn mark_pressed(&mut self, w: &Frame, bodies: &[BodyPair], split: bool, threads: usize) {
        self.pressed.clear();
        self.pressed.resize(w.balls.len(), false);
        if !split {
            return;
        }
        let pressed_pair = |k: usize| {
            let p = bodies[k];
            let Body::Ball(o) = p.other else { return None };
            let (a, b) = (p.ball.ix(), o.ix());
            let (ba, bb) = (&w.balls[a], &w.balls[b]);
            // Pressed deeper than PRESSED·r: distance < ra + rb − PRESSED·min(ra, rb).
            let d = ba.radius + bb.radius - PRESSED * ba.radius.min(bb.radius);
            let pressed = (ba.pos - bb.pos).length_squared() < d * d;
            pressed.then_some(Join::Union(a as u32, b as u32))
        };
        let pressed = &mut self.pressed;
        let mark = |j: Join| {
            if let Join::Union(a, b) = j {
                pressed[a as usize] = true;
                pressed[b as usize] = true;
            }
        };
        let (n, lists) = (bodies.len(), (&mut self.join_parts, &mut self.joins));
        workers::each_found(threads, n, PARALLEL_PAIRS, lists, pressed_pair, mark);
    }

    /// Puts to sleep the settled balls of the groups that touch no moving shape (no ball of
    /// `blocked_balls`), all but the fringe.
    fn put_groups_to_sleep(&mut self, balls: &mut BallSet, blocked_balls: &[u32], time: f32) {
        let st = self;
        let n = balls.len();
        let (balls, rests) = balls.with_rests();
        st.blocked.clear();
        st.blocked.resize(n, false);
        for &b in blocked_balls {
            let root = find(&mut st.parent, b) as usize;
            st.blocked[root] = true;
        }
        let sleeps = |st: &mut SleepStage, i: usize, r: &Rest| {
            let root = find(&mut st.parent, i as u32) as usize;
            r.slow_for >= time && !st.fringe[i] && !st.blocked[root]
        };
        // Each sleeping group gets the next number, in the order of its lowest ball (a
        // group's root is its lowest ball, so it comes first).
        let mut ids = std::mem::take(&mut st.ids);
        ids.clear();
        ids.resize(n, u32::MAX);
        for (i, (b, r)) in balls.iter_mut().zip(rests.iter_mut()).enumerate() {
            if r.asleep || !sleeps(&mut *st, i, r) {
                continue;
            }
            let root = find(&mut st.parent, i as u32) as usize;
            if ids[root] == u32::MAX {
                ids[root] = st.next_group;
                st.next_group = st.next_group.wrapping_add(1);
            }
            r.asleep = true;
            b.vel = Vec2::ZERO;
            b.spin = 0.0;
            r.group = ids[root];
        }
        st.ids = ids;
    }
}

/// Whether shape `s` moves this step.
fn moving(s: &Shape, rotating: bool) -> bool {
    match s.motion {
        Motion::Static => false,
        Motion::Kinematic { speed, .. } => rotating && speed != 0.0,
        Motion::Flipper { .. } => s.spin != 0.0,
        Motion::Plunger { .. } => s.pull_rate != 0.0,
    }
}

pub(super) fn touching(a: &Ball, b: &Ball) -> bool {
    let d = a.radius + b.radius + TOUCH_RADII * a.radius.min(b.radius);
    (a.pos - b.pos).length_squared() < d * d
}

fn touching_shape(w: &Frame, b: BallIx, si: ShapeIx, rotating: bool) -> bool {
    let (ball, shape) = (&w.balls[b.ix()], &w.shapes[si.ix()]);
    let r = ball.radius * (1.0 + TOUCH_RADII);
    let v = ball.vel - shape.velocity_at(ball.pos, rotating);
    let disc = Disc {
        centre: ball.pos,
        radius: r,
        vel: v,
    };
    touches_obstacle(disc, shape, w.groups)
}

pub(super) fn find(parent: &mut [u32], mut i: u32) -> u32 {
    while parent[i as usize] != i {
        let up = parent[parent[i as usize] as usize];
        parent[i as usize] = up;
        i = up;
    }
    i
}

/// Joins the sets of `a` and `b`; the smaller root wins, so the result is independent of
/// the order of the pairs.
pub(super) fn union(parent: &mut [u32], a: u32, b: u32) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    if ra != rb {
        let (lo, hi) = (ra.min(rb), ra.max(rb));
        parent[hi as usize] = lo;
    }
}
