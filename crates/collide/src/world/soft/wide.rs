//! The wide kernel: a colour's lanes several at a time, as Box2D v3's `contact_solver.c`
//! does, written once over a vector of lanes ([`Wide`]) and compiled for each instruction
//! set: eight lanes with AVX2 (`avx2.rs`), sixteen with AVX-512 (`avx512.rs`), chosen at run
//! time (`kernel.rs`).
//!
//! It reproduces the scalar kernel (`scalar.rs`) bit for bit, on either width: every lane does
//! the same operations in the same order (no fused multiply–add); Rust's `a.max(b)` is
//! [`Wide::max`]`(b, a)` (`a` unless `b > a`, as `maxps` returns its second operand on a tie
//! or a NaN), its `clamp(lo, hi)` is `min(hi, max(lo, x))` with the operands in that order;
//! a branch of the scalar kernel is a blend of both sides by the lane's mask. The lanes of a
//! block never share a ball (the colouring's promise), so their bodies are gathered, solved
//! and scattered as independent ones; padding lanes name the spare body and carry no mass.

use super::lanes::{Bodies, LaneView, Pass};
use std::ops::Range;

/// A vector of `LANES` floats and the operations the kernel needs, each one instruction
/// that rounds as the scalar operation does.
///
/// A value of an implementing type exists only where its instruction set is present (its
/// constructors are reached only through the run-time check), which is what makes the
/// intrinsics inside the methods sound to call.
pub(super) trait Wide: Copy {
    /// Lanes in one vector.
    const LANES: usize;
    /// One bit (or one lane of set bits) per lane.
    type Mask: Copy;
    /// Whether a block's read-only fields (six; fourteen when the masses, radii and
    /// coefficients were lane fields, as in the figures below) are loaded where each is used
    /// rather than all at its start. The same operations in the same order either way (the same
    /// bits); what differs is how many vectors stay live across a block. On the web the
    /// engine spilled most of the 36 held ones (four lanes a vector, two vectors a block):
    /// loaded at their uses, Node's relax passes took 1.38–1.42 ms against 1.45–1.51 (table
    /// Fill 3,000). With AVX2 the held fields stay in registers and loading at each use was
    /// slower (relax 5.59–6.78 ms against 5.03–5.54, the 10,000-ball pile on one core).
    const READ_AT_USE: bool;
    fn splat(x: f32) -> Self;
    fn add(self, b: Self) -> Self;
    fn sub(self, b: Self) -> Self;
    fn mul(self, b: Self) -> Self;
    fn div(self, b: Self) -> Self;
    /// `maxps`: `self` if `self > b`, else `b` (so `b` on a tie or a NaN).
    fn max(self, b: Self) -> Self;
    /// `minps`: `self` if `self < b`, else `b`.
    fn min(self, b: Self) -> Self;
    /// The sign bit flipped, as Rust's negation does.
    fn neg(self) -> Self;
    /// Lanes where `self > b` (ordered, quiet).
    fn gt(self, b: Self) -> Self::Mask;
    /// Lanes where `self != b` (ordered, quiet).
    fn ne(self, b: Self) -> Self::Mask;
    /// `on` where `mask` is set, else `off`.
    fn blend(off: Self, on: Self, mask: Self::Mask) -> Self;
    /// Lanes `k..k + LANES` of `v`.
    fn load(v: &[f32], k: usize) -> Self;
    /// Stores into lanes `k..k + LANES` of `v`.
    fn store(self, v: &mut [f32], k: usize);
    /// The bodies named by `ids` (`LANES` of them), each state's eight floats: velocity x,
    /// y, spin, inverse mass, move x, y, inverse inertia, radius.
    fn gather(bodies: &Bodies, ids: &[u32]) -> [Self; 8];
    /// Writes each state's first four floats back, velocity x, y, spin and inverse mass (the
    /// passes only read the rest, so it is not written); `ids` name distinct bodies, or the
    /// spare body, which no mass moves, written in lane order.
    fn scatter(bodies: &mut Bodies, ids: &[u32], s: [Self; 4]);
}

/// One pass over `range` (whole vectors of `V::LANES` lanes) of ball–ball lanes (`two`) or
/// ball–obstacle lanes.
#[inline(always)]
pub(super) fn run<V: Wide>(
    l: &mut LaneView,
    bodies: &mut Bodies,
    range: Range<usize>,
    two: bool,
    pass: Pass,
) {
    let n = V::LANES;
    for k in range.step_by(n) {
        let mut a = Side::gather(bodies, &l.a[k..k + n]);
        let mut b = if two {
            Side::gather(bodies, &l.b[k..k + n])
        } else {
            Side::surface(l, k)
        };
        let mut c = Block::load(&*l, k);
        match pass {
            Pass::Warm => {
                let on = V::load(l.warm, k).ne(V::splat(0.0));
                warm(
                    &c,
                    &mut Sides {
                        a: &mut a,
                        b: &mut b,
                        two,
                    },
                    on,
                )
            }
            Pass::Solve(push, h) => {
                let give = V::load(l.give, k);
                let bias = Bias {
                    rate: V::load(l.rate, k),
                    push: V::splat(push),
                    mass_scale: V::splat(1.0).sub(give),
                    impulse_scale: give,
                    h: V::splat(h),
                    over: V::splat(1.0),
                    on: true,
                };
                solve(
                    &mut c,
                    &mut Sides {
                        a: &mut a,
                        b: &mut b,
                        two,
                    },
                    &bias,
                );
            }
            Pass::Relax(h, over) => {
                let bias = Bias {
                    rate: V::splat(0.0),
                    push: V::splat(0.0),
                    mass_scale: V::splat(1.0),
                    impulse_scale: V::splat(0.0),
                    h: V::splat(h),
                    over: if over {
                        V::load(l.over, k)
                    } else {
                        V::splat(1.0)
                    },
                    on: false,
                };
                solve(
                    &mut c,
                    &mut Sides {
                        a: &mut a,
                        b: &mut b,
                        two,
                    },
                    &bias,
                );
            }
        }
        Solved::of(&c).store(l, k);
        a.scatter(bodies, &l.a[k..k + n]);
        if two {
            b.scatter(bodies, &l.b[k..k + n]);
        }
    }
}

/// One side of a vector of lanes: velocity, spin and move since the contacts were found, and
/// the inverse mass, inverse inertia and radius the contacts see.
#[derive(Clone, Copy)]
struct Side<V> {
    vx: V,
    vy: V,
    w: V,
    inv_m: V,
    dx: V,
    dy: V,
    inv_i: V,
    r: V,
}

impl<V: Wide> Side<V> {
    #[inline(always)]
    fn gather(bodies: &Bodies, ids: &[u32]) -> Self {
        let [vx, vy, w, inv_m, dx, dy, inv_i, r] = V::gather(bodies, ids);
        Side {
            vx,
            vy,
            w,
            inv_m,
            dx,
            dy,
            inv_i,
            r,
        }
    }

    #[inline(always)]
    fn scatter(&self, bodies: &mut Bodies, ids: &[u32]) {
        V::scatter(bodies, ids, [self.vx, self.vy, self.w, self.inv_m]);
    }

    /// The obstacles' side of lanes from `k`: their surface velocities, no spin, no move, no
    /// inverse mass or inertia, no radius.
    #[inline(always)]
    fn surface(l: &LaneView, k: usize) -> Self {
        let zero = V::splat(0.0);
        Side {
            vx: V::load(l.sx, k),
            vy: V::load(l.sy, k),
            w: zero,
            inv_m: zero,
            dx: zero,
            dy: zero,
            inv_i: zero,
            r: zero,
        }
    }
}

/// The read-only fields of a vector of lanes, loaded at a block's start where the width
/// keeps them ([`Wide::READ_AT_USE`] false), else left unread (zeros, never used).
struct Held<V> {
    nx: V,
    ny: V,
    sep: V,
    mass: V,
    tangent_mass: V,
    rolling_mass: V,
}

/// A vector of lanes' fields: the four the passes solve, held, and the six they only
/// read, held too ([`Held`]) or loaded at each use, as the width says ([`Wide::READ_AT_USE`]).
struct Block<'v, 'a, V> {
    l: &'v LaneView<'a>,
    k: usize,
    held: Held<V>,
    impulse: V,
    max_push: V,
    friction: V,
    rolling: V,
}

/// The read-only fields: each loaded at the block's start ([`Block::load`]) or at its use
/// (the getter of the same name), one or the other by the width.
macro_rules! read_only {
    ($($field:ident),*) => {
        impl<V: Wide> Held<V> {
            #[inline(always)]
            fn load(l: &LaneView, k: usize) -> Self {
                let get = |f: &[f32]| match V::READ_AT_USE {
                    true => V::splat(0.0),
                    false => V::load(f, k),
                };
                Held { $($field: get(l.$field)),* }
            }
        }

        impl<V: Wide> Block<'_, '_, V> {
            $(
                #[inline(always)]
                fn $field(&self) -> V {
                    match V::READ_AT_USE {
                        true => V::load(self.l.$field, self.k),
                        false => self.held.$field,
                    }
                }
            )*
        }
    };
}

read_only!(nx, ny, sep, mass, tangent_mass, rolling_mass);

impl<'v, 'a, V: Wide> Block<'v, 'a, V> {
    #[inline(always)]
    fn load(l: &'v LaneView<'a>, k: usize) -> Self {
        Block {
            l,
            k,
            held: Held::load(l, k),
            impulse: V::load(l.impulse, k),
            max_push: V::load(l.max_push, k),
            friction: V::load(l.friction, k),
            rolling: V::load(l.rolling, k),
        }
    }
}

/// A vector of lanes' solved fields.
struct Solved<V> {
    impulse: V,
    max_push: V,
    friction: V,
    rolling: V,
}

impl<V: Wide> Solved<V> {
    #[inline(always)]
    fn of(c: &Block<V>) -> Self {
        Solved {
            impulse: c.impulse,
            max_push: c.max_push,
            friction: c.friction,
            rolling: c.rolling,
        }
    }

    #[inline(always)]
    fn store(&self, l: &mut LaneView, k: usize) {
        self.impulse.store(l.impulse, k);
        self.max_push.store(l.max_push, k);
        self.friction.store(l.friction, k);
        self.rolling.store(l.rolling, k);
    }
}

/// The bias of a pass: the spring's rate, push-out cap and scales (solve), or none (relax).
struct Bias<V> {
    rate: V,
    push: V,
    mass_scale: V,
    impulse_scale: V,
    h: V,
    /// How many times its step each normal impulse moves.
    over: V,
    on: bool,
}

/// The two bodies of a vector of lanes: `a`, and `b`, a ball's when `two`, else the
/// surface's (which no push moves).
struct Sides<'s, V: Wide> {
    a: &'s mut Side<V>,
    b: &'s mut Side<V>,
    two: bool,
}

/// The kept impulses, applied where `on` is set.
#[inline(always)]
fn warm<V: Wide>(c: &Block<V>, sides: &mut Sides<V>, on: V::Mask) {
    let (a0, b0) = (*sides.a, *sides.b);
    let p = (c.nx().mul(c.impulse), c.ny().mul(c.impulse));
    push_normal(sides, p);
    push_tangent(c, sides, c.friction);
    push_rolling(sides, c.rolling);
    *sides.a = blend_side(&a0, sides.a, on);
    *sides.b = blend_side(&b0, sides.b, on);
}

/// `on` where the mask is set, else `off`, for velocity and spin.
#[inline(always)]
fn blend_side<V: Wide>(off: &Side<V>, on: &Side<V>, mask: V::Mask) -> Side<V> {
    Side {
        vx: V::blend(off.vx, on.vx, mask),
        vy: V::blend(off.vy, on.vy, mask),
        w: V::blend(off.w, on.w, mask),
        ..*on
    }
}

#[inline(always)]
fn push_normal<V: Wide>(sides: &mut Sides<V>, p: (V, V)) {
    sides.a.vx = sides.a.vx.add(p.0.mul(sides.a.inv_m));
    sides.a.vy = sides.a.vy.add(p.1.mul(sides.a.inv_m));
    if sides.two {
        sides.b.vx = sides.b.vx.sub(p.0.mul(sides.b.inv_m));
        sides.b.vy = sides.b.vy.sub(p.1.mul(sides.b.inv_m));
    }
}

#[inline(always)]
fn push_tangent<V: Wide>(c: &Block<V>, sides: &mut Sides<V>, dl: V) {
    let (px, py) = (c.ny().neg().mul(dl), c.nx().mul(dl));
    sides.a.vx = sides.a.vx.add(px.mul(sides.a.inv_m));
    sides.a.vy = sides.a.vy.add(py.mul(sides.a.inv_m));
    sides.a.w = sides.a.w.sub(sides.a.r.mul(dl).mul(sides.a.inv_i));
    if sides.two {
        sides.b.vx = sides.b.vx.sub(px.mul(sides.b.inv_m));
        sides.b.vy = sides.b.vy.sub(py.mul(sides.b.inv_m));
        sides.b.w = sides.b.w.sub(sides.b.r.mul(dl).mul(sides.b.inv_i));
    }
}

#[inline(always)]
fn push_rolling<V: Wide>(sides: &mut Sides<V>, dl: V) {
    sides.a.w = sides.a.w.add(dl.mul(sides.a.inv_i));
    if sides.two {
        sides.b.w = sides.b.w.sub(dl.mul(sides.b.inv_i));
    }
}

/// The normal solve of a vector of lanes, then their friction (see `scalar.rs`).
#[inline(always)]
fn solve<V: Wide>(c: &mut Block<V>, sides: &mut Sides<V>, bias: &Bias<V>) {
    let zero = V::splat(0.0);
    let (dx, dy) = if sides.two {
        (sides.a.dx.sub(sides.b.dx), sides.a.dy.sub(sides.b.dy))
    } else {
        (sides.a.dx, sides.a.dy)
    };
    let s = c.sep().add(dx.mul(c.nx()).add(dy.mul(c.ny())));
    let gap = s.gt(zero);
    let soft = if bias.on {
        bias.push.neg().max(bias.rate.mul(s))
    } else {
        zero
    };
    let b_n = V::blend(soft, s.div(bias.h), gap);
    let mass_scale = V::blend(bias.mass_scale, V::splat(1.0), gap);
    let impulse_scale = V::blend(bias.impulse_scale, zero, gap);
    let vn = sides
        .a
        .vx
        .sub(sides.b.vx)
        .mul(c.nx())
        .add(sides.a.vy.sub(sides.b.vy).mul(c.ny()));
    let d = c
        .mass()
        .neg()
        .mul(mass_scale)
        .mul(vn.add(b_n))
        .sub(impulse_scale.mul(c.impulse));
    let new = zero.max(c.impulse.add(d.mul(bias.over)));
    let applied = new.sub(c.impulse);
    c.impulse = new;
    c.max_push = applied.max(c.max_push);
    let p = (c.nx().mul(applied), c.ny().mul(applied));
    push_normal(sides, p);
    friction(c, sides);
}

/// Friction and rolling resistance of a vector of lanes, bounded by their normal impulses.
#[inline(always)]
fn friction<V: Wide>(c: &mut Block<V>, sides: &mut Sides<V>) {
    let zero = V::splat(0.0);
    let limit = V::splat(c.l.mu).mul(c.impulse);
    let (tx, ty) = (c.ny().neg(), c.nx());
    let dot = sides
        .a
        .vx
        .sub(sides.b.vx)
        .mul(tx)
        .add(sides.a.vy.sub(sides.b.vy).mul(ty));
    let vt = dot
        .sub(sides.a.w.mul(sides.a.r))
        .sub(sides.b.w.mul(sides.b.r));
    let new = clamp(c.friction.sub(c.tangent_mass().mul(vt)), limit);
    let dl = new.sub(c.friction);
    c.friction = new;
    push_tangent(c, sides, dl);
    // The rolling reach (as `scalar.rs`): the reach per radius times the smaller ball's
    // radius, or the ball's with an obstacle (no radius).
    let (ra, rb) = (sides.a.r, sides.b.r);
    let arm = V::blend(ra, ra.min(rb), rb.gt(zero));
    let reach = V::splat(c.l.reach_per_radius).mul(arm);
    let rolls = reach.gt(zero);
    let limit = reach.mul(c.impulse);
    let new = clamp(
        c.rolling
            .sub(c.rolling_mass().mul(sides.a.w.sub(sides.b.w))),
        limit,
    );
    let dl = new.sub(c.rolling);
    c.rolling = V::blend(c.rolling, new, rolls);
    let (wa, wb) = (sides.a.w, sides.b.w);
    push_rolling(sides, dl);
    sides.a.w = V::blend(wa, sides.a.w, rolls);
    sides.b.w = V::blend(wb, sides.b.w, rolls);
}

/// Rust's `x.clamp(-limit, limit)`.
#[inline(always)]
fn clamp<V: Wide>(x: V, limit: V) -> V {
    limit.min(limit.neg().max(x))
}
