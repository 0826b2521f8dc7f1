//! The pairs stage: where candidate pairs leave the broad phase. It boxes what the step asks
//! for, calls the broad phase (through the pair cache when asked), with the sleepers shown to
//! it as static boxes, verifies its pairs against brute force when asked, times it, and turns
//! the pairs of the broad phase's number space (obstacles, then balls) into typed
//! [`BodyPair`]s. No other file does arithmetic on that number space.

use super::body::{BallIx, Body, BodyPair, ShapeIx};
use super::contacts::{Kept, KeptImpulse};
use super::{Tally, World};
use crate::broad::{BroadInput, Pair};
use crate::geom::Aabb;

impl World {
    /// The balls the last broad-phase call saw asleep (indices, ascending).
    pub(super) fn broad_sleepers(&self) -> &[u32] {
        &self.sleep.sleepers
    }

    /// The broad phase over `self.aabbs` (obstacles, then every ball), through the pair
    /// cache when `cached`; the pairs go to `self.pairs` in the world's pair space (obstacle
    /// index, or shape count plus ball index), sorted, and typed into `self.bodies`. While some balls sleep, the broad phase
    /// sees them as static boxes placed after the statics, so it never pairs two sleepers or a
    /// sleeper with a static; its pairs are mapped back and sorted.
    pub(super) fn find_pairs_of_boxes(&mut self, cached: bool, tally: &mut Tally) {
        let n_shapes = self.shapes.len();
        let any_asleep = self.balls.iter().any(|b| b.asleep);
        if !any_asleep {
            self.sleep.sleepers.clear();
            let aabbs = std::mem::take(&mut self.aabbs);
            let input = BroadInput {
                aabbs: &aabbs,
                first_moving: self.first_moving,
                first_dynamic: n_shapes,
                statics_version: self.statics_version,
                world: self.bounds,
            };
            self.run_broad(&input, cached, None, tally);
            self.aabbs = aabbs;
            decode_all(&self.pairs, n_shapes, &mut self.bodies);
            return;
        }
        let mut st = std::mem::take(&mut self.sleep);
        let before = std::mem::take(&mut st.sleepers);
        st.awake.clear();
        for (i, b) in self.balls.iter().enumerate() {
            if b.asleep {
                st.sleepers.push(i as u32);
            } else {
                st.awake.push(i as u32);
            }
        }
        if st.sleepers != before || st.version == 0 {
            st.version = next_statics_version();
        }
        let (fm, z) = (self.first_moving, st.sleepers.len());
        let ball_box = |b: u32| self.aabbs[n_shapes + b as usize];
        let order = SleeperOrder {
            first_moving: fm,
            shapes: n_shapes,
            sleepers: &st.sleepers,
            awake: &st.awake,
        };
        order.boxes(&self.aabbs[..n_shapes], ball_box, &mut st.boxes);
        let boxes = std::mem::take(&mut st.boxes);
        let input = BroadInput {
            aabbs: &boxes,
            first_moving: fm + z,
            first_dynamic: n_shapes + z,
            statics_version: st.version,
            world: self.bounds,
        };
        self.run_broad(&input, cached, Some(&st.awake), tally);
        order.pairs_to_world(&mut self.pairs);
        self.pairs.sort_unstable();
        st.boxes = boxes;
        self.sleep = st;
        decode_all(&self.pairs, n_shapes, &mut self.bodies);
    }

    /// One broad-phase call on `input` (cached or not), verified when asked; `awake` maps the
    /// input's balls to the world's when some sleep.
    fn run_broad(
        &mut self,
        input: &BroadInput,
        cached: bool,
        awake: Option<&Vec<u32>>,
        tally: &mut Tally,
    ) {
        let t0 = self.clock.map(|c| c());
        if cached && self.settings.pair_cache {
            let dt = self.step_seconds() as f32;
            let balls = &self.balls;
            let margin = |b: usize| {
                let i = awake.map_or(b, |a| a[b] as usize);
                super::cache::margin(&balls[i], dt)
            };
            let broad = self.broad.as_mut();
            self.cache
                .find_pairs(broad, input, margin, &mut self.pairs, tally);
        } else {
            self.broad
                .find_pairs(input, &mut self.pairs, &mut tally.broad);
        }
        if let (Some(c), Some(t0)) = (self.clock, t0) {
            tally.broad_nanos += c().saturating_sub(t0);
        }
        if self.settings.verify {
            let (missed, extra) = verified(input, &self.pairs, &mut self.verify_scratch);
            tally.missed += missed;
            tally.extra += extra;
        }
    }
}

impl World {
    /// The soft contacts' kept impulses in their saved form.
    pub(super) fn saved_impulses(&self) -> Vec<KeptImpulse> {
        let n_shapes = self.shapes.len() as u32;
        let saved = |k: &Kept| KeptImpulse {
            pair: encode(&k.pair, n_shapes),
            impulse: k.impulse,
            friction: k.friction,
            rolling: k.rolling,
        };
        self.soft.kept.iter().map(saved).collect()
    }

    /// Saved impulses typed for this world's shapes; a pair of two obstacles, which no
    /// contact has, is dropped.
    pub(super) fn kept_of(&self, saved: &[KeptImpulse]) -> Vec<Kept> {
        let n_shapes = self.shapes.len() as u32;
        let kept = |k: &KeptImpulse| {
            Some(Kept {
                pair: decode(k.pair, n_shapes)?,
                impulse: k.impulse,
                friction: k.friction,
                rolling: k.rolling,
            })
        };
        saved.iter().filter_map(kept).collect()
    }
}

/// Pair `(i, j)`, `i < j`, of the broad phase's number space (obstacles below `n_shapes`, then
/// balls) as typed; `None` for two obstacles (never a candidate).
pub(super) fn decode(p: Pair, n_shapes: u32) -> Option<BodyPair> {
    let (i, j) = p;
    let ball_j = BallIx(j.checked_sub(n_shapes)?);
    Some(if i < n_shapes {
        BodyPair {
            ball: ball_j,
            other: Body::Shape(ShapeIx(i)),
        }
    } else {
        BodyPair {
            ball: BallIx(i - n_shapes),
            other: Body::Ball(ball_j),
        }
    })
}

/// Typed pair `p` in the broad phase's number space, as [`decode`] reads it.
pub(super) fn encode(p: &BodyPair, n_shapes: u32) -> Pair {
    match p.other {
        Body::Shape(s) => (s.0, n_shapes + p.ball.0),
        Body::Ball(o) => (n_shapes + p.ball.0, n_shapes + o.0),
    }
}

/// The pairs of `raw` as typed into `out`.
pub(super) fn decode_all(raw: &[Pair], n_shapes: usize, out: &mut Vec<BodyPair>) {
    out.clear();
    out.extend(raw.iter().filter_map(|&p| decode(p, n_shapes as u32)));
}

/// Compares `pairs` with brute force's pairs for the same input (both sorted): returns
/// `(missed, extra)`.
pub(super) fn verified(input: &BroadInput, pairs: &[Pair], scratch: &mut Vec<Pair>) -> (u64, u64) {
    crate::broad::brute::brute_pairs(input, scratch);
    let (mut i, mut j, mut missed, mut extra) = (0, 0, 0u64, 0u64);
    while i < scratch.len() || j < pairs.len() {
        match (scratch.get(i), pairs.get(j)) {
            (Some(a), Some(b)) if a == b => (i, j) = (i + 1, j + 1),
            (Some(a), Some(b)) if a < b => (i, missed) = (i + 1, missed + 1),
            (Some(_), None) => (i, missed) = (i + 1, missed + 1),
            _ => (j, extra) = (j + 1, extra + 1),
        }
    }
    (missed, extra)
}

/// A number no other world has used, so a broad phase moved between worlds rebuilds statics.
pub(super) fn next_statics_version() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// The broad phase's order of the boxes while some balls sleep: the statics, the sleepers (as
/// static boxes), the moving shapes, the awake balls. Used by the step's broad phase and by the
/// overlap meter's own search.
pub(super) struct SleeperOrder<'a> {
    pub first_moving: usize,
    pub shapes: usize,
    pub sleepers: &'a [u32],
    pub awake: &'a [u32],
}

impl SleeperOrder<'_> {
    /// The boxes in this order: `shape_boxes` of every obstacle, `ball_box(b)` of ball `b`.
    pub fn boxes(&self, shape_boxes: &[Aabb], ball_box: impl Fn(u32) -> Aabb, out: &mut Vec<Aabb>) {
        let fm = self.first_moving;
        out.clear();
        out.extend_from_slice(&shape_boxes[..fm]);
        out.extend(self.sleepers.iter().map(|&b| ball_box(b)));
        out.extend_from_slice(&shape_boxes[fm..self.shapes]);
        out.extend(self.awake.iter().map(|&b| ball_box(b)));
    }

    /// Pairs of this order's indices typed, in their order, into `out`.
    pub fn pairs_to_bodies(&self, pairs: &mut [Pair], out: &mut Vec<BodyPair>) {
        self.pairs_to_world(pairs);
        out.clear();
        out.extend(pairs.iter().filter_map(|&p| decode(p, self.shapes as u32)));
    }

    /// Pairs of this order's indices turned into the world's pair space, each `(min, max)`.
    pub fn pairs_to_world(&self, pairs: &mut [crate::broad::Pair]) {
        let (fm, n, z) = (self.first_moving, self.shapes, self.sleepers.len());
        let map = |k: u32| -> u32 {
            let k = k as usize;
            let m = if k < fm {
                k
            } else if k < fm + z {
                n + self.sleepers[k - fm] as usize
            } else if k < n + z {
                k - z
            } else {
                n + self.awake[k - n - z] as usize
            };
            m as u32
        };
        for p in pairs.iter_mut() {
            let (a, b) = (map(p.0), map(p.1));
            *p = (a.min(b), a.max(b));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_of_the_broad_phase_type_and_untype_unchanged() {
        let n = 5;
        for p in [(0, 5), (4, 9), (5, 6), (7, 12)] {
            let typed = decode(p, n).expect("a ball pair or an obstacle pair");
            assert_eq!(encode(&typed, n), p);
        }
        let shape_pair = decode((1, 7), n).unwrap();
        assert_eq!(shape_pair.other, Body::Shape(ShapeIx(1)));
        assert_eq!(shape_pair.ball, BallIx(2));
        assert_eq!(
            decode((1, 3), n),
            None,
            "two obstacles are never a candidate"
        );
    }

    #[test]
    fn typed_pairs_sort_as_the_broad_phase_reports_them() {
        let n = 3;
        let mut raw = vec![(0, 4), (0, 7), (2, 3), (3, 4), (3, 9), (5, 6)];
        raw.sort_unstable();
        let keys: Vec<_> = raw.iter().map(|&p| decode(p, n).unwrap().key()).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
    }
}
