//! Writing a scene back as RON: what the scene editor saves, read back equal by
//! [`Scene::parse`], after the same checks.

use super::{Scene, SceneError};

impl Scene {
    /// The scene as pretty RON that [`Scene::parse`] reads back equal (floats are written
    /// in their shortest exact form). A scene with a value that is not finite gives RON the
    /// parser refuses; [`Scene::save`] checks first.
    pub fn to_ron(&self) -> String {
        // Struct names off (points stay `(x, y)`, not `Vec2(x, y)`); the top level gets its
        // name back by hand, as in the shipped scene files. Depth 2: one shape per line.
        let config = ron::ser::PrettyConfig::new()
            .indentor("    ".to_string())
            .depth_limit(2);
        let body =
            ron::ser::to_string_pretty(self, config).expect("a scene is plain data RON can write");
        format!("// Written by the Collision Math Toy's scene editor.\nScene{body}\n")
    }

    /// Checks the scene as [`Scene::parse`] would; the error names `origin`, the shape (index
    /// and kind) and the field.
    pub fn check(&self, origin: &str) -> Result<(), SceneError> {
        self.validated_message().map_err(|message| SceneError {
            origin: origin.to_string(),
            line: 0,
            col: 0,
            message,
        })
    }

    /// Checks the scene and writes it to `path` as RON.
    pub fn save(&self, path: &std::path::Path) -> Result<(), SceneError> {
        let origin = path.display().to_string();
        self.check(&origin)?;
        std::fs::write(path, self.to_ron()).map_err(|e| SceneError {
            origin,
            line: 0,
            col: 0,
            message: format!("cannot write the file: {e}"),
        })
    }
}
