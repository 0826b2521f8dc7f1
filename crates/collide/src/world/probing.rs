//! The broad phase watched, for a viewer: when asked ([`World::set_probe`](crate::World::set_probe)), the pairs stage
//! makes every broad-phase call with the per-ball record ([`BroadPhase::find_pairs_probed`],
//! `broad/probe.rs`) and keeps, in the world's numbering, what the last call did for one ball
//! (the focus: its tests, the places visited for it, the boxes it was tested against, its
//! candidates and which of them touch) and the call's totals, and sums the places' and the
//! balls' tests over each simulated second (the heat).
//!
//! Asking changes no simulation: a probed call returns the same pairs as a plain one (tested
//! in `collide-lab/tests/broad_probe.rs`). While the probe is on every call goes to the broad
//! phase itself (the pair cache has no record, so it stands aside and starts afresh after), so
//! the counters are those of the cache off.
//!
//! [`BroadPhase::find_pairs_probed`]: crate::broad::BroadPhase::find_pairs_probed

use super::context::Frame;
use super::narrow_stage::{balls_touch, touches_obstacle, Disc};
use crate::broad::{BroadInput, Heat, Pair, Probe, Visit};
use crate::geom::{Aabb, Ball};
use crate::response::ContactWith;

/// What a viewer asks the broad phase to record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProbeAsk {
    /// The ball whose visits and partners are kept (an index into [`World::balls`](crate::World::balls)).
    pub focus: Option<usize>,
    /// Sum the places' tests over each simulated second (costs a push per place per call).
    pub heat: bool,
}

/// What the last broad-phase call did for the focus ball.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FocusRecord {
    /// The ball (an index into [`World::balls`](crate::World::balls) as the call saw them).
    pub ball: usize,
    /// Its box in the call (px).
    pub aabb: Aabb,
    /// Asleep: the broad phase saw it as a static box, and works for no static.
    pub asleep: bool,
    /// AABB tests made while the broad phase was working for it.
    pub tests: u64,
    /// The places visited for it, with the tests made for it there.
    pub visited: Vec<Visit>,
    /// What it was tested against, where the algorithm names them, with their boxes.
    pub against: Vec<(ContactWith, Aabb)>,
    /// Its candidate pairs: what it may touch, with their boxes.
    pub candidates: Vec<(ContactWith, Aabb)>,
    /// For each candidate, whether it touches the focus where the call found them (the
    /// narrow phase's contact test; in a call made again, where the balls are now).
    pub touching: Vec<bool>,
    /// Candidates it touches.
    pub contacts: u32,
}

/// The last probed call and the heat of the last simulated second.
#[derive(Clone, Debug, Default)]
pub struct ProbeRecord {
    /// The focus, when asked for and in the call.
    pub focus: Option<FocusRecord>,
    /// The call's AABB tests (the broad phase's own counter).
    pub aabb_tests: u64,
    /// Of those, the balls' (awake ones) and the obstacles' (shapes, and sleepers shown as
    /// static boxes), and the structure's own; the three add up to `aabb_tests`.
    pub ball_tests: u64,
    /// See [`ProbeRecord::ball_tests`].
    pub obstacle_tests: u64,
    /// See [`ProbeRecord::ball_tests`].
    pub structure: u64,
    /// The call's boxes and the first ball's box among them (for brute force's count).
    pub boxes: usize,
    /// See [`ProbeRecord::boxes`].
    pub first_dynamic: usize,
    /// Candidate pairs the call returned.
    pub candidates: u64,
    /// Broad-phase calls recorded so far.
    pub calls: u64,
    heat: HeatSecond,
}

impl ProbeRecord {
    /// The places' tests over the last complete simulated second (the second in progress
    /// until one has completed), and the calls they sum.
    pub fn heat(&self) -> &Heat {
        self.heat.shown()
    }

    /// Each ball's tests over the same second, by ball index (balls added since read 0).
    pub fn ball_heat(&self) -> &[u64] {
        self.heat.shown_balls()
    }

    /// True when [`ProbeRecord::heat`] is a complete simulated second.
    pub fn heat_complete(&self) -> bool {
        self.heat.complete
    }
}

/// The heat summed over the simulated second in progress and kept for the last complete one.
#[derive(Clone, Debug, Default)]
struct HeatSecond {
    second: Option<u64>,
    now: Heat,
    now_balls: Vec<u64>,
    last: Heat,
    last_balls: Vec<u64>,
    complete: bool,
}

impl HeatSecond {
    fn shown(&self) -> &Heat {
        if self.complete {
            &self.last
        } else {
            &self.now
        }
    }

    fn shown_balls(&self) -> &[u64] {
        if self.complete {
            &self.last_balls
        } else {
            &self.now_balls
        }
    }

    /// Starts a new second when `second` is not the one being summed.
    fn roll(&mut self, second: u64) {
        match self.second {
            Some(s) if s == second => {}
            Some(_) => {
                std::mem::swap(&mut self.now, &mut self.last);
                std::mem::swap(&mut self.now_balls, &mut self.last_balls);
                self.now.clear();
                self.now_balls.clear();
                self.complete = true;
            }
            None => {}
        }
        self.second = Some(second);
    }
}

/// How the call's boxes map to the world's: box `k` is this obstacle or ball.
pub(super) trait BoxOwner {
    /// The world's shape or ball of box `k`.
    fn owner(&self, k: u32) -> ContactWith;
    /// The box of world ball `i`.
    fn box_of_ball(&self, i: usize) -> u32;
    /// The world's ball of each of the call's balls, when they are not the world's in order
    /// (some sleep).
    fn awake(&self) -> Option<&[u32]>;
}

/// The pairs stage's probe: what was asked, the record being filled and the last one.
#[derive(Debug, Default)]
pub(super) struct Probing {
    pub(super) ask: ProbeAsk,
    probe: Probe,
    pub(super) record: ProbeRecord,
}

impl Probing {
    /// A probe asked for `ask`, nothing recorded yet.
    pub(super) fn new(ask: ProbeAsk) -> Self {
        Probing {
            ask,
            ..Probing::default()
        }
    }

    /// The probe to hand to the broad phase for a call over `input`.
    pub(super) fn probe_for(&mut self, owners: &dyn BoxOwner, balls: usize) -> &mut Probe {
        let focus = self.ask.focus.filter(|&i| i < balls);
        self.probe.focus = focus.map(|i| owners.box_of_ball(i));
        self.probe.want_heat = self.ask.heat;
        &mut self.probe
    }

    /// Takes in the record of a call over `input` that returned `pairs` (in its numbering),
    /// counted `aabb_tests`, in simulated second `second`.
    pub(super) fn after_call(&mut self, call: Call, owners: &dyn BoxOwner, w: &Frame, second: u64) {
        let Call {
            input,
            pairs,
            aabb_tests,
        } = call;
        let p = &self.probe;
        let fd = input.first_dynamic;
        let r = &mut self.record;
        r.aabb_tests = aabb_tests;
        r.structure = p.structure;
        r.ball_tests = p.tests_of(fd..p.tests.len());
        r.obstacle_tests = p.tests_of(0..fd.min(p.tests.len()));
        (r.boxes, r.first_dynamic) = (input.aabbs.len(), fd);
        r.candidates = pairs.len() as u64;
        r.calls += 1;
        r.focus = p.focus.map(|k| focus_record(k, &call, p, owners, w));
        if self.ask.heat {
            add_heat(&mut r.heat, p, owners, w.balls.len(), second);
        }
    }
}

impl Probing {
    /// Takes in the record of the last call made again (`PairsStage::probe_again`): as
    /// [`Probing::after_call`], but the second's heat, which has that call already, is not
    /// added to.
    pub(super) fn after_repeat(&mut self, call: Call, owners: &dyn BoxOwner, w: &Frame) {
        let heat = std::mem::replace(&mut self.ask.heat, false);
        self.after_call(call, owners, w, 0);
        self.ask.heat = heat;
    }
}

/// One broad-phase call: over `input`, it returned `pairs` (in its numbering) and counted
/// `aabb_tests`.
#[derive(Clone, Copy)]
pub(super) struct Call<'a> {
    pub input: &'a BroadInput<'a>,
    pub pairs: &'a [Pair],
    pub aabb_tests: u64,
}

/// The focus's record from the probe `p` of `call`.
fn focus_record(k: u32, call: &Call, p: &Probe, owners: &dyn BoxOwner, w: &Frame) -> FocusRecord {
    let (input, pairs) = (call.input, call.pairs);
    let with_box = |j: u32| (owners.owner(j), input.aabbs[j as usize]);
    let partners = pairs
        .iter()
        .filter_map(|&(a, b)| (a == k).then_some(b).or((b == k).then_some(a)));
    let candidates: Vec<_> = partners.map(with_box).collect();
    let ball = match owners.owner(k) {
        ContactWith::Ball(i) => i as usize,
        ContactWith::Shape(_) => 0,
    };
    let touching: Vec<bool> = candidates
        .iter()
        .map(|(other, _)| touches(w, ball, *other))
        .collect();
    let contacts = touching.iter().filter(|&&t| t).count() as u32;
    FocusRecord {
        ball,
        aabb: input.aabbs[k as usize],
        asleep: (k as usize) < input.first_dynamic,
        tests: p.tests[k as usize],
        visited: p.visited.clone(),
        against: p.against.iter().map(|&j| with_box(j)).collect(),
        candidates,
        touching,
        contacts,
    }
}

/// Whether ball `i` touches `other` now (the narrow phase's contact test).
fn touches(w: &Frame, i: usize, other: ContactWith) -> bool {
    let b: &Ball = &w.balls[i];
    match other {
        ContactWith::Ball(j) => balls_touch(b, &w.balls[j as usize]),
        ContactWith::Shape(s) => {
            let disc = Disc {
                centre: b.pos,
                radius: b.radius,
                vel: b.vel,
            };
            touches_obstacle(disc, &w.shapes[s as usize], w.groups)
        }
    }
}

/// Adds a call's places and balls' tests to the second `second`.
fn add_heat(h: &mut HeatSecond, p: &Probe, owners: &dyn BoxOwner, balls: usize, second: u64) {
    h.roll(second);
    h.now.add(p);
    if h.now_balls.len() < balls {
        h.now_balls.resize(balls, 0);
    }
    for (k, &t) in p.tests.iter().enumerate().filter(|(_, &t)| t > 0) {
        if let ContactWith::Ball(i) = owners.owner(k as u32) {
            if let Some(sum) = h.now_balls.get_mut(i as usize) {
                *sum += t;
            }
        }
    }
}
