//! The scenes that come with the crate, as RON text (the files in the crate's `scenes/`
//! folder, built in): the original toy's table, the tunnelling lab, a pinball table, Newton's
//! cradle, a pool break, rain into a funnel and a field of random balls.

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
pub fn builtin_names() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(n, _)| *n)
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
