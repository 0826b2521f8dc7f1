//! The editor's side panel: the tool, the selection's elasticity, motion, gate speed and
//! handle coordinates, the file row (save and load a scene), and the load-error window.

use super::{Editor, Tool};
use crate::keymap::{self, Action};
use collide::scene::{MotionDesc, ShapeDesc, ShapeKind};
use collide::Scene;
use collide_edit::{self as edit, NewKind, Role};
use egui_macroquad::egui;

/// Width of the editor's side panel (egui points).
const PANEL_WIDTH: f32 = 250.0;

impl Editor {
    /// The editor's side panel and the load-error window; returns `true` when the user
    /// asked to leave edit mode.
    pub fn show(&mut self, ctx: &egui::Context) -> bool {
        let mut leave = false;
        let panel = egui::SidePanel::left("editor")
            .resizable(false)
            .exact_width(PANEL_WIDTH)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    ui.spacing_mut().slider_width = 100.0;
                    ui.heading("Scene editor");
                    ui.horizontal(|ui| {
                        let done =
                            format!("Done: back to play ({})", keymap::keys_of(Action::Editor));
                        leave = ui.button(done).clicked();
                        let undo = egui::Button::new(format!("Undo ({})", self.undo.len()));
                        let r = ui.add_enabled(!self.undo.is_empty(), undo);
                        if r.on_hover_text(keymap::keys_of(Action::Undo)).clicked() {
                            self.undo();
                        }
                    });
                    self.tools_section(ui);
                    self.selection_section(ui);
                    self.file_section(ui);
                });
            });
        self.panel_width =
            panel.response.rect.width() * ctx.pixels_per_point() / crate::render::screen::scale();
        self.error_window(ctx);
        // A panel edit ends when the pointer is let go (a slider drag is one edit).
        if self.drag.is_none() && !ctx.input(|i| i.pointer.any_down()) {
            self.end_edit();
        }
        leave
    }

    fn tools_section(&mut self, ui: &mut egui::Ui) {
        ui.separator();
        ui.strong("Tool");
        ui.horizontal_wrapped(|ui| {
            ui.selectable_value(&mut self.tool, Tool::Select, "Select/Move");
            for kind in NewKind::ALL {
                ui.selectable_value(&mut self.tool, Tool::Add(kind), kind.name());
            }
        });
        ui.small(format!("{} shapes", self.scene.shapes.len()));
    }

    fn selection_section(&mut self, ui: &mut egui::Ui) {
        ui.separator();
        let Some(i) = self.selected.filter(|&i| i < self.scene.shapes.len()) else {
            ui.label("Nothing selected: click a shape or a handle.");
            return;
        };
        ui.horizontal(|ui| {
            ui.strong(format!("Shape {i}: {}", self.scene.shapes[i].kind_name()));
            if ui.button("Delete").clicked() {
                self.delete_selected();
            }
        });
        let before = self.scene.shapes[i].clone();
        let d = &mut self.scene.shapes[i];
        let mut changed = elasticity_row(ui, d);
        changed |= motion_rows(ui, d);
        changed |= gate_rows(ui, d);
        changed |= point_rows(ui, i, d);
        if changed && self.base.is_none() {
            // The scene before this frame's change is the one to go back to.
            let mut base = self.scene.clone();
            base.shapes[i] = before;
            self.base = Some(base);
        }
        self.dirty |= changed;
    }

    fn file_section(&mut self, ui: &mut egui::Ui) {
        ui.separator();
        ui.strong("File");
        ui.add(egui::TextEdit::singleline(&mut self.path).hint_text("my_scene.ron"));
        ui.horizontal(|ui| {
            if ui.button("Save scene…").clicked() {
                self.save();
            }
            if ui.button("Load scene…").clicked() {
                self.load();
            }
        });
        if let Some(m) = &self.message {
            ui.add(egui::Label::new(egui::RichText::new(m).small()).wrap());
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn save(&mut self) {
        let path = std::path::PathBuf::from(self.path.trim());
        self.message = Some(match self.scene.save(&path) {
            Ok(()) => format!(
                "Saved {} shapes to {}",
                self.scene.shapes.len(),
                path.display()
            ),
            Err(e) => format!("Not saved: {e}"),
        });
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn load(&mut self) {
        let path = std::path::PathBuf::from(self.path.trim());
        match Scene::load(&path) {
            Ok(scene) => self.take_loaded(scene, &path.display().to_string()),
            Err(e) => self.error = Some(e.to_string()),
        }
    }

    /// A scene loaded from `origin` is edited from now on (undoable).
    pub(super) fn take_loaded(&mut self, scene: Scene, origin: &str) {
        self.end_edit();
        self.begin_edit();
        self.scene = scene;
        self.end_edit();
        self.selected = None;
        self.dirty = true;
        self.message = Some(format!("Loaded {origin}"));
    }

    fn error_window(&mut self, ctx: &egui::Context) {
        let Some(text) = self.error.clone() else {
            return;
        };
        let mut open = true;
        egui::Window::new("Scene not loaded")
            .open(&mut open)
            .collapsible(false)
            .show(ctx, |ui| {
                ui.label(&text);
                ui.label("The scene being edited is unchanged.");
            });
        if !open {
            self.error = None;
        }
    }
}

/// Elasticity slider (0–3 by dragging; the scene allows up to 10).
fn elasticity_row(ui: &mut egui::Ui, d: &mut ShapeDesc) -> bool {
    let Some(mut e) = edit::elasticity_of(d) else {
        return false;
    };
    let r = ui.add(
        egui::Slider::new(&mut e, 0.0..=3.0)
            .fixed_decimals(2)
            .clamping(egui::SliderClamping::Edits)
            .text("elasticity"),
    );
    r.changed() && edit::set_elasticity(d, e)
}

/// Static / kinematic, and the pivot and turn rate of a kinematic shape.
fn motion_rows(ui: &mut egui::Ui, d: &mut ShapeDesc) -> bool {
    let Some(m) = edit::motion_of(d) else {
        ui.small("Gates and teardrops do not move.");
        return false;
    };
    if let MotionDesc::Flipper { control, .. } | MotionDesc::Plunger { control, .. } = m {
        ui.small(format!(
            "Driven by {control:?}: edit its motion in the scene file."
        ));
        return false;
    }
    let mut kinematic = matches!(m, MotionDesc::Kinematic { .. });
    let mut changed = false;
    ui.horizontal(|ui| {
        ui.label("motion");
        changed |= ui.radio_value(&mut kinematic, false, "static").changed();
        changed |= ui.radio_value(&mut kinematic, true, "kinematic").changed();
    });
    let (mut pivot, mut speed) = match m {
        MotionDesc::Kinematic { pivot, speed } => (pivot, speed),
        _ => (edit::default_pivot(d), 0.25),
    };
    if kinematic && !changed {
        ui.horizontal(|ui| {
            ui.label("pivot");
            changed |= ui
                .add(egui::DragValue::new(&mut pivot.x).speed(1.0))
                .changed();
            changed |= ui
                .add(egui::DragValue::new(&mut pivot.y).speed(1.0))
                .changed();
        });
        changed |= ui
            .add(
                egui::Slider::new(&mut speed, -2.0..=2.0)
                    .fixed_decimals(2)
                    .text("rev/s"),
            )
            .changed();
    }
    if !changed {
        return false;
    }
    let new = if kinematic {
        MotionDesc::Kinematic { pivot, speed }
    } else {
        MotionDesc::Static
    };
    edit::set_motion(d, new)
}

/// A gate's pass speed.
fn gate_rows(ui: &mut egui::Ui, d: &mut ShapeDesc) -> bool {
    let ShapeKind::Gate { threshold, .. } = &mut d.kind else {
        return false;
    };
    ui.add(
        egui::Slider::new(threshold, 0.0..=1000.0)
            .fixed_decimals(0)
            .clamping(egui::SliderClamping::Always)
            .text("pass px/s"),
    )
    .changed()
}

/// Each handle's position as two numbers to type or drag.
fn point_rows(ui: &mut egui::Ui, i: usize, d: &mut ShapeDesc) -> bool {
    let mut changed = false;
    egui::Grid::new("editor-points")
        .num_columns(3)
        .spacing([6.0, 2.0])
        .show(ui, |ui| {
            // The pivot has its own row under motion.
            for h in edit::shape_handles(i, d)
                .into_iter()
                .filter(|h| h.role != Role::Pivot)
            {
                let mut p = h.pos;
                ui.label(role_name(h.role));
                let rx = ui.add(egui::DragValue::new(&mut p.x).speed(1.0).max_decimals(2));
                let ry = ui.add(egui::DragValue::new(&mut p.y).speed(1.0).max_decimals(2));
                ui.end_row();
                if rx.changed() || ry.changed() {
                    changed |= edit::move_handle(d, h.role, p);
                }
            }
        });
    changed
}

fn role_name(role: Role) -> String {
    match role {
        Role::At => "point".into(),
        Role::A => "end a".into(),
        Role::B => "end b".into(),
        Role::Vertex(k) => format!("point {k}"),
        Role::Centre => "centre".into(),
        Role::Radius => "radius".into(),
        Role::Start => "start".into(),
        Role::End => "end".into(),
        Role::Normal => "direction".into(),
        Role::Tip => "tip".into(),
        Role::Corner(k) => format!("corner {k}"),
        Role::Pivot => "pivot".into(),
    }
}
