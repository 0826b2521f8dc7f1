//! Waking sleepers ([`Wakes`]): a ball woken now, its group at the end of the step, and the
//! count of balls woken since the last step's count. The stages that meet a sleeper (the
//! push-out, the soft contacts, sleep itself) and the hand's edits between steps wake through
//! it; `sleep.rs` puts groups to sleep.

use crate::balls::{BallSet, Rest};
use glam::Vec2;

/// The groups woken during this step (flushed at its end) and the balls woken since the
/// last count.
#[derive(Clone, Debug, Default)]
pub(super) struct Wakes {
    groups: Vec<u32>,
    /// Balls woken since the last step's count.
    pub(super) count: u64,
}

impl Wakes {
    /// Wakes ball `i` of `balls` now and its group at the end of the step.
    pub(super) fn wake_ball(&mut self, balls: &mut BallSet, i: usize) {
        if let Some(r) = balls.with_rests().1.get_mut(i) {
            self.wake(r);
        }
    }

    /// Wakes whichever of two touching balls sleeps (its group at the end of the step);
    /// `rests` are the balls' rests.
    pub(super) fn wake_pair(&mut self, rests: &mut [Rest], i: usize, j: usize) {
        for k in [i, j] {
            if let Some(r) = rests.get_mut(k) {
                self.wake(r);
            }
        }
    }

    /// Wakes the ball resting as `r` now, and its group at the end of the step.
    fn wake(&mut self, r: &mut Rest) {
        if r.asleep {
            r.asleep = false;
            r.slow_for = 0.0;
            self.count += 1;
            self.groups.push(r.group);
        }
    }

    /// Wakes the sleepers of `balls` within `reach` px of the disc at `p` of radius `r`, with
    /// their groups.
    pub(super) fn wake_near(&mut self, balls: &mut BallSet, p: Vec2, r: f32, reach: f32) {
        for i in 0..balls.len() {
            let b = &balls[i];
            let d = b.radius + r + reach;
            if balls.asleep(i) && (b.pos - p).length_squared() <= d * d {
                self.wake_ball(balls, i);
            }
        }
        self.flush(balls);
    }

    /// Wakes every ball.
    pub(super) fn wake_all(&mut self, balls: &mut BallSet) {
        let mut n = 0;
        for r in balls.with_rests().1 {
            n += r.asleep as u64;
            r.asleep = false;
            r.slow_for = 0.0;
        }
        self.count += n;
        self.groups.clear();
    }

    /// Wakes the rest of the groups woken this step.
    pub(super) fn flush(&mut self, balls: &mut BallSet) {
        let groups = &mut self.groups;
        if groups.is_empty() {
            return;
        }
        groups.sort_unstable();
        groups.dedup();
        let mut n = 0;
        let woken = |r: &Rest| r.asleep && groups.binary_search(&r.group).is_ok();
        for r in balls.with_rests().1.iter_mut().filter(|r| woken(r)) {
            r.asleep = false;
            r.slow_for = 0.0;
            n += 1;
        }
        self.count += n;
        groups.clear();
    }
}
