//! No function over 80 lines in the library (`crates/collide/src/`), its harness
//! (`crates/collide-lab/src/`), the editor's edits (`crates/collide-edit/src/`), the tape (`crates/collide-replay/src/`) or
//! the app (`src/`), outside tests and data tables.
//!
//! A function's length is the number of lines from the line of its body's opening brace to the
//! line of its closing brace, both counted (so the signature, however rustfmt wraps it, is
//! not). Braces are matched in the source with its comments, strings (plain, byte and raw) and
//! character literals blanked out, so a `'{'` or a `"}"` moves nothing. A function nested in
//! another counts in both.
//!
//! Left out, because the rule does not cover them:
//! - tests: an item under `#[cfg(test)]` (the `mod tests { … }` blocks), a `#[test]`
//!   function, and a file that its parent declares under `#[cfg(test)]` (`mod tests;`);
//! - data tables, listed by hand in [`DATA_TABLES`]: a file is one when its long functions
//!   are a literal list of entries (one line each, no control flow), where splitting would
//!   only cut the table in two.

use std::path::{Path, PathBuf};

/// The longest a function's body may be, in lines.
const LIMIT: usize = 80;

/// The source trees the rule covers, relative to the workspace.
const TREES: [&str; 5] = [
    "crates/collide/src",
    "crates/collide-lab/src",
    "crates/collide-edit/src",
    "crates/collide-replay/src",
    "src",
];

/// Files whose long functions are data tables: (path, why). A path here that has no function
/// over the limit fails the test, so the list never outlives its reason.
const DATA_TABLES: &[(&str, &str)] = &[];

/// A function found in a source file.
#[derive(Debug, PartialEq)]
struct Function {
    name: String,
    /// The line of `fn`, counted from 1.
    line: usize,
    /// Lines from its body's opening brace to its closing brace, both counted.
    length: usize,
}

/// `source` with every comment, string and character literal replaced by spaces, line breaks
/// kept, so that each remaining character stands where it stood.
fn blanked(source: &str) -> Vec<char> {
    let mut c: Vec<char> = source.chars().collect();
    let mut i = 0;
    while i < c.len() {
        let end = literal_or_comment_end(&c, i);
        if end > i {
            for ch in &mut c[i..end] {
                if *ch != '\n' {
                    *ch = ' ';
                }
            }
            i = end;
        } else {
            i += 1;
        }
    }
    c
}

/// Past the end of the comment or literal that starts at `i`, or `i` when none does. An
/// identifier's characters are walked one by one, so `r`, `b` and `br` prefixes are seen only
/// where a word starts.
fn literal_or_comment_end(c: &[char], i: usize) -> usize {
    let at = |k: usize| c.get(k).copied().unwrap_or('\0');
    let word_before = i > 0 && (c[i - 1].is_alphanumeric() || c[i - 1] == '_');
    match at(i) {
        '/' if at(i + 1) == '/' => (i..c.len()).find(|&k| c[k] == '\n').unwrap_or(c.len()),
        '/' if at(i + 1) == '*' => block_comment_end(c, i),
        '"' => string_end(c, i + 1, None),
        '\'' => char_end(c, i),
        'b' if !word_before && at(i + 1) == '\'' => char_end(c, i + 1),
        'b' if !word_before && at(i + 1) == '"' => string_end(c, i + 2, None),
        'b' if !word_before && at(i + 1) == 'r' => raw_string_end(c, i + 2).unwrap_or(i),
        'r' if !word_before => raw_string_end(c, i + 1).unwrap_or(i),
        _ => i,
    }
}

/// Past the end of a block comment starting at `i` (they nest).
fn block_comment_end(c: &[char], mut i: usize) -> usize {
    let mut depth = 0;
    while i < c.len() {
        if c[i] == '/' && c.get(i + 1) == Some(&'*') {
            (depth, i) = (depth + 1, i + 2);
        } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
            (depth, i) = (depth - 1, i + 2);
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    i
}

/// Past the closing quote of a string whose body starts at `i`; `hashes` for a raw string
/// (no escapes, closed by `"` and that many `#`).
fn string_end(c: &[char], mut i: usize, hashes: Option<usize>) -> usize {
    while i < c.len() {
        match (c[i], hashes) {
            ('\\', None) => i += 2,
            ('"', None) => return i + 1,
            ('"', Some(n)) if (1..=n).all(|k| c.get(i + k) == Some(&'#')) => return i + 1 + n,
            _ => i += 1,
        }
    }
    c.len()
}

/// A raw string whose `r` is just before `i` (`r"…"`, `r#"…"#`): past its end, or `None`
/// when `i` does not continue one (the `r` began a word).
fn raw_string_end(c: &[char], i: usize) -> Option<usize> {
    let hashes = c[i..].iter().take_while(|&&ch| ch == '#').count();
    (c.get(i + hashes) == Some(&'"')).then(|| string_end(c, i + hashes + 1, Some(hashes)))
}

/// Past a character literal starting at `i` (`'a'`, `'\n'`, `'\u{7b}'`, `'{'`); a lifetime
/// or a label (`'a`, `'outer:`) is left as code, its quote alone skipped.
fn char_end(c: &[char], i: usize) -> usize {
    if c.get(i + 1) == Some(&'\\') {
        (i + 2..c.len())
            .find(|&k| c[k] == '\'' && k > i + 2)
            .map_or(c.len(), |k| k + 1)
    } else if c.get(i + 2) == Some(&'\'') {
        i + 3
    } else {
        i
    }
}

/// The functions of `source` (outside test items), each with its line and length.
fn functions(source: &str) -> Vec<Function> {
    let c = blanked(source);
    let line_of = line_index(&c);
    let mut out = Vec::new();
    let (mut i, mut test_item) = (0, false);
    while i < c.len() {
        if c[i] == '#' && c.get(i + 1).is_some_and(|&x| x == '[' || x == '!') {
            let (attribute, end) = attribute_at(&c, i);
            test_item |= attribute == "cfg(test)" || attribute == "test";
            i = end;
        } else if test_item && !c[i].is_whitespace() {
            i = item_end(&c, i);
            test_item = false;
        } else if let Some((name, after)) = fn_name_at(&c, i) {
            if let Some((open, close)) = body_at(&c, after) {
                out.push(Function {
                    name,
                    line: line_of[i],
                    length: line_of[close] - line_of[open] + 1,
                });
            }
            i = after;
        } else {
            i += 1;
        }
    }
    out
}

/// The line (from 1) of every character.
fn line_index(c: &[char]) -> Vec<usize> {
    let mut line = 1;
    c.iter()
        .map(|&ch| {
            let this = line;
            line += (ch == '\n') as usize;
            this
        })
        .collect()
}

/// The attribute starting at `i` (`#[…]` or `#![…]`) with its whitespace taken out, and the
/// index past its `]`.
fn attribute_at(c: &[char], i: usize) -> (String, usize) {
    let open = if c[i + 1] == '!' { i + 2 } else { i + 1 };
    let close = matching(c, open, '[', ']').unwrap_or(c.len() - 1);
    let text = c[open + 1..close]
        .iter()
        .filter(|ch| !ch.is_whitespace())
        .collect();
    (text, close + 1)
}

/// Past the end of the item starting at `i`: its first brace block at the outer level, or its
/// `;` when it has none first (`mod tests;`, `use …;`).
fn item_end(c: &[char], i: usize) -> usize {
    match first_body_or_semicolon(c, i) {
        Some((k, '{')) => matching(c, k, '{', '}').map_or(c.len(), |k| k + 1),
        Some((k, _)) => k + 1,
        None => c.len(),
    }
}

/// The name of the function whose `fn` starts at `i` (a whole word followed by a name, so not
/// a `fn(…)` pointer type) and the index past the name.
fn fn_name_at(c: &[char], i: usize) -> Option<(String, usize)> {
    let is_word = |ch: char| ch.is_alphanumeric() || ch == '_';
    let starts_word = i == 0 || !is_word(c[i - 1]);
    if !starts_word || c.get(i..i + 3)? != ['f', 'n', ' '] {
        return None;
    }
    let start = (i + 2..c.len()).find(|&k| !c[k].is_whitespace())?;
    let end = (start..c.len()).find(|&k| !is_word(c[k]))?;
    (end > start && !c[start].is_ascii_digit()).then(|| (c[start..end].iter().collect(), end))
}

/// The opening and closing brace of the body of the function whose signature goes on at `i`,
/// or `None` for a declaration without one (`fn f(&self);` in a trait).
fn body_at(c: &[char], i: usize) -> Option<(usize, usize)> {
    let (open, ch) = first_body_or_semicolon(c, i)?;
    (ch == '{').then(|| Some((open, matching(c, open, '{', '}')?)))?
}

/// The first `{` or `;` from `i` outside parentheses and brackets, with which it is.
fn first_body_or_semicolon(c: &[char], i: usize) -> Option<(usize, char)> {
    let mut depth = 0i32;
    for (k, &ch) in c.iter().enumerate().skip(i) {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            '{' | ';' if depth == 0 => return Some((k, ch)),
            _ => {}
        }
    }
    None
}

/// The index of the bracket that closes the one at `open`.
fn matching(c: &[char], open: usize, left: char, right: char) -> Option<usize> {
    let mut depth = 0usize;
    for (k, &ch) in c.iter().enumerate().skip(open) {
        if ch == left {
            depth += 1;
        } else if ch == right {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

/// The `.rs` files under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d)
            .expect("the sources are readable")
            .flatten()
        {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The files that their parent module declares under `#[cfg(test)]` (`mod tests;`).
fn test_files(files: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for f in files {
        let c = blanked(&std::fs::read_to_string(f).expect("the sources are readable"));
        let text: String = c.iter().collect();
        // A file's children live beside it when it is a `mod.rs`, `lib.rs` or `main.rs`,
        // else in the folder named after it.
        let stem = f.file_stem().unwrap().to_string_lossy();
        let folder = if matches!(stem.as_ref(), "mod" | "lib" | "main") {
            f.parent().unwrap().to_path_buf()
        } else {
            f.with_extension("")
        };
        let mut rest = text.as_str();
        while let Some(k) = rest.find("#[cfg(test)]") {
            rest = &rest[k + "#[cfg(test)]".len()..];
            let words: Vec<&str> = rest.split_whitespace().take(3).collect();
            let name = match words.as_slice() {
                ["mod", name, ..] | ["pub", "mod", name] | ["pub(crate)", "mod", name] => name,
                _ => continue,
            };
            if let Some(name) = name.strip_suffix(';') {
                out.push(folder.join(format!("{name}.rs")));
                out.push(folder.join(name).join("mod.rs"));
            }
        }
    }
    out
}

/// Every function over the limit that no list exempts, as `file:line fn name: N lines`, and the
/// data-table files that have none over it.
fn offenders(root: &Path) -> (Vec<String>, Vec<String>) {
    let mut long = Vec::new();
    let mut tables_used = Vec::new();
    for tree in TREES {
        let files = rust_files(&root.join(tree));
        assert!(!files.is_empty(), "no sources found under {tree}");
        let tests = test_files(&files);
        for file in files.iter().filter(|f| !tests.contains(f)) {
            let rel = file
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let source = std::fs::read_to_string(file).expect("the sources are readable");
            for f in functions(&source).into_iter().filter(|f| f.length > LIMIT) {
                if DATA_TABLES.iter().any(|(p, _)| *p == rel) {
                    tables_used.push(rel.clone());
                } else {
                    long.push(format!(
                        "{rel}:{} fn {}: {} lines",
                        f.line, f.name, f.length
                    ));
                }
            }
        }
    }
    let stale_tables = DATA_TABLES
        .iter()
        .filter(|(p, _)| !tables_used.iter().any(|u| u == p))
        .map(|(p, _)| p.to_string())
        .collect();
    (long, stale_tables)
}

#[test]
fn no_function_is_longer_than_eighty_lines() {
    let (long, stale_tables) = offenders(Path::new(env!("CARGO_MANIFEST_DIR")));
    assert!(
        long.is_empty(),
        "functions over {LIMIT} lines (split them into named pieces):\n{}",
        long.join("\n")
    );
    assert!(
        stale_tables.is_empty(),
        "listed as data tables but with no function over {LIMIT} lines (take them off \
         DATA_TABLES): {stale_tables:?}"
    );
}

#[test]
fn braces_in_strings_chars_and_comments_are_not_counted() {
    let source = r####"
fn a() {
    let s = "}}}";
    let c = '}';
    let e = '\'';
    let r = r#"}"#;
    let b = b'{';
    // }
    /* } /* nested } */ } */
    let l: &'static str = "x";
}
fn b<'a>(x: &'a str) -> &'a str { x }
"####;
    let found = functions(source);
    assert_eq!(
        found,
        [
            Function {
                name: "a".into(),
                line: 2,
                length: 10
            },
            Function {
                name: "b".into(),
                line: 12,
                length: 1
            },
        ]
    );
}

#[test]
fn tests_declarations_and_pointer_types_are_not_functions() {
    let source = "
trait T { fn f(&self); }
struct S { clock: fn() -> f64 }
#[test]
fn a_test() {
}
#[cfg(test)]
mod tests {
    fn helper() {
    }
}
fn kept(
    x: u8,
) {
    let f: fn(u8) = drop;
}
";
    let found = functions(source);
    assert_eq!(
        found,
        [Function {
            name: "kept".into(),
            line: 12,
            length: 3
        }]
    );
}

#[test]
fn a_file_declared_under_cfg_test_is_a_test_file() {
    let dir = std::env::temp_dir().join(format!("function_length_{}", std::process::id()));
    std::fs::create_dir_all(dir.join("cells")).unwrap();
    let files = [dir.join("cells.rs"), dir.join("main.rs")];
    std::fs::write(&files[0], "fn f() {}\n#[cfg(test)]\nmod tests;\n").unwrap();
    std::fs::write(&files[1], "mod cells;\n// #[cfg(test)] mod commented;\n").unwrap();
    let found = test_files(&files);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        found,
        [dir.join("cells/tests.rs"), dir.join("cells/tests/mod.rs")]
    );
}
