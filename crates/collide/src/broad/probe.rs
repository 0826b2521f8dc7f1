//! The per-ball record of one broad-phase call, made only when asked
//! ([`BroadPhase::find_pairs_probed`](super::BroadPhase::find_pairs_probed)): for every box
//! the AABB tests made while the algorithm was working for it, the candidate pairs it is in,
//! and for one chosen box (the focus) the places visited for it; for every place (cell,
//! sector, leaf, cluster, band) the tests it cost; the tests that belong to no box counted
//! apart as the structure's own.
//!
//! Every count is added where the algorithm adds to [`BroadCounters::aabb_tests`], so
//! `Σ tests + structure = aabb_tests` holds for every call, exactly. Each algorithm's `//!`
//! says which box a test belongs to. [`Heat`] sums records over time, [`brute_force_share`]
//! sets the work against brute force's.
//!
//! ```
//! use collide::broad::{brute_force_tests, BroadCounters, BroadInput, BroadKind, Probe};
//! use collide::{Aabb, Vec2};
//! // A wall, then three balls; the first two balls overlap.
//! let aabbs = [
//!     Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(100.0, 2.0)),
//!     Aabb::around(Vec2::new(10.0, 5.0), 4.0),
//!     Aabb::around(Vec2::new(15.0, 5.0), 4.0),
//!     Aabb::around(Vec2::new(60.0, 50.0), 4.0),
//! ];
//! let input = BroadInput {
//!     aabbs: &aabbs,
//!     first_moving: 1,
//!     first_dynamic: 1,
//!     statics_version: 1,
//!     world: Aabb::new(Vec2::ZERO, Vec2::splat(100.0)),
//! };
//! for kind in BroadKind::ALL {
//!     let mut probe = Probe::new(Some(2), true);
//!     let (mut pairs, mut work) = (Vec::new(), BroadCounters::default());
//!     kind.create().find_pairs_probed(&input, &mut pairs, &mut work, &mut probe);
//!     assert_eq!(probe.total(), work.aabb_tests, "{}", kind.name());
//!     assert_eq!(probe.candidates[2], 2, "ball 2 is with the wall and ball 1");
//! }
//! // Brute force: each ball against every shape before it, 1 + 2 + 3.
//! assert_eq!(brute_force_tests(aabbs.len(), 1), 6);
//! ```
//!
//! [`BroadCounters::aabb_tests`]: super::BroadCounters::aabb_tests

use crate::geom::Aabb;
use std::collections::HashMap;

/// What kind of place a [`Visit`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Place {
    /// A quadtree leaf.
    Leaf,
    /// An internal node of a tree (the quadtree's, the AABB tree's).
    Node,
    /// A sector of one of the four shifts (0..4).
    Sector(u8),
    /// The 3 × 3 block of sectors around one sector (adjacent sectors). A focus's visit is
    /// at the block's box; the block's heat at its centre sector's.
    Block,
    /// A uniform-grid cell of balls.
    Cell,
    /// A cell of the obstacle lists (grid, sectors, adjacent).
    ObstacleCell,
    /// A final group of recursive dimensional clustering.
    Cluster,
    /// A box's interval on the sweep axis, within one band (sweep and prune).
    Interval,
}

/// A place with its box (px) and the tests made there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Visit {
    /// What it is.
    pub place: Place,
    /// Where it is (px): in [`Probe::heat`], the rectangle the structure draws for the place
    /// (`BroadPhase::debug_draw`), where a heat map colours it.
    pub rect: Aabb,
    /// The AABB tests made there (for the focus: those made for it).
    pub tests: u64,
}

/// The per-ball record of one call.
#[derive(Clone, Debug, Default)]
pub struct Probe {
    /// The box whose visits and partners are kept (an index into the boxes of
    /// [`BroadInput::aabbs`](super::BroadInput::aabbs)).
    pub focus: Option<u32>,
    /// Whether [`Probe::heat`] is filled (it costs a push per place per call).
    pub want_heat: bool,
    /// AABB tests made while working for each box, by box index.
    pub tests: Vec<u64>,
    /// Tests that belong to no box: the structure's own (node pairs, rebuilds, a cluster's
    /// query).
    pub structure: u64,
    /// Candidate pairs each box is in, by box index (from the pairs returned).
    pub candidates: Vec<u32>,
    /// The places visited for the focus, with the tests made for it there.
    pub visited: Vec<Visit>,
    /// The boxes the focus was tested against, where the algorithm names them.
    pub against: Vec<u32>,
    /// Every place and the tests it cost in this call (a place may be listed more than once).
    pub heat: Vec<Visit>,
}

/// Lends `probe`'s record to the algorithm `s` for `run`, in the slot `slot` picks (an
/// algorithm that reaches its record from deep inside holds it in itself during a call), and
/// takes it back after; without a probe the slot stays empty.
pub(crate) fn held_during<S>(
    s: &mut S,
    probe: Option<&mut Probe>,
    slot: fn(&mut S) -> &mut Option<Probe>,
    run: impl FnOnce(&mut S),
) {
    match probe {
        Some(probe) => {
            *slot(s) = Some(std::mem::take(probe));
            run(s);
            *probe = slot(s).take().unwrap_or_default();
        }
        None => run(s),
    }
}

impl Probe {
    /// A record that keeps the visits of `focus` and, if `heat`, the places' costs.
    pub fn new(focus: Option<u32>, heat: bool) -> Self {
        Probe {
            focus,
            want_heat: heat,
            ..Probe::default()
        }
    }

    /// Empties the record for a call over `n` boxes (the focus and the heat choice stay).
    pub(crate) fn begin(&mut self, n: usize) {
        self.tests.clear();
        self.tests.resize(n, 0);
        self.candidates.clear();
        self.candidates.resize(n, 0);
        self.structure = 0;
        self.visited.clear();
        self.against.clear();
        self.heat.clear();
    }

    /// Counts the pairs returned for each box.
    pub(crate) fn finish(&mut self, pairs: &[(u32, u32)]) {
        for &(i, j) in pairs {
            self.candidates[i as usize] += 1;
            self.candidates[j as usize] += 1;
        }
    }

    /// `n` tests made for box `item`.
    #[inline]
    pub(crate) fn test(&mut self, item: u32, n: u64) {
        self.tests[item as usize] += n;
    }

    /// `n` tests that belong to no box.
    #[inline]
    pub(crate) fn structure(&mut self, n: u64) {
        self.structure += n;
    }

    /// True when `item` is the focus.
    #[inline]
    pub(crate) fn is_focus(&self, item: u32) -> bool {
        self.focus == Some(item)
    }

    /// `place` at `rect` was visited for `item`, with `tests` made for it there.
    #[inline]
    pub(crate) fn visit(&mut self, item: u32, place: Place, rect: Aabb, tests: u64) {
        if self.is_focus(item) {
            self.visited.push(Visit { place, rect, tests });
        }
    }

    /// The focus was tested against `other` (ignored for any other `item`).
    #[inline]
    pub(crate) fn tested(&mut self, item: u32, other: u32) {
        if self.is_focus(item) {
            self.against.push(other);
        }
    }

    /// `place` at `rect` cost `tests` in this call.
    #[inline]
    pub(crate) fn place(&mut self, place: Place, rect: Aabb, tests: u64) {
        if self.want_heat && tests > 0 {
            self.heat.push(Visit { place, rect, tests });
        }
    }

    /// The tests of boxes `range` (the balls: `first_dynamic..len`).
    pub(crate) fn tests_of(&self, range: std::ops::Range<usize>) -> u64 {
        self.tests[range].iter().sum()
    }

    /// Every test recorded: the boxes' and the structure's. Equals the call's `aabb_tests`.
    pub fn total(&self) -> u64 {
        self.tests.iter().sum::<u64>() + self.structure
    }
}

/// What brute force ([`super::brute::BruteForce`]) does on `boxes` boxes of which those from
/// `first_dynamic` on are balls: its box tests, every ball against every shape before it,
/// `balls · obstacles + balls (balls − 1) / 2`.
pub fn brute_force_tests(boxes: usize, first_dynamic: usize) -> u64 {
    let n = boxes as u64;
    let first = (first_dynamic as u64).min(n);
    let balls = n - first;
    balls * first + balls * balls.saturating_sub(1) / 2
}

/// A broad phase's work against brute force's, for the panel and the chart.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Share {
    /// The broad phase's AABB tests.
    pub tests: u64,
    /// Brute force's on the same boxes ([`brute_force_tests`]).
    pub brute: u64,
    /// `tests / brute` in percent; 0 when brute force would test nothing.
    pub percent: f64,
    /// Candidate pairs returned.
    pub candidates: u64,
    /// Candidates that were real contacts, when the caller knows them.
    pub contacts: Option<u64>,
}

impl Share {
    /// Candidates that were contacts, in percent (the broad phase's precision); `None` when
    /// the contacts are unknown or there were no candidates.
    pub fn precision(&self) -> Option<f64> {
        let c = self.contacts?;
        (self.candidates > 0).then(|| 100.0 * c as f64 / self.candidates as f64)
    }
}

/// The share of brute force's tests a call with `tests` AABB tests and `candidates` pairs made
/// on `boxes` boxes, balls from `first_dynamic` on; `contacts` the candidates the narrow phase
/// confirmed, if known.
pub fn brute_force_share(
    boxes: usize,
    first_dynamic: usize,
    tests: u64,
    candidates: u64,
    contacts: Option<u64>,
) -> Share {
    let brute = brute_force_tests(boxes, first_dynamic);
    let percent = if brute == 0 {
        0.0
    } else {
        100.0 * tests as f64 / brute as f64
    };
    Share {
        tests,
        brute,
        percent,
        candidates,
        contacts,
    }
}

/// The key of a place in a [`Heat`]: its kind and its box's bits.
type PlaceKey = (Place, [u32; 4]);

/// A fast hash for the heat's keys (a multiply per 64-bit word written, as FxHash, and
/// MurmurHash3's finaliser; the keys are a few small words, and the standard SipHash made
/// summing a second's places the probe's largest cost).
#[derive(Clone, Copy, Debug, Default)]
struct PlaceHasher(u64);

impl std::hash::Hasher for PlaceHasher {
    fn finish(&self) -> u64 {
        // MurmurHash3's finaliser: every input bit reaches the low and the high bits.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

type PlaceMap = HashMap<PlaceKey, Visit, std::hash::BuildHasherDefault<PlaceHasher>>;

fn key_of(v: &Visit) -> PlaceKey {
    let r = &v.rect;
    (
        v.place,
        [
            r.min.x.to_bits(),
            r.min.y.to_bits(),
            r.max.x.to_bits(),
            r.max.y.to_bits(),
        ],
    )
}

/// Probe records summed over time (the caller decides when to clear, e.g. every simulated
/// second): tests per place (the same kind and box is the same place) and per box.
#[derive(Clone, Debug, Default)]
pub struct Heat {
    places: PlaceMap,
    /// Tests per box index, summed (the tree's and the sweep's heat).
    pub per_box: Vec<u64>,
    /// Structure tests, summed.
    pub structure: u64,
    /// Records added.
    pub calls: u64,
}

impl Heat {
    /// Adds one call's record.
    pub fn add(&mut self, probe: &Probe) {
        for v in &probe.heat {
            self.places
                .entry(key_of(v))
                .and_modify(|e| e.tests += v.tests)
                .or_insert(*v);
        }
        if self.per_box.len() < probe.tests.len() {
            self.per_box.resize(probe.tests.len(), 0);
        }
        for (sum, t) in self.per_box.iter_mut().zip(&probe.tests) {
            *sum += t;
        }
        self.structure += probe.structure;
        self.calls += 1;
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.places.clear();
        self.per_box.clear();
        self.structure = 0;
        self.calls = 0;
    }

    /// Every place with its summed tests, hottest first (ties by kind and box, so the order
    /// is the same on every run).
    pub fn places(&self) -> Vec<Visit> {
        let mut v: Vec<(PlaceKey, Visit)> = self.places.iter().map(|(k, v)| (*k, *v)).collect();
        v.sort_by(|a, b| b.1.tests.cmp(&a.1.tests).then(a.0.cmp(&b.0)));
        v.into_iter().map(|(_, v)| v).collect()
    }

    /// The hottest place's tests (0 for none).
    pub fn hottest(&self) -> u64 {
        self.places.values().map(|v| v.tests).max().unwrap_or(0)
    }

    /// Tests of all places.
    pub fn place_tests(&self) -> u64 {
        self.places.values().map(|v| v.tests).sum()
    }
}
