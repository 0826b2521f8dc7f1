//! The scalar kernel: one lane at a time, for any lane (two balls, a ball and an obstacle, or
//! padding). It is the definition the wide kernel (`wide.rs`) reproduces bit for bit: the
//! same operations in the same order, no fused multiply–add, and `max`/`clamp` as Rust's
//! (`a.max(b)` is `a` unless `b > a`).
//!
//! Per lane, with `n` the normal, `t = perp(n)`, `v` velocities, `w` spins:
//! - separation now `s = s₀ + (d_a − d_b)·n` (the moves since the step began);
//! - normal: `λ ← max(0, λ + r·Δλ)` with `Δλ = −m·k_m·(v_n + b) − k_i·λ`; `b = s/h` for a
//!   gap, else the soft bias `max(β·s, −push)` (solve) or 0 (relax); `β` and `k_i` the
//!   lane's own and `k_m = 1 − k_i`; `r = 1` (solve) or the relax pass's over-relaxation;
//! - friction: `λ_t ← clamp(λ_t − m_t·v_t, ±μ·λ)` with `v_t = (v_a − v_b)·t − w_a·r_a − w_b·r_b`;
//! - rolling: `λ_r ← clamp(λ_r − m_r·(w_a − w_b), ±ρ·λ)` where `ρ > 0`.

use super::lanes::{Bodies, BodyState, LaneView, Pass, NO_BODY};
use std::ops::Range;

/// One pass over the run's lanes `range`.
pub(super) fn pass(l: &mut LaneView, bodies: &mut Bodies, range: Range<usize>, pass: Pass) {
    for k in range {
        match pass {
            Pass::Warm => warm_lane(l, bodies, k),
            Pass::Solve(push, h) => solve_lane(
                l,
                bodies,
                k,
                Solving {
                    push: Some(push),
                    h,
                    over: 1.0,
                },
            ),
            Pass::Relax(h, over) => {
                let over = if over { l.over[k] } else { 1.0 };
                solve_lane(
                    l,
                    bodies,
                    k,
                    Solving {
                        push: None,
                        h,
                        over,
                    },
                )
            }
        }
    }
}

/// A lane's two bodies: the ball `a`, and `b`, another ball's state (`ball`) or the
/// obstacle's surface (no inverse mass or inertia, no radius).
struct Sides {
    a: BodyState,
    b: BodyState,
    ball: bool,
}

/// How a lane is solved: with the soft bias and its most push-out speed (`push`, px/s) or
/// without (relax), over sub-step `h` (s), each normal impulse moving `over` times its step.
#[derive(Clone, Copy)]
struct Solving {
    push: Option<f32>,
    h: f32,
    over: f32,
}

/// Lane `k`'s two bodies as they stand.
fn sides(l: &LaneView, bodies: &Bodies, k: usize) -> Sides {
    let (b, ball) = other(l, bodies, k);
    Sides {
        a: bodies.get(l.a[k]),
        b,
        ball,
    }
}

/// The other side of lane `k`: the other ball's state, or the obstacle's surface.
fn other(l: &LaneView, bodies: &Bodies, k: usize) -> (BodyState, bool) {
    let b = l.b[k];
    if b == NO_BODY {
        let s = BodyState {
            vx: l.sx[k],
            vy: l.sy[k],
            ..BodyState::default()
        };
        (s, false)
    } else {
        (bodies.get(b), true)
    }
}

/// Writes lane `k`'s two sides back.
fn put(bodies: &mut Bodies, l: &LaneView, k: usize, ab: &Sides) {
    bodies.set(l.a[k], ab.a);
    if ab.ball {
        bodies.set(l.b[k], ab.b);
    }
}

/// Applies lane `k`'s kept impulses (a lane not kept applies none).
fn warm_lane(l: &mut LaneView, bodies: &mut Bodies, k: usize) {
    if l.warm[k] == 0.0 {
        return;
    }
    let mut ab = sides(l, bodies, k);
    let (nx, ny) = (l.nx[k], l.ny[k]);
    push_normal(&mut ab, (nx * l.impulse[k], ny * l.impulse[k]));
    push_tangent(l, k, &mut ab, l.friction[k]);
    push_rolling(&mut ab, l.rolling[k]);
    put(bodies, l, k, &ab);
}

/// Adds impulse `p` (along the normal, onto the ball) to both sides of lane `k`.
fn push_normal(ab: &mut Sides, p: (f32, f32)) {
    ab.a.vx += p.0 * ab.a.inv_m;
    ab.a.vy += p.1 * ab.a.inv_m;
    if ab.ball {
        ab.b.vx -= p.0 * ab.b.inv_m;
        ab.b.vy -= p.1 * ab.b.inv_m;
    }
}

/// Adds tangent impulse `dl` (along `perp(n)`, onto the ball at its contact point).
fn push_tangent(l: &LaneView, k: usize, ab: &mut Sides, dl: f32) {
    let (px, py) = (-l.ny[k] * dl, l.nx[k] * dl);
    ab.a.vx += px * ab.a.inv_m;
    ab.a.vy += py * ab.a.inv_m;
    ab.a.w -= ab.a.r * dl * ab.a.inv_i;
    if ab.ball {
        ab.b.vx -= px * ab.b.inv_m;
        ab.b.vy -= py * ab.b.inv_m;
        ab.b.w -= ab.b.r * dl * ab.b.inv_i;
    }
}

/// Adds angular impulse `dl` against the ball's roll (the other ball gets the opposite).
fn push_rolling(ab: &mut Sides, dl: f32) {
    ab.a.w += dl * ab.a.inv_i;
    if ab.ball {
        ab.b.w -= dl * ab.b.inv_i;
    }
}

/// One lane's normal, friction and rolling solve, with the soft bias or without (relax).
fn solve_lane(l: &mut LaneView, bodies: &mut Bodies, k: usize, how: Solving) {
    let mut ab = sides(l, bodies, k);
    let (bias, h, over) = (how.push, how.h, how.over);
    let (nx, ny) = (l.nx[k], l.ny[k]);
    let (dx, dy) = if ab.ball {
        (ab.a.dx - ab.b.dx, ab.a.dy - ab.b.dy)
    } else {
        (ab.a.dx, ab.a.dy)
    };
    let s = l.sep[k] + (dx * nx + dy * ny);
    let (bias, mass_scale, impulse_scale) = match bias {
        // A gap: close it this step at most (speculative).
        _ if s > 0.0 => (s / h, 1.0, 0.0),
        Some(push) => ((l.rate[k] * s).max(-push), 1.0 - l.give[k], l.give[k]),
        None => (0.0, 1.0, 0.0),
    };
    let vn = (ab.a.vx - ab.b.vx) * nx + (ab.a.vy - ab.b.vy) * ny;
    let d = -l.mass[k] * mass_scale * (vn + bias) - impulse_scale * l.impulse[k];
    let new = (l.impulse[k] + d * over).max(0.0);
    let applied = new - l.impulse[k];
    l.impulse[k] = new;
    l.max_push[k] = l.max_push[k].max(applied);
    push_normal(&mut ab, (nx * applied, ny * applied));
    solve_friction(l, k, &mut ab);
    put(bodies, l, k, &ab);
}

/// Friction and rolling resistance of lane `k`, bounded by its normal impulse.
fn solve_friction(l: &mut LaneView, k: usize, ab: &mut Sides) {
    let limit = l.mu * l.impulse[k];
    let (tx, ty) = (-l.ny[k], l.nx[k]);
    let vt =
        ((ab.a.vx - ab.b.vx) * tx + (ab.a.vy - ab.b.vy) * ty) - ab.a.w * ab.a.r - ab.b.w * ab.b.r;
    let new = (l.friction[k] - l.tangent_mass[k] * vt).clamp(-limit, limit);
    let dl = new - l.friction[k];
    l.friction[k] = new;
    push_tangent(l, k, ab, dl);
    // The rolling reach: the reach per radius times the smaller ball's radius (the ball's,
    // with an obstacle, which has none).
    let (ra, rb) = (ab.a.r, ab.b.r);
    let reach = l.reach_per_radius * if rb > 0.0 { ra.min(rb) } else { ra };
    if reach <= 0.0 {
        return;
    }
    let limit = reach * l.impulse[k];
    let new = (l.rolling[k] - l.rolling_mass[k] * (ab.a.w - ab.b.w)).clamp(-limit, limit);
    let dl = new - l.rolling[k];
    l.rolling[k] = new;
    push_rolling(ab, dl);
}
