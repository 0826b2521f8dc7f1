//! Ball against a one-way gate: a segment that lets fast balls through against its normal.

use super::{contact_ball_segment, Contact};
use glam::Vec2;

/// Contact of the ball (centre `c`, radius `r`, velocity `v` px/s) with the gate `a`–`b`
/// whose unit `normal` points to the entry side. A ball moving against the normal faster
/// than `threshold` passes (no contact); otherwise it bounces as off a segment.
pub(crate) fn contact_ball_gate(
    c: Vec2,
    r: f32,
    v: Vec2,
    a: Vec2,
    b: Vec2,
    normal: Vec2,
    threshold: f32,
) -> Option<Contact> {
    if -v.dot(normal) > threshold {
        return None;
    }
    contact_ball_segment(c, r, a, b)
}
