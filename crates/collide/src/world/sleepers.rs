//! Who sleeps: the sleepers as the broad phase last saw them, the groups to wake at the end
//! of a step, and the order the broad phase sees the boxes in while some balls sleep
//! (`sleep.rs` puts groups to sleep).

use crate::geom::{Aabb, Ball};
use glam::Vec2;

/// Scratch and bookkeeping of sleep, rebuilt from the balls when needed.
#[derive(Clone, Debug, Default)]
pub(super) struct SleepState {
    /// Sleepers (ball indices) as the broad phase last saw them, and their version.
    pub(super) sleepers: Vec<u32>,
    pub(super) awake: Vec<u32>,
    pub(super) version: u64,
    /// Permuted boxes handed to the broad phase while some balls sleep.
    pub(super) boxes: Vec<Aabb>,
    /// Groups woken during this step, flushed at its end.
    pub(super) woken_groups: Vec<u32>,
    pub(super) next_group: u32,
    pub(super) parent: Vec<u32>,
    pub(super) blocked: Vec<bool>,
    pub(super) slowest: Vec<f32>,
    pub(super) joins: Vec<u32>,
    /// The sleepers of the broad-phase call before, to tell whether the set changed; kept
    /// with the scratch below so that a steady step allocates nothing.
    pub(super) previous: Vec<u32>,
    /// Balls touching a moving shape, found by a sleep check.
    pub(super) blocked_balls: Vec<u32>,
    /// The number given to each sleeping group's root in a sleep check.
    pub(super) ids: Vec<u32>,
    /// Sleeping groups joined to a group that fell asleep: (old number, new number).
    pub(super) renames: Vec<(u32, u32)>,
}

impl SleepState {
    /// Wakes ball `i` of `balls` now and its group at the end of the step; `woken` counts the
    /// balls woken.
    pub(super) fn wake_ball(&mut self, balls: &mut [Ball], woken: &mut u64, i: usize) {
        let Some(b) = balls.get_mut(i) else {
            return;
        };
        if b.asleep {
            b.asleep = false;
            b.slow_for = 0.0;
            *woken += 1;
            self.woken_groups.push(b.sleep_group);
        }
    }

    /// Wakes the sleepers of `balls` within `reach` px of the disc at `p` of radius `r`, with
    /// their groups.
    pub(super) fn wake_near(
        &mut self,
        balls: &mut [Ball],
        woken: &mut u64,
        p: Vec2,
        r: f32,
        reach: f32,
    ) {
        for i in 0..balls.len() {
            let b = &balls[i];
            let d = b.radius + r + reach;
            if b.asleep && (b.pos - p).length_squared() <= d * d {
                self.wake_ball(balls, woken, i);
            }
        }
        self.flush_wakes(balls, woken);
    }

    /// Wakes the rest of the groups woken this step.
    pub(super) fn flush_wakes(&mut self, balls: &mut [Ball], woken: &mut u64) {
        let groups = &mut self.woken_groups;
        if groups.is_empty() {
            return;
        }
        groups.sort_unstable();
        groups.dedup();
        let mut n = 0;
        for b in balls.iter_mut().filter(|b| b.asleep) {
            if groups.binary_search(&b.sleep_group).is_ok() {
                b.asleep = false;
                b.slow_for = 0.0;
                n += 1;
            }
        }
        *woken += n;
        groups.clear();
    }
}

/// The broad phase's order of the boxes while some balls sleep: the statics, the sleepers (as
/// static boxes), the moving shapes, the awake balls. Used by the step's broad phase and by the
/// overlap meter's own search.
pub(super) struct SleeperOrder<'a> {
    pub first_moving: usize,
    pub shapes: usize,
    pub sleepers: &'a [u32],
    pub awake: &'a [u32],
}

impl SleeperOrder<'_> {
    /// The boxes in this order: `shape_boxes` of every obstacle, `ball_box(b)` of ball `b`.
    pub fn boxes(&self, shape_boxes: &[Aabb], ball_box: impl Fn(u32) -> Aabb, out: &mut Vec<Aabb>) {
        let fm = self.first_moving;
        out.clear();
        out.extend_from_slice(&shape_boxes[..fm]);
        out.extend(self.sleepers.iter().map(|&b| ball_box(b)));
        out.extend_from_slice(&shape_boxes[fm..self.shapes]);
        out.extend(self.awake.iter().map(|&b| ball_box(b)));
    }

    /// Pairs of this order's indices turned into the world's pair space, each `(min, max)`.
    pub fn pairs_to_world(&self, pairs: &mut [crate::broad::Pair]) {
        let (fm, n, z) = (self.first_moving, self.shapes, self.sleepers.len());
        let map = |k: u32| -> u32 {
            let k = k as usize;
            let m = if k < fm {
                k
            } else if k < fm + z {
                n + self.sleepers[k - fm] as usize
            } else if k < n + z {
                k - z
            } else {
                n + self.awake[k - n - z] as usize
            };
            m as u32
        };
        for p in pairs.iter_mut() {
            let (a, b) = (map(p.0), map(p.1));
            *p = (a.min(b), a.max(b));
        }
    }
}
