//! The larger or smaller of two floats as one compare and one select on every target.
//!
//! Rust's `f32::max` and `min` return the number when the other is a NaN, and compiled for
//! WebAssembly (whose own `f32.max` and `min` propagate a NaN and order −0 below +0) they
//! become a sequence of compares and selects that the browser's engine runs as branches,
//! several a call: in the narrow phase's few lines a pair, a good share of its time. These
//! give the same answer as `max` and `min` wherever those have one answer (numbers, and a
//! NaN against a number for [`at_least`]); on a tie of −0 and +0 they give one the same way
//! on every target, which `max` and `min` do not promise.

/// `x.max(floor)` for a number `floor`: `x` when it is larger, else `floor` (a NaN `x`
/// gives `floor`, as `max` does).
#[inline(always)]
pub(crate) fn at_least(x: f32, floor: f32) -> f32 {
    if x > floor {
        x
    } else {
        floor
    }
}

/// `a.min(b)` for numbers: `b` when it is smaller, else `a`.
#[inline(always)]
pub(crate) fn smaller(a: f32, b: f32) -> f32 {
    if b < a {
        b
    } else {
        a
    }
}

/// `a.max(b)` for numbers: `b` when it is larger, else `a`.
#[inline(always)]
pub(crate) fn larger(a: f32, b: f32) -> f32 {
    if b > a {
        b
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn they_answer_as_max_and_min_do_for_numbers_and_a_nan_against_a_floor() {
        let v = [
            -3.0,
            -1.0,
            -0.5,
            0.5,
            1.0,
            2.5,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        for &a in &v {
            for &b in &v {
                assert_eq!(smaller(a, b), a.min(b));
                assert_eq!(larger(a, b), a.max(b));
                assert_eq!(at_least(a, b), a.max(b));
            }
            assert_eq!(at_least(f32::NAN, a), a);
        }
        assert_eq!(at_least(-0.0, 0.0).to_bits(), 0.0f32.to_bits());
    }
}
