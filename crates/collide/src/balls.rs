//! The world's balls with stable ids: a dense list (the order every stage walks, the order
//! the state hash reads) beside a table of generational ids, as Box2D's `b2BodyId` and
//! rapier's handles are.
//!
//! A ball keeps its [`BallId`] from the moment it enters until it leaves, whatever is removed
//! before it; strings, grabs and tracks hold ids, so removing a ball renumbers none of them.
//! An id is a slot and a generation: when a ball leaves, its slot's generation moves on, so the
//! old id answers "no such ball" instead of naming whichever ball takes the slot next. The
//! dense list keeps the balls' order on removal (as `Vec::remove` does), so removing a ball
//! leaves the other balls' physics, and the state hash, as they were.
//!
//! Ids are handed out deterministically: freed slots are reused last-freed first, so the same
//! inputs give the same ids. A world built afresh (a scene, a restored state) gives its balls
//! slots `0, 1, 2, …` in order at generation 0, which is how saved strings name balls.
//!
//! The set is the world's ball table: every per-ball fact is a column of it, in the balls'
//! order: the ball (a body, `geom`), its id, its [`Rest`] (the sleep stage's state for it,
//! `world/sleep.rs`) and where it began the step (read by the push-out, the soft contacts,
//! the swept modes and sleep). A column follows its ball through every addition and
//! removal. Removing a ball is one [`BallSet::remove`], which returns the [`Removed`] remap:
//! each stage that keeps something by ball index outside the table applies it once.
//!
//! The table also owns the waking of sleepers ([`Wakes`]): a ball woken now, its group at
//! the end of the step, and the count of balls woken since the last step's count. The
//! stages that meet a sleeper (the push-out, the soft contacts, sleep itself), a removal
//! and the hand's edits between steps all wake through the table's `wake_*` methods (the
//! push-out and the soft contacts through [`Columns::wakes`] while they hold the columns);
//! `world/sleep.rs` puts groups to sleep.

use crate::geom::Ball;
use glam::Vec2;
use serde::{Deserialize, Serialize};
use std::ops::{Deref, DerefMut};

/// A ball that stays the same ball while others come and go (see the module notes). Files
/// write it as `(slot: 3, generation: 1)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BallId {
    slot: u32,
    generation: u32,
}

impl BallId {
    /// The id a world built afresh gives its `i`-th ball (slot `i`, generation 0): how a
    /// scene's or a saved state's strings name the balls they hold.
    pub(crate) const fn fresh(i: u32) -> Self {
        Self {
            slot: i,
            generation: 0,
        }
    }

    /// The slot (a small number, reused once the ball has left).
    pub(crate) fn slot(self) -> u32 {
        self.slot
    }
}

impl std::fmt::Display for BallId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ball {}v{}", self.slot, self.generation)
    }
}

/// A ball id that names no ball now: the ball left (removed, drained, pocketed, cleared).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StaleBall(pub BallId);

impl std::fmt::Display for StaleBall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} is no longer in the world", self.0)
    }
}

impl std::error::Error for StaleBall {}

/// Where a slot's ball stands in the dense list, and the slot's generation.
#[derive(Clone, Copy, Debug)]
struct Slot {
    generation: u32,
    /// Index into the dense list; `None` while the slot is free.
    at: Option<u32>,
}

/// The balls, dense, with their ids (see the module notes). Reads as a slice of balls.
/// A ball's rest, kept and changed by the sleep stage: asleep or not, how long it has been
/// slow, and the group it fell asleep with.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Rest {
    /// Asleep: kept still and left out of the tests among sleepers.
    pub(crate) asleep: bool,
    /// Seconds the ball has been slower than the sleep speed.
    pub(crate) slow_for: f32,
    /// The group it fell asleep with (meaningful while asleep).
    pub(crate) group: u32,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct BallSet {
    balls: Vec<Ball>,
    /// Each ball's rest, in the balls' order.
    rest: Vec<Rest>,
    /// Where each ball began the step (px), in the balls' order; a ball added since, where
    /// it was added.
    start: Vec<Vec2>,
    /// The id of each ball of `balls`, in the same order.
    ids: Vec<BallId>,
    slots: Vec<Slot>,
    /// Free slots, the last freed on top.
    free: Vec<u32>,
    /// The sleepers woken this step and the count since the last step's.
    wakes: Wakes,
}

impl BallSet {
    /// A set of `balls` with fresh ids in their order, awake.
    #[cfg(test)]
    pub(crate) fn from_balls(balls: Vec<Ball>) -> Self {
        Self::from_resting(balls.into_iter().map(|b| (b, Rest::default())))
    }

    /// A set of the given balls and their rests, in order (a restored world's), with fresh
    /// ids.
    pub(crate) fn from_resting(balls: impl IntoIterator<Item = (Ball, Rest)>) -> Self {
        let mut set = Self::default();
        for (b, rest) in balls {
            set.push(b);
            set.rest[set.balls.len() - 1] = rest;
        }
        set
    }

    /// The ids as a saved state writes them: each ball's, and the free slots.
    pub(crate) fn saved_ids(&self) -> SavedIds {
        let free = self.free.iter().map(|&slot| BallId {
            slot,
            generation: self.slots[slot as usize].generation,
        });
        SavedIds {
            balls: self.ids.clone(),
            free: free.collect(),
        }
    }

    /// Gives the balls the ids `saved` holds and the free slots it lists, so the next ball
    /// added gets the id it would have got in the world saved; `saved` must have passed
    /// [`SavedIds::problem`] for this many balls.
    pub(crate) fn take_ids(&mut self, saved: &SavedIds) {
        let n = saved.balls.len() + saved.free.len();
        self.slots = vec![
            Slot {
                generation: 0,
                at: None
            };
            n
        ];
        for (k, id) in saved.balls.iter().enumerate() {
            self.slots[id.slot as usize] = Slot {
                generation: id.generation,
                at: Some(k as u32),
            };
        }
        for id in &saved.free {
            self.slots[id.slot as usize].generation = id.generation;
        }
        self.ids = saved.balls.clone();
        self.free = saved.free.iter().map(|id| id.slot).collect();
    }

    /// Where each ball began the step (px), in the balls' order.
    pub(crate) fn starts(&self) -> &[Vec2] {
        &self.start
    }

    /// Records where each ball begins the step, before it moves.
    pub(crate) fn mark_starts(&mut self) {
        self.start.clear();
        self.start.extend(self.balls.iter().map(|b| b.pos));
    }

    /// Each ball's rest, in the balls' order.
    pub(crate) fn rests(&self) -> &[Rest] {
        &self.rest
    }

    /// Whether ball `i` sleeps (false for no such ball).
    pub(crate) fn asleep(&self, i: usize) -> bool {
        self.rest.get(i).is_some_and(|r| r.asleep)
    }

    /// Whether any ball sleeps.
    pub(crate) fn any_asleep(&self) -> bool {
        self.rest.iter().any(|r| r.asleep)
    }

    /// The balls and their rests to change, with where each began the step and the wakes.
    pub(crate) fn columns_mut(&mut self) -> Columns<'_> {
        Columns {
            balls: &mut self.balls,
            rests: &mut self.rest,
            starts: &self.start,
            wakes: &mut self.wakes,
        }
    }

    /// Wakes ball `i` now and its group at the end of the step.
    pub(crate) fn wake_ball(&mut self, i: usize) {
        if let Some(r) = self.rest.get_mut(i) {
            self.wakes.wake(r);
        }
    }

    /// Wakes the sleepers within `reach` px of the disc at `p` of radius `r`, with their
    /// groups.
    pub(crate) fn wake_near(&mut self, p: Vec2, r: f32, reach: f32) {
        for i in 0..self.balls.len() {
            let b = &self.balls[i];
            let d = b.radius + r + reach;
            if self.asleep(i) && (b.pos - p).length_squared() <= d * d {
                self.wake_ball(i);
            }
        }
        self.flush_wakes();
    }

    /// Wakes every ball.
    pub(crate) fn wake_all(&mut self) {
        self.wakes.wake_all(&mut self.rest);
    }

    /// Wakes the rest of the groups woken this step.
    pub(crate) fn flush_wakes(&mut self) {
        self.wakes.flush(&mut self.rest);
    }

    /// The balls woken since the last call (the step's count).
    pub(crate) fn take_wake_count(&mut self) -> u64 {
        std::mem::take(&mut self.wakes.count)
    }

    /// Keeps the count of balls woken that `old` had not yet counted (a restored table).
    pub(crate) fn keep_wake_count(&mut self, old: &BallSet) {
        self.wakes.count = old.wakes.count;
    }

    /// The balls and their rests, both to change.
    pub(crate) fn with_rests(&mut self) -> (&mut [Ball], &mut [Rest]) {
        (&mut self.balls, &mut self.rest)
    }

    /// Adds a ball at the end; returns its id.
    pub(crate) fn push(&mut self, ball: Ball) -> BallId {
        let at = Some(self.balls.len() as u32);
        let id = match self.free.pop() {
            Some(slot) => {
                let s = &mut self.slots[slot as usize];
                s.at = at;
                BallId {
                    slot,
                    generation: s.generation,
                }
            }
            None => {
                self.slots.push(Slot { generation: 0, at });
                BallId::fresh(self.slots.len() as u32 - 1)
            }
        };
        self.balls.push(ball);
        self.rest.push(Rest::default());
        self.start.push(ball.pos);
        self.ids.push(id);
        id
    }

    /// Removes ball `i` with every column of it, keeping the others' order; returns the
    /// remap the stages apply (the id it had, and where the others moved).
    pub(crate) fn remove(&mut self, i: usize) -> Removed {
        self.balls.remove(i);
        self.rest.remove(i);
        self.start.remove(i);
        let id = self.ids.remove(i);
        self.release(id.slot);
        for (k, later) in self.ids.iter().enumerate().skip(i) {
            self.slots[later.slot as usize].at = Some(k as u32);
        }
        Removed { index: i, id }
    }

    /// Removes every ball; every id handed out so far goes stale.
    pub fn clear(&mut self) {
        for id in std::mem::take(&mut self.ids) {
            self.release(id.slot);
        }
        self.balls.clear();
        self.rest.clear();
        self.start.clear();
    }

    fn release(&mut self, slot: u32) {
        let s = &mut self.slots[slot as usize];
        s.at = None;
        s.generation = s.generation.wrapping_add(1);
        self.free.push(slot);
    }

    /// The id of ball `i`, if there is one.
    pub(crate) fn id(&self, i: usize) -> Option<BallId> {
        self.ids.get(i).copied()
    }

    /// The index of the ball `id` names, or why there is none.
    pub fn index(&self, id: BallId) -> Result<usize, StaleBall> {
        match self.slots.get(id.slot as usize) {
            Some(Slot {
                generation,
                at: Some(at),
            }) if *generation == id.generation => Ok(*at as usize),
            _ => Err(StaleBall(id)),
        }
    }
}

/// The ball table's ids as a saved state writes them: the id of each saved ball, in the
/// balls' order, and the free slots, each as the id the next ball given it gets, the next
/// one taken last. Every slot handed out so far is in one of the two lists once.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedIds {
    /// Each ball's id, in the balls' order.
    pub balls: Vec<BallId>,
    /// The free slots, the next one taken last.
    pub free: Vec<BallId>,
}

impl SavedIds {
    /// What is wrong with these ids for `n` saved balls, if anything: one id a ball, and
    /// the slots `0..` of both lists each named once.
    pub(crate) fn problem(&self, n: usize) -> Option<String> {
        if self.balls.len() != n {
            return Some(format!("{} ids for {n} balls", self.balls.len()));
        }
        let total = self.balls.len() + self.free.len();
        let mut seen = vec![false; total];
        for id in self.balls.iter().chain(&self.free) {
            match seen.get_mut(id.slot as usize) {
                Some(s) if !*s => *s = true,
                Some(_) => return Some(format!("slot {} named twice", id.slot)),
                None => return Some(format!("slot {} of {total} slots", id.slot)),
            }
        }
        None
    }
}

/// The table's columns at once: the balls and their rests to change, the starts to read.
pub(crate) struct Columns<'a> {
    /// The balls.
    pub(crate) balls: &'a mut [Ball],
    /// Each ball's rest.
    pub(crate) rests: &'a mut [Rest],
    /// Where each ball began the step (px).
    pub(crate) starts: &'a [Vec2],
    /// The table's wakes, for waking through the rests above.
    pub(crate) wakes: &'a mut Wakes,
}

/// What one [`BallSet::remove`] did, the remap every stage that keeps something by ball
/// index applies once: ball `index` left and every later ball moved down one place (the
/// others keep their order, so lists sorted by ball stay sorted).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Removed {
    /// The place the ball had.
    pub(crate) index: usize,
    /// The id it had (stale from now on).
    pub(crate) id: BallId,
}

impl Removed {
    /// Where the ball that was at `old` is now; `None` for the ball that left.
    pub(crate) fn moved(&self, old: usize) -> Option<usize> {
        match old.cmp(&self.index) {
            std::cmp::Ordering::Less => Some(old),
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Greater => Some(old - 1),
        }
    }
}

/// The groups woken during this step (flushed at its end) and the balls woken since the
/// last count.
#[derive(Clone, Debug, Default)]
pub(crate) struct Wakes {
    groups: Vec<u32>,
    /// Balls woken since the last step's count.
    count: u64,
}

impl Wakes {
    /// Wakes whichever of two touching balls sleeps (its group at the end of the step);
    /// `rests` are the balls' rests (the table's, through [`Columns`]).
    pub(crate) fn wake_pair(&mut self, rests: &mut [Rest], i: usize, j: usize) {
        for k in [i, j] {
            if let Some(r) = rests.get_mut(k) {
                self.wake(r);
            }
        }
    }

    /// Wakes the ball resting as `r` now, and its group at the end of the step.
    fn wake(&mut self, r: &mut Rest) {
        if r.asleep {
            r.asleep = false;
            r.slow_for = 0.0;
            self.count += 1;
            self.groups.push(r.group);
        }
    }

    /// Wakes every ball of `rests`.
    fn wake_all(&mut self, rests: &mut [Rest]) {
        let mut n = 0;
        for r in rests {
            n += r.asleep as u64;
            r.asleep = false;
            r.slow_for = 0.0;
        }
        self.count += n;
        self.groups.clear();
    }

    /// Wakes the rest of the groups woken this step.
    fn flush(&mut self, rests: &mut [Rest]) {
        let groups = &mut self.groups;
        if groups.is_empty() {
            return;
        }
        groups.sort_unstable();
        groups.dedup();
        let mut n = 0;
        let woken = |r: &Rest| r.asleep && groups.binary_search(&r.group).is_ok();
        for r in rests.iter_mut().filter(|r| woken(r)) {
            r.asleep = false;
            r.slow_for = 0.0;
            n += 1;
        }
        self.count += n;
        groups.clear();
    }
}

impl Deref for BallSet {
    type Target = [Ball];
    fn deref(&self) -> &[Ball] {
        &self.balls
    }
}

impl DerefMut for BallSet {
    fn deref_mut(&mut self) -> &mut [Ball] {
        &mut self.balls
    }
}

impl<'a> IntoIterator for &'a BallSet {
    type Item = &'a Ball;
    type IntoIter = std::slice::Iter<'a, Ball>;
    fn into_iter(self) -> Self::IntoIter {
        self.balls.iter()
    }
}

impl<'a> IntoIterator for &'a mut BallSet {
    type Item = &'a mut Ball;
    type IntoIter = std::slice::IterMut<'a, Ball>;
    fn into_iter(self) -> Self::IntoIter {
        self.balls.iter_mut()
    }
}

impl PartialEq for BallSet {
    /// Two sets are equal when their balls and rests are (ids are bookkeeping, not state).
    fn eq(&self, other: &Self) -> bool {
        self.balls == other.balls && self.rest == other.rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

    fn ball(x: f32) -> Ball {
        Ball::new(Vec2::new(x, 0.0), Vec2::ZERO, 1.0, 1.0, 0)
    }

    #[test]
    fn removing_a_ball_keeps_every_other_id_and_the_order() {
        let mut set = BallSet::default();
        let ids: Vec<BallId> = (0..5).map(|k| set.push(ball(k as f32))).collect();
        let gone = set.remove(1);
        assert_eq!((gone.index, gone.id), (1, ids[1]));
        assert_eq!(set.starts()[1].x, 2.0, "the start column follows its ball");
        let moved: Vec<_> = (0..5).map(|k| gone.moved(k)).collect();
        assert_eq!(moved, [Some(0), None, Some(1), Some(2), Some(3)]);
        let xs: Vec<f32> = set.iter().map(|b| b.pos.x).collect();
        assert_eq!(xs, [0.0, 2.0, 3.0, 4.0]);
        for (k, id) in ids.iter().enumerate().filter(|(k, _)| *k != 1) {
            let i = set.index(*id).unwrap();
            assert_eq!(set[i].pos.x, k as f32, "{id} follows its ball");
        }
        assert_eq!(set.index(ids[1]), Err(StaleBall(ids[1])));
    }

    #[test]
    fn a_reused_slot_never_answers_to_the_old_id() {
        let mut set = BallSet::default();
        let a = set.push(ball(0.0));
        set.remove(0);
        let b = set.push(ball(1.0));
        assert_eq!(a.slot(), b.slot());
        assert_ne!(a, b);
        assert!(set.index(a).is_err());
        assert_eq!(set.index(b), Ok(0));
        set.clear();
        assert!(set.index(b).is_err());
        assert!(set.is_empty());
    }

    #[test]
    fn a_table_given_its_saved_ids_names_the_same_balls_and_hands_out_the_same_next_ids() {
        let mut set = BallSet::default();
        let ids: Vec<BallId> = (0..6).map(|k| set.push(ball(k as f32))).collect();
        set.remove(4);
        set.remove(1);
        let again = set.push(ball(9.0));
        set.remove(0);
        let saved = set.saved_ids();
        assert_eq!(saved.problem(set.len()), None);
        let mut restored = BallSet::from_balls(set.iter().copied().collect());
        restored.take_ids(&saved);
        for id in ids.iter().chain([&again]) {
            let here = set.index(*id).map(|i| set[i].pos.x);
            assert_eq!(restored.index(*id).map(|i| restored[i].pos.x), here, "{id}");
        }
        for _ in 0..3 {
            assert_eq!(restored.push(ball(7.0)), set.push(ball(7.0)));
        }
    }

    #[test]
    fn saved_ids_that_do_not_fit_the_balls_are_named() {
        let saved = |balls: &[u32], free: &[u32]| SavedIds {
            balls: balls.iter().map(|&k| BallId::fresh(k)).collect(),
            free: free.iter().map(|&k| BallId::fresh(k)).collect(),
        };
        assert_eq!(saved(&[0, 2], &[1]).problem(2), None);
        assert!(saved(&[0], &[])
            .problem(2)
            .unwrap()
            .contains("1 ids for 2 balls"));
        assert!(saved(&[0, 0], &[])
            .problem(2)
            .unwrap()
            .contains("named twice"));
        assert!(saved(&[0, 3], &[])
            .problem(2)
            .unwrap()
            .contains("slot 3 of 2"));
    }

    #[test]
    fn a_set_built_afresh_names_its_balls_by_position() {
        let set = BallSet::from_balls(vec![ball(0.0), ball(1.0), ball(2.0)]);
        for i in 0..3u32 {
            assert_eq!(set.index(BallId::fresh(i)), Ok(i as usize));
            assert_eq!(set.id(i as usize), Some(BallId::fresh(i)));
        }
    }
}
