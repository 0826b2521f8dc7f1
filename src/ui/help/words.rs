//! The words behind the program held to the parser (`cli.rs`): Help's Show entry and the
//! user guide's Show row name every overlay `--show` accepts, the guide's `--show` row lists
//! them all, and its table of flags has a row for each flag of the command line and none
//! that is gone. An overlay or a flag added to the parser fails here until it is described.

use super::CONTROLS;
use crate::cli::{Args, OVERLAYS};
use clap::CommandFactory;

/// The user guide, as shipped.
const GUIDE: &str = include_str!("../../../docs/user-guide.md");

/// Each overlay's name on the command line and the words Help and the guide call it by (the
/// panel's checkbox, or for `colours` and `islands` the impulses' colouring).
const OVERLAY_WORDS: &[(&str, &str)] = &[
    ("hit-points", "hit points"),
    ("tracks", "tracks"),
    ("tangents", "tangents"),
    ("aabbs", "AABBs"),
    ("reticles", "reticles"),
    ("velocity", "velocity"),
    ("sectors", "sectors"),
    ("lights", "lights"),
    ("sweeps", "swept paths"),
    ("heat", "heat map"),
    ("probe", "probe"),
    ("impulses", "impulses"),
    ("colours", "solver colour"),
    ("islands", "island"),
];

/// The line of the guide's table that starts with `start`.
fn guide_row(start: &str) -> &'static str {
    GUIDE
        .lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no row starting {start:?} in the guide"))
}

/// The guide's table of flags: the rows after "## The command line" up to the first line
/// that is not a row.
fn flag_rows() -> Vec<&'static str> {
    let (_, after) = GUIDE
        .split_once("## The command line")
        .expect("the guide has the command line's section");
    let rows = after.lines().skip_while(|l| !l.starts_with('|'));
    rows.take_while(|l| l.starts_with('|')).skip(2).collect()
}

/// The flags a row's first cell names (`--record FILE` / `--save-state FILE` names two).
fn flags_of(row: &str) -> Vec<String> {
    let cell = row.split(" | ").next().unwrap_or("");
    cell.split('`')
        .filter_map(|code| code.strip_prefix("--"))
        .map(|rest| rest.split(' ').next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn every_overlay_the_parser_takes_has_its_words_here() {
    let named: Vec<&str> = OVERLAY_WORDS.iter().map(|(name, _)| *name).collect();
    assert_eq!(
        named, OVERLAYS,
        "give each overlay of cli::OVERLAYS its words"
    );
}

#[test]
fn helps_show_entry_names_every_overlay() {
    let (_, show) = CONTROLS
        .iter()
        .find(|(k, _)| *k == "Show")
        .expect("a Show entry");
    for (name, words) in OVERLAY_WORDS {
        assert!(
            show.contains(words),
            "Help's Show omits {name} ({words}): {show}"
        );
    }
}

#[test]
fn the_guides_show_row_names_every_overlay() {
    let row = guide_row("| Show |");
    for (name, words) in OVERLAY_WORDS {
        assert!(
            row.contains(words),
            "the guide's Show omits {name} ({words})"
        );
    }
}

#[test]
fn the_guides_show_flag_lists_every_overlay_in_the_parsers_order() {
    let row = guide_row("| `--show LIST` |");
    let list = format!("`{}`", OVERLAYS.join(","));
    assert!(
        row.contains(&list),
        "the guide's --show row should list {list}: {row}"
    );
}

#[test]
fn the_guides_flag_table_has_a_row_for_each_flag_and_no_other() {
    let documented: Vec<String> = flag_rows().iter().flat_map(|r| flags_of(r)).collect();
    let cmd = Args::command();
    let parsed: Vec<&str> = cmd
        .get_arguments()
        .filter_map(|a| a.get_long())
        .filter(|long| !["help", "version"].contains(long))
        .collect();
    for long in &parsed {
        assert!(
            documented.iter().any(|d| d == long),
            "the guide's flag table has no row for --{long}"
        );
    }
    for long in &documented {
        assert!(
            parsed.contains(&long.as_str()),
            "the guide's flag table names --{long}, which the parser does not take"
        );
    }
}
