//! The lanes shared by the threads of one solve: raw handles on the lanes' arrays from which
//! each thread makes a view of the runs it claims, as [`Bodies`](super::lanes::Bodies) does
//! for the body states.
//!
//! Sound because the runs the threads claim never overlap: within a stage of the schedule
//! (`threads.rs`) each block is claimed once, and a stage begins only when the one before it
//! is done, so no two threads hold views of one lane at once.

use super::lanes::{LaneView, Lanes};
use std::ops::Range;

/// Raw handles on every array of [`Lanes`], held for `'a`.
pub(super) struct SharedLanes<'a> {
    len: usize,
    ids: [*const u32; 2],
    fields: [*const f32; 12],
    mu: f32,
    reach_per_radius: f32,
    solved: [*mut f32; 4],
    _owner: std::marker::PhantomData<&'a mut Lanes>,
}

// SAFETY: see the module notes; a view is only made of a run this thread alone claimed.
unsafe impl Send for SharedLanes<'_> {}
// SAFETY: as above.
unsafe impl Sync for SharedLanes<'_> {}

impl<'a> SharedLanes<'a> {
    /// Handles on `l`'s arrays, held for `'a`.
    pub(super) fn new(l: &'a mut Lanes) -> Self {
        let fields = [
            &l.nx,
            &l.ny,
            &l.sep,
            &l.mass,
            &l.tangent_mass,
            &l.rolling_mass,
            &l.sx,
            &l.sy,
            &l.warm,
            &l.rate,
            &l.give,
            &l.over,
        ]
        .map(|v| v.as_ptr());
        let solved = [
            l.impulse.as_mut_ptr(),
            l.max_push.as_mut_ptr(),
            l.friction.as_mut_ptr(),
            l.rolling.as_mut_ptr(),
        ];
        Self {
            len: l.len(),
            ids: [l.a.as_ptr(), l.b.as_ptr()],
            fields,
            mu: l.mu,
            reach_per_radius: l.reach_per_radius,
            solved,
            _owner: std::marker::PhantomData,
        }
    }

    /// The lanes `r` as a run.
    ///
    /// # Safety
    /// No other view of a lane of `r` may live while this one does (the module notes).
    pub(super) unsafe fn view(&self, r: Range<usize>) -> LaneView<'_> {
        assert!(r.start <= r.end && r.end <= self.len);
        let n = r.len();
        // SAFETY: in bounds (asserted); the arrays all hold `len` lanes; the caller keeps
        // the views apart.
        unsafe {
            let id = |p: *const u32| std::slice::from_raw_parts(p.add(r.start), n);
            let f = |i: usize| std::slice::from_raw_parts(self.fields[i].add(r.start), n);
            let m = |i: usize| std::slice::from_raw_parts_mut(self.solved[i].add(r.start), n);
            LaneView {
                a: id(self.ids[0]),
                b: id(self.ids[1]),
                nx: f(0),
                ny: f(1),
                sep: f(2),
                mass: f(3),
                tangent_mass: f(4),
                rolling_mass: f(5),
                mu: self.mu,
                reach_per_radius: self.reach_per_radius,
                sx: f(6),
                sy: f(7),
                warm: f(8),
                rate: f(9),
                give: f(10),
                over: f(11),
                impulse: m(0),
                max_push: m(1),
                friction: m(2),
                rolling: m(3),
            }
        }
    }
}
