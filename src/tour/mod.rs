//! Things to try: the list of short experiments (`things_to_try.ron`, embedded), each a
//! title, a few sentences on what to look for, a set-up ([`Setup`]) that names only what it
//! changes and the corner of the view its window keeps to ([`Corner`]); reading and checking the list, and `--tour N` / `--tour list`. The app applies a
//! set-up (`app/teach.rs`); the window lists them (`ui/tour.rs`).

use collide::{BroadKind, Solver, Tunnelling};
use serde::Deserialize;
use std::sync::OnceLock;

/// The list's text, as shipped.
pub const THINGS_TO_TRY: &str = include_str!("things_to_try.ron");

/// One experiment.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// Its title.
    pub title: String,
    /// What to do and what to look for.
    pub text: String,
    /// What its button sets up.
    pub setup: Setup,
    /// The corner the window moves to once it is set up, clear of what the text asks to
    /// watch (the top right, over the side panel's first sections, when not named).
    #[serde(default)]
    pub window: Corner,
}

/// A corner of the screen between the toolbar and the record bar: on the left over the
/// table's view, on the right over the side panel.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
pub enum Corner {
    /// Top left: over the table's top left.
    TopLeft,
    /// Top right: over the side panel's first sections (the scene, the balls in play), the
    /// whole table in sight.
    #[default]
    TopRight,
    /// Bottom left: over the table's bottom left.
    BottomLeft,
    /// Bottom right: over the side panel's last rows.
    BottomRight,
}

impl Corner {
    /// Whether it is on the right, and at the bottom.
    pub fn sides(self) -> (bool, bool) {
        match self {
            Corner::TopLeft => (false, false),
            Corner::TopRight => (true, false),
            Corner::BottomLeft => (false, true),
            Corner::BottomRight => (true, true),
        }
    }
}

/// What an experiment's button changes; everything left out stays as it is.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct Setup {
    /// A built-in scene to load (with its own settings).
    pub scene: Option<String>,
    /// Balls of the scene's own fill (rain, field).
    pub scene_fill: Option<u32>,
    /// The broad phase, by its command-line name.
    pub broad: Option<String>,
    /// Its parameters, by name, set after it.
    pub params: Vec<(String, f32)>,
    /// Keep pairs between iterations.
    pub pair_cache: Option<bool>,
    /// The contact solver, by name.
    pub solver: Option<String>,
    /// Sleep on or off.
    pub sleep: Option<bool>,
    /// The tunnelling mode, by name.
    pub tunnelling: Option<String>,
    /// Motion iterations (1-64).
    pub motion: Option<u32>,
    /// Collision iterations (1-64).
    pub collision: Option<u32>,
    /// Gravity (px/s²).
    pub gravity: Option<f32>,
    /// The next ball's radius (px).
    pub radius: Option<f32>,
    /// The launch speed (px/s).
    pub speed: Option<f32>,
    /// Replace the balls with this many, of at most this radius (px).
    pub fill: Option<(u32, f32)>,
    /// Balls to launch.
    pub launch: Option<u32>,
    /// Overlays to turn on (names of `--show`).
    pub show: Vec<String>,
}

/// The set-up with its names looked up: what the app applies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Resolved {
    /// Index of the scene in the built-in scenes (`collide::scene::BUILTIN`, the app's list).
    pub scene: Option<usize>,
    /// The broad phase.
    pub broad: Option<BroadKind>,
    /// The solver.
    pub solver: Option<Solver>,
    /// The tunnelling mode.
    pub tunnelling: Option<Tunnelling>,
}

impl Setup {
    /// Its names looked up, or what is wrong with it.
    pub fn resolved(&self) -> Result<Resolved, String> {
        let scene = match &self.scene {
            Some(name) => Some(
                collide::scene::BUILTIN
                    .iter()
                    .position(|(n, _)| n == name)
                    .ok_or_else(|| format!("scene {name:?} is not a built-in scene"))?,
            ),
            None => None,
        };
        let look = |what: &str, name: &Option<String>, found: Option<()>| match (name, found) {
            (Some(n), None) => Err(format!("unknown {what} {n:?}")),
            _ => Ok(()),
        };
        let broad = self.broad.as_deref().and_then(BroadKind::from_name);
        look("broad phase", &self.broad, broad.map(|_| ()))?;
        let solver = self.solver.as_deref().and_then(Solver::from_name);
        look("solver", &self.solver, solver.map(|_| ()))?;
        let tunnelling = self.tunnelling.as_deref().and_then(Tunnelling::from_name);
        look("tunnelling mode", &self.tunnelling, tunnelling.map(|_| ()))?;
        self.checked_numbers()?;
        Ok(Resolved {
            scene,
            broad,
            solver,
            tunnelling,
        })
    }

    /// Overlays known, iterations in 1-64, a broad phase named when parameters are.
    fn checked_numbers(&self) -> Result<(), String> {
        if let Some(bad) = self.show.iter().find(|s| !crate::state::Show::knows(s)) {
            return Err(format!("unknown overlay {bad:?}"));
        }
        for (what, n) in [("motion", self.motion), ("collision", self.collision)] {
            if n.is_some_and(|n| !(1..=64).contains(&n)) {
                return Err(format!("{what} iterations must be 1-64"));
            }
        }
        if !self.params.is_empty() && self.broad.is_none() {
            return Err("params without a broad phase".into());
        }
        Ok(())
    }
}

/// Reads a list of experiments from `text` (RON), checking every set-up; the error names the
/// origin, the line and the experiment.
pub fn parse(text: &str, origin: &str) -> Result<Vec<Experiment>, String> {
    let list: Vec<Experiment> = ron::from_str(text).map_err(|e| {
        format!(
            "{origin}: line {}, column {}: {}",
            e.position.line, e.position.col, e.code
        )
    })?;
    for (k, x) in list.iter().enumerate() {
        x.setup
            .resolved()
            .map_err(|e| format!("{origin}: experiment {} ({}): {e}", k + 1, x.title))?;
    }
    Ok(list)
}

/// The shipped list (checked by the tests, so it always reads).
pub fn list() -> &'static [Experiment] {
    static LIST: OnceLock<Vec<Experiment>> = OnceLock::new();
    LIST.get_or_init(|| parse(THINGS_TO_TRY, "things_to_try.ron").unwrap_or_default())
}

/// The list as `--tour list` prints it: a numbered title per line.
pub fn list_text() -> String {
    list()
        .iter()
        .enumerate()
        .map(|(k, x)| format!("{:2}. {}\n", k + 1, x.title))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_list_reads_and_every_set_up_resolves() {
        let list = parse(THINGS_TO_TRY, "things_to_try.ron").expect("the list reads");
        assert!(list.len() >= 12, "about a dozen: {}", list.len());
        for x in &list {
            let words = x.text.split_whitespace().count();
            assert!((15..=90).contains(&words), "{}: {words} words", x.title);
            assert!(x.setup.resolved().is_ok());
        }
        assert_eq!(list, super::list());
    }

    #[test]
    fn a_bad_list_is_refused_naming_the_line_or_the_experiment() {
        let e = parse(
            "[ (title: \"a\", text: \"b\", setup: (bogus: 1)) ]",
            "x.ron",
        )
        .unwrap_err();
        assert!(e.starts_with("x.ron: line 1"), "{e}");
        let bad =
            "#![enable(implicit_some)]\n[(title: \"t\", text: \"b\", setup: (broad: \"octree\"))]";
        let e = parse(bad, "x.ron").unwrap_err();
        assert!(
            e.contains("experiment 1 (t)") && e.contains("octree"),
            "{e}"
        );
        let bad = "[(title: \"t\", text: \"b\", setup: (show: [\"glow\"]))]";
        assert!(parse(bad, "x.ron").unwrap_err().contains("glow"));
    }

    #[test]
    fn the_list_prints_one_numbered_line_per_experiment() {
        let text = list_text();
        assert_eq!(text.lines().count(), list().len());
        assert!(text.starts_with(" 1. "), "{text}");
    }
}
