//! Preparing the lanes: the step's contacts (pair order) written into the lanes' arrays in
//! the plan's order, each with the impulses its pair was solved to last step where it was
//! kept (the warm start) and the spring its load calls for, as Box2D's
//! `b2PrepareContactsTask` does.
//!
//! Two passes: the first, on one thread, matches each contact to the impulses kept for its
//! pair (both lists are in pair order: one merge; done before the plan, which needs each
//! contact's load) and notes each contact's lane; the second fills the lanes, cut into one run of whole lanes a thread, every field of every lane
//! written once (a padding lane names the spare body and is zero), so any thread count
//! gives the same arrays. Cost: `O(contacts + lanes)`.

use super::lanes::{Lanes, Springs, NO_BODY, PARALLEL_FROM};
use crate::workers;
use crate::world::body::Body;
use crate::world::contacts::{Kept, SoftContact};

/// The float fields of a lane, in the order [`Lanes::arrays`] lists them.
const FLOATS: usize = 16;

/// "No kept impulse" in the match of contacts to kept pairs.
const NOT_KEPT: u32 = u32::MAX;

/// One run of lanes: its slices of the id arrays (`src`, `a`, `b`) and of every float array.
struct Run<'a> {
    start: usize,
    ids: [&'a mut [u32]; 3],
    floats: [&'a mut [f32]; FLOATS],
}

/// `whole` (every lane) cut into `cuts` runs of whole lanes.
fn cut_runs(mut whole: Run, cuts: usize) -> Vec<Run> {
    let n = whole.ids[0].len();
    let cut = |t: usize| t * n / cuts;
    (0..cuts)
        .map(|t| {
            let len = cut(t + 1) - cut(t);
            Run {
                start: cut(t),
                ids: whole.ids.each_mut().map(|s| split_off(s, len)),
                floats: whole.floats.each_mut().map(|s| split_off(s, len)),
            }
        })
        .collect()
}

impl Lanes {
    /// Fills the lanes from `contacts` (pair order) in the order `order` names them
    /// (`NO_BODY` for a padding lane), the impulses from `kept` where the pair was kept (as
    /// [`Lanes::match_kept`] last matched them) and each lane's spring from `springs` by its
    /// kept load; `spare` is the spare body's slot; the fill runs on up to `threads` threads.
    pub(super) fn prepare(
        &mut self,
        contacts: &[SoftContact],
        springs: &Springs,
        order: &[u32],
        kept: &[Kept],
        spare: u32,
        threads: usize,
    ) {
        let n = order.len();
        self.lane_of.clear();
        self.lane_of.resize(contacts.len(), 0);
        for (lane, &k) in order.iter().enumerate() {
            if let Some(l) = self.lane_of.get_mut(k as usize) {
                *l = lane as u32;
            }
        }
        let kept_of = std::mem::take(&mut self.kept_of);
        let threads = match n >= PARALLEL_FROM {
            true => workers::usable(threads),
            false => 1,
        };
        let fill_run = |_: usize, run: &mut Run| {
            let from = Filling {
                contacts,
                order,
                kept,
                kept_of: &kept_of,
                spare,
                springs,
            };
            fill(run, &from)
        };
        let whole = self.whole(n);
        if threads == 1 {
            // One run of every lane, with nothing to allocate.
            fill_run(0, &mut { whole });
        } else {
            let mut runs = cut_runs(whole, workers::parts(threads));
            workers::each(threads, &mut runs, fill_run);
        }
        self.kept_of = kept_of;
    }

    /// Matches each of `contacts` (pair order) to the impulses `kept` for its pair, for
    /// [`Lanes::prepare`] and [`Lanes::kept_load`], on up to `threads` threads.
    pub(super) fn match_kept(&mut self, contacts: &[SoftContact], kept: &[Kept], threads: usize) {
        match_kept(contacts, kept, &mut self.kept_of, threads);
    }

    /// The normal impulse kept for contact `k` of the list last matched, or zero.
    pub(super) fn kept_load(&self, k: usize, kept: &[Kept]) -> f32 {
        let held = self.kept_of.get(k).and_then(|&j| kept.get(j as usize));
        held.map_or(0.0, |h| h.impulse)
    }

    /// The arrays sized for `n` lanes, as one run.
    fn whole(&mut self, n: usize) -> Run<'_> {
        let (ids, floats) = self.arrays();
        Run {
            start: 0,
            ids: ids.map(|v| {
                v.resize(n, NO_BODY);
                v.as_mut_slice()
            }),
            floats: floats.map(|v| {
                v.resize(n, 0.0);
                v.as_mut_slice()
            }),
        }
    }

    /// The id arrays (`src`, `a`, `b`) and every float array, in the order a lane's values
    /// are written.
    fn arrays(&mut self) -> ([&mut Vec<u32>; 3], [&mut Vec<f32>; FLOATS]) {
        let ids = [&mut self.src, &mut self.a, &mut self.b];
        let floats = [
            &mut self.nx,
            &mut self.ny,
            &mut self.sep,
            &mut self.mass,
            &mut self.tangent_mass,
            &mut self.rolling_mass,
            &mut self.sx,
            &mut self.sy,
            &mut self.impulse,
            &mut self.max_push,
            &mut self.friction,
            &mut self.rolling,
            &mut self.warm,
            &mut self.rate,
            &mut self.give,
            &mut self.over,
        ];
        (ids, floats)
    }
}

/// The first `len` items of `s`, which keeps the rest.
fn split_off<'a, T>(s: &mut &'a mut [T], len: usize) -> &'a mut [T] {
    let (head, tail) = std::mem::take(s).split_at_mut(len);
    *s = tail;
    head
}

/// For each contact, the index in `kept` of its pair's impulses, or [`NOT_KEPT`] (both
/// lists in pair order), on up to `threads` threads: each run of the contacts starts its
/// merge where its first pair falls in `kept`.
fn match_kept(contacts: &[SoftContact], kept: &[Kept], out: &mut Vec<u32>, threads: usize) {
    out.clear();
    out.resize(contacts.len(), NOT_KEPT);
    workers::chunks(threads, out, PARALLEL_FROM, |start, run| {
        let Some(first) = contacts.get(start) else {
            return;
        };
        let first = first.pair().key();
        let mut k = kept.partition_point(|h| h.pair.key() < first);
        for (slot, c) in run.iter_mut().zip(&contacts[start..]) {
            let key = c.pair().key();
            while k < kept.len() && kept[k].pair.key() < key {
                k += 1;
            }
            if k < kept.len() && kept[k].pair.key() == key {
                *slot = k as u32;
            }
        }
    });
}

/// What the lanes are filled from: the contacts (pair order) in the order `order` names them,
/// the impulses `kept` for them (`kept_of`: each contact's, as last matched), the spare
/// body's slot and the springs.
#[derive(Clone, Copy)]
struct Filling<'a> {
    contacts: &'a [SoftContact],
    order: &'a [u32],
    kept: &'a [Kept],
    kept_of: &'a [u32],
    spare: u32,
    springs: &'a Springs,
}

/// Lanes ahead whose contact [`fill`] asks the cache for: the plan's order reads the
/// contacts out of their order, and each read waited on memory.
const PREFETCH_AHEAD: usize = 8;

/// Asks the cache for contact `k` of `contacts` (its two lines), where the CPU has a way
/// to; nothing else happens, and nothing when there is no such contact.
#[inline(always)]
fn prefetch_contact(contacts: &[SoftContact], k: Option<&u32>) {
    #[cfg(target_arch = "x86_64")]
    if let Some(c) = k.and_then(|&k| contacts.get(k as usize)) {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p: *const i8 = (c as *const SoftContact).cast();
        // SAFETY: a prefetch reads nothing into the program and never faults; both
        // addresses lie within or just past the contact.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(p);
            _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(std::mem::size_of::<SoftContact>() - 1));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (contacts, k);
}

/// Writes every lane of `run`: its contact's values and kept impulses, or a padding lane.
fn fill(run: &mut Run, from: &Filling) {
    let Filling {
        contacts,
        order,
        kept,
        kept_of,
        spare,
        springs,
    } = *from;
    let n = run.ids[0].len();
    // Every array of the run holds `n` lanes (a run is cut from all of them alike), so the
    // writes below need no check of their own.
    assert!(run.ids.iter().all(|v| v.len() == n) && run.floats.iter().all(|v| v.len() == n));
    for i in 0..n {
        let k = order[run.start + i];
        prefetch_contact(contacts, order.get(run.start + i + PREFETCH_AHEAD));
        let contact = contacts.get(k as usize);
        let values = match contact {
            Some(c) => {
                let held = kept_of.get(k as usize).and_then(|&j| kept.get(j as usize));
                lane_values(c, held, springs)
            }
            None => [0.0; FLOATS],
        };
        let (a, b) = match contact {
            Some(c) => match c.other {
                Body::Ball(o) => (c.ball.0, o.0),
                Body::Shape(_) => (c.ball.0, NO_BODY),
            },
            None => (spare, spare),
        };
        // SAFETY: `i < n`, the length of every array (asserted above).
        unsafe {
            for (ids, id) in run.ids.iter_mut().zip([k, a, b]) {
                *ids.get_unchecked_mut(i) = id;
            }
            for (field, v) in run.floats.iter_mut().zip(values) {
                *field.get_unchecked_mut(i) = v;
            }
        }
    }
}

/// A contact's lane, in the order of [`Lanes::arrays`]: its values, no push yet, the
/// impulses of `held` (last step's, warm) or none, and the spring of `springs` its load
/// calls for.
fn lane_values(c: &SoftContact, held: Option<&Kept>, springs: &Springs) -> [f32; FLOATS] {
    let (impulse, friction, rolling, warm) = held.map_or((0.0, 0.0, 0.0, 0.0), |h| {
        (h.impulse, h.friction, h.rolling, 1.0)
    });
    // Whether it is firm was settled before the plan (`SoftStage::find`).
    let soft = springs.softness(c.firm, impulse, c.mass, (c.ra, c.rb));
    let ball = matches!(c.other, Body::Ball(_));
    [
        c.normal.x,
        c.normal.y,
        c.sep,
        c.mass,
        c.tangent_mass,
        c.rolling_mass,
        c.surface.x,
        c.surface.y,
        impulse,
        0.0,
        friction,
        rolling,
        warm,
        soft.bias_rate,
        soft.impulse_scale,
        Springs::over(c.firm, ball),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::body::{BallIx, BodyPair};
    use glam::Vec2;

    /// Contact `k` of a chain of balls, each touching the next, its values all its own.
    fn contact(k: u32) -> SoftContact {
        let f = k as f32;
        SoftContact {
            ball: BallIx(k),
            other: Body::Ball(BallIx(k + 1)),
            normal: Vec2::new(f, -f),
            point: Vec2::ZERO,
            sep: f * 0.5,
            mass: f + 1.0,
            inv_a: f + 2.0,
            inv_b: f + 3.0,
            ra: f + 4.0,
            rb: f + 5.0,
            inv_ia: f + 6.0,
            inv_ib: f + 7.0,
            tangent_mass: f + 8.0,
            rolling_mass: f + 9.0,
            approach: 0.0,
            e: 0.0,
            surface: Vec2::new(f + 12.0, f + 13.0),
            speed: 0.0,
            firm: false,
        }
    }

    #[test]
    fn the_lanes_are_the_same_on_any_number_of_threads() {
        let n = 2 * PARALLEL_FROM as u32 + 5;
        let contacts: Vec<SoftContact> = (0..n).map(contact).collect();
        // Reversed, with padding lanes between.
        let mut order: Vec<u32> = (0..n).rev().collect();
        order.extend([NO_BODY; 11]);
        order.swap(7, n as usize + 3);
        let kept: Vec<Kept> = (0..n)
            .step_by(3)
            .map(|k| Kept {
                pair: BodyPair {
                    ball: BallIx(k),
                    other: Body::Ball(BallIx(k + 1)),
                },
                impulse: k as f32,
                friction: -(k as f32),
                rolling: 0.5,
            })
            .collect();
        let springs = Springs::new(240.0, 10.0, 1.0 / 240.0);
        let mut one = Lanes::default();
        one.match_kept(&contacts, &kept, 1);
        one.prepare(&contacts, &springs, &order, &kept, n + 1, 1);
        let l = one.lane_of[9] as usize;
        assert_eq!(
            (one.a[l], one.b[l], one.impulse[l], one.warm[l]),
            (9, 10, 9.0, 1.0)
        );
        assert_eq!((one.a[7], one.src[7], one.mass[7]), (n + 1, NO_BODY, 0.0));
        for threads in [2, 3, 7] {
            let mut many = Lanes::default();
            // Stale values of a longer step before, all overwritten.
            many.match_kept(&contacts, &[], threads);
            many.prepare(
                &contacts,
                &springs,
                &(0..n + 40).collect::<Vec<_>>(),
                &[],
                n + 1,
                1,
            );
            many.match_kept(&contacts, &kept, threads);
            many.prepare(&contacts, &springs, &order, &kept, n + 1, threads);
            assert!(many == one, "{threads} threads");
        }
    }
}
