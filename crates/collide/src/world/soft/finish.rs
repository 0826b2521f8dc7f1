//! After the passes: restitution, and the swept modes' guard against obstacles.
//!
//! **Restitution**: a contact that closed faster than the threshold speed and pushed gets
//! `v_n = −e·v_n⁻` (its approach speed when found; `e > 1` for bumpers), and is recorded
//! as a hit, once in the sub-steps its contacts serve. It runs as many passes as the solve: two contacts of one ball at one place (an
//! arc and the guard point at its end) with different normals each ask for their own
//! rebound, and one pass gives the ball both, the second on top of the first, so it leaves
//! faster than it came. Later passes take back the impulse a contact no longer needs (down to
//! none), so the ball leaves as the contacts together allow. Few contacts qualify, so it runs
//! on the scalar lanes, in the solver's order.
//!
//! **Continuous guard**: in the swept tunnelling modes, a ball whose move still reaches an
//! obstacle the contacts missed (a corner met at a glancing angle) stops at the time of
//! impact found by the mode's search (Box2D's continuous step does the same for fast bodies).

use super::colour::Plan;
use super::find::Finder;
use super::lanes::{BodyState, Lanes, NO_BODY, PARALLEL_FROM, SPECULATIVE_RADII};
use crate::response::{Struck, HIT_SPEED};
use crate::workers;
use crate::world::contacts::SoftContact;
use crate::world::context::StepContext;
use crate::world::narrow_stage::{impact_geometry, members, SweptBall};

/// Restitution over the lanes `l` and the body states `bodies` (see the module notes):
/// `threshold` (px/s), `passes`; the lanes taken in the one-thread plan's order (`plan`).
pub(super) fn restitute(
    l: &mut Lanes,
    bodies: &mut [BodyState],
    contacts: &mut [SoftContact],
    threshold: f32,
    passes: u32,
    plan: &Plan,
    cx: &mut StepContext,
) {
    // The contacts read in their own order (one pass through the list, on the step's
    // threads), each's lane only when it approached fast enough; then the lanes in the
    // solver's order.
    let mut chosen = Vec::new();
    let (threads, n) = (cx.settings.threads, contacts.len().min(l.lane_of.len()));
    let read = &*contacts;
    let fast = |k: usize| {
        let lane = l.lane_of[k] as usize;
        (read[k].approach <= -threshold && l.max_push[lane] > 0.0).then_some(lane)
    };
    let mut parts = Vec::new();
    workers::filter_map_indices_into(threads, n, PARALLEL_FROM, &mut parts, &mut chosen, fast);
    chosen.sort_unstable_by_key(|&lane| plan.one_thread_rank(lane));
    for pass in 0..passes {
        for &k in &chosen {
            let c = &contacts[l.src[k] as usize];
            rebound(l, bodies, k, c);
            if pass == 0 {
                record_hit(c, cx);
            }
        }
    }
    // A contact rebounds once in the frame its contacts serve.
    for &k in &chosen {
        contacts[l.src[k] as usize].approach = 0.0;
    }
}

/// One restitution solve of lane `k`, whose contact is `c`.
fn rebound(l: &mut Lanes, bodies: &mut [BodyState], k: usize, c: &SoftContact) {
    let (a, b) = (l.a[k] as usize, l.b[k]);
    let (nx, ny) = (l.nx[k], l.ny[k]);
    let (vbx, vby) = match b {
        NO_BODY => (l.sx[k], l.sy[k]),
        b => (bodies[b as usize].vx, bodies[b as usize].vy),
    };
    let vn = (bodies[a].vx - vbx) * nx + (bodies[a].vy - vby) * ny;
    let d = -l.mass[k] * (vn + c.e * c.approach);
    let new = (l.impulse[k] + d).max(0.0);
    let applied = new - l.impulse[k];
    l.impulse[k] = new;
    let (px, py) = (nx * applied, ny * applied);
    bodies[a].vx += px * c.inv_a;
    bodies[a].vy += py * c.inv_a;
    if b != NO_BODY {
        bodies[b as usize].vx -= px * c.inv_b;
        bodies[b as usize].vy -= py * c.inv_b;
    }
}

fn record_hit(c: &SoftContact, cx: &mut StepContext) {
    if -c.approach < HIT_SPEED {
        return;
    }
    let hit = Struck::new(
        c.point,
        c.normal,
        -c.approach,
        c.e,
        c.ball.0,
        c.other.into(),
    );
    cx.record(hit);
}

/// The swept modes' guard: a ball whose move this step reaches an obstacle stops at the
/// first impact the mode's search finds (its velocity is left to the next step's contact).
pub(super) fn continuous(f: &mut Finder) {
    let mode = f.cx.settings.tunnelling;
    let fractions = f.cx.settings.linear_fractions.clamp(1, 64);
    for k in 0..f.bodies.len() {
        let p = f.bodies[k];
        let Some(si) = p.shape() else {
            break;
        };
        let bi = p.ball.ix();
        let start = f.balls.starts().get(bi).copied().unwrap_or(f.balls[bi].pos);
        let ball = f.balls[bi];
        let d = ball.pos - start;
        // Moves shorter than the speculative reach are the contacts' business.
        if d.length_squared() <= (ball.radius * SPECULATIVE_RADII).powi(2) {
            continue;
        }
        let shape = &f.shapes[si.ix()];
        let v = ball.vel - shape.velocity_at(start, f.cx.settings.rotate);
        let tests = &mut f.cx.tally.impact_tests;
        let sweep = SweptBall {
            start,
            radius: ball.radius,
            moved: d,
            vel: v,
        };
        let hit = members(shape, f.groups)
            .iter()
            .filter_map(|m| impact_geometry(mode, fractions, sweep, &m.geom, tests))
            // Only a move into the surface deeper than the speculative reach: a ball
            // resting or sliding on a surface meets it at once, and is the contacts'.
            .filter(|i| {
                i.contact.depth <= 0.0
                    && i.t < 1.0
                    && -d.dot(i.contact.normal) > ball.radius * SPECULATIVE_RADII
            })
            .min_by(|a, b| a.t.total_cmp(&b.t));
        if let Some(hit) = hit {
            f.balls[bi].pos = start + d * hit.t;
        }
    }
}
