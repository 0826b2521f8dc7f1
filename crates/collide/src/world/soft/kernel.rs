//! Which kernel solves a run of lanes: the wide one for a colour, sixteen lanes at a time
//! with AVX-512 (`avx512.rs`) or eight with AVX2 (`avx2.rs`), on x86-64 CPUs that have them
//! (checked at run time); the scalar one (`scalar.rs`) for the overflow and everywhere else.
//! All give the same bits.

use super::colour::Kind;
use super::lanes::{Bodies, LaneView, Pass};
use super::scalar;
use std::ops::Range;

/// The kernels a colour can be solved with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) enum Width {
    /// One lane at a time.
    Scalar,
    /// Eight lanes (AVX2).
    Eight,
    /// Sixteen lanes (AVX-512), the last eight of a run with AVX2.
    Sixteen,
}

/// The widest kernel this machine runs (see the x86 kernels for the environment variables
/// that turn them off).
pub(super) fn wide() -> Width {
    #[cfg(target_arch = "x86_64")]
    {
        if super::avx512::enabled() {
            return Width::Sixteen;
        }
        if super::avx2::enabled() {
            return Width::Eight;
        }
    }
    Width::Scalar
}

/// One pass over the run's lanes `range`, of `kind`, with kernel `width` for a colour.
pub(super) fn pass(
    l: &mut LaneView,
    bodies: &mut Bodies,
    (range, kind, width): (Range<usize>, Kind, Width),
    pass: Pass,
) {
    #[cfg(target_arch = "x86_64")]
    if kind != Kind::Mixed {
        match width {
            Width::Sixteen => return super::avx512::pass(l, bodies, (range, kind), pass),
            Width::Eight => return super::avx2::pass(l, bodies, (range, kind), pass),
            Width::Scalar => {}
        }
    }
    let _ = (width, kind);
    scalar::pass(l, bodies, range, pass);
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::super::colour::Kind;
    use super::super::lanes::{Bodies, BodyState, LaneView, Lanes, Pass, Springs, WIDTH};
    use super::super::{avx2, avx512, scalar};
    use rand::{Rng, SeedableRng};
    use std::ops::Range;

    /// Eight blocks of random lanes over distinct bodies per block (the colouring's promise),
    /// some obstacles, some padding-like zero lanes, warm and cold, rolling on and off.
    fn random_lanes(rng: &mut rand_chacha::ChaCha8Rng, two: bool) -> (Lanes, Vec<BodyState>) {
        let n = 8 * WIDTH;
        let mut l = Lanes::default();
        let mut bodies: Vec<BodyState> = (0..2 * n + 1)
            .map(|_| BodyState {
                vx: rng.gen_range(-50.0..50.0),
                vy: rng.gen_range(-50.0..50.0),
                w: rng.gen_range(-5.0..5.0),
                dx: rng.gen_range(-0.1..0.1),
                dy: rng.gen_range(-0.1..0.1),
                ..BodyState::default()
            })
            .collect();
        bodies[2 * n] = BodyState::default();
        for k in 0..n {
            let a = k as u32;
            l.src.push(k as u32);
            l.a.push(a);
            l.b.push(if two { (n + k) as u32 } else { u32::MAX });
            let angle: f32 = rng.gen_range(0.0..std::f32::consts::TAU);
            let mut f = |lo: f32, hi: f32| rng.gen_range(lo..hi);
            let vals = [
                angle.cos(),
                angle.sin(),
                f(-0.5, 0.5),
                f(0.1, 2.0),
                f(0.1, 2.0),
                f(0.1, 2.0),
                f(1.0, 3.0),
                f(1.0, 3.0),
                f(0.1, 1.0),
                f(0.1, 1.0),
                f(0.1, 1.0),
                f(0.1, 1.0),
                0.6,
                if k % 3 == 0 { 0.0 } else { 0.15 },
                f(-5.0, 5.0),
                f(-5.0, 5.0),
                if k % 2 == 0 { f(0.0, 3.0) } else { 0.0 },
                0.0,
                f(-0.5, 0.5),
                f(-0.1, 0.1),
            ];
            push_values(&mut l, vals, k % 5 != 0);
        }
        (l, bodies)
    }

    fn push_values(l: &mut Lanes, v: [f32; 20], warm: bool) {
        let fields = [
            &mut l.nx,
            &mut l.ny,
            &mut l.sep,
            &mut l.mass,
            &mut l.inv_a,
            &mut l.inv_b,
            &mut l.ra,
            &mut l.rb,
            &mut l.inv_ia,
            &mut l.inv_ib,
            &mut l.tangent_mass,
            &mut l.rolling_mass,
            &mut l.mu,
            &mut l.rolling_reach,
            &mut l.sx,
            &mut l.sy,
            &mut l.impulse,
            &mut l.max_push,
            &mut l.friction,
            &mut l.rolling,
        ];
        for (f, x) in fields.into_iter().zip(v) {
            f.push(x);
        }
        l.warm.push(if warm { 1.0 } else { 0.0 });
        // Each lane's spring by its load, some of them made stiffer.
        let springs = Springs::new(30.0, 1.0, 1.0 / 240.0).resting_below(30.0);
        let (soft, _) = springs.of((v[16] * 40.0, 0.0), v[3], (v[6], v[7]));
        l.rate.push(soft.bias_rate);
        l.give.push(soft.impulse_scale);
        l.over.push(if v[6] > 0.5 { 1.8 } else { 1.0 });
    }

    fn bits(l: &Lanes, b: &[BodyState]) -> Vec<u32> {
        let lanes = [&l.impulse, &l.max_push, &l.friction, &l.rolling];
        let states = b.iter().flat_map(|s| [s.vx, s.vy, s.w]);
        lanes
            .into_iter()
            .flatten()
            .copied()
            .chain(states)
            .map(f32::to_bits)
            .collect()
    }

    #[test]
    fn both_wide_kernels_give_the_scalar_kernels_bits() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let passes = [
            Pass::Warm,
            Pass::Solve(60.0, 1.0 / 240.0),
            Pass::Solve(60.0, 1.0 / 240.0),
            Pass::Relax(1.0 / 240.0, true),
            Pass::Relax(1.0 / 240.0, false),
        ];
        type Kernel = fn(&mut LaneView, &mut Bodies, (Range<usize>, Kind), Pass);
        let kernels: [(&str, bool, Kernel); 2] = [
            ("AVX2", avx2::avx2(), avx2::pass),
            ("AVX-512", avx512::avx512(), avx512::pass),
        ];
        for (name, present, kernel) in kernels {
            if !present {
                eprintln!("{name}: not on this CPU, not compared");
                continue;
            }
            for round in 0..20 {
                let two = round % 2 == 0;
                let kind = if two { Kind::Balls } else { Kind::Obstacles };
                let (mut l1, mut b1) = random_lanes(&mut rng, two);
                let (mut l2, mut b2) = (l1.clone(), b1.clone());
                // Whole vectors of sixteen, and an odd number of blocks of eight.
                let n = if round % 4 < 2 {
                    l1.len()
                } else {
                    l1.len() - WIDTH
                };
                for p in passes {
                    scalar::pass(&mut l1.view(), &mut Bodies::new(&mut b1), 0..n, p);
                    kernel(&mut l2.view(), &mut Bodies::new(&mut b2), (0..n, kind), p);
                    assert_eq!(
                        bits(&l1, &b1),
                        bits(&l2, &b2),
                        "{name} round {round}, {p:?}"
                    );
                }
            }
        }
    }
}
