//! The cradle's read-out: how an impact passes through a row of tethered balls. A row of
//! touching balls needs several collision iterations per step for the momentum to go through
//! within the step (Parberry, Collision Math Toy: "collision iterations").
//!
//! The row is the tethered balls in the order of [`super::Rules::tethers`]. After each
//! step the meter compares each end ball's velocity with the last step's: an end ball that
//! was moving into its neighbour faster than [`MIN_SPEED`] and lost more than half of that
//! approach speed has hit the row. From that step on, for [`WINDOW`] s, it records the
//! fastest any middle ball went at the end of a step, the fastest the far end ball moved
//! away, and how many steps after the impact step the far ball left (moved away at more
//! than half the incoming speed). With enough collision iterations the far ball leaves in
//! the impact step and the middle balls are never seen moving; with one iteration each
//! middle ball carries the speed for a step in turn. `O(tethers)` per step.

use super::Tether;
use crate::balls::BallSet;

use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Slowest approach (px/s) that counts as an impact.
pub(crate) const MIN_SPEED: f32 = 20.0;
/// How long after an impact the meter watches the row (s).
pub(crate) const WINDOW: f32 = 0.1;

/// One impact passing through the row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Transfer {
    /// Row position of the ball that came in (0 = first tethered ball).
    pub from: u32,
    /// Its approach speed just before the impact (px/s).
    pub incoming: f32,
    /// Fastest the far end ball moved away from the row (px/s).
    pub outgoing: f32,
    /// Fastest any ball between the ends moved, at the end of a step (px/s).
    pub middle_peak: f32,
    /// Steps after the impact step when the far ball left (0: in the same step); `None` if
    /// it had not left by the end of the window.
    pub steps_to_leave: Option<u32>,
    /// Steps watched so far.
    pub steps: u32,
}

/// Watches the row step by step; see the module notes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TransferMeter {
    prev: Vec<Vec2>,
    /// The impact being watched, if any.
    pub current: Option<Transfer>,
    /// The last impact watched to the end of its window.
    pub last: Option<Transfer>,
}

impl TransferMeter {
    /// Drops the impact being watched and the last step's velocities (after a hand moved a
    /// ball), so the next step starts afresh.
    pub(crate) fn forget(&mut self) {
        self.prev.clear();
        self.current = None;
    }
}

impl TransferMeter {
    /// Updates the meter from this step's velocities of the tethered balls (`dt` the step's
    /// length, s).
    pub(super) fn measure(&mut self, tethers: &[Tether], balls: &BallSet, dt: f32) {
        let row: Vec<(Vec2, Vec2)> = tethers
            .iter()
            .filter_map(|t| {
                balls
                    .index(t.ball)
                    .ok()
                    .map(|i| (balls[i].pos, balls[i].vel))
            })
            .collect();
        let window = (WINDOW / dt).ceil() as u32;
        if row.len() < 3 || self.prev.len() != row.len() {
            self.prev = row.iter().map(|r| r.1).collect();
            self.current = None;
            return;
        }
        if self.current.is_none() {
            self.current = impact(&row, &self.prev);
        }
        if let Some(mut t) = self.current {
            watch(&mut t, &row);
            if t.steps >= window {
                self.last = Some(t);
                self.current = None;
            } else {
                self.current = Some(t);
            }
        }
        self.prev.clear();
        self.prev.extend(row.iter().map(|r| r.1));
    }
}

/// Unit direction from ball `a` to ball `b` of the row (zero if they coincide).
fn toward(row: &[(Vec2, Vec2)], a: usize, b: usize) -> Vec2 {
    (row[b].0 - row[a].0).normalize_or_zero()
}

/// An impact of an end ball on its neighbour this step, if one happened.
fn impact(row: &[(Vec2, Vec2)], prev: &[Vec2]) -> Option<Transfer> {
    let last = row.len() - 1;
    [(0, 1), (last, last - 1)]
        .into_iter()
        .find_map(|(end, next)| {
            let dir = toward(row, end, next);
            let before = prev[end].dot(dir);
            let now = row[end].1.dot(dir);
            (before > MIN_SPEED && now < 0.5 * before).then_some(Transfer {
                from: end as u32,
                incoming: before,
                ..Transfer::default()
            })
        })
}

/// Records this step of the impact `t`.
fn watch(t: &mut Transfer, row: &[(Vec2, Vec2)]) {
    let last = row.len() - 1;
    let (far, next) = if t.from == 0 {
        (last, last - 1)
    } else {
        (0, 1)
    };
    for (_, v) in &row[1..last] {
        t.middle_peak = t.middle_peak.max(v.length());
    }
    let away = row[far].1.dot(toward(row, next, far));
    t.outgoing = t.outgoing.max(away);
    if t.steps_to_leave.is_none() && away > 0.5 * t.incoming {
        t.steps_to_leave = Some(t.steps);
    }
    t.steps += 1;
}
