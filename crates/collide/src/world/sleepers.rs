//! Who sleeps: the sleepers as the broad phase last saw them and the groups to wake at the
//! end of a step (`sleep.rs` puts groups to sleep).

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
