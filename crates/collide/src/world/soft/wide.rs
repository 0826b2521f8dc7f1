//! The wide kernel: a colour's lanes eight at a time with AVX2, on CPUs that have it (checked
//! at run time, once), as Box2D v3's `contact_solver.c` does.
//!
//! It reproduces the scalar kernel (`scalar.rs`) bit for bit: every lane does the same
//! operations in the same order (no fused multiply–add); Rust's `a.max(b)` is
//! `_mm256_max_ps(b, a)` (`a` unless `b > a`), its `clamp(lo, hi)` is
//! `min(hi, max(lo, x))` with the operands in that order; a branch of the scalar kernel is a
//! blend of both sides by the lane's mask. The eight lanes of a block never share a ball (the
//! colouring's promise), so their bodies are gathered, solved and scattered as eight
//! independent ones; padding lanes name the spare body and carry no mass.

use super::colour::Kind;
use super::lanes::{Bodies, LaneView, Pass, WIDTH};
use std::arch::x86_64::*;
use std::ops::Range;
use std::sync::OnceLock;

/// Whether the wide kernel runs: the CPU has AVX2 and the environment variable
/// `COLLIDE_NO_AVX2` is not set (for comparing the two kernels; results are the same).
pub(super) fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("COLLIDE_NO_AVX2").is_none() && avx2())
}

/// Whether the CPU has AVX2 (whatever the environment says).
pub(super) fn avx2() -> bool {
    is_x86_feature_detected!("avx2")
}

/// One pass over `range` of lanes of `kind` (`Balls` or `Obstacles`), whole blocks of
/// [`WIDTH`].
///
/// # Panics
/// When the CPU lacks AVX2 ([`avx2`]), or the range is not whole blocks.
pub(super) fn pass(
    l: &mut LaneView,
    bodies: &mut Bodies,
    (range, kind): (Range<usize>, Kind),
    pass: Pass,
) {
    assert!(avx2() && range.len() % WIDTH == 0 && range.end <= l.len());
    // SAFETY: AVX2 is present (asserted); every lane of the range exists (asserted) and
    // names a body slot in `bodies` (the lanes' promise).
    unsafe { pass_avx2(l, bodies, (range, kind == Kind::Balls), pass) }
}

#[target_feature(enable = "avx2")]
unsafe fn pass_avx2(
    l: &mut LaneView,
    bodies: &mut Bodies,
    (range, two): (Range<usize>, bool),
    pass: Pass,
) {
    for k in range.step_by(WIDTH) {
        let mut a = gather(bodies, &l.a[k..k + WIDTH]);
        let mut b = if two {
            gather(bodies, &l.b[k..k + WIDTH])
        } else {
            Side::surface(l, k)
        };
        let mut c = Block::load(l, k);
        match pass {
            Pass::Warm => {
                let on = _mm256_cmp_ps::<_CMP_NEQ_OQ>(load(l.warm, k), _mm256_setzero_ps());
                warm(&c, (&mut a, &mut b, two), on)
            }
            Pass::Solve(springs, push, h) => {
                let soft = if two { springs.balls } else { springs.walls };
                let bias = Bias {
                    rate: set(soft.bias_rate),
                    push: set(push),
                    mass_scale: set(soft.mass_scale),
                    impulse_scale: set(soft.impulse_scale),
                    h: set(h),
                    on: true,
                };
                solve(&mut c, (&mut a, &mut b, two), &bias);
            }
            Pass::Relax(h) => {
                let bias = Bias {
                    rate: set(0.0),
                    push: set(0.0),
                    mass_scale: set(1.0),
                    impulse_scale: set(0.0),
                    h: set(h),
                    on: false,
                };
                solve(&mut c, (&mut a, &mut b, two), &bias);
            }
        }
        c.store(l, k);
        scatter(bodies, &l.a[k..k + WIDTH], &a);
        if two {
            scatter(bodies, &l.b[k..k + WIDTH], &b);
        }
    }
}

/// One side of eight lanes: velocity, spin and move since the step began.
#[derive(Clone, Copy)]
struct Side {
    vx: __m256,
    vy: __m256,
    w: __m256,
    dx: __m256,
    dy: __m256,
}

impl Side {
    /// The obstacles' side of lanes `k..k + 8`: their surface velocities, no spin, no move.
    #[target_feature(enable = "avx2")]
    fn surface(l: &LaneView, k: usize) -> Self {
        let zero = _mm256_setzero_ps();
        Side {
            vx: load(l.sx, k),
            vy: load(l.sy, k),
            w: zero,
            dx: zero,
            dy: zero,
        }
    }
}

/// The bodies named by eight lanes: their eight states (one register each, the fields
/// `vx vy w · dx dy · ·`) transposed into one register a field, as Box2D's
/// `b2GatherBodies` does.
#[target_feature(enable = "avx2")]
fn gather(bodies: &Bodies, ids: &[u32]) -> Side {
    let rows: [__m256; WIDTH] = std::array::from_fn(|i| {
        // SAFETY: `row` checks the slot; a state is 32 bytes aligned to 32 (`BodyState`).
        unsafe { _mm256_load_ps(bodies.row(ids[i])) }
    });
    let c = transposed(rows);
    Side {
        vx: c[0],
        vy: c[1],
        w: c[2],
        dx: c[4],
        dy: c[5],
    }
}

/// Writes the eight lanes' bodies back: the fields transposed into one register a state.
/// The lanes of a block name distinct balls (padding lanes the spare body, which no mass
/// moves), so no write is lost.
#[target_feature(enable = "avx2")]
fn scatter(bodies: &mut Bodies, ids: &[u32], s: &Side) {
    let zero = _mm256_setzero_ps();
    let rows = transposed([s.vx, s.vy, s.w, zero, s.dx, s.dy, zero, zero]);
    for (i, row) in rows.into_iter().enumerate() {
        // SAFETY: as in `gather`; no other thread touches the state (`Bodies`).
        unsafe { _mm256_store_ps(bodies.row(ids[i]), row) }
    }
}

/// The 8 × 8 transpose of `r` (row `i` becomes column `i`).
#[target_feature(enable = "avx2")]
fn transposed(r: [__m256; WIDTH]) -> [__m256; WIDTH] {
    // Pairs of rows interleaved, then pairs of pairs, then the 128-bit halves swapped.
    let t: [__m256; WIDTH] = std::array::from_fn(|i| {
        let (a, b) = (r[i & !1], r[i | 1]);
        if i % 2 == 0 {
            _mm256_unpacklo_ps(a, b)
        } else {
            _mm256_unpackhi_ps(a, b)
        }
    });
    let u: [__m256; WIDTH] = std::array::from_fn(|i| {
        let base = (i / 4) * 4;
        let (a, b) = (t[base + (i % 4) / 2], t[base + 2 + (i % 4) / 2]);
        if i % 2 == 0 {
            _mm256_shuffle_ps::<0x44>(a, b)
        } else {
            _mm256_shuffle_ps::<0xEE>(a, b)
        }
    });
    std::array::from_fn(|i| {
        let (a, b) = (u[i % 4], u[4 + i % 4]);
        if i < 4 {
            _mm256_permute2f128_ps::<0x20>(a, b)
        } else {
            _mm256_permute2f128_ps::<0x31>(a, b)
        }
    })
}

/// Eight lanes' fields.
struct Block {
    nx: __m256,
    ny: __m256,
    sep: __m256,
    mass: __m256,
    inv_a: __m256,
    inv_b: __m256,
    ra: __m256,
    rb: __m256,
    inv_ia: __m256,
    inv_ib: __m256,
    tangent_mass: __m256,
    rolling_mass: __m256,
    mu: __m256,
    rolling_reach: __m256,
    impulse: __m256,
    max_push: __m256,
    friction: __m256,
    rolling: __m256,
}

impl Block {
    #[target_feature(enable = "avx2")]
    fn load(l: &LaneView, k: usize) -> Self {
        Block {
            nx: load(l.nx, k),
            ny: load(l.ny, k),
            sep: load(l.sep, k),
            mass: load(l.mass, k),
            inv_a: load(l.inv_a, k),
            inv_b: load(l.inv_b, k),
            ra: load(l.ra, k),
            rb: load(l.rb, k),
            inv_ia: load(l.inv_ia, k),
            inv_ib: load(l.inv_ib, k),
            tangent_mass: load(l.tangent_mass, k),
            rolling_mass: load(l.rolling_mass, k),
            mu: load(l.mu, k),
            rolling_reach: load(l.rolling_reach, k),
            impulse: load(l.impulse, k),
            max_push: load(l.max_push, k),
            friction: load(l.friction, k),
            rolling: load(l.rolling, k),
        }
    }

    #[target_feature(enable = "avx2")]
    fn store(&self, l: &mut LaneView, k: usize) {
        store(l.impulse, k, self.impulse);
        store(l.max_push, k, self.max_push);
        store(l.friction, k, self.friction);
        store(l.rolling, k, self.rolling);
    }
}

/// The bias of a pass: the spring's rate, push-out cap and scales (solve), or none (relax).
struct Bias {
    rate: __m256,
    push: __m256,
    mass_scale: __m256,
    impulse_scale: __m256,
    h: __m256,
    on: bool,
}

/// The kept impulses, applied where `warm` is set (all bits of a lane).
#[target_feature(enable = "avx2")]
fn warm(c: &Block, (a, b, two): (&mut Side, &mut Side, bool), warm: __m256) {
    let (a0, b0) = (*a, *b);
    let p = (mul(c.nx, c.impulse), mul(c.ny, c.impulse));
    push_normal(c, (a, b, two), p);
    push_tangent(c, (a, b, two), c.friction);
    push_rolling(c, (a, b, two), c.rolling);
    *a = blend_side(&a0, a, warm);
    *b = blend_side(&b0, b, warm);
}

/// `on` where the mask is set, else `off`, for velocity and spin.
#[target_feature(enable = "avx2")]
fn blend_side(off: &Side, on: &Side, mask: __m256) -> Side {
    Side {
        vx: _mm256_blendv_ps(off.vx, on.vx, mask),
        vy: _mm256_blendv_ps(off.vy, on.vy, mask),
        w: _mm256_blendv_ps(off.w, on.w, mask),
        ..*on
    }
}

#[target_feature(enable = "avx2")]
fn push_normal(c: &Block, (a, b, two): (&mut Side, &mut Side, bool), p: (__m256, __m256)) {
    a.vx = add(a.vx, mul(p.0, c.inv_a));
    a.vy = add(a.vy, mul(p.1, c.inv_a));
    if two {
        b.vx = sub(b.vx, mul(p.0, c.inv_b));
        b.vy = sub(b.vy, mul(p.1, c.inv_b));
    }
}

#[target_feature(enable = "avx2")]
fn push_tangent(c: &Block, (a, b, two): (&mut Side, &mut Side, bool), dl: __m256) {
    let (px, py) = (mul(neg(c.ny), dl), mul(c.nx, dl));
    a.vx = add(a.vx, mul(px, c.inv_a));
    a.vy = add(a.vy, mul(py, c.inv_a));
    a.w = sub(a.w, mul(mul(c.ra, dl), c.inv_ia));
    if two {
        b.vx = sub(b.vx, mul(px, c.inv_b));
        b.vy = sub(b.vy, mul(py, c.inv_b));
        b.w = sub(b.w, mul(mul(c.rb, dl), c.inv_ib));
    }
}

#[target_feature(enable = "avx2")]
fn push_rolling(c: &Block, (a, b, two): (&mut Side, &mut Side, bool), dl: __m256) {
    a.w = add(a.w, mul(dl, c.inv_ia));
    if two {
        b.w = sub(b.w, mul(dl, c.inv_ib));
    }
}

/// The normal solve of eight lanes, then their friction (see `scalar.rs`).
#[target_feature(enable = "avx2")]
fn solve(c: &mut Block, (a, b, two): (&mut Side, &mut Side, bool), bias: &Bias) {
    let (dx, dy) = if two {
        (sub(a.dx, b.dx), sub(a.dy, b.dy))
    } else {
        (a.dx, a.dy)
    };
    let s = add(c.sep, add(mul(dx, c.nx), mul(dy, c.ny)));
    let gap = _mm256_cmp_ps::<_CMP_GT_OQ>(s, _mm256_setzero_ps());
    let soft = if bias.on {
        _mm256_max_ps(neg(bias.push), mul(bias.rate, s))
    } else {
        _mm256_setzero_ps()
    };
    let b_n = _mm256_blendv_ps(soft, _mm256_div_ps(s, bias.h), gap);
    let mass_scale = _mm256_blendv_ps(bias.mass_scale, set(1.0), gap);
    let impulse_scale = _mm256_blendv_ps(bias.impulse_scale, set(0.0), gap);
    let vn = add(mul(sub(a.vx, b.vx), c.nx), mul(sub(a.vy, b.vy), c.ny));
    let d = sub(
        mul(mul(neg(c.mass), mass_scale), add(vn, b_n)),
        mul(impulse_scale, c.impulse),
    );
    let new = _mm256_max_ps(_mm256_setzero_ps(), add(c.impulse, d));
    let applied = sub(new, c.impulse);
    c.impulse = new;
    c.max_push = _mm256_max_ps(applied, c.max_push);
    let p = (mul(c.nx, applied), mul(c.ny, applied));
    push_normal(c, (a, b, two), p);
    friction(c, (a, b, two));
}

/// Friction and rolling resistance of eight lanes, bounded by their normal impulses.
#[target_feature(enable = "avx2")]
fn friction(c: &mut Block, (a, b, two): (&mut Side, &mut Side, bool)) {
    let limit = mul(c.mu, c.impulse);
    let (tx, ty) = (neg(c.ny), c.nx);
    let dot = add(mul(sub(a.vx, b.vx), tx), mul(sub(a.vy, b.vy), ty));
    let vt = sub(sub(dot, mul(a.w, c.ra)), mul(b.w, c.rb));
    let new = clamp(sub(c.friction, mul(c.tangent_mass, vt)), limit);
    let dl = sub(new, c.friction);
    c.friction = new;
    push_tangent(c, (a, b, two), dl);
    let rolls = _mm256_cmp_ps::<_CMP_GT_OQ>(c.rolling_reach, _mm256_setzero_ps());
    let limit = mul(c.rolling_reach, c.impulse);
    let new = clamp(sub(c.rolling, mul(c.rolling_mass, sub(a.w, b.w))), limit);
    let dl = sub(new, c.rolling);
    c.rolling = _mm256_blendv_ps(c.rolling, new, rolls);
    let (wa, wb) = (a.w, b.w);
    push_rolling(c, (a, b, two), dl);
    a.w = _mm256_blendv_ps(wa, a.w, rolls);
    b.w = _mm256_blendv_ps(wb, b.w, rolls);
}

/// Rust's `x.clamp(-limit, limit)`.
#[target_feature(enable = "avx2")]
fn clamp(x: __m256, limit: __m256) -> __m256 {
    _mm256_min_ps(limit, _mm256_max_ps(neg(limit), x))
}

#[target_feature(enable = "avx2")]
fn add(a: __m256, b: __m256) -> __m256 {
    _mm256_add_ps(a, b)
}

#[target_feature(enable = "avx2")]
fn sub(a: __m256, b: __m256) -> __m256 {
    _mm256_sub_ps(a, b)
}

#[target_feature(enable = "avx2")]
fn mul(a: __m256, b: __m256) -> __m256 {
    _mm256_mul_ps(a, b)
}

/// `-x`, flipping the sign bit as Rust's negation does.
#[target_feature(enable = "avx2")]
fn neg(x: __m256) -> __m256 {
    _mm256_xor_ps(x, _mm256_set1_ps(-0.0))
}

#[target_feature(enable = "avx2")]
fn set(x: f32) -> __m256 {
    _mm256_set1_ps(x)
}

#[target_feature(enable = "avx2")]
fn load(v: &[f32], k: usize) -> __m256 {
    let s = &v[k..k + WIDTH];
    // SAFETY: `s` holds eight floats; unaligned load.
    unsafe { _mm256_loadu_ps(s.as_ptr()) }
}

#[target_feature(enable = "avx2")]
fn store(v: &mut [f32], k: usize, x: __m256) {
    let s = &mut v[k..k + WIDTH];
    // SAFETY: `s` holds eight floats; unaligned store.
    unsafe { _mm256_storeu_ps(s.as_mut_ptr(), x) }
}

#[cfg(test)]
mod tests {
    use super::super::lanes::{BodyState, Lanes, Springs};
    use super::super::scalar;
    use super::*;
    use rand::{Rng, SeedableRng};

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
    fn the_wide_kernel_gives_the_scalar_kernels_bits() {
        if !avx2() {
            return;
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let soft = Springs::new(30.0, 1.0, 1.0 / 240.0);
        let passes = [
            Pass::Warm,
            Pass::Solve(soft, 60.0, 1.0 / 240.0),
            Pass::Solve(soft, 60.0, 1.0 / 240.0),
            Pass::Relax(1.0 / 240.0),
        ];
        for round in 0..20 {
            let two = round % 2 == 0;
            let kind = if two { Kind::Balls } else { Kind::Obstacles };
            let (mut l1, mut b1) = random_lanes(&mut rng, two);
            let (mut l2, mut b2) = (l1.clone(), b1.clone());
            for p in passes {
                let n = l1.len();
                scalar::pass(&mut l1.view(), &mut Bodies::new(&mut b1), 0..n, p);
                pass(&mut l2.view(), &mut Bodies::new(&mut b2), (0..n, kind), p);
                assert_eq!(bits(&l1, &b1), bits(&l2, &b2), "round {round}, {p:?}");
            }
        }
    }
}
