//! Every wide kernel held to the scalar kernel's bits: seeded runs of random lanes (between
//! balls and with obstacles, warm and cold, rolling on and off, padding lanes that name the
//! spare body, impulses of −0) solved by the scalar kernel and by each wide kernel this
//! machine runs, pass after pass, and compared bit for bit (impulses and velocities).
//!
//! The tests run it on the desktop (AVX2, AVX-512); the app's `check` runs it wherever the
//! app runs, the page included, where it holds WebAssembly's SIMD kernel to the scalar one as
//! the browser compiled both.

use super::colour::Kind;
use super::find::{ball_pairs_with, end_blocks_for};
use super::kernel::Width;
use super::lanes::{Bodies, BodyState, LaneView, Lanes, Pass, Springs, WIDTH};
use super::scalar;
use crate::balls::Rest;
use crate::geom::Ball;
use crate::response::ContactWith;
use crate::world::body::{BallIx, Body, BodyPair};
use crate::world::contacts::SoftContact;
use crate::world::narrow_stage::{ball_ball, EndBlocks, PairContact};
use glam::{vec2, Vec2};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::ops::Range;

/// One wide kernel of the soft contacts' solver against the scalar kernel
/// ([`soft_kernels_agree`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelCheck {
    /// The kernel's instruction set: `AVX-512`, `AVX2` or `simd128` (WebAssembly).
    pub name: &'static str,
    /// Lanes it solves at once.
    pub lanes: usize,
    /// Whether this machine runs it; a kernel it does not run is not compared.
    pub present: bool,
    /// Passes compared, each over a run of 64 or 56 random lanes.
    pub passes: u64,
    /// Passes after which an impulse or a velocity differed from the scalar kernel's.
    pub differing: u64,
    /// The first difference, in words.
    pub first: Option<String>,
}

/// The soft narrow phase's widths compiled in for this target: name, lanes a block,
/// whether this machine runs it, the width that picks it.
#[allow(clippy::vec_init_then_push)]
fn narrow_widths() -> Vec<(&'static str, usize, bool, Width)> {
    #[allow(unused_mut)]
    let mut list = Vec::new();
    #[cfg(target_arch = "x86_64")]
    list.push(("AVX2 narrow phase", 8, super::avx2::avx2(), Width::Eight));
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    list.push(("simd128 narrow phase", 8, true, Width::Four));
    list
}

impl KernelCheck {
    /// Kernel `name` of `lanes` lanes, run here where `present`, nothing compared yet.
    fn new(name: &'static str, lanes: usize, present: bool) -> Self {
        KernelCheck {
            name,
            lanes,
            present,
            passes: 0,
            differing: 0,
            first: None,
        }
    }
}

/// A wide kernel's pass: the lanes `range`, all of one kind.
type KernelPass = fn(&mut LaneView, &mut Bodies, Range<usize>, Kind, Pass);

/// The wide kernels compiled in for this target: name, lanes, whether this machine runs it.
fn kernels() -> Vec<(&'static str, usize, bool, KernelPass)> {
    #[allow(unused_mut)]
    let mut list: Vec<(&'static str, usize, bool, KernelPass)> = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        list.push(("AVX-512", 16, super::avx512::avx512(), super::avx512::pass));
        list.push(("AVX2", 8, super::avx2::avx2(), super::avx2::pass));
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    list.push(("simd128", 4, true, super::simd128::pass));
    list
}

/// The kernel the soft contacts' solver uses for a colour on this machine: `AVX-512`,
/// `AVX2`, `simd128` or `scalar` (the same bits from each).
pub fn soft_kernel() -> &'static str {
    match super::kernel::wide() {
        super::kernel::Width::Sixteen => "AVX-512",
        super::kernel::Width::Eight => "AVX2",
        super::kernel::Width::Four => "simd128",
        super::kernel::Width::Scalar => "scalar",
    }
}

/// Every wide kernel compiled in, compared with the scalar kernel over `rounds` runs of random
/// lanes from `seed` (five passes each: warm start, two solves, two relaxes), then every
/// width of the narrow phase's ball pairs with the scalar test over `rounds` times five runs
/// of random pairs (a "pass" each): the same inputs must give the same bits. A kernel this
/// machine cannot run is listed, not compared.
pub fn soft_kernels_agree(seed: u64, rounds: u32) -> Vec<KernelCheck> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut checks = solver_kernels_agree(&mut rng, rounds);
    for (name, lanes, present, width) in narrow_widths() {
        let mut check = KernelCheck::new(name, lanes, present);
        if present {
            for run in 0..5 * rounds {
                compare_narrow(&mut check, width, &mut rng, run);
            }
        }
        checks.push(check);
    }
    checks
}

/// The solver's wide kernels against the scalar kernel ([`soft_kernels_agree`]).
fn solver_kernels_agree(rng: &mut ChaCha8Rng, rounds: u32) -> Vec<KernelCheck> {
    kernels()
        .into_iter()
        .map(|(name, lanes, present, kernel)| {
            let mut check = KernelCheck::new(name, lanes, present);
            if present {
                (0..rounds).for_each(|round| compare(&mut check, kernel, rng, round));
            }
            check
        })
        .collect()
}

/// One run of random lanes solved by both kernels, pass by pass.
fn compare(check: &mut KernelCheck, kernel: KernelPass, rng: &mut ChaCha8Rng, round: u32) {
    let passes = [
        Pass::Warm,
        Pass::Solve(60.0, 1.0 / 240.0),
        Pass::Solve(60.0, 1.0 / 240.0),
        Pass::Relax(1.0 / 240.0, true),
        Pass::Relax(1.0 / 240.0, false),
    ];
    let two = round.is_multiple_of(2);
    let kind = if two { Kind::Balls } else { Kind::Obstacles };
    let (mut l1, mut b1) = random_lanes(rng, two);
    let (mut l2, mut b2) = (l1.clone(), b1.clone());
    // Whole vectors of sixteen, and an odd number of blocks of eight.
    let n = if round % 4 < 2 {
        l1.len()
    } else {
        l1.len() - WIDTH
    };
    for p in passes {
        scalar::pass(&mut l1.view(), &mut Bodies::new(&mut b1), 0..n, p);
        kernel(&mut l2.view(), &mut Bodies::new(&mut b2), 0..n, kind, p);
        check.passes += 1;
        if let Some(at) = first_difference(&bits(&l1, &b1), &bits(&l2, &b2)) {
            check.differing += 1;
            check.first.get_or_insert_with(|| {
                format!("round {round} (seed's run), {p:?}: value {at} differs")
            });
        }
    }
}

/// Eight blocks of random lanes over distinct bodies per block (the colouring's promise):
/// between balls (`two`) or with obstacles, warm and cold, rolling on and off (a quarter of
/// the bodies have no radius, so no rolling reach), every seventh lane padding (the spare
/// body, no mass) and every ninth with an impulse of −0.
fn random_lanes(rng: &mut ChaCha8Rng, two: bool) -> (Lanes, Vec<BodyState>) {
    let n = 8 * WIDTH;
    let spare = 2 * n as u32;
    let mut l = Lanes {
        mu: 0.6,
        reach_per_radius: 0.05,
        ..Lanes::default()
    };
    let mut bodies: Vec<BodyState> = (0..2 * n).map(|_| random_body(rng)).collect();
    bodies.push(BodyState::default());
    for k in 0..n {
        let pad = k % 7 == 6;
        l.src.push(k as u32);
        l.a.push(if pad { spare } else { k as u32 });
        l.b.push(match (pad, two) {
            (true, _) => spare,
            (false, true) => (n + k) as u32,
            (false, false) => super::lanes::NO_BODY,
        });
        let mut vals = if pad {
            [0.0; 12]
        } else {
            random_values(rng, k)
        };
        if k % 9 == 4 {
            vals[8] = -0.0;
        }
        push_values(&mut l, vals, k % 5 != 0 && !pad);
    }
    (l, bodies)
}

fn random_body(rng: &mut ChaCha8Rng) -> BodyState {
    BodyState {
        vx: rng.gen_range(-50.0..50.0),
        vy: rng.gen_range(-50.0..50.0),
        w: rng.gen_range(-5.0..5.0),
        inv_m: rng.gen_range(0.1..2.0),
        dx: rng.gen_range(-0.1..0.1),
        dy: rng.gen_range(-0.1..0.1),
        inv_i: rng.gen_range(0.1..1.0),
        r: if rng.gen_bool(0.25) {
            0.0
        } else {
            rng.gen_range(1.0..3.0)
        },
    }
}

/// A lane's twelve fields, in [`push_values`]'s order.
fn random_values(rng: &mut ChaCha8Rng, k: usize) -> [f32; 12] {
    let (sin, cos) = crate::geom::angle::sin_cos(rng.gen_range(0.0..std::f32::consts::TAU));
    let mut f = |lo: f32, hi: f32| rng.gen_range(lo..hi);
    [
        cos,
        sin,
        f(-0.5, 0.5),
        f(0.1, 2.0),
        f(0.1, 1.0),
        f(0.1, 1.0),
        f(-5.0, 5.0),
        f(-5.0, 5.0),
        if k.is_multiple_of(2) {
            f(0.0, 3.0)
        } else {
            0.0
        },
        0.0,
        f(-0.5, 0.5),
        f(-0.1, 0.1),
    ]
}

/// Appends one lane: its twelve fields, whether it is warm, and its spring from its load.
fn push_values(l: &mut Lanes, v: [f32; 12], warm: bool) {
    let fields = [
        &mut l.nx,
        &mut l.ny,
        &mut l.sep,
        &mut l.mass,
        &mut l.tangent_mass,
        &mut l.rolling_mass,
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
    let (soft, _) = springs.of((v[8] * 40.0, 0.0), v[3], (v[5] * 3.0, v[4] * 3.0));
    l.rate.push(soft.bias_rate);
    l.give.push(soft.impulse_scale);
    l.over.push(if v[5] > 0.5 { 1.8 } else { 1.0 });
}

/// The solved values as bits: the lanes' impulses, then every body's state (the masses and
/// moves too, which the passes must leave as they were).
fn bits(l: &Lanes, b: &[BodyState]) -> Vec<u32> {
    let lanes = [&l.impulse, &l.max_push, &l.friction, &l.rolling];
    let states = b
        .iter()
        .flat_map(|s| [s.vx, s.vy, s.w, s.inv_m, s.dx, s.dy, s.inv_i, s.r]);
    lanes
        .into_iter()
        .flatten()
        .copied()
        .chain(states)
        .map(f32::to_bits)
        .collect()
}

/// One run of random ball pairs through the scalar test and width `width`'s blocks: the
/// contacts and wakes compared bit for bit.
fn compare_narrow(check: &mut KernelCheck, width: Width, rng: &mut ChaCha8Rng, run: u32) {
    let (balls, rests, pairs) = random_pairs(rng, run);
    let span = 1.0 / 60.0;
    let (scale, wake) = (if run.is_multiple_of(2) { 1.0 } else { 0.9 }, 30.0);
    let scalar = ball_pairs_with(Width::Scalar, (&balls, &rests), &pairs, span, (scale, wake));
    let wide = ball_pairs_with(width, (&balls, &rests), &pairs, span, (scale, wake));
    check.passes += 1;
    let bits = |(c, w): &(Vec<SoftContact>, Vec<(BallIx, BallIx)>), end: &[u32]| {
        let mut v: Vec<u32> = c.iter().flat_map(contact_bits).collect();
        v.push(u32::MAX);
        v.extend(w.iter().flat_map(|(i, j)| [i.0, j.0]));
        v.push(u32::MAX);
        v.extend_from_slice(end);
        v
    };
    let (scalar_end, wide_end) = (frame_end_bits(None, &balls, &pairs), {
        frame_end_bits(end_blocks_for(width), &balls, &pairs)
    });
    let (scalar_bits, wide_bits) = (bits(&scalar, &scalar_end), bits(&wide, &wide_end));
    if let Some(at) = first_difference(&scalar_bits, &wide_bits) {
        check.differing += 1;
        check.first.get_or_insert_with(|| {
            format!(
                "run {run} of pairs: value {at} differs ({} contacts against {})",
                wide.0.len(),
                scalar.0.len()
            )
        });
    }
}

/// The frame's end's contacts of ball pairs `pairs` among `balls` as bits: by `blocks` for
/// the whole blocks it takes and the scalar test (`ball_ball`) for the rest, or all scalar.
fn frame_end_bits(blocks: Option<EndBlocks>, balls: &[Ball], pairs: &[BodyPair]) -> Vec<u32> {
    let mut out = Vec::new();
    let done = blocks.map_or(0, |f| f(balls, pairs, &mut out));
    for p in &pairs[done..] {
        let Body::Ball(o) = p.other else { continue };
        let (a, b) = (&balls[p.ball.ix()], &balls[o.ix()]);
        if let Some(c) = ball_ball(a.pos, a.radius, b.pos, b.radius) {
            out.push(PairContact {
                iteration: PairContact::FRAME_END,
                ball: p.ball.0,
                with: ContactWith::Ball(o.0),
                point: c.point,
                normal: c.normal,
                depth: c.depth,
            });
        }
    }
    out.iter()
        .flat_map(|c| {
            let with = match c.with {
                ContactWith::Ball(o) => o,
                _ => u32::MAX,
            };
            let f = [c.point.x, c.point.y, c.normal.x, c.normal.y, c.depth];
            [c.iteration, c.ball, with]
                .into_iter()
                .chain(f.map(f32::to_bits))
        })
        .collect()
}

/// Forty balls close together (radii of 0 to 9.5 px, some equal; some still; every ninth on
/// the centre of the one before; every fifth asleep) and a run of random pairs of them, whole
/// blocks of eight and a few more.
fn random_pairs(rng: &mut ChaCha8Rng, run: u32) -> (Vec<Ball>, Vec<Rest>, Vec<BodyPair>) {
    let n = 40;
    let mut balls: Vec<Ball> = (0..n)
        .map(|i| {
            let r = [0.0, 3.0, 6.0, 6.0, 9.5][rng.gen_range(0..5)];
            let pos = vec2(rng.gen_range(0.0..36.0), rng.gen_range(0.0..36.0));
            let vel = match i % 6 {
                0 => Vec2::ZERO,
                _ => vec2(rng.gen_range(-400.0..400.0), rng.gen_range(-400.0..400.0)),
            };
            Ball::new(pos, vel, r, rng.gen_range(0.0..1.3), 0)
        })
        .collect();
    for i in (9..n).step_by(9) {
        balls[i].pos = balls[i - 1].pos;
    }
    let rests = (0..n)
        .map(|i| Rest {
            asleep: i % 5 == 2,
            ..Rest::default()
        })
        .collect();
    let count = 8 * rng.gen_range(2..12) + (run % 8) as usize;
    let pairs = (0..count)
        .map(|_| {
            let i = rng.gen_range(0..n as u32);
            let j = (i + rng.gen_range(1..n as u32)) % n as u32;
            BodyPair {
                ball: BallIx(i),
                other: Body::Ball(BallIx(j)),
            }
        })
        .collect();
    (balls, rests, pairs)
}

/// Every field of contact `c` as bits.
fn contact_bits(c: &SoftContact) -> Vec<u32> {
    let other = match c.other {
        Body::Ball(o) => o.0,
        Body::Shape(s) => u32::MAX - s.0,
    };
    let floats = [
        c.normal.x,
        c.normal.y,
        c.point.x,
        c.point.y,
        c.sep,
        c.mass,
        c.inv_a,
        c.inv_b,
        c.ra,
        c.rb,
        c.inv_ia,
        c.inv_ib,
        c.tangent_mass,
        c.rolling_mass,
        c.approach,
        c.e,
        c.surface.x,
        c.surface.y,
        c.speed,
    ];
    let mut v = vec![c.ball.0, other, u32::from(c.firm)];
    v.extend(floats.iter().map(|f| f.to_bits()));
    v
}

fn first_difference(a: &[u32], b: &[u32]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wide_kernel_this_machine_runs_gives_the_scalar_kernels_bits() {
        for check in soft_kernels_agree(5, 20) {
            if !check.present {
                eprintln!("{}: not on this CPU, not compared", check.name);
                continue;
            }
            assert_eq!(check.passes, 100, "{}", check.name);
            assert_eq!(check.differing, 0, "{}: {:?}", check.name, check.first);
        }
    }

    #[test]
    fn the_random_pairs_touch_or_not_about_evenly_and_include_sleepers_and_shared_centres() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let (mut pairs, mut contacts, mut wakes, mut shared) = (0, 0, 0, 0);
        for run in 0..40 {
            let (balls, rests, p) = random_pairs(&mut rng, run);
            let span = 1.0 / 60.0;
            let (c, w) = ball_pairs_with(Width::Scalar, (&balls, &rests), &p, span, (1.0, 30.0));
            pairs += p.len();
            contacts += c.len();
            wakes += w.len();
            shared += p
                .iter()
                .filter(|q| {
                    let Body::Ball(o) = q.other else { return false };
                    balls[q.ball.ix()].pos == balls[o.ix()].pos
                })
                .count();
        }
        let touching = contacts as f64 / pairs as f64;
        assert!((0.3..0.8).contains(&touching), "{touching}");
        assert!(wakes > 0 && shared > 0, "{wakes} {shared}");
    }

    #[test]
    fn a_changed_bit_is_found() {
        let (l, b) = random_lanes(&mut ChaCha8Rng::seed_from_u64(1), true);
        let mut other = b.clone();
        other[3].w = f32::from_bits(other[3].w.to_bits() ^ 1);
        assert!(first_difference(&bits(&l, &b), &bits(&l, &other)).is_some());
        assert_eq!(first_difference(&bits(&l, &b), &bits(&l, &b)), None);
    }

    /// AVX2's eight lanes with a block's read-only fields loaded at their uses, as the web's
    /// kernel loads them ([`Wide::READ_AT_USE`]), so the desktop tests that way too.
    #[cfg(target_arch = "x86_64")]
    mod read_at_use {
        use super::super::super::avx2::{avx2, pass_as, W8};
        use super::super::super::wide::Wide;
        use super::*;

        #[derive(Clone, Copy)]
        struct AtUse(W8);

        impl Wide for AtUse {
            const LANES: usize = W8::LANES;
            const READ_AT_USE: bool = true;
            type Mask = <W8 as Wide>::Mask;
            fn splat(x: f32) -> Self {
                AtUse(W8::splat(x))
            }
            fn add(self, b: Self) -> Self {
                AtUse(self.0.add(b.0))
            }
            fn sub(self, b: Self) -> Self {
                AtUse(self.0.sub(b.0))
            }
            fn mul(self, b: Self) -> Self {
                AtUse(self.0.mul(b.0))
            }
            fn div(self, b: Self) -> Self {
                AtUse(self.0.div(b.0))
            }
            fn max(self, b: Self) -> Self {
                AtUse(self.0.max(b.0))
            }
            fn min(self, b: Self) -> Self {
                AtUse(self.0.min(b.0))
            }
            fn neg(self) -> Self {
                AtUse(self.0.neg())
            }
            fn gt(self, b: Self) -> Self::Mask {
                self.0.gt(b.0)
            }
            fn ne(self, b: Self) -> Self::Mask {
                self.0.ne(b.0)
            }
            fn blend(off: Self, on: Self, mask: Self::Mask) -> Self {
                AtUse(W8::blend(off.0, on.0, mask))
            }
            fn load(v: &[f32], k: usize) -> Self {
                AtUse(W8::load(v, k))
            }
            fn store(self, v: &mut [f32], k: usize) {
                self.0.store(v, k)
            }
            fn gather(bodies: &Bodies, ids: &[u32]) -> [Self; 8] {
                W8::gather(bodies, ids).map(AtUse)
            }
            fn scatter(bodies: &mut Bodies, ids: &[u32], s: [Self; 4]) {
                W8::scatter(bodies, ids, s.map(|v| v.0))
            }
        }

        #[test]
        fn the_kernel_reading_its_fields_at_their_uses_gives_the_scalar_kernels_bits() {
            if !avx2() {
                eprintln!("no AVX2 on this CPU: not compared");
                return;
            }
            let mut check = KernelCheck::new("AVX2, read at use", 8, true);
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            (0..20).for_each(|round| compare(&mut check, pass_as::<AtUse>, &mut rng, round));
            assert_eq!(check.passes, 100);
            assert_eq!(check.differing, 0, "{:?}", check.first);
        }
    }
}
