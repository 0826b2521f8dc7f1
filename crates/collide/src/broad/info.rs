//! What a broad phase says about itself, declared once in its own file
//! (`const DESCRIPTION: BroadInfo`) and read by everything that names, colours, sizes or
//! explains it: the command line, the menus, the app's palette and heat map, its parameter
//! panel with the rules of thumb, the benchmarks and their charts. A new broad phase is its
//! own file and a line in the list of kinds (`broad/mod.rs`); nothing else needs to name it.

use super::phase::{BroadPhase, Param};
use super::rule::{BallSizes, Rule, RuleValues};

/// A broad phase's declaration.
#[derive(Clone, Copy, Debug)]
pub struct BroadInfo {
    /// Command-line name, also the name in files (CSV columns, recordings, settings).
    pub name: &'static str,
    /// Menu label.
    pub label: &'static str,
    /// The colour of its lines in charts (RGB bytes): the library never draws, the app does.
    pub colour: [u8; 3],
    /// The places it puts balls in (leaves, sectors, cells), where the heat map colours its
    /// work; `None` for an algorithm without fixed places (the heat goes on the balls).
    pub places: Option<Places>,
    /// Its tunable parameters, in the order of [`BroadPhase::params`].
    pub params: &'static [ParamInfo],
    /// A new instance with default parameters.
    pub create: fn() -> Box<dyn BroadPhase>,
}

/// The fixed places of an algorithm, as the heat map shows them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Places {
    /// What one place is called ("leaf", "sector", "cell").
    pub word: &'static str,
    /// How opaque the heat is drawn on them (0..=1): places that overlap (shifted sectors)
    /// are drawn lighter.
    pub heat_alpha: f32,
}

/// A tunable parameter's declaration: its name, unit, range, and its rule of thumb with the
/// rule's source.
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    /// Key passed to [`BroadPhase::set_param`].
    pub name: &'static str,
    /// Its unit ("px", "levels", "balls"; "" for a choice).
    pub unit: &'static str,
    /// Slider minimum.
    pub min: f32,
    /// Slider maximum.
    pub max: f32,
    /// Whole numbers only.
    pub integer: bool,
    /// What the rule of thumb says, in a sentence.
    pub says: &'static str,
    /// Where the rule comes from.
    pub source: &'static str,
    /// The rule's values for the balls in play.
    pub rule: fn(&BallSizes) -> RuleValues,
}

impl ParamInfo {
    /// The parameter at `value`, with one line of `help` (shown beside the slider).
    pub fn param(&self, value: f32, help: String) -> Param {
        Param {
            name: self.name,
            value,
            min: self.min,
            max: self.max,
            integer: self.integer,
            help,
        }
    }

    /// The rule of thumb for the balls `b`.
    pub fn rule(&self, b: &BallSizes) -> Rule {
        let v = (self.rule)(b);
        Rule {
            says: self.says,
            source: self.source,
            auto: v.auto,
            auto_why: v.auto_why,
            value: v.value,
            sweep: v.sweep,
        }
    }
}
