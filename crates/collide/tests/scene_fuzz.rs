//! The scene loader fed 120,000 broken scenes made from the built-in ones in `scenes/` (seeded,
//! so a failure names the case that found it): byte edits, truncations, numbers
//! swapped for NaN, infinities, negatives and huge values, unknown shape names, fields
//! deleted or duplicated, brackets and quotes dropped in. None may panic, and every refusal
//! must name the file, a line and a column (`file:L:C: message`, L and C from 1).

use collide::Scene;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const SCENES: [(&str, &str); 2] = [
    ("table.ron", include_str!("../scenes/table.ron")),
    ("lab.ron", include_str!("../scenes/lab.ron")),
];

/// Broken inputs tried (at least 100,000).
const CASES: u32 = 120_000;

const NUMBERS: &[&str] = &[
    "NaN",
    "nan",
    "inf",
    "-inf",
    "-1",
    "-4.5",
    "-0",
    "0",
    "1e39",
    "-1e39",
    "3e38",
    "1e300",
    "99999999999999999999999",
    "4294967296",
    "1e-45",
    "0x10",
    "1.",
    ".5",
    "1e",
    "--1",
    "+",
    "18446744073709551616",
];
const NAMES: &[&str] = &[
    "Circel",
    "Blob",
    "circle",
    "Segment2",
    "Arc",
    "Gate",
    "Group",
    "Rect",
    "Point",
    "Teardrop",
    "Some",
    "None",
    "Kinematic",
    "Static",
    "Scene",
    "",
];
const JUNK: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    "\"",
    "//",
    "/*",
    "*/",
    "#",
    "\\",
    "\u{0}",
    "é",
    "\u{1F600}",
    "r#\"",
    "'",
    ";",
    "\n",
    " ",
];

/// One broken copy of `text`: one to three edits.
fn broken(text: &str, rng: &mut StdRng) -> String {
    let mut s = text.to_string();
    for _ in 0..rng.gen_range(1..=3) {
        s = edited(&s, rng);
    }
    s
}

fn edited(s: &str, rng: &mut StdRng) -> String {
    let chars: Vec<char> = s.chars().collect();
    if chars.is_empty() {
        return JUNK[rng.gen_range(0..JUNK.len())].to_string();
    }
    let at = rng.gen_range(0..chars.len());
    let pick = |list: &[&str], rng: &mut StdRng| list[rng.gen_range(0..list.len())].to_string();
    match rng.gen_range(0..8) {
        // A character replaced by any character.
        0 => splice(&chars, at, at + 1, &random_char(rng).to_string()),
        // Truncated.
        1 => chars[..at].iter().collect(),
        // A number swapped for a bad one.
        2 => swap_token(
            &chars,
            at,
            |c| c.is_ascii_digit() || c == '.' || c == '-',
            &pick(NUMBERS, rng),
        ),
        // A name swapped for an unknown (or misplaced) one.
        3 => swap_token(
            &chars,
            at,
            |c| c.is_ascii_alphabetic() || c == '_',
            &pick(NAMES, rng),
        ),
        // A line deleted (a field, a shape, a bracket).
        4 => lines_edited(s, rng, false),
        // A line duplicated (a field twice, a shape twice).
        5 => lines_edited(s, rng, true),
        // Junk dropped in.
        6 => splice(&chars, at, at, &pick(JUNK, rng)),
        // A stretch deleted.
        _ => {
            let end = (at + rng.gen_range(1..40)).min(chars.len());
            splice(&chars, at, end, "")
        }
    }
}

fn random_char(rng: &mut StdRng) -> char {
    match rng.gen_range(0..3) {
        0 => rng.gen_range(b' '..=b'~') as char,
        1 => char::from_u32(rng.gen_range(0..0x80)).unwrap_or('?'),
        _ => char::from_u32(rng.gen_range(0x80..0x11_0000)).unwrap_or('\u{FFFD}'),
    }
}

fn splice(chars: &[char], from: usize, to: usize, with: &str) -> String {
    let mut out: String = chars[..from].iter().collect();
    out.push_str(with);
    out.extend(&chars[to..]);
    out
}

/// Replaces the run of `is_part` characters at or after `at` with `with`.
fn swap_token(chars: &[char], at: usize, is_part: impl Fn(char) -> bool, with: &str) -> String {
    let Some(start) = (at..chars.len()).find(|&i| is_part(chars[i])) else {
        return splice(chars, at, at, with);
    };
    let end = (start..chars.len())
        .find(|&i| !is_part(chars[i]))
        .unwrap_or(chars.len());
    splice(chars, start, end, with)
}

fn lines_edited(s: &str, rng: &mut StdRng, duplicate: bool) -> String {
    let mut lines: Vec<&str> = s.lines().collect();
    if lines.is_empty() {
        return String::new();
    }
    let k = rng.gen_range(0..lines.len());
    if duplicate {
        lines.insert(k, lines[k]);
    } else {
        lines.remove(k);
    }
    lines.join("\n")
}

/// `origin:L:C: message` with L, C ≥ 1.
fn names_line_and_column(message: &str, origin: &str) -> bool {
    let Some(rest) = message
        .strip_prefix(origin)
        .and_then(|r| r.strip_prefix(':'))
    else {
        return false;
    };
    let mut parts = rest.splitn(3, ':');
    let number = |p: Option<&str>| p.and_then(|t| t.parse::<usize>().ok()).filter(|&n| n >= 1);
    number(parts.next()).is_some()
        && number(parts.next()).is_some()
        && parts.next().is_some_and(|m| m.len() > 1)
}

#[test]
fn a_hundred_thousand_broken_scenes_are_refused_with_line_and_column_and_never_panic() {
    let mut rng = StdRng::seed_from_u64(0x5ce9e);
    let (mut refused, mut accepted) = (0u32, 0u32);
    for case in 0..CASES {
        let (origin, text) = SCENES[case as usize % SCENES.len()];
        let input = broken(text, &mut rng);
        let result = std::panic::catch_unwind(|| Scene::parse(&input, origin));
        match result {
            Err(_) => panic!("case {case}: Scene::parse panicked on:\n{input}"),
            Ok(Ok(_)) => accepted += 1,
            Ok(Err(e)) => {
                let shown = e.to_string();
                assert!(
                    names_line_and_column(&shown, origin),
                    "case {case}: no line:col in {shown:?} for:\n{input}"
                );
                refused += 1;
            }
        }
    }
    assert_eq!(refused + accepted, CASES);
    // Most edits break the scene; some (a space, a duplicated blank line) do not.
    assert!(
        refused > CASES / 2,
        "refused {refused}, accepted {accepted}"
    );
}

#[test]
fn the_edits_reach_every_kind_of_refusal() {
    let mut rng = StdRng::seed_from_u64(7);
    let mut seen = std::collections::BTreeSet::new();
    for case in 0..5_000 {
        let (origin, text) = SCENES[case % SCENES.len()];
        if let Err(e) = Scene::parse(&broken(text, &mut rng), origin) {
            let m = e.message;
            for what in [
                "finite",
                "unknown variant",
                "missing field",
                "duplicate field",
                "must be in",
                "Unexpected",
                "Expected",
            ] {
                if m.contains(what) {
                    seen.insert(what);
                }
            }
        }
    }
    assert!(seen.len() >= 5, "{seen:?}");
}

#[test]
fn broken_state_and_recording_files_are_refused_with_line_and_column_and_never_panic() {
    let table = SCENES[0].1;
    let mut world = Scene::parse(table, "table").unwrap().build(3);
    let start = collide::SavedState::of("table", table, 3, &world);
    world.apply_input(&collide::Input::Launch(4)).unwrap();
    for _ in 0..130 {
        world.step();
    }
    let recording = collide::Recording {
        start,
        end: world.steps(),
        inputs: vec![(0, collide::Input::Launch(4))],
        checkpoints: vec![(world.steps(), world.state_hash())],
    };
    let pretty = || ron::ser::PrettyConfig::new().depth_limit(3);
    let state = collide::SavedState::of("table", table, 3, &world);
    let texts = [
        ron::ser::to_string_pretty(&state, pretty()).unwrap(),
        ron::ser::to_string_pretty(&recording, pretty()).unwrap(),
    ];
    let mut rng = StdRng::seed_from_u64(0x57a7e);
    for case in 0..3_000 {
        let text = &texts[case % 2];
        let input = broken(text, &mut rng);
        let shown = std::panic::catch_unwind(|| {
            if case % 2 == 0 {
                collide::SavedState::parse(&input, "f.ron").err()
            } else {
                collide::Recording::parse(&input, "f.ron").err()
            }
            .map(|e| e.to_string())
        })
        .unwrap_or_else(|_| panic!("case {case}: the loader panicked on:\n{input}"));
        if let Some(shown) = shown {
            assert!(
                names_line_and_column(&shown, "f.ron"),
                "case {case}: no line:col in {shown:?}"
            );
        }
    }
}
