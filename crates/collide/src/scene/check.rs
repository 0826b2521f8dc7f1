//! The checks every number of a scene goes through (finite, in range, a direction non-zero),
//! each failing with a message that names the field, and where a failure points in the text.

use glam::Vec2;

/// Where a validation error points.
pub(super) enum At {
    /// The entry of the top-level `shapes` list.
    Shape(usize),
    /// A key of the top-level struct.
    Key(&'static str),
}

pub(super) fn check_num(x: f32, field: &str, lo: f32, hi: f32) -> Result<(), String> {
    if !x.is_finite() {
        return Err(format!("field `{field}`: must be a finite number, got {x}"));
    }
    if x < lo || x > hi {
        return Err(format!("field `{field}`: must be in {lo}..={hi}, got {x}"));
    }
    Ok(())
}

pub(super) fn check_vec(v: Vec2, field: &str) -> Result<(), String> {
    check_num(v.x, field, -1e7, 1e7)?;
    check_num(v.y, field, -1e7, 1e7)
}

/// A direction must normalize to a unit vector in f32: finite, and neither so short nor so
/// long that its squared length underflows or overflows.
pub(super) fn check_direction(v: Vec2, field: &str) -> Result<(), String> {
    let len = v.length();
    if v.is_finite() && (1e-6..=1e15).contains(&len) {
        Ok(())
    } else {
        Err(format!(
            "field `{field}`: must be a non-zero finite direction (length 1e-6..=1e15), got {v}"
        ))
    }
}
