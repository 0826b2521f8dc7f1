//! Bad files: every broken scene gives exactly one line `file:line:col: message` (line and
//! column from 1) and never a panic.
//!
//! The checked-in corpus (`crates/collide/tests/corpus/bad_scenes/*.ron`) holds one distinct
//! way to be wrong per file; a first line `// expect: TEXT` names what the message must
//! contain (the field, where there is one). The heavier run adds generated damage to the table
//! scene: every `stride`-th truncation and seeded edits (a character deleted, doubled or
//! replaced). A damaged file that still parses is fine, but it must then build and step.

use super::{no_panic, CheckReport, TABLE_RON};
use collide::Scene;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::path::Path;

/// One scene file: its name and text.
pub type Named = (String, String);

/// The `*.ron` files of `dir`, sorted by name.
pub fn load_corpus(dir: &Path) -> std::io::Result<Vec<Named>> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "ron") {
            out.push((path.display().to_string(), std::fs::read_to_string(&path)?));
        }
    }
    out.sort();
    Ok(out)
}

/// What the first line `// expect: TEXT` asks the message to contain.
pub fn expectation(text: &str) -> Option<&str> {
    text.lines()
        .next()?
        .trim()
        .strip_prefix("// expect:")
        .map(str::trim)
}

/// Why `shown` is not one line `origin:line:col: message` with line, column ≥ 1.
pub fn malformed(shown: &str, origin: &str) -> Option<String> {
    if shown.lines().count() != 1 || shown.ends_with('\n') {
        return Some(format!("not one line: {shown:?}"));
    }
    let Some(rest) = shown.strip_prefix(origin).and_then(|r| r.strip_prefix(':')) else {
        return Some(format!("does not start with the file name: {shown:?}"));
    };
    let mut parts = rest.splitn(3, ':');
    let line = parts.next().and_then(|l| l.parse::<usize>().ok());
    let col = parts.next().and_then(|c| c.parse::<usize>().ok());
    let message = parts.next().and_then(|m| m.strip_prefix(' '));
    match (line, col, message) {
        (Some(l), Some(c), Some(m)) if l >= 1 && c >= 1 && !m.trim().is_empty() => None,
        _ => Some(format!(
            "not file:line:col: message with line, col ≥ 1: {shown:?}"
        )),
    }
}

/// The corpus check: each file must fail with one well-formed line holding its expectation.
pub fn corpus(files: &[Named]) -> CheckReport {
    let mut report = CheckReport::new("bad-files");
    for (name, text) in files {
        report.cases += 1;
        match no_panic(|| Scene::parse(text, name)) {
            Err(m) => report.fail(format!("{name}: panic: {m}")),
            Ok(Ok(_)) => report.fail(format!("{name}: accepted")),
            Ok(Err(e)) => {
                let shown = e.to_string();
                if let Some(why) = malformed(&shown, name) {
                    report.fail(format!("{name}: {why}"));
                } else if let Some(want) = expectation(text) {
                    if !e.message.contains(want) {
                        report.fail(format!("{name}: {shown:?} does not mention {want:?}"));
                    }
                }
            }
        }
    }
    report.worst = format!("{} files, each one well-formed line", files.len());
    report
}

/// Generated damage to the table: every `stride`-th truncation plus `edits` seeded edits.
pub fn generated(stride: usize, edits: u64, seed: u64) -> CheckReport {
    let mut report = CheckReport::new("bad-files-gen");
    let (mut refused, mut accepted) = (0u64, 0u64);
    let chars: Vec<char> = TABLE_RON.chars().collect();
    let mut try_one = |report: &mut CheckReport, text: String, what: String| {
        report.cases += 1;
        match no_panic(|| load_and_run(&text)) {
            Err(m) => report.fail(format!("{what}: panic: {m}")),
            Ok(Err(why)) => report.fail(format!("{what}: {why}")),
            Ok(Ok(true)) => refused += 1,
            Ok(Ok(false)) => accepted += 1,
        }
    };
    for cut in (0..chars.len().saturating_sub(2)).step_by(stride.max(1)) {
        let text: String = chars[..cut].iter().collect();
        try_one(&mut report, text, format!("table cut at char {cut}"));
    }
    let mut rng = StdRng::seed_from_u64(seed);
    const JUNK: &[char] = &[
        '(', ')', '[', ']', ':', ',', '-', '.', '0', '9', 'e', 'x', '"', '/',
    ];
    for k in 0..edits {
        let mut text = chars.clone();
        let at = rng.gen_range(0..text.len());
        match rng.gen_range(0..3) {
            0 => {
                text.remove(at);
            }
            1 => text.insert(at, text[at]),
            _ => text[at] = JUNK[rng.gen_range(0..JUNK.len())],
        }
        try_one(
            &mut report,
            text.into_iter().collect(),
            format!("edit {k} seed {seed}"),
        );
    }
    report.worst = format!("{refused} refused with one line, {accepted} still valid and ran");
    report
}

/// Ok(true) when refused with a well-formed line, Ok(false) when accepted and it built and
/// stepped finitely; Err when the error line is malformed or the world went non-finite.
fn load_and_run(text: &str) -> Result<bool, String> {
    match Scene::parse(text, "damaged.ron") {
        Err(e) => match malformed(&e.to_string(), "damaged.ron") {
            Some(why) => Err(why),
            None => Ok(true),
        },
        Ok(scene) => {
            let mut w = scene.build(1);
            w.edit_settings(|st| st.rotate = true);
            w.launch(3);
            for _ in 0..60 {
                w.step();
            }
            w.drain_hits();
            if w.all_finite() {
                Ok(false)
            } else {
                Err("accepted, then went non-finite".into())
            }
        }
    }
}
