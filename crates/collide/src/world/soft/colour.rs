//! The order the lanes are solved in: the plan, by graph colouring (Box2D v3's
//! `constraint_graph.c`, Catto 2024).
//!
//! Two contacts that share a ball cannot be solved at once; two that do not, can. Each
//! contact, in pair order, takes the first colour that neither of its balls has yet (an
//! obstacle never counts: it does not move), so no two contacts of a colour share a ball and
//! a colour's contacts can be solved eight at a time, or on several threads, with the result
//! of solving them one by one. Contacts against obstacles take colours of their own, solved
//! after every ball colour, the first one last, so the walls get the last word and keep the
//! balls out; a contact that finds no free colour goes to the overflow, solved one at a time
//! between the two. Each colour is padded to a multiple of [`WIDTH`] lanes (padding is
//! `u32::MAX` in the order). Within a colour the firm contacts (those carrying a load that
//! stiffens them, `lanes.rs`) come first, so the lanes of the firm ranges, the colours'
//! firm contacts rounded up to whole blocks, get extra relax passes; the order within a
//! colour changes nothing else, as no two of its contacts share a ball. Greedy and
//! deterministic: the same contacts, the same plan.
//!
//! **Regions, on two threads.** The contacts of a colour come in pair order, and the balls'
//! numbers say nothing of where they are, so two threads cutting a colour in halves would
//! each touch balls all over the pile and pass their states to and fro between their caches
//! from colour to colour. On two threads the plan therefore splits each colour in two
//! regions by a line across the contacts' longer extent, at their median there (both from
//! the plan before, [`Split`]): the lanes of the lower region and of the upper one each form
//! one thread's run, in every colour and in the firm ranges alike, so a ball's state mostly
//! stays with one thread. Only the balls along the line change thread from colour to
//! colour, so the line is drawn where it is shortest (across a wide pile, upright); at the
//! median the two runs are even, and a thread seldom has to take the other's blocks. The
//! order within a colour changes nothing, as no two of its contacts share a ball, and the
//! firm ranges hold the same contacts on any number of threads (the soft contacts filling
//! their last block are the colour's first in pair order, whatever the region), so the
//! result is the same bits.
//! Cost: `O(contacts + balls)` a step.

use super::lanes::{PARALLEL_FROM, WIDTH};
use crate::workers;
use crate::world::body::Body;
use crate::world::contacts::{ConstraintColour, SoftContact};
use std::ops::Range;

/// Colours for contacts between two balls (a ball touches about six others).
pub(super) const BALL_COLOURS: usize = 24;
/// Colours for contacts with obstacles (a ball in a corner touches two or three).
pub(super) const OBSTACLE_COLOURS: usize = 8;
const OVERFLOW: u8 = u8::MAX;
const PADDING: u32 = u32::MAX;

/// What a range of lanes holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Contacts of two balls, no ball twice: solved together.
    Balls,
    /// Contacts of a ball with an obstacle, no ball twice: solved together.
    Obstacles,
    /// Any contacts, solved one after another (the overflow).
    Mixed,
}

/// A run of lanes the solver visits as one.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct LaneRange {
    pub(super) kind: Kind,
    pub(super) lanes: Range<usize>,
    /// On two threads, where each thread's run of blocks starts (blocks of [`WIDTH`] lanes
    /// counted from the range's start; a run goes on to where the other starts, round the
    /// end of the range): each run holds the contacts of one region (see [`Plan::coloured`]).
    /// `None`: the runs are cut evenly.
    pub(super) runs: Option<[usize; 2]>,
}

/// The contacts in solve order (`u32::MAX` for a padding lane) and the ranges they form.
#[derive(Clone, Debug, Default)]
pub(super) struct Plan {
    pub(super) order: Vec<u32>,
    pub(super) ranges: Vec<LaneRange>,
    /// The firm contacts' lanes of each colour but the overflow, in whole blocks.
    pub(super) firm: Vec<LaneRange>,
    colours: Colours,
    regions: Regions,
    /// Per cut of the contacts (pair order), its contacts in each segment of each colour,
    /// then where its first one of each goes (`order_lanes`).
    cuts: Vec<Segments>,
}

/// Per slot (every colour and the overflow), a number for each of its lanes' segments.
type Segments = [[u32; SEGMENTS]; SLOTS];

/// The parts of a colour's lanes (see [`Plan::order_lanes`]).
const SEGMENTS: usize = 6;

/// Each contact's colour and firmness, and what the lanes' order needs of them.
#[derive(Clone, Debug)]
pub(super) struct Colours {
    /// Per ball, the colours its contacts took (ball colours, obstacle colours).
    used: Vec<(u32, u8)>,
    /// Per contact, its colour (or the overflow).
    colour_of: Vec<u8>,
    /// Per contact, whether it is firm.
    firm_of: Vec<bool>,
    /// Per slot, its contacts and its firm ones.
    count: [u32; SLOTS],
    firm: [u32; SLOTS],
    /// Per slot, its first `WIDTH − 1` soft contacts (their numbers, in pair order): those
    /// that may fill the last block of its firm range.
    first_soft: [[u32; WIDTH - 1]; SLOTS],
}

impl Default for Colours {
    fn default() -> Self {
        Self {
            used: Vec::new(),
            colour_of: Vec::new(),
            firm_of: Vec::new(),
            count: [0; SLOTS],
            firm: [0; SLOTS],
            first_soft: [[0; WIDTH - 1]; SLOTS],
        }
    }
}

/// Each contact's region, on two threads, and the line splitting them.
#[derive(Clone, Debug, Default)]
pub(super) struct Regions {
    /// Per contact, whether it lies in the upper region.
    upper_of: Vec<bool>,
    /// The line splitting the regions, from the contacts of the plan before.
    split: Split,
}

/// Whether a plan for `threads` threads splits its colours in regions (see the module notes).
pub(super) fn in_regions(threads: usize) -> bool {
    threads == 2
}

impl Plan {
    /// The coloured plan of `contacts` among `balls` balls, for `threads` threads (see the
    /// module notes).
    pub(super) fn coloured(&mut self, contacts: &[SoftContact], balls: usize, threads: usize) {
        self.colours.colour(contacts, balls);
        if in_regions(threads) {
            self.regions.find(contacts);
        }
        self.order_lanes(threads);
    }

    /// The two parts of [`Plan::coloured`] before [`Plan::order_lanes`]: the colouring and,
    /// on two threads, the regions. Each reads only the contacts, so they may run side by
    /// side.
    pub(super) fn parts(&mut self) -> (&mut Colours, &mut Regions) {
        (&mut self.colours, &mut self.regions)
    }

    /// The plan's order and ranges from the colours (and the regions, on two threads), on
    /// up to `threads` threads: each colour's lanes in six segments, the firm range's
    /// contacts of the lower region (the firm ones, then the soft ones filling its last
    /// block), those of the upper region (the same), the other contacts of the upper
    /// region, then of the lower, each segment in pair order. Without regions every contact
    /// is of the lower one: a colour's firm contacts, then the others, in pair order. With
    /// them the lower region's lanes are one run round the end of each range, the upper
    /// region's one run in its middle (see the module notes).
    ///
    /// A counting sort: the contacts cut in runs (pair order), each run's segments counted,
    /// then each run's first lane in each segment, then each run writes its contacts there;
    /// the runs side by side on several threads, the same order on any number.
    pub(super) fn order_lanes(&mut self, threads: usize) {
        let regions = in_regions(threads);
        let n = self.colours.colour_of.len();
        let threads = workers::threads_for(threads, n, PARALLEL_FROM);
        let cuts = workers::parts(threads);
        self.cuts.clear();
        self.cuts.resize(cuts, [[0; SEGMENTS]; SLOTS]);
        let Plan {
            order,
            ranges,
            firm,
            colours: c,
            regions: r,
            cuts: cut_counts,
        } = self;
        let filling_end = c.filling_end();
        let upper_of = regions.then(|| &r.upper_of[..n]);
        let (colour_of, firm_of) = (&c.colour_of[..], &c.firm_of[..]);
        let segment = |k: usize| -> (usize, usize) {
            let s = slot(colour_of[k]);
            let firm = firm_of[k];
            let filling = !firm && (k as u32) < filling_end[s];
            let upper = upper_of.is_some_and(|u| u[k]);
            let g = match (s == OVERFLOW_SLOT, firm, filling, upper) {
                (true, ..) => 0,
                (_, true, _, false) => 0,
                (_, _, true, false) => 1,
                (_, true, _, true) => 2,
                (_, _, true, true) => 3,
                (_, false, false, true) => 4,
                (_, false, false, false) => 5,
            };
            (s, g)
        };
        let count = |t: usize, counts: &mut Segments| {
            for k in workers::span(t, n, cuts) {
                let (s, g) = segment(k);
                counts[s][g] += 1;
            }
        };
        in_cuts(threads, cut_counts, count);
        let at = Self::lay_out(c, cut_counts, (ranges, firm), regions);
        order.clear();
        order.resize(at, PADDING);
        let order = Room(order.as_mut_ptr());
        let write = |t: usize, next: &mut Segments| {
            for k in workers::span(t, n, cuts) {
                let (s, g) = segment(k);
                let lane = &mut next[s][g];
                // SAFETY: each cut's lanes of each segment are a range of their own within
                // the order (counted above, `at` lanes in all), and each of its contacts
                // takes the next of them: no lane is written twice, and none by two
                // threads.
                unsafe { order.write(*lane as usize, k as u32) };
                *lane += 1;
            }
        };
        in_cuts(threads, cut_counts, write);
    }

    /// The ranges of the lanes and their firm parts, slot by slot in solve order, from the
    /// cuts' counts, which become where each cut's first contact of each segment goes;
    /// returns the lanes in all.
    fn lay_out(
        c: &Colours,
        cuts: &mut [Segments],
        (ranges, firms): (&mut Vec<LaneRange>, &mut Vec<LaneRange>),
        regions: bool,
    ) -> usize {
        ranges.clear();
        firms.clear();
        let mut at = 0;
        for s in solve_order() {
            let count = c.count[s] as usize;
            let padded = match s {
                OVERFLOW_SLOT => count,
                _ => count.div_ceil(WIDTH) * WIDTH,
            };
            let mut lane = at;
            let mut g = [0usize; SEGMENTS];
            for (j, g) in g.iter_mut().enumerate() {
                for cut in cuts.iter_mut() {
                    let n = cut[s][j] as usize;
                    cut[s][j] = lane as u32;
                    (lane, *g) = (lane + n, *g + n);
                }
            }
            if count > 0 {
                let kind = kind_of(s);
                // Run 1 (the upper region) from `cut`, run 0 from `wrap` round to `cut`.
                let cut = (g[0] + g[1]) / WIDTH;
                let wrap = (g[0] + g[1] + g[2] + g[3] + g[4]) / WIDTH;
                let runs = (regions && kind != Kind::Mixed).then_some([wrap, cut]);
                ranges.push(LaneRange {
                    kind,
                    lanes: at..at + padded,
                    runs,
                });
                let firm = c.firm[s] as usize;
                if kind != Kind::Mixed && firm > 0 {
                    let lanes = at..at + firm.div_ceil(WIDTH) * WIDTH;
                    let runs = regions.then_some([0, cut]);
                    firms.push(LaneRange { kind, lanes, runs });
                }
            }
            at += padded;
        }
        at
    }

    /// Where lane `lane` comes in the one-thread plan's order, as a key that sorts so: its
    /// range's place in the solve order, its contact's firmness (firm first), the contact's
    /// number. On two threads the lanes of a colour are ordered by region instead, which
    /// changes no bit of the solve but would change the order of what is recorded lane by
    /// lane (the hits).
    pub(super) fn one_thread_rank(&self, lane: usize) -> (usize, bool, u32) {
        let range = self.ranges.partition_point(|r| r.lanes.end <= lane);
        let k = self.order.get(lane).copied().unwrap_or(PADDING);
        let firm = self
            .colours
            .firm_of
            .get(k as usize)
            .copied()
            .unwrap_or(false);
        (range, !firm, k)
    }

    /// The colour contact `k` (in the order they were planned) took.
    pub(super) fn colour_of(&self, k: usize) -> ConstraintColour {
        match self.colours.colour_of.get(k).copied().unwrap_or(OVERFLOW) {
            OVERFLOW => ConstraintColour::Overflow,
            c if (c as usize) < BALL_COLOURS => ConstraintColour::Balls(c),
            c => ConstraintColour::Obstacles(c - BALL_COLOURS as u8),
        }
    }
}

/// `work(t, &mut cuts[t])` for every cut, on up to `threads` threads (on one, as a plain
/// loop: no parts for the profile to count).
fn in_cuts(threads: usize, cuts: &mut [Segments], work: impl Fn(usize, &mut Segments) + Sync) {
    if threads == 1 {
        return cuts.iter_mut().enumerate().for_each(|(t, c)| work(t, c));
    }
    let mut runs: Vec<(usize, &mut Segments)> = cuts.iter_mut().enumerate().collect();
    workers::each(threads, &mut runs, |_, (t, c)| work(*t, c));
}

/// The plan's order, written by several threads at once, each at lanes of its own.
struct Room(*mut u32);

// SAFETY: the threads sharing a `Room` write disjoint lanes of it (`Plan::order_lanes`).
unsafe impl Sync for Room {}

impl Room {
    /// Writes `k` at lane `lane`.
    ///
    /// # Safety
    /// `lane` lies within the order, and no other thread reads or writes it meanwhile.
    unsafe fn write(&self, lane: usize, k: u32) {
        // SAFETY: as the caller promises.
        unsafe { self.0.add(lane).write(k) }
    }
}

impl Colours {
    /// Per slot, the soft contacts filling its firm range's last block: the colour's first
    /// in pair order, as on one thread; those numbered below the value.
    fn filling_end(&self) -> [u32; SLOTS] {
        std::array::from_fn(|s| {
            let firm = self.firm[s] as usize;
            let fill = match s {
                OVERFLOW_SLOT => 0,
                _ => (firm.div_ceil(WIDTH) * WIDTH - firm).min(self.count[s] as usize - firm),
            };
            match fill {
                0 => 0,
                f => self.first_soft[s][f - 1] + 1,
            }
        })
    }

    /// Each contact's colour, greedily in pair order, and its firmness, with each slot's
    /// counts and first soft contacts.
    pub(super) fn colour(&mut self, contacts: &[SoftContact], balls: usize) {
        self.used.clear();
        self.used.resize(balls, (0, 0));
        self.colour_of.clear();
        self.firm_of.clear();
        let (mut count, mut firm) = ([0u32; SLOTS], [0u32; SLOTS]);
        for (k, c) in contacts.iter().enumerate() {
            let a = c.ball.ix();
            let colour = match c.other {
                Body::Ball(o) => {
                    let free = !(self.used[a].0 | self.used[o.ix()].0);
                    let k = free.trailing_zeros() as usize;
                    (k < BALL_COLOURS).then(|| {
                        self.used[a].0 |= 1 << k;
                        self.used[o.ix()].0 |= 1 << k;
                        k as u8
                    })
                }
                Body::Shape(_) => {
                    let k = (!self.used[a].1).trailing_zeros() as usize;
                    (k < OBSTACLE_COLOURS).then(|| {
                        self.used[a].1 |= 1 << k;
                        (BALL_COLOURS + k) as u8
                    })
                }
            };
            let colour = colour.unwrap_or(OVERFLOW);
            let s = slot(colour);
            if c.firm {
                firm[s] += 1;
            } else if let Some(first) = self.first_soft[s].get_mut((count[s] - firm[s]) as usize) {
                *first = k as u32;
            }
            count[s] += 1;
            self.colour_of.push(colour);
            self.firm_of.push(c.firm);
        }
        (self.count, self.firm) = (count, firm);
    }
}

impl Regions {
    /// Each contact's region by the line in effect, and the line of the next plan.
    pub(super) fn find(&mut self, contacts: &[SoftContact]) {
        self.upper_of.clear();
        let mut next = self.split.next();
        for c in contacts {
            self.upper_of.push(self.split.upper(c.point));
            next.count(c.point);
        }
        self.split = next.split(&self.split);
    }
}

/// Bins of a [`Split`]'s histograms.
const BINS: usize = 128;

/// The line splitting the regions: across x (upright) or across y (level), at `at` (px);
/// a contact whose point lies beyond it is in the upper region. With the extent of the
/// contacts that drew it, over which the next plan's histograms count.
#[derive(Clone, Debug, Default)]
struct Split {
    across_x: bool,
    at: f32,
    lo: glam::Vec2,
    hi: glam::Vec2,
}

impl Split {
    /// Whether a contact at `p` lies in the upper region.
    #[inline]
    fn upper(&self, p: glam::Vec2) -> bool {
        match self.across_x {
            true => p.x > self.at,
            false => p.y > self.at,
        }
    }

    /// The count of a plan's contacts that draws the next line: their extent, and their
    /// points in bins of this line's extent along each axis.
    fn next(&self) -> NextSplit {
        let per = |lo: f32, hi: f32| match hi > lo {
            true => BINS as f32 / (hi - lo),
            false => 0.0,
        };
        NextSplit {
            lo: glam::Vec2::splat(f32::INFINITY),
            hi: glam::Vec2::splat(f32::NEG_INFINITY),
            from: self.lo,
            per: glam::Vec2::new(per(self.lo.x, self.hi.x), per(self.lo.y, self.hi.y)),
            bins: [[0; BINS]; 2],
            n: 0,
        }
    }
}

/// A plan's contacts counted for the next [`Split`].
struct NextSplit {
    lo: glam::Vec2,
    hi: glam::Vec2,
    /// The bins' start along each axis and bins per px (the line before's extent).
    from: glam::Vec2,
    per: glam::Vec2,
    bins: [[u32; BINS]; 2],
    n: u32,
}

impl NextSplit {
    #[inline]
    fn count(&mut self, p: glam::Vec2) {
        self.lo = self.lo.min(p);
        self.hi = self.hi.max(p);
        // A float's conversion saturates (NaN to 0), so every point finds a bin.
        let bin = |v: f32, from: f32, per: f32| (((v - from) * per) as usize).min(BINS - 1);
        self.bins[0][bin(p.x, self.from.x, self.per.x)] += 1;
        self.bins[1][bin(p.y, self.from.y, self.per.y)] += 1;
        self.n += 1;
    }

    /// The line across the longer side of the contacts' extent (the line before's way
    /// unless the other side is longer by a quarter: a square heap, as in a turning drum,
    /// would flip it from plan to plan, and every ball change thread), at their median
    /// along it (a bin's far edge; the middle of the extent where the bins say nothing).
    fn split(&self, before: &Split) -> Split {
        let size = self.hi - self.lo;
        let across_x = match before.across_x {
            true => size.y <= size.x * 1.25,
            false => size.x > size.y * 1.25,
        };
        let k = usize::from(!across_x);
        let (from, per) = (self.from[k], self.per[k]);
        let half = self.n.div_ceil(2);
        let mut seen = 0;
        let bin = self.bins[k].iter().position(|&c| {
            seen += c;
            seen >= half
        });
        let at = match (bin, per > 0.0) {
            (Some(b), true) => from + (b + 1) as f32 / per,
            _ => (self.lo[k] + self.hi[k]) * 0.5,
        };
        let finite = |v: glam::Vec2| if v.is_finite() { v } else { glam::Vec2::ZERO };
        Split {
            across_x,
            at: if at.is_finite() { at } else { 0.0 },
            lo: finite(self.lo),
            hi: finite(self.hi),
        }
    }
}

/// The overflow's slot in the per-colour tables.
const OVERFLOW_SLOT: usize = BALL_COLOURS + OBSTACLE_COLOURS;
/// Entries of the per-colour tables: every colour and the overflow.
const SLOTS: usize = BALL_COLOURS + OBSTACLE_COLOURS + 1;

/// What the lanes of slot `s` hold.
fn kind_of(s: usize) -> Kind {
    match s {
        OVERFLOW_SLOT => Kind::Mixed,
        s if s < BALL_COLOURS => Kind::Balls,
        _ => Kind::Obstacles,
    }
}

/// The slot of colour `c` in the per-colour tables.
fn slot(c: u8) -> usize {
    if c == OVERFLOW {
        OVERFLOW_SLOT
    } else {
        c as usize
    }
}

/// The slots in the order they are solved: ball colours, the overflow, then the obstacle
/// colours from the last to the first (the first obstacle contact of a ball is solved last).
fn solve_order() -> impl Iterator<Item = usize> {
    let obstacles = (BALL_COLOURS..BALL_COLOURS + OBSTACLE_COLOURS).rev();
    (0..BALL_COLOURS).chain([OVERFLOW_SLOT]).chain(obstacles)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::body::{BallIx, ShapeIx};
    use rand::{Rng, SeedableRng};

    /// A contact of `ball` with `other`, its values plain (a third firm).
    fn contact(ball: u32, other: Body) -> SoftContact {
        SoftContact {
            firm: ball.is_multiple_of(3),
            point: glam::Vec2::new(0.0, (ball * 37 % 101) as f32),
            ..SoftContact::plain(BallIx(ball), other)
        }
    }

    /// Random contacts in pair order: obstacle pairs, then ball pairs (lower ball first).
    fn random_contacts(seed: u64, balls: u32) -> Vec<SoftContact> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let mut shapes: Vec<(u32, u32)> = (0..balls / 2)
            .map(|_| (rng.gen_range(0..4), rng.gen_range(0..balls)))
            .collect();
        shapes.sort_unstable();
        shapes.dedup();
        let mut pairs: Vec<(u32, u32)> = (0..balls * 3)
            .map(|_| {
                let i = rng.gen_range(0..balls - 1);
                (i, rng.gen_range(i + 1..(i + 12).min(balls)))
            })
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        let obstacles = shapes
            .iter()
            .map(|&(s, b)| contact(b, Body::Shape(ShapeIx(s))));
        let ball_pairs = pairs
            .iter()
            .map(|&(i, j)| contact(i, Body::Ball(BallIx(j))));
        obstacles.chain(ball_pairs).collect()
    }

    #[test]
    fn no_two_contacts_of_a_colour_share_a_ball_and_every_contact_is_planned_once() {
        for seed in 0..10 {
            let contacts = random_contacts(seed, 400);
            let mut plan = Plan::default();
            plan.coloured(&contacts, 400, 1);
            let mut seen = vec![0; contacts.len()];
            for r in &plan.ranges {
                let mut balls = std::collections::HashSet::new();
                for &k in &plan.order[r.lanes.clone()] {
                    if k == PADDING {
                        assert_ne!(r.kind, Kind::Mixed, "the overflow is not padded");
                        continue;
                    }
                    seen[k as usize] += 1;
                    let c = &contacts[k as usize];
                    if r.kind != Kind::Mixed {
                        assert!(balls.insert(c.ball), "ball twice in a colour");
                        if let Body::Ball(o) = c.other {
                            assert!(balls.insert(o), "ball twice in a colour");
                        }
                    }
                    let obstacle = matches!(c.other, Body::Shape(_));
                    assert!(r.kind != Kind::Balls || !obstacle);
                    assert!(r.kind != Kind::Obstacles || obstacle);
                }
                if r.kind != Kind::Mixed {
                    assert_eq!(r.lanes.len() % WIDTH, 0, "whole blocks");
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "each contact once");
            let last = plan.ranges.last().unwrap();
            assert_eq!(
                last.kind,
                Kind::Obstacles,
                "the obstacles' colours come last"
            );
        }
    }

    #[test]
    fn the_order_is_the_same_on_any_number_of_threads() {
        // More contacts than the threads' threshold, so the lanes' order is written in cuts.
        let contacts = random_contacts(11, 4000);
        assert!(contacts.len() >= PARALLEL_FROM);
        let mut one = Plan::default();
        one.coloured(&contacts, 4000, 1);
        for threads in [3, 4, 7] {
            let mut many = Plan::default();
            many.coloured(&contacts, 4000, threads);
            assert_eq!(many.order, one.order, "{threads} threads");
            assert_eq!((&many.ranges, &many.firm), (&one.ranges, &one.firm));
        }
    }

    /// The contacts of each range of `ranges` in `order`, as sorted sets.
    fn sets(order: &[u32], ranges: &[LaneRange]) -> Vec<Vec<u32>> {
        let set = |r: &LaneRange| {
            let mut v: Vec<u32> = order[r.lanes.clone()].to_vec();
            v.sort_unstable();
            v
        };
        ranges.iter().map(set).collect()
    }

    #[test]
    fn on_two_threads_each_range_holds_the_same_contacts_in_two_regions() {
        let contacts = random_contacts(5, 2000);
        let (mut one, mut two) = (Plan::default(), Plan::default());
        one.coloured(&contacts, 2000, 1);
        // The split comes from the plan before: twice, as a step's sub-steps do.
        two.coloured(&contacts, 2000, 2);
        let used = two.regions.split.clone();
        two.coloured(&contacts, 2000, 2);
        assert!(used.at > 0.0);
        assert_eq!(sets(&one.order, &one.ranges), sets(&two.order, &two.ranges));
        assert_eq!(sets(&one.order, &one.firm), sets(&two.order, &two.firm));
        let upper = |k: u32| k != PADDING && used.upper(contacts[k as usize].point);
        let (mut all, mut upper_blocks) = (0, 0);
        for r in two.ranges.iter().chain(&two.firm) {
            let Some([start0, start1]) = r.runs else {
                assert_eq!(r.kind, Kind::Mixed);
                continue;
            };
            let blocks = r.lanes.len() / WIDTH;
            assert!(start0 <= blocks && start1 <= blocks);
            // Run 1, the upper region, goes from its start round to run 0's; but for the
            // blocks it shares with run 0 at its two ends it holds no lower contact, and
            // run 0 no upper one.
            let len1 = (start0 % blocks + blocks - start1 % blocks) % blocks;
            (all, upper_blocks) = (all + blocks, upper_blocks + len1);
            for (run, from, len) in [(1, start1, len1), (0, start0, blocks - len1)] {
                for j in 1..len.saturating_sub(1) {
                    let block = (from + j) % blocks;
                    for lane in r.lanes.start + block * WIDTH..r.lanes.start + (block + 1) * WIDTH {
                        let k = two.order[lane];
                        let ok = k == PADDING || upper(k) == (run == 1);
                        assert!(ok, "run {run}, lane {lane} of {:?}", r.lanes);
                    }
                }
            }
        }
        assert!(
            upper_blocks * 3 > all && upper_blocks * 3 < 2 * all,
            "the regions share the blocks: {upper_blocks} of {all} upper"
        );
    }

    #[test]
    fn the_regions_split_a_wide_pile_upright_at_its_median() {
        // A pile four times as wide as it is tall, its contacts crowded to the left
        // (x = 400·u², u even), where the mean lies far right of the median.
        let mut contacts = random_contacts(7, 2000);
        let n = contacts.len() as f32;
        for (k, c) in contacts.iter_mut().enumerate() {
            let u = (k as f32 * 0.618_034).fract();
            c.point = glam::Vec2::new(400.0 * u * u, (k as f32 / n) * 100.0);
        }
        // The first plan gives the extent, the second the median within it, the third
        // (with the same contacts) uses that line and draws it again.
        let mut plan = Plan::default();
        for _ in 0..3 {
            plan.coloured(&contacts, 2000, 2);
        }
        assert!(plan.regions.split.across_x);
        let upper = contacts
            .iter()
            .filter(|c| plan.regions.split.upper(c.point))
            .count();
        let in_upper = plan.regions.upper_of.iter().filter(|&&u| u).count();
        assert_eq!(
            in_upper, upper,
            "the third plan used the line the second drew"
        );
        let share = upper as f32 / n;
        assert!((0.47..=0.5).contains(&share), "upper share {share}");
    }

    #[test]
    fn a_nearly_square_heap_keeps_the_way_its_line_runs() {
        let count = |w: f32, h: f32, before: &Split| {
            let mut next = before.next();
            for k in 0..100 {
                let u = k as f32 / 99.0;
                next.count(glam::Vec2::new(u * w, (1.0 - u) * h));
            }
            next.split(before)
        };
        let level = Split::default();
        assert!(!count(110.0, 100.0, &level).across_x);
        assert!(count(130.0, 100.0, &level).across_x);
        let upright = count(130.0, 100.0, &level);
        assert!(count(100.0, 110.0, &upright).across_x);
        assert!(!count(100.0, 130.0, &upright).across_x);
    }

    #[test]
    fn a_split_of_no_contacts_or_of_one_point_is_finite() {
        let mut plan = Plan::default();
        plan.coloured(&[], 10, 2);
        plan.coloured(&[], 10, 2);
        assert!(plan.regions.split.at.is_finite());
        let one = [contact(0, Body::Ball(BallIx(1)))];
        plan.coloured(&one, 10, 2);
        plan.coloured(&one, 10, 2);
        assert!(plan.regions.split.at.is_finite());
        assert_eq!(plan.order.iter().filter(|&&k| k != PADDING).count(), 1);
    }

    #[test]
    fn each_colours_firm_contacts_come_first_and_the_firm_ranges_cover_them() {
        let contacts = random_contacts(3, 400);
        let mut plan = Plan::default();
        plan.coloured(&contacts, 400, 1);
        let firm_lanes: usize = plan.firm.iter().map(|r| r.lanes.len()).sum();
        assert!(firm_lanes > 0);
        for r in &plan.ranges {
            let order = &plan.order[r.lanes.clone()];
            let is_firm = |&k: &u32| k != PADDING && contacts[k as usize].firm;
            let n = order.iter().filter(|k| is_firm(k)).count();
            assert!(order[..n].iter().all(is_firm), "firm ones first");
            let covered = plan.firm.iter().find(|f| f.lanes.start == r.lanes.start);
            match (r.kind, covered) {
                (Kind::Mixed, f) => assert!(f.is_none(), "the overflow has no firm range"),
                (_, None) => assert_eq!(n, 0),
                (_, Some(f)) => {
                    assert_eq!(f.kind, r.kind);
                    assert_eq!(f.lanes.len(), n.div_ceil(WIDTH) * WIDTH, "whole blocks");
                }
            }
        }
    }
}
