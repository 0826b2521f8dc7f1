//! `docs/architecture.md` matches the tree: every source file of the library and of the app is
//! named in its tables (by path, by name beside a path of its folder, by a pattern such as
//! `narrow/toi_ball_*.rs`, or under a folder named as a whole), and every path the tables name
//! exists. A reader who looks something up there finds the file in one step.

use std::collections::BTreeSet;
use std::path::Path;

const DOC: &str = "docs/architecture.md";

/// The source files under `dir` (relative to the workspace), as paths relative to `dir`.
fn files(dir: &str) -> BTreeSet<String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<String>) {
        for e in std::fs::read_dir(dir)
            .expect("the sources are readable")
            .flatten()
        {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p.strip_prefix(root).unwrap();
                out.insert(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out = BTreeSet::new();
    walk(&root, &root, &mut out);
    out
}

/// The table rows of the section whose heading starts with `heading`, up to the next heading
/// of the same level.
fn section_rows<'a>(doc: &'a str, heading: &str) -> Vec<&'a str> {
    let mut rows = Vec::new();
    let mut inside = false;
    for line in doc.lines() {
        if line.starts_with("### ") {
            inside = line.starts_with(heading);
        } else if inside && line.starts_with("| ") && !line.starts_with("| path") {
            rows.push(line);
        }
    }
    assert!(!rows.is_empty(), "no table under `{heading}` in {DOC}");
    rows
}

/// The backticked names in a row that look like paths: `a/b.rs`, `b.rs`, `a/`, `a/*.rs`.
fn names(row: &str) -> Vec<&str> {
    row.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| !t.contains(' ') && (t.ends_with(".rs") || t.ends_with('/')))
        .collect()
}

/// `name` matched against `pattern`, where `*` stands for any run of characters.
fn matches(pattern: &str, name: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == name,
        Some((head, tail)) => {
            name.len() >= head.len() + tail.len() && name.starts_with(head) && name.ends_with(tail)
        }
    }
}

/// What a section's rows name, resolved against the tree: the paths (or patterns) of files, and
/// the folders named as a whole. A name without a folder is read in the folder of the row's
/// first path that has one (`rules/strings.rs`, `pockets.rs` names `rules/pockets.rs`), and so
/// is a path that does not exist from the top, in that folder or one above it
/// (`broad/tree.rs`, `tree/dynamic.rs`; `broad/sap/mod.rs`, `sap/sorted.rs`).
fn resolve(rows: &[&str], tree: &BTreeSet<String>) -> (Vec<String>, Vec<String>, Vec<String>) {
    let (mut covered, mut folders, mut missing) = (Vec::new(), Vec::new(), Vec::new());
    let exists = |p: &str| {
        if p.ends_with('/') {
            tree.iter().any(|f| f.starts_with(p))
        } else {
            tree.iter().any(|f| matches(p, f))
        }
    };
    for row in rows {
        let names = names(row);
        let folder = names
            .iter()
            .find_map(|n| n.rfind('/').map(|i| &n[..=i]))
            .unwrap_or("");
        for n in names {
            // The name itself, then in the row's folder and each folder above it.
            let mut tries = vec![n.to_string()];
            let mut f = folder;
            while !f.is_empty() {
                tries.push(format!("{f}{n}"));
                f = f[..f.len() - 1].rfind('/').map_or("", |i| &f[..=i]);
            }
            let found = tries.into_iter().find(|p| exists(p));
            match found {
                Some(p) if p.ends_with('/') => folders.push(p),
                Some(p) => covered.push(p),
                None => missing.push(format!("`{n}` in the row {row}")),
            }
        }
    }
    (covered, folders, missing)
}

fn check(heading: &str, dir: &str) {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(DOC)).unwrap();
    let tree = files(dir);
    assert!(tree.len() > 10, "no sources found under {dir}");
    let (covered, folders, missing) = resolve(&section_rows(&doc, heading), &tree);
    assert!(
        missing.is_empty(),
        "{DOC} names files that {dir} does not have:\n{}",
        missing.join("\n")
    );
    let unnamed: Vec<&String> = tree
        .iter()
        .filter(|f| {
            !covered.iter().any(|p| matches(p, f)) && !folders.iter().any(|d| f.starts_with(d))
        })
        .collect();
    assert!(
        unnamed.is_empty(),
        "files of {dir} that {DOC} does not name: {unnamed:?}"
    );
}

#[test]
fn every_file_of_the_library_is_in_the_architecture_and_every_entry_exists() {
    check("### The library", "crates/collide/src");
}

#[test]
fn every_file_of_the_harness_is_in_the_architecture_and_every_entry_exists() {
    check("### The harness", "crates/collide-lab/src");
}

#[test]
fn every_file_of_the_app_is_in_the_architecture_and_every_entry_exists() {
    check("### The app", "src");
}

#[test]
fn names_are_read_in_their_rows_folder() {
    let tree: BTreeSet<String> = [
        "rules/strings.rs",
        "rules/pockets.rs",
        "broad/tree/dynamic.rs",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    let (covered, _, missing) = resolve(
        &[
            "| `rules/strings.rs`, `pockets.rs` | strings |",
            "| `broad/tree.rs`, `tree/dynamic.rs` | trees |",
            "| `gone.rs` | nothing |",
        ],
        &tree,
    );
    assert_eq!(
        covered,
        [
            "rules/strings.rs",
            "rules/pockets.rs",
            "broad/tree/dynamic.rs"
        ]
    );
    assert_eq!(missing.len(), 2, "{missing:?}");
    assert!(matches("narrow/toi_ball_*.rs", "narrow/toi_ball_arc.rs"));
    assert!(!matches("narrow/toi_ball_*.rs", "narrow/arc.rs"));
}

/// The stage list drawn in the doc: the first word of each line of the block after the
/// `<!-- stages of step() ... -->` marker that names a call (`a.b`, `a::b`, `f()`, `f(X)`).
fn doc_stage_calls(doc: &str) -> Vec<String> {
    let after = doc
        .split_once("<!-- stages of step()")
        .expect("the doc marks the stage list")
        .1;
    let block = after.split("```").nth(1).expect("a fenced block follows");
    block
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.contains('.') || w.contains("::") || w.ends_with(')'))
        .map(String::from)
        .collect()
}

/// `source` with the line breaks rustfmt puts into calls taken out: a run of whitespace
/// before a `.` or after a `(` or `{` is dropped, any other becomes one space.
fn joined(source: &str) -> String {
    let mut out = String::new();
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_whitespace() {
            out.push(c);
            continue;
        }
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let before = out.chars().last();
        let next = chars.peek().copied();
        if next != Some('.') && !matches!(before, Some('(') | Some('{')) {
            out.push(' ');
        }
    }
    out
}

/// The calls `step()` makes, in order, named as the doc names them: `st.a.b(…)` as `a.b`,
/// `push_out::f(…)` and `…Stage::f(…)` as written, `self.rules_at(Moment::X…)` as
/// `rules_at(X)`, `self.f(args)` as `f()`. Calls without arguments (accessors) and the boxes
/// a stage hands the pairs stage (`…::ball_box`) are not stages.
fn step_calls(source: &str) -> Vec<String> {
    let start = source
        .find("    pub fn step(&mut self) {")
        .expect("step.rs defines step()");
    let body = &source[start..];
    let body = joined(&body[..body.find("\n    }\n").expect("step() ends")]);
    let body = body.as_str();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    let mut calls = Vec::new();
    let mut rest = body;
    while let Some(i) = rest.find(|c: char| c.is_alphabetic()) {
        rest = &rest[i..];
        let word = ident(rest);
        let tail = &rest[word.len()..];
        let (name, len) = if word == "self" && tail.starts_with(".rules_at(Moment::") {
            let moment = ident(&tail[".rules_at(Moment::".len()..]);
            (Some(format!("rules_at({moment})")), 0)
        } else if word == "self" && tail.starts_with('.') {
            let f = ident(&tail[1..]);
            let args = &tail[1 + f.len()..];
            let with_args = args.starts_with('(') && !args.starts_with("()");
            (with_args.then(|| format!("{f}()")), 0)
        } else if word == "st" && tail.starts_with('.') {
            let stage = ident(&tail[1..]);
            let after = &tail[1 + stage.len()..];
            let method = after.strip_prefix('.').map(ident).unwrap_or_default();
            let args = &after[(1 + method.len()).min(after.len())..];
            let call = args.starts_with('(') && !args.starts_with("()") && method != "ball_box";
            (call.then(|| format!("{stage}.{method}")), 0)
        } else if (word == "push_out" || word.ends_with("Stage")) && tail.starts_with("::") {
            let f = ident(&tail[2..]);
            let call = tail[2 + f.len()..].starts_with('(') && f != "ball_box";
            (call.then(|| format!("{word}::{f}")), 2 + f.len())
        } else {
            (None, 0)
        };
        calls.extend(name);
        rest = &rest[word.len() + len..];
    }
    calls
}

#[test]
fn the_stage_list_in_the_doc_is_the_order_step_calls_them() {
    let doc = std::fs::read_to_string(DOC).expect("the doc is readable");
    let step = std::fs::read_to_string("crates/collide/src/world/step.rs").expect("step.rs");
    assert_eq!(
        doc_stage_calls(&doc),
        step_calls(&step),
        "{DOC}'s stage list and the calls of step() differ"
    );
}

#[test]
fn step_calls_are_read_as_the_doc_names_them() {
    let source = "    pub fn step(&mut self) {\n        let dt = self.step_seconds();\n        \
        self.rules_at(Moment::Start, &mut cx);\n        st.pairs.find(&w, |_, b| \
        SettleStage::ball_box(b), q);\n        let p = st.pairs.bodies();\n        \
        push_out::iterate(&mut w);\n        st.launch\n            .run(x);\n        \
        self.count_after_step(t);\n    }\n";
    let calls = step_calls(source);
    assert_eq!(
        calls,
        [
            "rules_at(Start)",
            "pairs.find",
            "push_out::iterate",
            "launch.run",
            "count_after_step()"
        ]
    );
    let doc = "<!-- stages of step(): x -->\n```\nrules_at(Start)   a note\nsoft contacts:\n  \
        pairs.find  boxes\n```\n";
    assert_eq!(doc_stage_calls(doc), ["rules_at(Start)", "pairs.find"]);
}
