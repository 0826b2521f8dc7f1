//! No import cycles, in the app (`src/`), the library (`crates/collide/src/`) or its harness
//! (`crates/collide-lab/src/`): every file is a module, and a module that names another (a
//! `use`, or a path such as
//! `crate::ui::panel::row`, `super::keys::pressed`, a child module's name, or a name a `use`
//! brought in) depends on it. Two files that depend on each other, directly or through others,
//! cannot be read, tested or moved apart, so a cycle fails the test and is printed with the
//! line of each step. The folders (and the files at the top of each tree) are checked the same
//! way, one level up: `ui/` may use `render/`, or the other way round, not both.
//!
//! A name a folder re-exports (`pub use step::World` in `world.rs`) is followed to the file
//! that defines it, so `use super::World` depends on `world/step.rs`, and a folder's
//! `mod.rs` that only declares and re-exports its files is not in a cycle with them. Test
//! modules count: a test that needs another folder lives where that dependency already runs.
//!
//! Comments and string literals are skipped; method calls are not imports and are not seen.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module by its path from the crate root: `["app", "keys"]` is `src/app/keys.rs`, `[]` is
/// `src/main.rs`.
type ModPath = Vec<String>;

/// One dependency of a file: the module it names and the line where it does.
#[derive(Clone, Debug)]
struct Edge {
    to: ModPath,
    line: usize,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// The tokens of Rust source that matter for paths, each with its line: identifiers, `::`
/// and single punctuation; comments, strings and character literals are left out.
fn tokens(src: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = src.chars().collect();
    let (mut out, mut i, mut line) = (Vec::new(), 0, 1);
    let at = |k: usize| c.get(k).copied().unwrap_or('\0');
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            loop {
                if i >= c.len() {
                    break;
                } else if c[i] == '/' && at(i + 1) == '*' {
                    (depth, i) = (depth + 1, i + 2);
                } else if c[i] == '*' && at(i + 1) == '/' {
                    (depth, i) = (depth - 1, i + 2);
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += (c[i] == '\n') as usize;
                    i += 1;
                }
            }
        } else if ch == '"' {
            i = skip_string(&c, i + 1, 0, &mut line);
        } else if ch == '\'' {
            i = skip_char(&c, i);
        } else if ch.is_alphanumeric() || ch == '_' {
            let start = i;
            while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            // Raw and byte strings: r"…", r#"…"#, br"…", b"…".
            if matches!(word.as_str(), "r" | "br") && matches!(at(i), '"' | '#') {
                let mut hashes = 0;
                while at(i) == '#' {
                    (hashes, i) = (hashes + 1, i + 1);
                }
                if at(i) == '"' {
                    i = skip_string(&c, i + 1, hashes, &mut line);
                    continue;
                }
            }
            if word == "b" && at(i) == '"' {
                i = skip_string(&c, i + 1, 0, &mut line);
                continue;
            }
            if word == "b" && at(i) == '\'' {
                i = skip_char(&c, i);
                continue;
            }
            out.push((Tok::Ident(word), line));
        } else if ch == ':' && at(i + 1) == ':' {
            out.push((Tok::Path, line));
            i += 2;
        } else {
            out.push((Tok::Punct(ch), line));
            i += 1;
        }
    }
    out
}

/// Past the end of a string whose body starts at `i`; `hashes` for a raw string (whose body
/// has no escapes).
fn skip_string(c: &[char], mut i: usize, hashes: usize, line: &mut usize) -> usize {
    let raw = hashes > 0 || (i >= 2 && c[i - 2] == 'r');
    while i < c.len() {
        match c[i] {
            '\\' if !raw => i += 2,
            '"' if (1..=hashes).all(|k| c.get(i + k) == Some(&'#')) => return i + 1 + hashes,
            ch => {
                *line += (ch == '\n') as usize;
                i += 1;
            }
        }
    }
    i
}

/// Past a character literal at `i` (`'a'`, `'\n'`, `'\''`), or past the `'` of a lifetime.
fn skip_char(c: &[char], i: usize) -> usize {
    if c.get(i + 1) == Some(&'\\') {
        let mut k = i + 3;
        while k < c.len() && c[k] != '\'' {
            k += 1;
        }
        k + 1
    } else if c.get(i + 2) == Some(&'\'') {
        i + 3
    } else {
        i + 1
    }
}

/// A path a `use` names, and the name it binds (`None` for a glob).
type UsePath = (Vec<String>, Option<String>);

/// The paths a `use` tree names, starting at token `i` (after `use`); returns them and the
/// index past the `;`.
fn use_tree(t: &[(Tok, usize)], mut i: usize) -> (Vec<UsePath>, usize) {
    let mut out = Vec::new();
    i = use_subtree(t, i, &[], &mut out);
    while i < t.len() && t[i].0 != Tok::Punct(';') {
        i += 1;
    }
    (out, i + 1)
}

fn use_subtree(
    t: &[(Tok, usize)],
    mut i: usize,
    prefix: &[String],
    out: &mut Vec<UsePath>,
) -> usize {
    let mut path = prefix.to_vec();
    if t.get(i).map(|x| &x.0) == Some(&Tok::Path) {
        // `use ::name` is an external crate.
        path.push("::".into());
        i += 1;
    }
    loop {
        match t.get(i).map(|x| &x.0) {
            Some(Tok::Ident(w)) if w == "self" && !path.is_empty() => {
                let name = path.last().cloned();
                i += 1;
                let name = alias(t, &mut i).or(name);
                out.push((path, name));
                return i;
            }
            Some(Tok::Ident(w)) => {
                path.push(w.clone());
                i += 1;
                if t.get(i).map(|x| &x.0) == Some(&Tok::Path) {
                    i += 1;
                    continue;
                }
                let name = alias(t, &mut i).or_else(|| path.last().cloned());
                out.push((path, name));
                return i;
            }
            Some(Tok::Punct('*')) => {
                out.push((path, None));
                return i + 1;
            }
            Some(Tok::Punct('{')) => {
                i += 1;
                while i < t.len() && t[i].0 != Tok::Punct('}') {
                    if t[i].0 == Tok::Punct(',') {
                        i += 1;
                        continue;
                    }
                    i = use_subtree(t, i, &path, out);
                }
                return i + 1;
            }
            _ => return i,
        }
    }
}

/// `as NAME` at `i`, if there; moves past it.
fn alias(t: &[(Tok, usize)], i: &mut usize) -> Option<String> {
    if t.get(*i).map(|x| &x.0) == Some(&Tok::Ident("as".into())) {
        if let Some(Tok::Ident(n)) = t.get(*i + 1).map(|x| &x.0) {
            *i += 2;
            return Some(n.clone());
        }
    }
    None
}

/// Where a path is read: its module (`here`: the file's, or an inline module in it), the
/// file's module, the child modules the file declares and the names its `use`s bound.
struct Place<'a> {
    here: &'a [String],
    file: &'a [String],
    children: &'a BTreeSet<String>,
    names: &'a BTreeMap<String, Vec<String>>,
}

/// The module a path names, read at `at`: an absolute path from the crate root, or `None` for
/// a path outside the crate (another crate, a type of `std`).
fn resolve(path: &[String], at: &Place) -> Option<Vec<String>> {
    let here = at.here;
    let first = path.first()?;
    match first.as_str() {
        "crate" => Some(path[1..].to_vec()),
        "self" => Some([here, &path[1..]].concat()),
        "super" => {
            let mut base = here.to_vec();
            let mut rest = path;
            while rest.first().map(String::as_str) == Some("super") {
                base.pop();
                rest = &rest[1..];
            }
            Some([&base[..], rest].concat())
        }
        name if at.children.contains(name) => Some([at.file, path].concat()),
        name => {
            let bound = at.names.get(name)?;
            Some([&bound[..], &path[1..]].concat())
        }
    }
}

/// The file a module path falls in: its longest prefix that is a file's module.
fn file_of(path: &[String], files: &BTreeSet<ModPath>) -> ModPath {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| files.contains(p))
        .unwrap_or_default()
}

/// A path a `use` names: the path, the name it binds, the module the `use` is in, its line.
struct Use {
    path: Vec<String>,
    name: Option<String>,
    here: ModPath,
    line: usize,
    /// `pub use` (or `pub(crate) use`): a re-export other files may name the item through.
    public: bool,
}

/// What a file's tokens say about modules.
struct Scan {
    /// The module each token is in: the file's, or an inline `mod name { … }` in it (so
    /// `super` inside `mod tests` means the file).
    scope: Vec<ModPath>,
    /// Whether each token is part of a `use`.
    in_use: Vec<bool>,
    /// The child modules the file declares (`mod name;`).
    children: BTreeSet<String>,
    /// The paths its `use`s name.
    uses: Vec<Use>,
}

/// Whether the `use` at token `i` is public: `pub use`, or `pub(crate) use` and the like.
fn is_pub(t: &[(Tok, usize)], i: usize) -> bool {
    let word = |k: usize, w: &str| t.get(k).is_some_and(|x| x.0 == Tok::Ident(w.into()));
    if i >= 1 && word(i - 1, "pub") {
        return true;
    }
    // `pub ( crate ) use`, `pub ( super ) use`
    i >= 4 && word(i - 4, "pub") && t[i - 1].0 == Tok::Punct(')')
}

fn scan(t: &[(Tok, usize)], module: &ModPath) -> Scan {
    let mut scope = vec![module.clone(); t.len()];
    let mut in_use = vec![false; t.len()];
    let mut children = BTreeSet::new();
    let mut uses = Vec::new();
    let mut inline: Vec<(String, usize)> = Vec::new();
    let (mut depth, mut i) = (0, 0);
    while i < t.len() {
        let here: ModPath = module
            .iter()
            .cloned()
            .chain(inline.iter().map(|m| m.0.clone()))
            .collect();
        scope[i] = here.clone();
        match &t[i].0 {
            Tok::Ident(w) if w == "mod" => {
                if let Some(Tok::Ident(name)) = t.get(i + 1).map(|x| &x.0) {
                    match t.get(i + 2).map(|x| &x.0) {
                        Some(Tok::Punct(';')) if inline.is_empty() => {
                            children.insert(name.clone());
                        }
                        Some(Tok::Punct('{')) => {
                            depth += 1;
                            inline.push((name.clone(), depth));
                            i += 3;
                            continue;
                        }
                        _ => {}
                    }
                }
            }
            Tok::Ident(w) if w == "use" => {
                let (tree, next) = use_tree(t, i + 1);
                let public = is_pub(t, i);
                uses.extend(tree.into_iter().map(|(path, name)| Use {
                    path,
                    name,
                    here: here.clone(),
                    line: t[i].1,
                    public,
                }));
                for k in i..next.min(t.len()) {
                    (scope[k], in_use[k]) = (here.clone(), true);
                }
                i = next;
                continue;
            }
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                if inline.last().is_some_and(|m| m.1 == depth) {
                    inline.pop();
                }
                depth -= 1;
            }
            _ => {}
        }
        i += 1;
    }
    Scan {
        scope,
        in_use,
        children,
        uses,
    }
}

/// A file's re-exports: the names its `pub use`s bind, each to the path it names, and the
/// paths of its public glob `use`s.
#[derive(Default)]
struct Exports {
    names: BTreeMap<String, Vec<String>>,
    globs: Vec<Vec<String>>,
}

/// Where a path leads once re-exports are followed: `crate::World` names `world::World`
/// when the crate root says `pub use world::World`, so the file that depends on it depends
/// on `world.rs`, not on the root.
fn follow(
    mut abs: Vec<String>,
    files: &BTreeSet<ModPath>,
    exports: &BTreeMap<ModPath, Exports>,
) -> Vec<String> {
    for _ in 0..16 {
        let f = file_of(&abs, files);
        let Some(name) = abs.get(f.len()) else {
            break;
        };
        let Some(ex) = exports.get(&f) else { break };
        let target = ex.names.get(name).cloned().or_else(|| {
            // A glob re-export of a file that has the name (`pub use self::a::*`).
            ex.globs.iter().find_map(|g| {
                let inner = file_of(g, files);
                (inner == *g && inner != f).then(|| [&g[..], &[name.clone()][..]].concat())
            })
        });
        match target {
            Some(t) if t != abs[..=f.len()] => abs = [&t[..], &abs[f.len() + 1..]].concat(),
            _ => break,
        }
    }
    abs
}

/// Every file's dependencies on the other files.
fn dependencies(sources: &BTreeMap<ModPath, String>) -> BTreeMap<ModPath, Vec<Edge>> {
    let files: BTreeSet<ModPath> = sources.keys().cloned().collect();
    // First what each file is and re-exports; then the edges, through the re-exports.
    let mut scanned = BTreeMap::new();
    let mut exports: BTreeMap<ModPath, Exports> = BTreeMap::new();
    for (module, src) in sources {
        let t = tokens(src);
        let sc = scan(&t, module);
        let mut names = BTreeMap::new();
        let mut resolved = Vec::new();
        for u in &sc.uses {
            let at = Place {
                here: &u.here,
                file: module,
                children: &sc.children,
                names: &names,
            };
            let abs = resolve(&u.path, &at);
            if let (Some(abs), Some(n)) = (&abs, &u.name) {
                names.insert(n.clone(), abs.clone());
            }
            if let Some(abs) = &abs {
                if u.public && u.here == *module {
                    let ex = exports.entry(module.clone()).or_default();
                    match &u.name {
                        Some(n) => {
                            ex.names.insert(n.clone(), abs.clone());
                        }
                        None => ex.globs.push(abs.clone()),
                    }
                }
            }
            resolved.push((abs, u.line));
        }
        scanned.insert(module.clone(), (t, sc, names, resolved));
    }
    let mut graph = BTreeMap::new();
    for (module, (t, sc, names, resolved)) in &scanned {
        let edge = |abs: Vec<String>, line: usize| Edge {
            to: file_of(&follow(abs, &files, &exports), &files),
            line,
        };
        let mut edges: Vec<Edge> = resolved
            .iter()
            .filter_map(|(abs, line)| Some(edge(abs.clone()?, *line)))
            .collect();
        // Then every path in the code outside the `use`s: `a::b::c` not preceded by `::`.
        for k in 0..t.len() {
            let Tok::Ident(first) = &t[k].0 else { continue };
            if sc.in_use[k] || (k > 0 && t[k - 1].0 == Tok::Path) {
                continue;
            }
            if t.get(k + 1).map(|x| &x.0) != Some(&Tok::Path) {
                continue;
            }
            let mut path = vec![first.clone()];
            let mut j = k + 1;
            while t.get(j).map(|x| &x.0) == Some(&Tok::Path) {
                match t.get(j + 1).map(|x| &x.0) {
                    Some(Tok::Ident(w)) => path.push(w.clone()),
                    _ => break,
                }
                j += 2;
            }
            let at = Place {
                here: &sc.scope[k],
                file: module,
                children: &sc.children,
                names,
            };
            if let Some(abs) = resolve(&path, &at) {
                edges.push(edge(abs, t[k].1));
            }
        }
        edges.retain(|e| &e.to != module);
        graph.insert(module.clone(), edges);
    }
    graph
}

/// The cycles of a graph: for each strongly connected set of more than one node (each reaches
/// every other), one cycle through it, as the nodes in order (the first again at the end),
/// and the whole set.
fn cycles<N: Ord + Clone>(graph: &BTreeMap<N, BTreeSet<N>>) -> Vec<(Vec<N>, BTreeSet<N>)> {
    // Two nodes are in one set when each reaches the other.
    let reach = |from: &N| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for m in graph.get(&n).into_iter().flatten() {
                if seen.insert(m.clone()) {
                    todo.push(m.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<N, BTreeSet<N>> = graph.keys().map(|n| (n.clone(), reach(n))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for n in graph.keys() {
        if done.contains(n) || !reached[n].contains(n) {
            continue;
        }
        let set: BTreeSet<N> = reached[n]
            .iter()
            .filter(|m| reached.get(*m).is_some_and(|r| r.contains(n)))
            .cloned()
            .collect();
        done.extend(set.iter().cloned());
        if set.len() > 1 {
            out.push((shortest_cycle(graph, n, &set), set));
        }
    }
    out
}

/// The shortest way from `n` back to itself within `set` (breadth first).
fn shortest_cycle<N: Ord + Clone>(
    graph: &BTreeMap<N, BTreeSet<N>>,
    n: &N,
    set: &BTreeSet<N>,
) -> Vec<N> {
    let mut from: BTreeMap<N, N> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([n.clone()]);
    while let Some(a) = queue.pop_front() {
        for b in graph
            .get(&a)
            .into_iter()
            .flatten()
            .filter(|b| set.contains(*b))
        {
            if b == n {
                let mut path = vec![n.clone(), a.clone()];
                while path.last() != Some(n) {
                    let prev = from[path.last().unwrap()].clone();
                    path.push(prev);
                }
                path.reverse();
                return path;
            }
            if !from.contains_key(b) {
                from.insert(b.clone(), a.clone());
                queue.push_back(b.clone());
            }
        }
    }
    vec![n.clone()]
}

/// A crate's source tree: its folder from the workspace root, the file of its root module
/// (`main.rs`, `lib.rs`), its files by module and the modules that are folders (`mod.rs`).
struct Tree {
    dir: &'static str,
    root: &'static str,
    sources: BTreeMap<ModPath, String>,
    dirs: BTreeSet<ModPath>,
}

impl Tree {
    fn read(dir: &'static str, root: &'static str) -> Tree {
        fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
            for e in std::fs::read_dir(dir)
                .expect("the sources are readable")
                .flatten()
            {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, out);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    out.push(p);
                }
            }
        }
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
        let mut files = Vec::new();
        walk(&src, &mut files);
        let (mut sources, mut dirs) = (BTreeMap::new(), BTreeSet::new());
        let root_module = root.trim_end_matches(".rs");
        for f in files {
            let rel = f.strip_prefix(&src).unwrap().with_extension("");
            let mut m: ModPath = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if m.last().is_some_and(|s| s == "mod") {
                m.pop();
                dirs.insert(m.clone());
            }
            if m == [root_module] {
                m.clear();
            }
            sources.insert(m, std::fs::read_to_string(&f).unwrap());
        }
        Tree {
            dir,
            root,
            sources,
            dirs,
        }
    }

    /// `src/app/keys.rs` for `["app", "keys"]` (or `src/app/mod.rs`, `src/main.rs`).
    fn file_name(&self, m: &ModPath) -> String {
        if m.is_empty() {
            format!("{}/{}", self.dir, self.root)
        } else if self.dirs.contains(m) {
            format!("{}/{}/mod.rs", self.dir, m.join("/"))
        } else {
            format!("{}/{}.rs", self.dir, m.join("/"))
        }
    }

    /// A folder's name (`src/ui/`), or a file's when it is at the top.
    fn top_name(&self, m: &ModPath) -> String {
        match m.first() {
            None => format!("{}/{}", self.dir, self.root),
            Some(n)
                if self.dirs.contains(m)
                    || self.sources.keys().any(|k| k.len() > 1 && k[0] == *n) =>
            {
                format!("{}/{n}/", self.dir)
            }
            Some(n) => format!("{}/{n}.rs", self.dir),
        }
    }
}

/// The message for the cycles found, each step with the place that makes it.
fn report(
    found: &[(Vec<ModPath>, BTreeSet<ModPath>)],
    name: impl Fn(&ModPath) -> String,
    place: impl Fn(&ModPath, &ModPath) -> Option<String>,
) -> String {
    let mut msg = String::new();
    for (cycle, set) in found {
        let all: Vec<String> = set.iter().map(&name).collect();
        msg.push_str(&format!("cycle (one of those among {}):\n", all.join(", ")));
        for w in cycle.windows(2) {
            let at = place(&w[0], &w[1]).map_or(String::new(), |p| format!(" ({p})"));
            msg.push_str(&format!("  {} -> {}{at}\n", name(&w[0]), name(&w[1])));
        }
    }
    msg
}

fn file_graph(deps: &BTreeMap<ModPath, Vec<Edge>>) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    deps.iter()
        .map(|(m, es)| (m.clone(), es.iter().map(|e| e.to.clone()).collect()))
        .collect()
}

/// A file's folder at the top of `src/` (`["ui"]` for `src/ui/panel.rs`), or the file itself
/// when it is at the top.
fn top(m: &ModPath) -> ModPath {
    m.iter().take(1).cloned().collect()
}

/// The cycles between the files of a tree, printed with the line of each step.
fn file_cycles(tree: &Tree) -> String {
    let deps = dependencies(&tree.sources);
    let found = cycles(&file_graph(&deps));
    let place = |a: &ModPath, b: &ModPath| {
        let e = deps[a].iter().find(|e| &e.to == b)?;
        Some(format!("{}:{}", tree.file_name(a), e.line))
    };
    report(&found, |m| tree.file_name(m), place)
}

/// The cycles between the folders at the top of a tree (and the files there).
fn folder_cycles(tree: &Tree) -> String {
    let deps = dependencies(&tree.sources);
    let mut graph: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for (m, es) in &deps {
        let node = graph.entry(top(m)).or_default();
        node.extend(es.iter().map(|e| top(&e.to)).filter(|t| *t != top(m)));
    }
    let found = cycles(&graph);
    let place = |a: &ModPath, b: &ModPath| {
        deps.iter()
            .filter(|(m, _)| top(m) == *a)
            .find_map(|(m, es)| {
                let e = es.iter().find(|e| top(&e.to) == *b)?;
                Some(format!("{}:{}", tree.file_name(m), e.line))
            })
    };
    report(&found, |m| tree.top_name(m), place)
}

fn app() -> Tree {
    let tree = Tree::read("src", "main.rs");
    assert!(tree.sources.len() > 10, "the app's files were not found");
    tree
}

fn library() -> Tree {
    let tree = Tree::read("crates/collide/src", "lib.rs");
    assert!(
        tree.sources.len() > 10,
        "the library's files were not found"
    );
    tree
}

#[test]
fn no_file_of_the_app_imports_one_that_imports_it_back() {
    let found = file_cycles(&app());
    assert!(
        found.is_empty(),
        "import cycles between the app's files:\n{found}"
    );
}

#[test]
fn no_folder_of_the_app_imports_one_that_imports_it_back() {
    let found = folder_cycles(&app());
    assert!(
        found.is_empty(),
        "import cycles between the app's folders:\n{found}"
    );
}

fn harness() -> Tree {
    let tree = Tree::read("crates/collide-lab/src", "lib.rs");
    assert!(
        tree.sources.len() > 10,
        "the harness's files were not found"
    );
    tree
}

#[test]
fn no_file_of_the_harness_imports_one_that_imports_it_back() {
    let found = file_cycles(&harness());
    assert!(
        found.is_empty(),
        "import cycles between the harness's files:\n{found}"
    );
}

#[test]
fn no_folder_of_the_harness_imports_one_that_imports_it_back() {
    let found = folder_cycles(&harness());
    assert!(
        found.is_empty(),
        "import cycles between the harness's folders:\n{found}"
    );
}

#[test]
fn no_file_of_the_library_imports_one_that_imports_it_back() {
    let found = file_cycles(&library());
    assert!(
        found.is_empty(),
        "import cycles between the library's files:\n{found}"
    );
}

#[test]
fn no_folder_of_the_library_imports_one_that_imports_it_back() {
    let found = folder_cycles(&library());
    assert!(
        found.is_empty(),
        "import cycles between the library's folders:\n{found}"
    );
}

/// Sources from `(module path "a/b", text)` pairs, for the tests of the check itself.
fn sources(files: &[(&str, &str)]) -> BTreeMap<ModPath, String> {
    files
        .iter()
        .map(|(p, s)| {
            let m = p.split('/').filter(|x| !x.is_empty()).map(String::from);
            (m.collect(), s.to_string())
        })
        .collect()
}

fn edges_of(deps: &BTreeMap<ModPath, Vec<Edge>>, m: &str) -> BTreeSet<String> {
    let key: ModPath = m
        .split('/')
        .filter(|x| !x.is_empty())
        .map(String::from)
        .collect();
    deps[&key].iter().map(|e| e.to.join("/")).collect()
}

#[test]
fn the_check_sees_every_way_of_naming_a_module() {
    let deps = dependencies(&sources(&[
        ("", "mod a; mod ui; fn main() { a::go(); }"),
        (
            "a",
            "use crate::ui::{self, panel::Panel as P};\nfn f() { ui::help::show(); }",
        ),
        ("ui", "pub mod panel; pub mod help;"),
        ("ui/panel", "use super::help; pub struct Panel;"),
        (
            "ui/help",
            "pub fn show() { let _ = \"crate::a::x\"; } // crate::a::y",
        ),
        ("b", "fn g() { crate::a::go(); super::a::go(); }"),
    ]));
    assert_eq!(edges_of(&deps, ""), BTreeSet::from(["a".to_string()]));
    let a = edges_of(&deps, "a");
    assert!(
        a.contains("ui") && a.contains("ui/panel") && a.contains("ui/help"),
        "{a:?}"
    );
    assert_eq!(
        edges_of(&deps, "ui/panel"),
        BTreeSet::from(["ui/help".to_string()])
    );
    // Strings and comments name nothing.
    assert!(edges_of(&deps, "ui/help").is_empty());
    assert_eq!(edges_of(&deps, "b"), BTreeSet::from(["a".to_string()]));
}

#[test]
fn the_check_finds_a_cycle_and_ignores_a_test_module_using_its_file() {
    let deps = dependencies(&sources(&[
        ("", "mod a; mod b; mod c;"),
        (
            "a",
            "use crate::b::B; pub struct A;\n#[cfg(test)]\nmod tests { use super::*; }",
        ),
        ("b", "pub struct B; fn f() -> crate::c::C { todo!() }"),
        ("c", "pub struct C(crate::a::A);"),
    ]));
    let found = cycles(&file_graph(&deps));
    assert_eq!(found.len(), 1);
    let names: Vec<String> = found[0].0.iter().map(|m| m.join("/")).collect();
    assert_eq!(names.len(), 4, "{names:?}");
    assert_eq!(names.first(), names.last());
    let deps = dependencies(&sources(&[
        ("", "mod a;"),
        (
            "a",
            "pub struct A;\nmod tests { use super::*; fn t() { let _ = super::A; } }",
        ),
    ]));
    assert!(cycles(&file_graph(&deps)).is_empty());
}

#[test]
fn lifetimes_chars_and_raw_strings_do_not_hide_code() {
    let t = tokens(
        "fn f<'a>(x: &'a str) { let c = '\"'; let r = r#\"crate::hidden\"#; crate::y::z(); }",
    );
    let idents: Vec<&str> = t
        .iter()
        .filter_map(|(tok, _)| match tok {
            Tok::Ident(w) => Some(w.as_str()),
            _ => None,
        })
        .collect();
    assert!(idents.ends_with(&["crate", "y", "z"]), "{idents:?}");
    assert!(!idents.contains(&"hidden"), "{idents:?}");
}
