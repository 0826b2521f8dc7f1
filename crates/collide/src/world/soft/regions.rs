//! Each thread a region of the pile: the lanes of every colour ordered by where their
//! contact is, so that the run of a colour a thread owns (`threads.rs`) holds the contacts
//! of one band of the world, the same band from colour to colour.
//!
//! The fill numbers the balls in no order of place, and the contacts come in pair order, so
//! without this a thread's run of a colour touched balls anywhere: the next colour's run,
//! on another thread, wrote the same balls' states, and their cache lines crossed between
//! the cores all through the passes. Ordered by band, a ball's lanes in every colour go to
//! the thread of its band, and only the balls on a band's edge are shared.
//!
//! The order within a colour changes no bit: no two lanes of a colour share a ball, so the
//! passes, the restitution and the impulses kept give the same numbers in any order of a
//! colour's lanes. Two parts of a colour keep their places: its firm lanes rounded up to
//! whole blocks (which get the extra relax passes) are ordered among themselves, and the
//! overflow, solved one contact after another, keeps its order. The hits the restitution
//! records keep the plan's own order (`finish.rs` sorts them back).
//! Cost: `O(contacts)`, a stable counting sort on [`BANDS`] bands.

use super::colour::{Kind, Plan};
use crate::world::contacts::SoftContact;

/// Bands of the world's height the contacts are sorted into.
const BANDS: usize = 64;

/// "No contact": a padding lane in the plan's order.
const PADDING: u32 = u32::MAX;

/// The scratch the ordering keeps between steps.
#[derive(Clone, Debug, Default)]
pub(super) struct Regions {
    band: Vec<u8>,
    sorted: Vec<u32>,
}

impl Regions {
    /// Orders the lanes of each colour of `plan` (over `contacts`) by band, keeping the firm
    /// ranges and the overflow as the module notes say.
    pub(super) fn order(&mut self, plan: &mut Plan, contacts: &[SoftContact]) {
        self.bands_of(contacts);
        for r in 0..plan.ranges.len() {
            let range = &plan.ranges[r];
            if range.kind == Kind::Mixed {
                continue;
            }
            let (start, end) = (range.lanes.start, range.lanes.end);
            let firm = plan.firm.iter().find(|f| f.lanes.start == start);
            let firm_end = firm.map_or(start, |f| f.lanes.end);
            let order = &mut plan.order;
            let filled = start + order[start..end].partition_point(|&k| k != PADDING);
            let firm_end = firm_end.min(filled);
            self.sort(&mut order[start..firm_end]);
            self.sort(&mut order[firm_end..filled]);
        }
    }

    /// Each contact's band: where its point lies in the contacts' height.
    fn bands_of(&mut self, contacts: &[SoftContact]) {
        let (lo, hi) = contacts.iter().fold((f32::MAX, f32::MIN), |(lo, hi), c| {
            (lo.min(c.point.y), hi.max(c.point.y))
        });
        let scale = match hi > lo {
            true => BANDS as f32 / (hi - lo),
            false => 0.0,
        };
        self.band.clear();
        self.band.extend(contacts.iter().map(|c| {
            let b = (c.point.y - lo) * scale;
            // `as` saturates: NaN and below zero give band 0.
            (b as usize).min(BANDS - 1) as u8
        }));
    }

    /// Sorts `lanes` (contact numbers) by band, stably.
    fn sort(&mut self, lanes: &mut [u32]) {
        if lanes.len() < 2 {
            return;
        }
        let mut at = [0u32; BANDS + 1];
        for &k in lanes.iter() {
            at[self.band[k as usize] as usize + 1] += 1;
        }
        for b in 0..BANDS {
            at[b + 1] += at[b];
        }
        self.sorted.clear();
        self.sorted.resize(lanes.len(), 0);
        for &k in lanes.iter() {
            let slot = &mut at[self.band[k as usize] as usize];
            self.sorted[*slot as usize] = k;
            *slot += 1;
        }
        lanes.copy_from_slice(&self.sorted);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::body::{BallIx, Body, ShapeIx};
    use glam::Vec2;
    use rand::{Rng, SeedableRng};

    /// Contacts among `balls` balls and a few obstacles, at random heights, some firm.
    fn contacts(seed: u64, balls: u32) -> Vec<SoftContact> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut out: Vec<SoftContact> = (0..6 * balls)
            .map(|_| {
                let a = rng.gen_range(0..balls - 1);
                let other = match rng.gen_bool(0.2) {
                    true => Body::Shape(ShapeIx(rng.gen_range(0..4))),
                    false => Body::Ball(BallIx(rng.gen_range(a + 1..balls))),
                };
                let mut c = SoftContact::plain(BallIx(a), other);
                c.point = Vec2::new(0.0, rng.gen_range(-50.0..900.0));
                c.firm = rng.gen_bool(0.3);
                c
            })
            .collect();
        out.sort_by_key(|c| c.pair().key());
        out.dedup_by_key(|c| c.pair().key());
        out
    }

    #[test]
    fn ordering_by_region_keeps_each_colour_its_contacts_and_the_overflow_its_order() {
        let cs = contacts(3, 400);
        let mut plan = Plan::default();
        plan.coloured(&cs, 400);
        let before = plan.clone();
        let mut regions = Regions::default();
        regions.order(&mut plan, &cs);
        assert_eq!(plan.ranges, before.ranges);
        assert_eq!(plan.firm, before.firm);
        let mut moved = 0;
        for r in &plan.ranges {
            let (mut now, mut was) = (
                plan.order[r.lanes.clone()].to_vec(),
                before.order[r.lanes.clone()].to_vec(),
            );
            if r.kind == Kind::Mixed {
                assert_eq!(now, was, "the overflow keeps its order");
                continue;
            }
            moved += now.iter().zip(&was).filter(|(a, b)| a != b).count();
            now.sort_unstable();
            was.sort_unstable();
            assert_eq!(now, was, "a colour keeps its contacts");
        }
        for f in &plan.firm {
            let (mut now, mut was) = (
                plan.order[f.lanes.clone()].to_vec(),
                before.order[f.lanes.clone()].to_vec(),
            );
            now.sort_unstable();
            was.sort_unstable();
            assert_eq!(now, was, "the firm lanes keep their contacts");
        }
        assert!(moved > 0, "some lanes moved");
        // Within a colour's non-firm run the bands rise.
        let band = |k: u32| regions.band[k as usize];
        let r = &plan.ranges[0];
        let firm_end = plan.firm.first().filter(|f| f.lanes.start == r.lanes.start);
        let from = firm_end.map_or(r.lanes.start, |f| f.lanes.end);
        let lanes: Vec<u32> = plan.order[from..r.lanes.end]
            .iter()
            .copied()
            .filter(|&k| k != PADDING)
            .collect();
        assert!(lanes.len() > 50);
        assert!(lanes.windows(2).all(|w| band(w[0]) <= band(w[1])));
    }
}
