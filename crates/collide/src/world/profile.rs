//! The physics profile: where a step's time went, by stage and by thread, when the world has
//! a clock ([`crate::World::set_clock`]). The stages are named here once; the side panel,
//! the headless summary and the lab's examples read them from `Tally::profile` (`counters.rs`).
//!
//! A stage's wall time is the calling thread's (`StageNanos`, and the broad phase's
//! `Tally::broad_nanos`); its [`Spread`] says what each thread did meanwhile: busy, waiting
//! for the others within the stage (idle), and the rest of the wall time absent (a worker
//! that started late, or never, because the machine or the pool was busy elsewhere).

pub use crate::workers::{Spread, SLOTS};

/// Each stage's work by thread ([`Spread`]), when the world has a clock; zero otherwise.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StageThreads {
    /// The broad phase (and the pair cache).
    pub pairs: Spread,
    /// Soft contacts: the narrow phase.
    pub narrow: Spread,
    /// Soft contacts: colouring, the lanes and the body states.
    pub prepare: Spread,
    /// Soft contacts: warm start and the solve passes.
    pub solve: Spread,
    /// Soft contacts: the move of the positions and the relax passes.
    pub relax: Spread,
    /// Soft contacts: restitution and what ends the sub-step.
    pub restitution: Spread,
    /// Sleep.
    pub sleep: Spread,
    /// The overlap meter.
    pub meter: Spread,
}

impl std::ops::AddAssign for StageThreads {
    fn add_assign(&mut self, o: Self) {
        self.pairs += o.pairs;
        self.narrow += o.narrow;
        self.prepare += o.prepare;
        self.solve += o.solve;
        self.relax += o.relax;
        self.restitution += o.restitution;
        self.sleep += o.sleep;
        self.meter += o.meter;
    }
}

/// One stage of the profile: its name, its wall time (ns) and how it spread over the threads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StageTime {
    /// The stage's name as the panel writes it.
    pub name: &'static str,
    /// Whether only the soft contacts run it.
    pub soft: bool,
    /// Wall time on the calling thread (ns).
    pub nanos: u64,
    /// What each thread did meanwhile.
    pub spread: Spread,
}

impl StageTime {
    /// Thread `k`'s time absent from the stage (ns): its wall time neither busy nor idle.
    pub fn absent(&self, k: usize) -> u64 {
        let s = &self.spread;
        self.nanos.saturating_sub(s.busy[k] + s.idle[k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stage_not_run_by_a_thread_counts_as_its_absence() {
        let mut spread = Spread::default();
        spread.busy[0] = 70;
        spread.idle[0] = 30;
        spread.busy[1] = 60;
        let s = StageTime {
            name: "solve",
            soft: true,
            nanos: 100,
            spread,
        };
        assert_eq!((s.absent(0), s.absent(1), s.absent(2)), (0, 40, 100));
    }
}
