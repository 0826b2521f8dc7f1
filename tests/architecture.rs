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
