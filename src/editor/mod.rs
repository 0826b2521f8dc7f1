//! Edit mode (F2 or the toolbar's Edit): the scene's shapes with their handles, tools to add
//! segments, arcs, circles, bumpers, gates and rectangles by a drag, handle and body drags,
//! delete, elasticity and motion of the selection, and saving / loading the scene as RON.
//!
//! A thin shell over `collide::scene_edit`, which does every edit on the scene description.
//! While editing, the app shows [`Editor::preview`], a world built from the edited scene
//! (no balls), and its own world is paused; leaving hands the edited scene back, and the app
//! restarts from it. Handles are squares; an arc's start is a green disc and its end a red
//! diamond; a gate shows its direction as an arrow whose tip is a handle; a kinematic pivot
//! is an orange cross handle.
//!
//! `mouse.rs` picks and drags, `draw.rs` draws the handles and outlines, `panel.rs` is the
//! editor's side panel; the keys are the key map's (`keymap.rs`, [`Editor::key`]).

use crate::keymap::Action;
use collide::{Scene, Vec2, World};
use collide_edit::{self as edit, NewKind, Role};

mod draw;
mod mouse;
mod panel;
#[cfg(target_arch = "wasm32")]
mod web;

/// Edits Undo remembers.
const UNDO_DEPTH: usize = 200;

/// The tool in hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Tool {
    /// Pick, drag handles and bodies.
    Select,
    /// Add a shape of this kind by a drag.
    Add(NewKind),
}

/// The mouse gesture in progress.
#[derive(Clone, Copy, Debug)]
enum Drag {
    /// Dragging handle `role` of shape `shape`.
    Handle { shape: usize, role: Role },
    /// Dragging shape `shape` whole; the pointer was at `last` (world px).
    Body { shape: usize, last: Vec2 },
    /// Adding a shape dragged from `from` (world px).
    Create { kind: NewKind, from: Vec2 },
    /// Panning; the pointer was at `last` (screen px).
    Pan { last: Vec2 },
}

/// The editor's state between frames.
pub struct Editor {
    /// The scene being edited.
    pub scene: Scene,
    /// A world built from [`Editor::scene`], without balls, to draw.
    pub preview: World,
    /// Edit mode is on.
    pub active: bool,
    /// Width of the side panel last frame (screen px).
    pub panel_width: f32,
    /// egui has the pointer this frame (set after all panels and windows are shown, and
    /// before [`Editor::mouse`] runs, so a press on a button is never also a press on the
    /// table).
    pub wants_pointer: bool,
    tool: Tool,
    selected: Option<usize>,
    drag: Option<Drag>,
    dirty: bool,
    /// Path field of Save / Load.
    path: String,
    /// Error of the last load, shown in a window until closed.
    error: Option<String>,
    /// Note under the file buttons (saved, loaded, refused).
    message: Option<String>,
    seed: u64,
    /// Scenes before each finished edit, oldest first.
    undo: Vec<Scene>,
    /// The scene before the edit in progress (a drag, a slider held).
    base: Option<Scene>,
}

impl Editor {
    /// An inactive editor on `scene`.
    pub fn new(scene: &Scene, seed: u64) -> Self {
        // The preview is built on entering; until then an empty table stands in.
        let empty = Scene {
            shapes: Vec::new(),
            ..scene.clone()
        };
        Self {
            scene: scene.clone(),
            preview: empty.build(seed),
            active: false,
            panel_width: 0.0,
            wants_pointer: false,
            tool: Tool::Select,
            selected: None,
            drag: None,
            dirty: false,
            path: "my_scene.ron".to_string(),
            error: None,
            message: None,
            seed,
            undo: Vec::new(),
            base: None,
        }
    }

    /// Starts editing a copy of `scene`.
    pub fn enter(&mut self, scene: &Scene) {
        self.scene = scene.clone();
        self.preview = scene.build(self.seed);
        self.active = true;
        self.tool = Tool::Select;
        self.selected = None;
        self.drag = None;
        self.message = None;
        self.undo.clear();
        self.base = None;
    }

    /// Stops editing and returns the edited scene.
    pub fn leave(&mut self) -> Scene {
        self.active = false;
        self.drag = None;
        self.panel_width = 0.0;
        self.wants_pointer = false;
        self.scene.clone()
    }

    /// Rebuilds the preview after edits (only a valid scene; edits keep it valid).
    pub fn update(&mut self) {
        if !std::mem::take(&mut self.dirty) {
            return;
        }
        match self.scene.check("edited scene") {
            Ok(()) => self.preview = self.scene.build(self.seed),
            Err(e) => self.message = Some(e.to_string()),
        }
    }

    /// Remembers the scene as it is before an edit (once per edit in progress).
    fn begin_edit(&mut self) {
        if self.base.is_none() {
            self.base = Some(self.scene.clone());
        }
    }

    /// Ends the edit in progress: Undo gets the scene from before it, if it changed.
    fn end_edit(&mut self) {
        if let Some(before) = self.base.take() {
            if before != self.scene {
                if self.undo.len() == UNDO_DEPTH {
                    self.undo.remove(0);
                }
                self.undo.push(before);
            }
        }
    }

    /// Goes back to the scene before the last finished edit.
    pub fn undo(&mut self) {
        if self.drag.is_some() || self.base.is_some() {
            return;
        }
        if let Some(scene) = self.undo.pop() {
            self.scene = scene;
            self.selected = None;
            self.dirty = true;
            self.message = Some(format!("Undone ({} more)", self.undo.len()));
        }
    }

    /// An editor key of the key map: undo, delete the selection, or drop the selection and
    /// the tool.
    pub fn key(&mut self, action: Action) {
        match action {
            Action::Undo => self.undo(),
            Action::Delete => self.delete_selected(),
            Action::Deselect => {
                self.selected = None;
                self.tool = Tool::Select;
                self.drag = None;
            }
            _ => {}
        }
    }

    fn delete_selected(&mut self) {
        self.end_edit();
        self.begin_edit();
        if let Some(i) = self.selected.take() {
            if let Some(gone) = edit::delete(&mut self.scene, i) {
                self.message = Some(format!("Deleted shape {i} ({})", gone.kind_name()));
                self.dirty = true;
            }
        }
        self.drag = None;
        self.end_edit();
    }

    fn create(&mut self, kind: NewKind, from: Vec2, to: Vec2) {
        self.end_edit();
        self.begin_edit();
        let added = edit::add(&mut self.scene, kind, from, to);
        self.end_edit();
        if let Some(i) = added {
            self.selected = Some(i);
            self.tool = Tool::Select;
            self.dirty = true;
            self.message = Some(format!("Added shape {i} ({})", kind.name()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Scene {
        Scene::parse(crate::cli::TABLE_RON, "table").unwrap()
    }

    #[test]
    fn undo_goes_back_one_finished_edit_at_a_time() {
        let mut ed = Editor::new(&table(), 1);
        ed.enter(&table());
        ed.create(
            NewKind::Segment,
            Vec2::new(10.0, 10.0),
            Vec2::new(90.0, 10.0),
        );
        ed.create(
            NewKind::Bumper,
            Vec2::new(400.0, 400.0),
            Vec2::new(420.0, 400.0),
        );
        ed.selected = Some(0);
        ed.delete_selected();
        assert_eq!(ed.scene.shapes.len(), table().shapes.len() + 1);
        ed.undo();
        assert_eq!(ed.scene.shapes.len(), table().shapes.len() + 2);
        ed.undo();
        ed.undo();
        assert_eq!(ed.scene, table());
        // Nothing left: a further undo changes nothing.
        ed.undo();
        assert_eq!(ed.scene, table());
    }

    #[test]
    fn an_edit_that_changed_nothing_is_not_remembered() {
        let mut ed = Editor::new(&table(), 1);
        ed.enter(&table());
        ed.begin_edit();
        ed.end_edit();
        assert!(ed.undo.is_empty());
    }
}
