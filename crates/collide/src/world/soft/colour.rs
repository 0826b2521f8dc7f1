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
//! Cost: `O(contacts + balls)` a step.

use super::lanes::WIDTH;
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
}

/// The contacts in solve order (`u32::MAX` for a padding lane) and the ranges they form.
#[derive(Clone, Debug, Default)]
pub(super) struct Plan {
    pub(super) order: Vec<u32>,
    pub(super) ranges: Vec<LaneRange>,
    /// The firm contacts' lanes of each colour but the overflow, in whole blocks.
    pub(super) firm: Vec<LaneRange>,
    /// Per ball, the colours its contacts took (ball colours, obstacle colours).
    used: Vec<(u32, u8)>,
    /// Per contact, its colour (or the overflow).
    colour_of: Vec<u8>,
    /// Per contact, whether it is firm.
    firm_of: Vec<bool>,
}

impl Plan {
    /// The coloured plan of `contacts` among `balls` balls (see the module notes).
    pub(super) fn coloured(&mut self, contacts: &[SoftContact], balls: usize) {
        // One read of the contacts: the colouring notes each one's colour and firmness.
        self.colour(contacts, balls);
        let mut count = [0usize; BALL_COLOURS + OBSTACLE_COLOURS + 1];
        let mut firm = count;
        for (&c, &f) in self.colour_of.iter().zip(&self.firm_of) {
            count[slot(c)] += 1;
            firm[slot(c)] += f as usize;
        }
        self.ranges.clear();
        self.firm.clear();
        // Each slot's next lane for a firm contact and for another.
        let mut start = [(0usize, 0usize); BALL_COLOURS + OBSTACLE_COLOURS + 1];
        let mut at = 0;
        for s in solve_order() {
            let padded = match s {
                OVERFLOW_SLOT => count[s],
                _ => count[s].div_ceil(WIDTH) * WIDTH,
            };
            start[s] = (at, at + firm[s]);
            if count[s] > 0 {
                let kind = match s {
                    OVERFLOW_SLOT => Kind::Mixed,
                    s if s < BALL_COLOURS => Kind::Balls,
                    _ => Kind::Obstacles,
                };
                self.ranges.push(LaneRange {
                    kind,
                    lanes: at..at + padded,
                });
                if kind != Kind::Mixed && firm[s] > 0 {
                    let lanes = at..at + firm[s].div_ceil(WIDTH) * WIDTH;
                    self.firm.push(LaneRange { kind, lanes });
                }
            }
            at += padded;
        }
        self.order.clear();
        self.order.resize(at, PADDING);
        // The firm contacts of each colour first, then the others, each in pair order.
        for (k, (&c, &f)) in self.colour_of.iter().zip(&self.firm_of).enumerate() {
            let next = &mut start[slot(c)];
            let lane = match f {
                true => &mut next.0,
                false => &mut next.1,
            };
            self.order[*lane] = k as u32;
            *lane += 1;
        }
    }

    /// The colour contact `k` (in the order they were planned) took.
    pub(super) fn colour_of(&self, k: usize) -> ConstraintColour {
        match self.colour_of.get(k).copied().unwrap_or(OVERFLOW) {
            OVERFLOW => ConstraintColour::Overflow,
            c if (c as usize) < BALL_COLOURS => ConstraintColour::Balls(c),
            c => ConstraintColour::Obstacles(c - BALL_COLOURS as u8),
        }
    }

    /// Each contact's colour, greedily in pair order.
    fn colour(&mut self, contacts: &[SoftContact], balls: usize) {
        self.used.clear();
        self.used.resize(balls, (0, 0));
        self.colour_of.clear();
        self.firm_of.clear();
        for c in contacts {
            self.firm_of.push(c.firm);
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
            self.colour_of.push(colour.unwrap_or(OVERFLOW));
        }
    }
}

/// The overflow's slot in the per-colour tables.
const OVERFLOW_SLOT: usize = BALL_COLOURS + OBSTACLE_COLOURS;

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
            plan.coloured(&contacts, 400);
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
    fn each_colours_firm_contacts_come_first_and_the_firm_ranges_cover_them() {
        let contacts = random_contacts(3, 400);
        let mut plan = Plan::default();
        plan.coloured(&contacts, 400);
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
