//! The sleepers' part of the frame's end's pairs (`pairs.rs`), kept from one search to the
//! next: the pairs among the broad phase's sleepers and between them and the obstacles, by
//! [`Aabb::overlaps`] of their boxes, as a broad phase over those boxes gives them.
//!
//! That part depends only on the obstacles' boxes, the sleepers and the sleepers' boxes. A
//! pile settling changes the set of sleepers at nearly every frame, a few balls at a time,
//! and a ball woken and gone back to sleep may have moved; searching all of them again each
//! time cost a whole grid over thousands of still balls. So the last search's sleepers,
//! their boxes, the obstacles' boxes and the pairs are kept. While the obstacles' boxes are
//! the same, the sleepers still asleep with the same box keep their pairs with each other and
//! with the obstacles; the others (gone, or back with another box) lose theirs; and each new
//! one (or one back with another box) is tested against the obstacles and, through cells of
//! its own kept between searches, against the sleepers near it. Those are the pairs a search
//! from scratch finds, in the same sorted order. Whatever this cannot answer cheaply (changed
//! obstacles, many new sleepers at once, a box of no finite size, a box wider than the cells)
//! goes to the search from scratch, whose result is then kept. The pairs are a function of
//! the obstacles' boxes and of each sleeper's number and box alone, so nothing else (balls
//! renumbered, a state restored) can make the kept ones wrong.
//! Cost: `O(changed sleepers · (obstacles + neighbours) + pairs)` a search.

use crate::broad::Pair;
use crate::geom::Aabb;

/// Most box tests of new sleepers against the obstacles a search makes before it leaves the
/// work to a search from scratch.
const MOST_OBSTACLE_TESTS: usize = 1 << 16;

/// The kept search (see the module notes).
#[derive(Default)]
pub(super) struct SleeperPairs {
    /// Whether the fields below describe the last search.
    valid: bool,
    /// The last search's sleepers (ascending) and their boxes.
    seen: Vec<(u32, Aabb)>,
    /// The obstacles' boxes then.
    shapes: Vec<Aabb>,
    /// Its pairs in the world's pair space (obstacle index, or obstacle count plus ball
    /// index), sorted.
    pairs: Vec<Pair>,
    /// The kept sleepers by cell, built when first needed after a search from scratch.
    cells: Option<Cells>,
    /// Scratch: per ball, whether it lost its pairs; the new pairs.
    lost: Vec<bool>,
    found: Vec<Pair>,
}

/// Sleepers by square cell of side `size` (at least any of their boxes' sides, so a box
/// meets at most two cells a side), each cell's in the bucket its coordinates hash to (a
/// bucket may hold several cells' sleepers: a search tests each box it finds there).
struct Cells {
    size: f32,
    buckets: Vec<Vec<u32>>,
}

impl Cells {
    /// Cells of side `size` for about `n` sleepers.
    fn new(size: f32, n: usize) -> Self {
        let buckets = (2 * n).max(64).next_power_of_two();
        Cells {
            size,
            buckets: vec![Vec::new(); buckets],
        }
    }

    /// Whether the cells hold many more sleepers than they were made for.
    fn crowded(&self, n: usize) -> bool {
        n > 2 * self.buckets.len()
    }

    /// The buckets of the cells box `b` (finite, no side wider than the cells) meets.
    fn buckets_of(&self, b: &Aabb) -> impl Iterator<Item = usize> + use<> {
        let cell = |x: f32| (x / self.size).floor() as i32;
        let (x0, x1, y0, y1) = (cell(b.min.x), cell(b.max.x), cell(b.min.y), cell(b.max.y));
        let mask = self.buckets.len() - 1;
        (x0..=x1).flat_map(move |x| {
            (y0..=y1).map(move |y| {
                let h = (x as u32).wrapping_mul(0x9E37_79B1) ^ (y as u32).wrapping_mul(0x85EB_CA77);
                (h ^ h >> 15) as usize & mask
            })
        })
    }

    fn insert(&mut self, ball: u32, b: &Aabb) {
        for k in self.buckets_of(b) {
            self.buckets[k].push(ball);
        }
    }

    fn remove(&mut self, ball: u32, b: &Aabb) {
        for k in self.buckets_of(b) {
            if let Some(at) = self.buckets[k].iter().position(|&o| o == ball) {
                self.buckets[k].swap_remove(at);
            }
        }
    }
}

/// Whether box `b` is finite and no wider than `size` on either side.
fn fits(b: &Aabb, size: f32) -> bool {
    let side = b.max - b.min;
    b.min.is_finite() && b.max.is_finite() && side.x <= size && side.y <= size
}

impl SleeperPairs {
    /// Keeps a search from scratch: the obstacles' boxes `shapes`, the sleepers (ascending)
    /// and their boxes from `box_of`, and their pairs `pairs` (world pair space, sorted).
    pub(super) fn keep(
        &mut self,
        shapes: &[Aabb],
        sleepers: &[u32],
        box_of: impl Fn(u32) -> Aabb,
        pairs: &[Pair],
    ) {
        self.shapes.clear();
        self.shapes.extend_from_slice(shapes);
        self.seen.clear();
        self.seen.extend(sleepers.iter().map(|&b| (b, box_of(b))));
        self.pairs.clear();
        self.pairs.extend_from_slice(pairs);
        self.cells = None;
        self.valid = true;
    }

    /// The pairs for the obstacles' boxes `shapes` and the sleepers `sleepers` (ascending)
    /// with the boxes `box_of` gives, found from the kept search (world pair space, sorted);
    /// `None` when it cannot answer (see the module notes): search from scratch, then
    /// [`SleeperPairs::keep`] it.
    pub(super) fn update(
        &mut self,
        shapes: &[Aabb],
        sleepers: &[u32],
        box_of: impl Fn(u32) -> Aabb,
    ) -> Option<&[Pair]> {
        if !self.valid || self.shapes[..] != *shapes {
            return None;
        }
        // The sleepers that keep their pairs, and the new ones (or back with another box).
        let mut added = Vec::new();
        let mut kept = 0;
        let mut old = self.seen.iter().peekable();
        for &b in sleepers {
            while old.next_if(|&&(o, _)| o < b).is_some() {}
            match old.next_if(|&&(o, _)| o == b) {
                Some(&(_, was)) if was == box_of(b) => kept += 1,
                _ => added.push(b),
            }
        }
        let tests = added.len().saturating_mul(shapes.len().max(1));
        if tests > MOST_OBSTACLE_TESTS || added.len() > sleepers.len() / 2 + 64 {
            return None;
        }
        if kept == self.seen.len() && added.is_empty() {
            return Some(&self.pairs);
        }
        let boxes: Vec<Aabb> = added.iter().map(|&b| box_of(b)).collect();
        self.prepare_cells(&boxes)?;
        self.drop_lost(sleepers, &box_of);
        self.find_new(shapes, &added, &boxes, &box_of);
        self.seen.clear();
        self.seen.extend(sleepers.iter().map(|&b| (b, box_of(b))));
        Some(&self.pairs)
    }

    /// Cells of the kept sleepers (built from them if there are none yet), able to take
    /// `boxes`; `None` (and no cells) when a box does not fit them.
    fn prepare_cells(&mut self, boxes: &[Aabb]) -> Option<()> {
        let widest = |bs: &mut dyn Iterator<Item = &Aabb>| {
            bs.map(|b| (b.max - b.min).max_element())
                .fold(0.0f32, f32::max)
        };
        if self.cells.is_none() {
            let size = widest(&mut self.seen.iter().map(|(_, b)| b)).max(widest(&mut boxes.iter()));
            let size = if size > 0.0 && size.is_finite() {
                size
            } else {
                1.0
            };
            if !self.seen.iter().all(|(_, b)| fits(b, size)) {
                return None;
            }
            let mut cells = Cells::new(size, self.seen.len() + boxes.len());
            for (b, aabb) in &self.seen {
                cells.insert(*b, aabb);
            }
            self.cells = Some(cells);
        }
        let size = self.cells.as_ref().map_or(0.0, |c| c.size);
        let crowded = self
            .cells
            .as_ref()
            .is_some_and(|c| c.crowded(self.seen.len() + boxes.len()));
        if crowded || !boxes.iter().all(|b| fits(b, size)) {
            self.cells = None;
            return None;
        }
        Some(())
    }

    /// Takes out of the cells and the pairs every sleeper of the last search that is gone
    /// from `sleepers` or has another box now.
    fn drop_lost(&mut self, sleepers: &[u32], box_of: &impl Fn(u32) -> Aabb) {
        let Some(cells) = self.cells.as_mut() else {
            return;
        };
        self.lost.clear();
        let n = self.seen.last().map_or(0, |&(b, _)| b as usize + 1);
        self.lost.resize(n, false);
        for &(b, was) in &self.seen {
            let still = sleepers.binary_search(&b).is_ok() && box_of(b) == was;
            if !still {
                self.lost[b as usize] = true;
                cells.remove(b, &was);
            }
        }
        let n_shapes = self.shapes.len() as u32;
        let lost = &self.lost;
        let gone = |x: u32| {
            x.checked_sub(n_shapes)
                .is_some_and(|b| lost.get(b as usize).copied().unwrap_or(false))
        };
        self.pairs.retain(|&(i, j)| !gone(i) && !gone(j));
    }

    /// Finds the pairs of the new sleepers `added` (boxes `boxes`) with the obstacles and the
    /// sleepers near them, puts them in the cells, and merges the pairs into the kept ones.
    fn find_new(
        &mut self,
        shapes: &[Aabb],
        added: &[u32],
        boxes: &[Aabb],
        box_of: &impl Fn(u32) -> Aabb,
    ) {
        let Some(cells) = self.cells.as_mut() else {
            return;
        };
        for (&b, aabb) in added.iter().zip(boxes) {
            cells.insert(b, aabb);
        }
        let n = shapes.len() as u32;
        self.found.clear();
        for (&a, aabb) in added.iter().zip(boxes) {
            for (o, s) in shapes.iter().enumerate() {
                if s.overlaps(aabb) {
                    self.found.push((o as u32, n + a));
                }
            }
            for k in cells.buckets_of(aabb) {
                for &b in cells.buckets[k].iter().filter(|&&b| b != a) {
                    if box_of(b).overlaps(aabb) {
                        self.found.push((n + a.min(b), n + a.max(b)));
                    }
                }
            }
        }
        // A pair of two new sleepers, or of two sharing more than one bucket, came more than
        // once.
        self.found.sort_unstable();
        self.found.dedup();
        let old = std::mem::take(&mut self.pairs);
        self.pairs = merged(&old, &self.found);
    }
}

/// The sorted union of `a` and `b`, sorted and with nothing in common.
fn merged(a: &[Pair], b: &[Pair]) -> Vec<Pair> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] < b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;
    use rand::{Rng, SeedableRng};

    /// The pairs by testing every box against every other (world pair space, sorted).
    fn brute(shapes: &[Aabb], sleepers: &[u32], box_of: impl Fn(u32) -> Aabb) -> Vec<Pair> {
        let n = shapes.len() as u32;
        let mut out = Vec::new();
        for (k, &a) in sleepers.iter().enumerate() {
            let ba = box_of(a);
            for (o, s) in shapes.iter().enumerate() {
                if s.overlaps(&ba) {
                    out.push((o as u32, n + a));
                }
            }
            for &b in &sleepers[k + 1..] {
                if box_of(b).overlaps(&ba) {
                    out.push((n + a.min(b), n + a.max(b)));
                }
            }
        }
        out.sort_unstable();
        out
    }

    #[test]
    fn kept_searches_give_the_pairs_of_a_search_from_scratch() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let shapes = vec![
            Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(400.0, 4.0)),
            Aabb::new(Vec2::new(100.0, 0.0), Vec2::new(140.0, 300.0)),
        ];
        // Balls of radius 2–6 on a 400 × 300 field, falling asleep a few at a time, some
        // waking, some moving (awake or not) between searches.
        let mut pos: Vec<(Vec2, f32)> = (0..3000)
            .map(|_| {
                let p = Vec2::new(rng.gen_range(0.0..400.0), rng.gen_range(0.0..300.0));
                (p, rng.gen_range(2.0..6.0))
            })
            .collect();
        let mut asleep = vec![false; pos.len()];
        let mut kept = SleeperPairs::default();
        let (mut answered, mut from_scratch) = (0, 0);
        for round in 0..80 {
            for s in asleep.iter_mut() {
                match *s {
                    false => *s = rng.gen_bool(0.04),
                    true => *s = !rng.gen_bool(0.005),
                }
            }
            if round == 40 {
                // A wave: many at once.
                asleep.iter_mut().for_each(|s| *s |= rng.gen_bool(0.5));
            }
            for _ in 0..20 {
                let k = rng.gen_range(0..pos.len());
                pos[k].0 += Vec2::new(rng.gen_range(-3.0..3.0), rng.gen_range(-3.0..3.0));
            }
            let sleepers: Vec<u32> = (0..pos.len() as u32)
                .filter(|&b| asleep[b as usize])
                .collect();
            let box_of = |b: u32| Aabb::around(pos[b as usize].0, pos[b as usize].1);
            let want = brute(&shapes, &sleepers, box_of);
            match kept.update(&shapes, &sleepers, box_of) {
                Some(got) => {
                    answered += 1;
                    assert_eq!(got, &want[..], "round {round}");
                }
                None => {
                    from_scratch += 1;
                    kept.keep(&shapes, &sleepers, box_of, &want);
                }
            }
        }
        assert!(
            answered > 60 && from_scratch >= 2,
            "{answered} / {from_scratch}"
        );
    }

    #[test]
    fn changed_obstacles_or_boxes_too_wide_go_to_a_search_from_scratch() {
        let shapes = vec![Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0))];
        let small = |_: u32| Aabb::around(Vec2::new(5.0, 5.0), 1.0);
        let mut kept = SleeperPairs::default();
        assert!(
            kept.update(&shapes, &[0, 1], small).is_none(),
            "nothing kept yet"
        );
        kept.keep(&shapes, &[0, 1], small, &brute(&shapes, &[0, 1], small));
        assert_eq!(
            kept.update(&shapes, &[0, 1], small),
            Some(&[(0, 1), (0, 2), (1, 2)][..])
        );
        let moved = vec![Aabb::new(Vec2::ZERO, Vec2::new(11.0, 10.0))];
        assert!(kept.update(&moved, &[0, 1], small).is_none());
        // Cells are made for the boxes of their time: a box wider than them later is not
        // theirs to answer.
        assert_eq!(
            kept.update(&shapes, &[0, 1, 2], small).map(<[_]>::len),
            Some(6)
        );
        let wide = |b: u32| match b {
            3 => Aabb::around(Vec2::new(5.0, 5.0), 50.0),
            _ => small(b),
        };
        assert!(kept.update(&shapes, &[0, 1, 2, 3], wide).is_none());
        kept.keep(&shapes, &[0, 1], small, &brute(&shapes, &[0, 1], small));
        let lost = |b: u32| match b {
            2 => Aabb::around(Vec2::new(f32::INFINITY, 5.0), 1.0),
            _ => small(b),
        };
        assert!(kept.update(&shapes, &[0, 1, 2], lost).is_none());
    }
}
