//! The scenes that come with the crate, as RON text (the files in the crate's `scenes/`
//! folder, built in): the original toy's table, the tunnelling lab, a pinball table, Newton's
//! cradle, a pool break, rain into a funnel and a field of random balls; and the names
//! nearest a name that is not built in, for the message that lists them.

use super::Scene;

/// The built-in scenes as `(name, RON text)`, in the order of the app's number keys.
pub const BUILTIN: &[(&str, &str)] = &[
    ("table", include_str!("../../scenes/table.ron")),
    ("lab", include_str!("../../scenes/lab.ron")),
    ("pinball", include_str!("../../scenes/pinball.ron")),
    ("cradle", include_str!("../../scenes/cradle.ron")),
    ("pool", include_str!("../../scenes/pool.ron")),
    ("rain", include_str!("../../scenes/rain.ron")),
    ("field", include_str!("../../scenes/field.ron")),
];

/// The RON text of the built-in scene `name` (one of [`builtin_names`]).
///
/// ```
/// let text = collide::scene::builtin("pinball").expect("a built-in scene");
/// assert!(text.contains("Flipper"));
/// assert!(collide::scene::builtin("no such scene").is_none());
/// ```
pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTIN
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// The names of the built-in scenes, in the order of [`BUILTIN`].
pub(crate) fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(n, _)| *n)
}

/// The built-in names nearest `name`, nearest first: the same name in other letter case,
/// then names within two edits of it (case ignored), then the rest in [`BUILTIN`] order.
pub(crate) fn builtin_names_near(name: &str) -> Vec<&'static str> {
    let wanted = name.to_lowercase();
    let mut names: Vec<(usize, &'static str)> = builtin_names()
        .map(|n| (edits(&wanted, n).min(3), n))
        .collect();
    names.sort_by_key(|&(d, _)| d);
    names.into_iter().map(|(_, n)| n).collect()
}

/// What to say when `name` is neither a built-in scene nor a file that can be read: the
/// built-in names, a close match first ("did you mean").
///
/// ```
/// let m = collide::scene::not_built_in("Pinball");
/// assert!(m.starts_with("no built-in scene or file named `Pinball`; did you mean `pinball`?"));
/// ```
pub fn not_built_in(name: &str) -> String {
    let near = builtin_names_near(name);
    let close = near
        .first()
        .filter(|n| edits(&name.to_lowercase(), n) <= 2)
        .map(|n| format!("; did you mean `{n}`?"))
        .unwrap_or_default();
    format!(
        "no built-in scene or file named `{name}`{close} Built-in scenes: {}",
        near.join(", ")
    )
}

/// Levenshtein distance between two short names (characters inserted, deleted or changed).
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let changed = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = changed.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

impl Scene {
    /// The built-in scene `name`, parsed (`None` for a name that is not built in).
    ///
    /// ```
    /// let scene = collide::Scene::builtin("table").expect("the table is built in");
    /// assert_eq!(scene.name, "table");
    /// ```
    pub fn builtin(name: &str) -> Option<Scene> {
        let text = builtin(name)?;
        Some(Scene::parse(text, name).expect("the built-in scenes are valid"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_near_put_the_nearest_first() {
        let names = builtin_names_near("Pinbal");
        assert_eq!(names[0], "pinball");
        assert_eq!(names.len(), BUILTIN.len());
    }

    #[test]
    fn edits_count_insertions_deletions_and_changes() {
        assert_eq!(edits("pool", "pool"), 0);
        assert_eq!(edits("pol", "pool"), 1);
        assert_eq!(edits("pools", "pool"), 1);
        assert_eq!(edits("rein", "rain"), 1);
        assert_eq!(edits("", "lab"), 3);
    }

    #[test]
    fn a_name_in_other_case_is_suggested_first() {
        let m = not_built_in("Pinball");
        assert!(m.contains("did you mean `pinball`?"), "{m}");
        assert!(
            m.ends_with("Built-in scenes: pinball, table, lab, cradle, pool, rain, field"),
            "{m}"
        );
    }

    #[test]
    fn a_name_far_from_every_built_in_lists_them_without_a_guess() {
        let m = not_built_in("my_tables.ron");
        assert!(!m.contains("did you mean"), "{m}");
        assert!(
            m.ends_with("table, lab, pinball, cradle, pool, rain, field"),
            "{m}"
        );
    }
}
