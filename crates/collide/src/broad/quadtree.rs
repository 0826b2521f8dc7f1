//! Placeholder until the array quadtree lands (being written now).
use super::{brute::brute_pairs, BroadCounters, BroadInput, BroadKind, BroadPhase, Pair};
/// The original toy's array quadtree.
#[derive(Default, Debug)]
pub struct QuadTree;
impl BroadPhase for QuadTree {
    fn kind(&self) -> BroadKind {
        BroadKind::Quadtree
    }
    fn find_pairs(
        &mut self,
        input: &BroadInput,
        pairs: &mut Vec<Pair>,
        counters: &mut BroadCounters,
    ) {
        counters.aabb_tests += brute_pairs(input, pairs);
        counters.pairs += pairs.len() as u64;
    }
    fn validate(&self) -> Result<(), String> {
        Ok(())
    }
}
