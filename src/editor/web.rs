//! The editor's Save and Load in a page (built for `wasm32-unknown-unknown` only): the scene
//! checked as on the desktop and offered as a download; a scene loaded from the browser's
//! file chooser, parsed as a file of its name, so a bad one gets the same message.

use super::Editor;
use crate::web::page;
use collide::Scene;

impl Editor {
    /// Save: the scene checked and downloaded under the name in the path field.
    pub(super) fn save(&mut self) {
        let path = std::path::PathBuf::from(self.path.trim());
        let name = path.file_name().map_or("my_scene.ron".to_string(), |n| {
            n.to_string_lossy().into_owned()
        });
        self.message = Some(match self.scene.check(&name) {
            Ok(()) => {
                page::download(&name, self.scene.to_ron().as_bytes());
                format!(
                    "Saved {} shapes as a download, {name}",
                    self.scene.shapes.len()
                )
            }
            Err(e) => format!("Not saved: {e}"),
        });
    }

    /// Load: the browser's file chooser; the file comes back to [`Editor::uploaded`].
    pub(super) fn load(&mut self) {
        page::pick(page::file::EDITOR_SCENE);
        self.message = Some("Choose a scene file in the browser's window".to_string());
    }

    /// A scene file the user chose: edited from now on, or refused with the desktop's message.
    pub fn uploaded(&mut self, name: &str, text: &str) {
        match Scene::parse(text, name) {
            Ok(scene) => self.take_loaded(scene, name),
            Err(e) => self.error = Some(e.to_string()),
        }
    }
}
