//! Parting overlapping balls in the swept modes, without pushing any through a wall.
//!
//! The swept iterations answer one impact per ball per iteration, so in a dense pile (every
//! ball touching several others and the floor) the iterations run out before each ball's
//! path is checked, and overlaps that gravity and the crowd build up are never undone. After
//! the swept iterations, this pass finds the balls that still overlap and moves them apart
//! by relaxation: each pass every overlapping pair asks for its depth (shared by mass, the
//! lighter ball moving more), each ball's total is scaled by [`RELAX`], and the move is a
//! swept move against the obstacles near it (closed-form time of impact, whatever the mode):
//! where it would first touch one it slides along it instead of going in. Only positions
//! change, never velocities.
//!
//! The candidate pairs come from one broad-phase call with each ball's box grown by
//! [`MARGIN`] × its radius, and no ball moves farther than that in total, so those pairs stay
//! complete for every pass. Balls exactly on top of each other part along a direction fixed
//! by their indices.

use super::body::BodyPair;
use super::context::Frame;
use super::narrow_stage::{impact_shape, members, unit_or, Impact, SweptBall};
use super::Tally;
use crate::geom::angle;
use crate::geom::{Aabb, Ball};
use crate::response::push_shares;
use glam::Vec2;

/// How far a ball may move in total, as a fraction of its radius.
pub(crate) const MARGIN: f32 = 0.5;
/// Relaxation passes at most.
pub(crate) const PASSES: u32 = 4;
/// Fraction of the asked-for move taken each pass (below 1 so a ball squeezed from several
/// sides does not overshoot).
pub(crate) const RELAX: f32 = 0.8;
/// Times a settling ball may slide along an obstacle it touched.
pub(crate) const SLIDES: u32 = 3;
/// Overlap shallower than this fraction of the smaller radius is left alone.
const SLOP: f32 = 1e-3;

/// Scratch of the pass, kept between steps to avoid allocating.
#[derive(Clone, Debug, Default)]
pub(super) struct SettleStage {
    push: Vec<Vec2>,
    moved: Vec<f32>,
    moves: Vec<Vec2>,
    walls: Vec<u32>,
    wall_start: Vec<u32>,
    fill: Vec<u32>,
}

impl SettleStage {
    /// A ball's box for the pass's broad-phase call: grown by [`MARGIN`] × its radius.
    pub(super) fn ball_box(b: &Ball) -> Aabb {
        b.aabb().expanded(b.radius.max(0.0) * MARGIN)
    }

    /// Parts the balls that still overlap after the swept iterations, over the pairs
    /// `bodies` of a broad-phase call with [`SettleStage::ball_box`]; counts its tests in
    /// `tally`.
    #[cfg_attr(target_arch = "wasm32", inline(never))] // see `World::step`
    pub(super) fn run(&mut self, w: &mut Frame, bodies: &[BodyPair], tally: &mut Tally) {
        let n = w.balls.len();
        let st = self;
        let mut v = Settle { w, bodies };
        st.moved.clear();
        st.moved.resize(n, 0.0);
        v.gather_walls(st);
        for _ in 0..PASSES {
            if !v.ask_pushes(st, tally) {
                break;
            }
            v.clamp_pushes(st, tally);
            for (b, ball) in v.w.balls.iter_mut().enumerate() {
                let step = st.moves[b];
                ball.pos += step;
                st.moved[b] += step.length();
            }
        }
    }
}

/// The pass's view of the world: the balls and obstacles, and its pairs.
struct Settle<'a, 'w> {
    w: &'a mut Frame<'w>,
    bodies: &'a [BodyPair],
}

impl Settle<'_, '_> {
    /// Each ball's wanted move, from the pairs that overlap; false when none do.
    fn ask_pushes(&self, st: &mut SettleStage, tally: &mut Tally) -> bool {
        st.push.clear();
        st.push.resize(self.w.balls.len(), Vec2::ZERO);
        let mut any = false;
        for p in self.bodies {
            let Some(o) = p.other_ball() else {
                continue;
            };
            let (i, j) = (p.ball.ix(), o.ix());
            let (a, b) = (&self.w.balls[i], &self.w.balls[j]);
            tally.full_tests += 1;
            let (ra, rb) = (a.radius.max(0.0), b.radius.max(0.0));
            let m = a.pos - b.pos;
            let depth = ra + rb - m.length();
            let deep = depth > SLOP * ra.min(rb); // false for NaN too
            if !deep {
                continue;
            }
            any = true;
            let normal = unit_or(m, parting_direction(i, j));
            let (wa, wb) = push_shares(a.mass, b.mass);
            st.push[i] += normal * (depth * wa);
            st.push[j] -= normal * (depth * wb);
        }
        any
    }

    /// Scales each push by [`RELAX`], caps it at what is left of the ball's margin, and turns
    /// it into the move the ball can take among its obstacles (`moves`): it goes until it
    /// first touches one, then slides along it (the part of the push into the obstacle
    /// dropped), at most [`SLIDES`] times, so a ball pressed against a wall by the crowd can
    /// still be parted along the wall.
    fn clamp_pushes(&mut self, st: &mut SettleStage, tally: &mut Tally) {
        st.moves.clear();
        for b in 0..self.w.balls.len() {
            let ball = &self.w.balls[b];
            let p = st.push[b] * RELAX;
            let room = (ball.radius.max(0.0) * MARGIN - st.moved[b]).max(0.0);
            let len = p.length();
            let mut d = if len > room && len > 0.0 {
                p * (room / len)
            } else {
                p
            };
            let walls = &st.walls[st.wall_start[b] as usize..st.wall_start[b + 1] as usize];
            let mut at = ball.pos;
            for _ in 0..SLIDES {
                if d == Vec2::ZERO {
                    break;
                }
                let touch = walls
                    .iter()
                    .filter_map(|&si| {
                        let path = SweptBall {
                            start: at,
                            radius: ball.radius,
                            moved: d,
                            vel: d,
                        };
                        self.first_touch(si as usize, path, tally)
                    })
                    .reduce(earlier);
                let Some(touch) = touch else {
                    at += d;
                    break;
                };
                at += d * touch.t;
                let n = touch.contact.normal;
                let rest = d * (1.0 - touch.t);
                d = rest - n * rest.dot(n).min(0.0);
            }
            st.moves.push(at - ball.pos);
        }
    }

    /// Each ball's candidate obstacles from the settle's broad-phase pairs, grouped by ball.
    fn gather_walls(&self, st: &mut SettleStage) {
        let n = self.w.balls.len();
        st.wall_start.clear();
        st.wall_start.resize(n + 1, 0);
        let obstacle_pairs = || {
            let shape = |p: &BodyPair| p.shape().map(|s| (s, p.ball));
            self.bodies.iter().map_while(shape)
        };
        for (_, b) in obstacle_pairs() {
            st.wall_start[b.ix() + 1] += 1;
        }
        for b in 0..n {
            st.wall_start[b + 1] += st.wall_start[b];
        }
        st.walls.clear();
        st.walls.resize(st.wall_start[n] as usize, 0);
        st.fill.clear();
        st.fill.extend_from_slice(&st.wall_start[..n]);
        for (s, b) in obstacle_pairs() {
            let b = b.ix();
            st.walls[st.fill[b] as usize] = s.0;
            st.fill[b] += 1;
        }
    }

    /// When a ball at `c` of radius `r` moved by `d` first touches obstacle `si` (its members,
    /// for a group), as a fraction of the move.
    fn first_touch(&self, si: usize, sweep: SweptBall, tally: &mut Tally) -> Option<Impact> {
        members(&self.w.shapes[si], self.w.groups)
            .iter()
            .filter_map(|m| {
                tally.impact_tests += 1;
                impact_shape(sweep, &m.geom)
            })
            .reduce(earlier)
    }
}

/// The earlier of two impacts (the first on a tie).
fn earlier(a: Impact, b: Impact) -> Impact {
    if b.t < a.t {
        b
    } else {
        a
    }
}

/// The direction balls `i < j` on top of each other part along (unit, fixed by the indices).
fn parting_direction(i: usize, j: usize) -> Vec2 {
    let turn = (i as u32).wrapping_mul(0x9E37_79B9) ^ (j as u32).wrapping_mul(0x85EB_CA6B);
    angle::from_angle(turn as f32 * (std::f32::consts::TAU / 4_294_967_296.0))
}
