//! The ball pairs of the soft narrow phase eight at a time: AVX2's one vector on the desktop,
//! two of WebAssembly's SIMD in the page. Every lane does the scalar test's operations in the
//! same order (`Reads::contact_balls`, `narrow::contact_ball_ball`, `new_contact`), each one
//! instruction that rounds as the scalar one does, with Rust's `a.max(b)` as
//! [`Wide::max`]`(b, a)` (see `wide.rs`), so a block's contacts are the scalar loop's, bit for
//! bit (`agree.rs` holds them to it).
//!
//! Why: in the scalar loop a pair's test waits on its two balls' loads and a square root, and
//! then its branch (touching or not, about even in a pile) is mispredicted often. Here eight
//! pairs' tests are one vector's work with no branch, and the lanes that touch are taken from
//! a bit mask. A lane whose balls sleep or whose centres meet (the rare cases with a branch of
//! their own) is left to the scalar test.

use super::width::FindWide;
use crate::balls::Rest;
use crate::geom::Ball;
use crate::response::ContactWith;
use crate::world::body::{BallIx, Body, BodyPair};
use crate::world::contacts::SoftContact;
use crate::world::narrow_stage::{ball_ball, EndBlocks, PairContact};
use crate::world::soft::kernel::Width;
use crate::world::soft::lanes::SPECULATIVE_RADII;
use glam::Vec2;

/// Pairs in a block.
const BLOCK: usize = 8;

// The row the widths' `balls` read: centre, velocity, radius, mass, elasticity from the start.
const _: () = {
    use std::mem::offset_of;
    assert!(offset_of!(Ball, pos) == 0 && offset_of!(Ball, vel) == 8);
    assert!(offset_of!(Ball, radius) == 16 && offset_of!(Ball, mass) == 20);
    assert!(offset_of!(Ball, elasticity) == 24 && std::mem::size_of::<Ball>() >= 32);
};

/// The scalar test of balls `i` and `j`: their contact, if any, and whether it hits a sleeper.
pub(super) type Scalar<'s> = &'s mut dyn FnMut(BallIx, BallIx) -> Option<(SoftContact, bool)>;

/// The narrow phase's blocks: what they read (the balls, their rest, the elasticity scale, the
/// span the contacts serve), where their contacts and wakes go (with room for one a pair), and
/// the scalar test for the lanes left to it.
pub(super) struct Blocks<'a, 'o> {
    pub(super) balls: &'a [Ball],
    pub(super) rests: &'a [Rest],
    pub(super) elasticity_scale: f32,
    pub(super) span: f32,
    pub(super) out: &'o mut Vec<SoftContact>,
    pub(super) wakes: &'o mut Vec<(BallIx, BallIx)>,
    pub(super) scalar: Scalar<'o>,
}

/// Pushes `x` onto `list`, which has room for it (reserved by the caller), with no call.
#[inline(always)]
pub(super) fn push_within<T>(list: &mut Vec<T>, x: T) {
    let n = list.len();
    assert!(n < list.capacity());
    // SAFETY: slot `n` is within the capacity (asserted) and is the first past the length.
    unsafe {
        list.as_mut_ptr().add(n).write(x);
        list.set_len(n + 1);
    }
}

/// The balls of a block's pairs: the first ones, the others. A ball run holds no obstacle
/// pair (`runs_by_kind`); were there one, its own ball would keep the lane valid.
#[inline(always)]
fn ids(block: &[BodyPair]) -> ([u32; BLOCK], [u32; BLOCK]) {
    let ia = std::array::from_fn(|l| block[l].ball.0);
    let ib = std::array::from_fn(|l| match block[l].other {
        Body::Ball(o) => o.0,
        Body::Shape(_) => block[l].ball.0,
    });
    (ia, ib)
}

/// Two discs of each lane as `narrow::contact_ball_ball` meets them (centre and radius of
/// `a`, then of `b`): bit `i` of `far` set where lane `i`'s are apart, and the contact's
/// values where they touch (the normal from `b` to `a`, the point on `b`, the depth), the
/// same operations in the same order. A lane whose centres meet (`dist_sq` not above the
/// smallest normal float) gets no usable normal: the scalar test's fallback is its.
struct Discs<V> {
    far: u32,
    dist_sq: V,
    nx: V,
    ny: V,
    px: V,
    py: V,
    depth: V,
}

impl<V: FindWide> Discs<V> {
    #[inline(always)]
    fn meet((ax, ay, ar): (V, V, V), (bx, by, br): (V, V, V)) -> Self {
        let zero = V::splat(0.0);
        let rb0 = zero.max(br);
        let reach = zero.max(ar).add(rb0);
        let (dx, dy) = (ax.sub(bx), ay.sub(by));
        let dist_sq = dx.mul(dx).add(dy.mul(dy));
        let far = dist_sq.ge_bits(reach.mul(reach));
        let dist = dist_sq.sqrt();
        let (nx, ny) = (dx.div(dist), dy.div(dist));
        Discs {
            far,
            dist_sq,
            nx,
            ny,
            px: bx.add(nx.mul(rb0)),
            py: by.add(ny.mul(rb0)),
            depth: reach.sub(dist),
        }
    }
}

/// Whether a lane whose centres are `dist_sq` px² apart has the normal its block computed
/// (`normalized_or`'s test); else the scalar test decides it.
#[inline(always)]
fn regular(dist_sq: f32) -> bool {
    dist_sq > f32::MIN_POSITIVE && dist_sq.is_finite()
}

/// A block's results, one array a field, lane `i` at `[i]`.
#[derive(Default)]
struct Found {
    dist_sq: [f32; BLOCK],
    nx: [f32; BLOCK],
    ny: [f32; BLOCK],
    px: [f32; BLOCK],
    py: [f32; BLOCK],
    sep: [f32; BLOCK],
    approach: [f32; BLOCK],
    e: [f32; BLOCK],
    speed: [f32; BLOCK],
    inv_a: [f32; BLOCK],
    inv_b: [f32; BLOCK],
    ra: [f32; BLOCK],
    rb: [f32; BLOCK],
    inv_ia: [f32; BLOCK],
    inv_ib: [f32; BLOCK],
    mass: [f32; BLOCK],
    tangent_mass: [f32; BLOCK],
    rolling_mass: [f32; BLOCK],
}

impl Blocks<'_, '_> {
    /// [`Self::ball_blocks`] with the width's kernel for the narrow phase: AVX2 for the
    /// solver's AVX2 or AVX-512, WebAssembly's SIMD for its `simd128`; none (no pair taken)
    /// for the scalar solver.
    pub(super) fn widest_blocks(&mut self, width: Width, pairs: &[BodyPair]) -> usize {
        match width {
            #[cfg(target_arch = "x86_64")]
            Width::Eight | Width::Sixteen if crate::world::soft::avx2::avx2() => {
                // SAFETY: the CPU has AVX2 (checked).
                unsafe { self.blocks_avx2(pairs) }
            }
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            Width::Four => self.ball_blocks::<crate::world::soft::simd128::W4x2>(pairs),
            _ => 0,
        }
    }

    /// [`Self::ball_blocks`] with AVX2's eight lanes.
    ///
    /// # Safety
    /// The CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn blocks_avx2(&mut self, pairs: &[BodyPair]) -> usize {
        self.ball_blocks::<crate::world::soft::avx2::W8>(pairs)
    }

    /// The contacts of the whole blocks at the start of `pairs` (all of two balls), in pair
    /// order, with width `V`; returns how many pairs it took (the rest are the scalar loop's).
    #[inline(always)]
    fn ball_blocks<V: FindWide>(&mut self, pairs: &[BodyPair]) -> usize {
        assert!(V::LANES == BLOCK);
        let whole = pairs.len() / BLOCK * BLOCK;
        let all = (1u32 << BLOCK) - 1;
        for block in pairs[..whole].chunks_exact(BLOCK) {
            let (ia, ib) = ids(block);
            let (far, f) = self.block::<V>(&ia, &ib);
            let mut near = !far & all;
            while near != 0 {
                let l = near.trailing_zeros() as usize;
                near &= near - 1;
                self.emit(&f, l, block[l]);
            }
        }
        whole
    }

    /// The block's lanes computed as the scalar test would for two balls awake; bit `i` of the
    /// mask set where lane `i`'s balls are too far apart for a contact.
    #[inline(always)]
    fn block<V: FindWide>(&self, ia: &[u32; BLOCK], ib: &[u32; BLOCK]) -> (u32, Found) {
        let dt = self.span;
        let [ax, ay, avx, avy, ar, am, ae] = V::balls(self.balls, ia);
        let [bx, by, bvx, bvy, br, bm, be] = V::balls(self.balls, ib);
        let mut f = Found::default();
        // The speculative reach: `(a.vel − b.vel).length()·dt + a.radius.min(b.radius)·k`.
        let (dvx, dvy) = (avx.sub(bvx), avy.sub(bvy));
        let closing = dvx.mul(dvx).add(dvy.mul(dvy)).sqrt();
        let r_min = br.min(ar);
        let reach = closing
            .mul(V::splat(dt))
            .add(r_min.mul(V::splat(SPECULATIVE_RADII)));
        let d = Discs::meet((ax, ay, ar.add(reach)), (bx, by, br));
        let (nx, ny) = (d.nx, d.ny);
        d.dist_sq.store(&mut f.dist_sq, 0);
        nx.store(&mut f.nx, 0);
        ny.store(&mut f.ny, 0);
        d.px.store(&mut f.px, 0);
        d.py.store(&mut f.py, 0);
        reach.sub(d.depth).store(&mut f.sep, 0);
        dvx.mul(nx).add(dvy.mul(ny)).store(&mut f.approach, 0);
        ae.mul(be)
            .mul(V::splat(self.elasticity_scale))
            .store(&mut f.e, 0);
        let speed = |vx: V, vy: V| vx.mul(vx).add(vy.mul(vy)).sqrt();
        speed(bvx, bvy).max(speed(avx, avy)).store(&mut f.speed, 0);
        // `set_masses` for two balls awake.
        let one = V::splat(1.0);
        let inverses = |m: V, r: V| {
            let inertia = V::splat(0.5).mul(m).mul(r).mul(r);
            (one.div(m), one.div(V::splat(1e-12).max(inertia)))
        };
        let (inv_a, inv_ia) = inverses(am, ar);
        let (inv_b, inv_ib) = inverses(bm, br);
        let k_t = inv_a
            .add(inv_b)
            .add(ar.mul(ar).mul(inv_ia))
            .add(br.mul(br).mul(inv_ib));
        inv_a.store(&mut f.inv_a, 0);
        inv_b.store(&mut f.inv_b, 0);
        ar.store(&mut f.ra, 0);
        br.store(&mut f.rb, 0);
        inv_ia.store(&mut f.inv_ia, 0);
        inv_ib.store(&mut f.inv_ib, 0);
        one.div(inv_a.add(inv_b)).store(&mut f.mass, 0);
        one.div(k_t).store(&mut f.tangent_mass, 0);
        one.div(inv_ia.add(inv_ib)).store(&mut f.rolling_mass, 0);
        (d.far, f)
    }

    /// Lane `l`'s contact (pair `p`, its balls within reach) into `out`: from the block's
    /// values, or by the scalar test where a ball sleeps (the masses and the wake are its) or
    /// the centres meet (its normal is the fallback's).
    #[inline(always)]
    fn emit(&mut self, f: &Found, l: usize, p: BodyPair) {
        let Body::Ball(o) = p.other else { return };
        if !regular(f.dist_sq[l]) || self.rests[p.ball.ix()].asleep || self.rests[o.ix()].asleep {
            if let Some((c, hit)) = (self.scalar)(p.ball, o) {
                push_within(self.out, c);
                if hit {
                    push_within(self.wakes, (p.ball, o));
                }
            }
            return;
        }
        push_within(
            self.out,
            SoftContact {
                ball: p.ball,
                other: p.other,
                normal: Vec2::new(f.nx[l], f.ny[l]),
                point: Vec2::new(f.px[l], f.py[l]),
                sep: f.sep[l],
                mass: f.mass[l],
                inv_a: f.inv_a[l],
                inv_b: f.inv_b[l],
                ra: f.ra[l],
                rb: f.rb[l],
                inv_ia: f.inv_ia[l],
                inv_ib: f.inv_ib[l],
                tangent_mass: f.tangent_mass[l],
                rolling_mass: f.rolling_mass[l],
                approach: f.approach[l],
                e: f.e[l],
                surface: Vec2::ZERO,
                speed: f.speed[l],
                firm: false,
            },
        );
    }
}

/// The frame's end's blocks of ball pairs with the width's vectors (as [`Blocks`] picks
/// them), or none for the scalar solver's width.
pub(crate) fn end_blocks_for(width: Width) -> Option<EndBlocks> {
    match width {
        #[cfg(target_arch = "x86_64")]
        Width::Eight | Width::Sixteen if crate::world::soft::avx2::avx2() => Some(end_avx2),
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        Width::Four => Some(end_blocks::<crate::world::soft::simd128::W4x2>),
        _ => None,
    }
}

/// [`end_blocks`] with AVX2's eight lanes.
///
/// # Panics
/// When the CPU lacks AVX2.
#[cfg(target_arch = "x86_64")]
fn end_avx2(balls: &[Ball], pairs: &[BodyPair], out: &mut Vec<PairContact>) -> usize {
    assert!(crate::world::soft::avx2::avx2());
    #[target_feature(enable = "avx2")]
    unsafe fn run(balls: &[Ball], pairs: &[BodyPair], out: &mut Vec<PairContact>) -> usize {
        end_blocks::<crate::world::soft::avx2::W8>(balls, pairs, out)
    }
    // SAFETY: the CPU has AVX2 (asserted).
    unsafe { run(balls, pairs, out) }
}

/// The frame's end's contacts of the whole blocks at the start of `pairs` (all of two
/// balls), in pair order, as `ball_ball` finds them with each ball's own radius: the same
/// operations lane by lane, a lane whose centres meet left to the scalar test. Returns how
/// many pairs it took.
#[inline(always)]
fn end_blocks<V: FindWide>(
    balls: &[Ball],
    pairs: &[BodyPair],
    out: &mut Vec<PairContact>,
) -> usize {
    assert!(V::LANES == BLOCK);
    let whole = pairs.len() / BLOCK * BLOCK;
    out.reserve(whole);
    let all = (1u32 << BLOCK) - 1;
    for block in pairs[..whole].chunks_exact(BLOCK) {
        let (ia, ib) = ids(block);
        let [ax, ay, _, _, ar, _, _] = V::balls(balls, &ia);
        let [bx, by, _, _, br, _, _] = V::balls(balls, &ib);
        let d = Discs::meet((ax, ay, ar), (bx, by, br));
        let mut f = [[0.0f32; BLOCK]; 6];
        for (v, to) in [d.dist_sq, d.nx, d.ny, d.px, d.py, d.depth]
            .into_iter()
            .zip(&mut f)
        {
            v.store(to, 0);
        }
        let mut near = !d.far & all;
        while near != 0 {
            let l = near.trailing_zeros() as usize;
            near &= near - 1;
            let p = block[l];
            let Body::Ball(o) = p.other else { continue };
            let found = if regular(f[0][l]) {
                Some((
                    Vec2::new(f[3][l], f[4][l]),
                    Vec2::new(f[1][l], f[2][l]),
                    f[5][l],
                ))
            } else {
                let (a, b) = (&balls[p.ball.ix()], &balls[o.ix()]);
                ball_ball(a.pos, a.radius, b.pos, b.radius).map(|c| (c.point, c.normal, c.depth))
            };
            if let Some((point, normal, depth)) = found {
                push_within(
                    out,
                    PairContact {
                        iteration: PairContact::FRAME_END,
                        ball: p.ball.0,
                        with: ContactWith::Ball(o.0),
                        point,
                        normal,
                        depth,
                    },
                );
            }
        }
    }
    whole
}
