//! The two sizes every check runs at: `ci` (the integration tests, a few minutes on two
//! cores in release) and `full` (the app's `check` command).

use super::containment::ContainmentSize;
use super::determinism::DeterminismSize;
use super::energy::EnergySize;
use super::finite::FiniteSize;
use super::narrow::NarrowSize;
use super::pile::PileSize;
use super::restitution::RestitutionSize;
use super::soak::SoakSize;

/// Sizes of all checks.
#[derive(Clone, Debug)]
pub struct Sizes {
    /// No NaN, no panic.
    pub finite: FiniteSize,
    /// Energy conservation.
    pub energy: EnergySize,
    /// Energy added only at bumpers and moving shapes.
    pub adders: EnergySize,
    /// Restitution audit.
    pub restitution: RestitutionSize,
    /// Determinism.
    pub determinism: DeterminismSize,
    /// Containment.
    pub containment: ContainmentSize,
    /// Soak.
    pub soak: SoakSize,
    /// Generated damaged scenes: truncation stride and seeded edits.
    pub damage: (usize, u64),
    /// The narrow phase against the exact reference.
    pub narrow: NarrowSize,
    /// The settling pile.
    pub pile: PileSize,
}

impl Sizes {
    /// The sizes the integration tests use.
    pub fn ci() -> Self {
        Self {
            finite: FiniteSize {
                worlds: 100_000,
                steps: 3,
                seed: 1,
                huge_exp: 5.0,
            },
            energy: EnergySize {
                worlds: 2,
                balls: 6,
                steps: 100_000,
                seed: 1,
            },
            adders: EnergySize {
                worlds: 2,
                balls: 6,
                steps: 20_000,
                seed: 1,
            },
            restitution: RestitutionSize::small(),
            determinism: DeterminismSize {
                steps: 10_000,
                balls: 40,
                seed: 3,
            },
            containment: ContainmentSize {
                balls: 300,
                pairs: 10,
                seconds: 20,
                seed: 1,
            },
            soak: SoakSize {
                balls: 200,
                minutes: 3,
                seed: 1,
            },
            damage: (7, 2_000),
            narrow: NarrowSize {
                cases: 100_000,
                seed: 1,
            },
            pile: PileSize {
                balls: 2_000,
                seconds: 12,
                seed: 1,
            },
        }
    }

    /// The sizes of the `check` command.
    pub fn full() -> Self {
        Self {
            finite: FiniteSize {
                worlds: 300_000,
                steps: 10,
                seed: 1,
                huge_exp: 6.0,
            },
            energy: EnergySize {
                worlds: 8,
                balls: 12,
                steps: 100_000,
                seed: 1,
            },
            adders: EnergySize {
                worlds: 4,
                balls: 12,
                steps: 100_000,
                seed: 1,
            },
            restitution: RestitutionSize::full(),
            determinism: DeterminismSize {
                steps: 10_000,
                balls: 120,
                seed: 3,
            },
            containment: ContainmentSize {
                balls: 2_000,
                pairs: 50,
                seconds: 600,
                seed: 1,
            },
            soak: SoakSize {
                balls: 2_000,
                minutes: 30,
                seed: 1,
            },
            damage: (1, 20_000),
            narrow: NarrowSize {
                cases: 2_000_000,
                seed: 1,
            },
            pile: PileSize {
                balls: 10_000,
                seconds: 15,
                seed: 1,
            },
        }
    }
}
