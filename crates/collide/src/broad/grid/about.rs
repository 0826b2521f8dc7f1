//! The uniform grid's parameter, the cell size: its range, its check, and its rule of thumb:
//! large enough, but not much larger, to fit the largest object (Ericson 2005, §7.1.1),
//! about one to two diameters. Auto is the grid's own automatic size, the power of two at or
//! above the largest ball.

use crate::broad::rule::{multiples, power_of_two_at_least, NONE_GIVEN};
use crate::broad::{BallSizes, ParamError, ParamInfo, RuleValues};

/// Largest cell size accepted (px).
const MAX_CELL: f32 = 2048.0;

/// The checked cell-size parameter: 0 (automatic) or a positive number of px.
pub(super) fn checked_size(value: f32) -> Result<f32, ParamError> {
    if !value.is_finite() || !(0.0..=MAX_CELL).contains(&value) {
        return Err(ParamError::Invalid(format!(
            "cell size must be 0 (automatic) or a positive number of px up to {MAX_CELL}, not {value}"
        )));
    }
    Ok(value)
}

/// The cell size (px; 0 automatic).
pub(super) const CELL_SIZE: ParamInfo = ParamInfo {
    name: "cell size",
    unit: "px",
    min: 0.0,
    max: MAX_CELL,
    integer: true,
    says: "About one to two ball diameters: at least the largest ball, so that a ball \
           reaches only the neighbouring cells; not much more, or every cell holds many \
           balls, all tested against each other",
    source: "Ericson 2005, Real-Time Collision Detection, §7.1.1",
    rule: cell_rule,
};

/// The cell size's rule for the balls `b`.
fn cell_rule(b: &BallSizes) -> RuleValues {
    // The grid's own automatic size: a power of two ≥ max(largest side, 8 px).
    let c = power_of_two_at_least(b.largest, 8.0);
    RuleValues {
        auto: 0.0,
        value: Some(c),
        auto_why: if b.none_given() {
            format!("automatic: {c} px, the smallest: {NONE_GIVEN}")
        } else {
            format!(
                "automatic: {c} px, the power of two ≥ the largest box it was given ({:.1} px), \
                 {:.1} mean diameters",
                b.largest,
                c / b.mean_diameter.max(1e-3)
            )
        },
        // At least the largest ball: below it the grid raises the size anyway.
        sweep: multiples(
            b.sweep_base(),
            &[1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0],
            f32::ceil,
        ),
    }
}
