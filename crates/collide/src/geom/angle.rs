//! Sine, cosine, arc tangent and arc cosine that give the same bits on every platform.
//!
//! `f32::sin_cos`, `atan2` and `acos` come from the platform's maths library: glibc on the
//! desktop, Rust's own port of musl's on WebAssembly. Both are accurate to about an ulp, but
//! not always to the same ulp, and one differing bit in a ball's launch direction or an arc's
//! angle makes a different run. So the step uses these instead, as Box2D v3 does for
//! cross-platform determinism (`b2ComputeCosSin`, `b2Atan2`; E. Catto, "Determinism", 2024).
//!
//! They are built only from `+ − × ÷` and `sqrt` in `f64`, which IEEE 754 defines exactly and
//! every target Rust supports computes the same way (Rust never fuses a multiply and an add on
//! its own), then rounded once to `f32`. Range reduction by π/2 in two parts and Taylor
//! polynomials on a quarter turn keep the `f64` result within a few `f64` ulps, far below an
//! `f32` ulp, so the results are also as accurate as the library's.

use glam::Vec2;

/// π/2 in two parts: the high part has zeros in its low bits, so `k · PIO2_HI` is exact for
/// the quadrant counts a table sees.
const PIO2_HI: f64 = 1.570_796_326_734_125_6;
const PIO2_LO: f64 = 6.077_100_506_506_192e-11;

/// `(sin a, cos a)`, the same bits on every platform. Not finite in, NaN out.
pub(crate) fn sin_cos(a: f32) -> (f32, f32) {
    let (s, c) = sin_cos_f64(a as f64);
    (s as f32, c as f32)
}

/// The unit vector at angle `a` (radians, anticlockwise from +x): `(cos a, sin a)`.
pub fn from_angle(a: f32) -> Vec2 {
    let (s, c) = sin_cos(a);
    Vec2::new(c, s)
}

/// `(sin x, cos x)` in `f64`, the same bits on every platform.
pub(crate) fn sin_cos_f64(x: f64) -> (f64, f64) {
    if !x.is_finite() {
        return (f64::NAN, f64::NAN);
    }
    let k = (x / (PIO2_HI + PIO2_LO)).round();
    let r = (x - k * PIO2_HI) - k * PIO2_LO;
    let (s, c) = (sin_poly(r), cos_poly(r));
    // k mod 4 without the sign: the quadrant.
    match (k as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

/// sin r for |r| ≤ π/4 (Taylor to r¹⁷: the first term left out is below 2⁻⁶⁰).
fn sin_poly(r: f64) -> f64 {
    let r2 = r * r;
    let mut t = 1.0 / 355_687_428_096_000.0; // 1/17!
    for d in [
        -1.0 / 1_307_674_368_000.0, // 1/15!
        1.0 / 6_227_020_800.0,
        -1.0 / 39_916_800.0,
        1.0 / 362_880.0,
        -1.0 / 5_040.0,
        1.0 / 120.0,
        -1.0 / 6.0,
        1.0,
    ] {
        t = t * r2 + d;
    }
    t * r
}

/// cos r for |r| ≤ π/4 (Taylor to r¹⁸).
fn cos_poly(r: f64) -> f64 {
    1.0 + cos_series(r * r)
}

/// cos r − 1 from r²: −r²/2! + r⁴/4! − … − r¹⁸/18!, evaluated from the top (Horner).
fn cos_series(r2: f64) -> f64 {
    let coefficients = [
        -1.0 / 6_402_373_705_728_000.0,
        1.0 / 20_922_789_888_000.0,
        -1.0 / 87_178_291_200.0,
        1.0 / 479_001_600.0,
        -1.0 / 3_628_800.0,
        1.0 / 40_320.0,
        -1.0 / 720.0,
        1.0 / 24.0,
        -1.0 / 2.0,
    ];
    let mut t = 0.0;
    for c in coefficients {
        t = (t + c) * r2;
    }
    t
}

/// The angle of `(x, y)` from +x in (−π, π], as `f32::atan2(y, x)` but the same bits on every
/// platform. `atan2(0, 0)` is 0; NaN in, NaN out.
pub fn atan2(y: f32, x: f32) -> f32 {
    atan2_f64(y as f64, x as f64) as f32
}

fn atan2_f64(y: f64, x: f64) -> f64 {
    const PI: f64 = std::f64::consts::PI;
    if x.is_nan() || y.is_nan() {
        return f64::NAN;
    }
    if y == 0.0 {
        return if x.is_sign_negative() {
            PI.copysign(y)
        } else {
            y
        };
    }
    if x.is_infinite() || y.is_infinite() {
        // Directions at infinity: the angle of the signs (and of which is infinite).
        let (ax, ay) = (x.abs(), y.abs());
        let base = match (ax.is_infinite(), ay.is_infinite()) {
            (true, true) => PI / 4.0,
            (true, false) => 0.0,
            _ => PI / 2.0,
        };
        let a = if x < 0.0 { PI - base } else { base };
        return a.copysign(y);
    }
    let (ax, ay) = (x.abs(), y.abs());
    // atan of the smaller over the larger, in [0, 1], then unfolded.
    let a = if ay <= ax {
        atan_unit(ay / ax)
    } else {
        PI / 2.0 - atan_unit(ax / ay)
    };
    let a = if x < 0.0 { PI - a } else { a };
    a.copysign(y)
}

/// atan t for t in [0, 1]: halve the angle twice (`atan t = 2 atan(t / (1 + √(1 + t²)))`),
/// which brings t below tan(π/16) ≈ 0.199, then the Taylor series to t²³.
fn atan_unit(t: f64) -> f64 {
    let mut t = t;
    for _ in 0..2 {
        t /= 1.0 + (1.0 + t * t).sqrt();
    }
    let t2 = t * t;
    let mut s = 0.0;
    for k in (0..12).rev() {
        let term = 1.0 / (2 * k + 1) as f64;
        s = s * t2 + if k % 2 == 0 { term } else { -term };
    }
    4.0 * s * t
}

/// The arc cosine of `x` in [0, π], as `f32::acos` but the same bits on every platform;
/// outside [−1, 1], NaN.
pub(crate) fn acos(x: f32) -> f32 {
    let x = x as f64;
    if !(-1.0..=1.0).contains(&x) {
        return f32::NAN;
    }
    atan2_f64(((1.0 - x) * (1.0 + x)).sqrt(), x) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Units in the last place between two f32s.
    fn ulps(a: f32, b: f32) -> u32 {
        if a == b {
            return 0;
        }
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs() as u32
    }

    #[test]
    fn sin_and_cos_agree_with_the_library_within_an_ulp_over_many_turns() {
        for k in -200_000..200_000 {
            let a = k as f32 * 0.000_731;
            let (s, c) = sin_cos(a);
            let (ls, lc) = a.sin_cos();
            assert!(
                ulps(s, ls) <= 1 && ulps(c, lc) <= 1,
                "{a}: {s} {c}, library {ls} {lc}"
            );
        }
        assert_eq!(sin_cos(0.0), (0.0, 1.0));
        assert!(sin_cos(f32::NAN).0.is_nan() && sin_cos(f32::INFINITY).1.is_nan());
    }

    #[test]
    fn a_unit_vector_is_unit() {
        for k in 0..1000 {
            let v = from_angle(k as f32 * 0.0123 - 6.0);
            assert!((v.length() - 1.0).abs() < 2e-7);
        }
    }

    #[test]
    fn atan2_agrees_with_the_library_and_keeps_its_special_cases() {
        for i in -60..=60 {
            for j in -60..=60 {
                let (y, x) = (i as f32 * 0.37, j as f32 * 0.29);
                let (a, l) = (atan2(y, x), y.atan2(x));
                assert!(ulps(a, l) <= 1, "atan2({y}, {x}) = {a}, library {l}");
            }
        }
        assert_eq!(atan2(0.0, 0.0), 0.0);
        assert_eq!(atan2(0.0, -1.0), std::f32::consts::PI);
        assert_eq!(atan2(-0.0, -1.0), -std::f32::consts::PI);
        assert_eq!(atan2(1.0, 0.0), std::f32::consts::FRAC_PI_2);
        assert_eq!(
            atan2(f32::INFINITY, f32::INFINITY),
            std::f32::consts::FRAC_PI_4
        );
        assert!(atan2(f32::NAN, 1.0).is_nan());
    }

    #[test]
    fn acos_agrees_with_the_library_and_refuses_outside_one() {
        for k in -1000..=1000 {
            let x = k as f32 / 1000.0;
            assert!(ulps(acos(x), x.acos()) <= 1, "acos({x})");
        }
        assert!(acos(1.5).is_nan());
        assert_eq!(acos(1.0), 0.0);
    }
}
