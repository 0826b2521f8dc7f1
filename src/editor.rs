//! Edit mode (F2 or the toolbar's Edit): the scene's shapes with their handles, tools to add
//! segments, arcs, circles, bumpers, gates and rectangles by a drag, handle and body drags,
//! delete, elasticity and motion of the selection, and saving / loading the scene as RON.
//!
//! A thin shell over `collide::scene::edit`, which does every edit on the scene description.
//! While editing, the app shows [`Editor::preview`], a world built from the edited scene
//! (no balls), and its own world is paused; leaving hands the edited scene back, and the app
//! restarts from it. Handles are squares; an arc's start is a green disc and its end a red
//! diamond; a gate shows its direction as an arrow whose tip is a handle; a kinematic pivot
//! is an orange cross handle.

use crate::view::{Camera, View};
use collide::scene::edit::{self, Handle, NewKind, Pick, Role};
use collide::scene::{MotionDesc, ShapeDesc, ShapeKind};
use collide::{Scene, Vec2, World};
use egui_macroquad::egui;
use macroquad::prelude::*;

/// Screen pixels around a handle or a shape that still pick it.
const PICK_SLOP: f32 = 8.0;
/// Half size of a handle square (screen px).
const HANDLE: f32 = 4.5;
/// Zoom factor per wheel notch (as in normal mode).
const WHEEL_ZOOM: f32 = 1.2;
/// Width of the editor's side panel (egui points).
const PANEL_WIDTH: f32 = 250.0;
/// Edits Undo remembers.
const UNDO_DEPTH: usize = 200;

const HANDLE_COLOR: Color = Color::new(0.95, 0.95, 0.95, 0.9);
const SELECTED: Color = Color::new(1.0, 0.85, 0.2, 1.0);
const START_COLOR: Color = Color::new(0.3, 1.0, 0.4, 1.0);
const END_COLOR: Color = Color::new(1.0, 0.3, 0.3, 1.0);
const PIVOT_COLOR: Color = Color::new(1.0, 0.62, 0.2, 1.0);
const ARROW_COLOR: Color = Color::new(0.35, 0.95, 0.5, 1.0);
const PREVIEW_COLOR: Color = Color::new(0.5, 0.8, 1.0, 0.9);

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

    /// Keys of edit mode: Delete / Backspace delete the selection, Esc drops the selection
    /// and the tool, Ctrl+Z undoes.
    pub fn keys(&mut self) {
        let ctrl = is_key_down(KeyCode::LeftControl) || is_key_down(KeyCode::RightControl);
        if ctrl && is_key_pressed(KeyCode::Z) {
            self.undo();
        }
        if is_key_pressed(KeyCode::Delete) || is_key_pressed(KeyCode::Backspace) {
            self.delete_selected();
        }
        if is_key_pressed(KeyCode::Escape) {
            self.selected = None;
            self.tool = Tool::Select;
            self.drag = None;
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

    /// One frame of mouse input, after the panels: the wheel zooms, right / middle drags pan,
    /// the left button picks, drags and adds. `fitted` is the view without the camera.
    pub fn mouse(&mut self, fitted: View, cam: &mut Camera) {
        let at = crate::screen::mouse();
        let view = fitted.with_camera(*cam);
        let p = view.to_world(at);
        if view.covers(at) && !self.wants_pointer && self.drag.is_none() {
            let wheel = mouse_wheel().1;
            if wheel != 0.0 {
                cam.zoom_about(fitted, at, WHEEL_ZOOM.powf(wheel.signum()));
            }
            self.press(at, p, PICK_SLOP / view.scale());
        }
        self.drag_to(fitted, cam, at, p);
    }

    fn press(&mut self, at: Vec2, p: Vec2, slop: f32) {
        if is_mouse_button_pressed(MouseButton::Right)
            || is_mouse_button_pressed(MouseButton::Middle)
        {
            self.drag = Some(Drag::Pan { last: at });
            return;
        }
        if !is_mouse_button_pressed(MouseButton::Left) {
            return;
        }
        self.drag = match self.tool {
            Tool::Add(kind) => Some(Drag::Create { kind, from: p }),
            Tool::Select => match edit::pick(&self.scene, p, slop) {
                Some(Pick::Handle(Handle { shape, role, .. })) => {
                    self.selected = Some(shape);
                    self.begin_edit();
                    Some(Drag::Handle { shape, role })
                }
                Some(Pick::Shape(shape)) => {
                    self.selected = Some(shape);
                    self.begin_edit();
                    Some(Drag::Body { shape, last: p })
                }
                None => {
                    self.selected = None;
                    None
                }
            },
        };
    }

    fn drag_to(&mut self, fitted: View, cam: &mut Camera, at: Vec2, p: Vec2) {
        let left_up = !is_mouse_button_down(MouseButton::Left);
        match &mut self.drag {
            None => {}
            Some(Drag::Handle { shape, role }) => {
                if let Some(d) = self.scene.shapes.get_mut(*shape) {
                    self.dirty |= edit::move_handle(d, *role, p);
                }
                if left_up {
                    self.drag = None;
                    self.end_edit();
                }
            }
            Some(Drag::Body { shape, last }) => {
                if let Some(d) = self.scene.shapes.get_mut(*shape) {
                    if p != *last {
                        self.dirty |= edit::translate(d, p - *last);
                        *last = p;
                    }
                }
                if left_up {
                    self.drag = None;
                    self.end_edit();
                }
            }
            Some(Drag::Create { kind, from }) if left_up => {
                let (kind, from) = (*kind, *from);
                self.drag = None;
                self.create(kind, from, p);
            }
            Some(Drag::Create { .. }) => {}
            Some(Drag::Pan { last }) => {
                cam.pan_by(fitted, at - *last);
                *last = at;
                let held = is_mouse_button_down(MouseButton::Right)
                    || is_mouse_button_down(MouseButton::Middle);
                if !held {
                    self.drag = None;
                }
            }
        }
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

    /// Draws the handles of every shape, the selection's outline, gate arrows, arc ends,
    /// pivots and the shape being dragged out.
    pub fn draw(&self, view: &View) {
        if let Some(d) = self.selected.and_then(|i| self.scene.shapes.get(i)) {
            outline(view, d, SELECTED, 3.0);
        }
        for (i, d) in self.scene.shapes.iter().enumerate() {
            if let ShapeKind::Gate { a, b, normal, .. } = d.kind {
                gate_arrow(view, a, b, normal);
            }
            let selected = self.selected == Some(i);
            for h in edit::shape_handles(i, d) {
                handle_marker(view, h, selected);
            }
        }
        if let Some(Drag::Create { kind, from }) = self.drag {
            let to = view.to_world(crate::screen::mouse());
            if let Some(d) = edit::new_shape(kind, from, to) {
                outline(view, &d, PREVIEW_COLOR, 2.0);
            }
        }
        let (lo, _) = view.area();
        let text = match self.tool {
            Tool::Select => "EDIT: drag handles or shapes; Delete removes; F2 leaves".to_string(),
            Tool::Add(k) => format!("EDIT: drag to add a {}", k.name().to_lowercase()),
        };
        crate::screen::text(&text, lo.x + 12.0, lo.y + 26.0, 24.0, SELECTED);
    }

    /// The editor's side panel and the load-error window; returns `true` when the user
    /// asked to leave edit mode.
    pub fn ui(&mut self, ctx: &egui::Context) -> bool {
        let mut leave = false;
        let panel = egui::SidePanel::left("editor")
            .resizable(false)
            .exact_width(PANEL_WIDTH)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    ui.spacing_mut().slider_width = 100.0;
                    ui.heading("Scene editor");
                    ui.horizontal(|ui| {
                        leave = ui.button("Done: back to play (F2)").clicked();
                        let undo = egui::Button::new(format!("Undo ({})", self.undo.len()));
                        let r = ui.add_enabled(!self.undo.is_empty(), undo);
                        if r.on_hover_text("Ctrl+Z").clicked() {
                            self.undo();
                        }
                    });
                    self.tools_section(ui);
                    self.selection_section(ui);
                    self.file_section(ui);
                });
            });
        self.panel_width =
            panel.response.rect.width() * ctx.pixels_per_point() / crate::screen::scale();
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

    fn load(&mut self) {
        let path = std::path::PathBuf::from(self.path.trim());
        match Scene::load(&path) {
            Ok(scene) => {
                self.end_edit();
                self.begin_edit();
                self.scene = scene;
                self.end_edit();
                self.selected = None;
                self.dirty = true;
                self.message = Some(format!("Loaded {}", path.display()));
            }
            Err(e) => self.error = Some(e.to_string()),
        }
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
            .add(egui::Slider::new(&mut speed, -2.0..=2.0).text("rev/s"))
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

/// One handle: a square, a green disc at an arc's start, a red diamond at its end, an orange
/// cross at a pivot; bigger and yellow on the selected shape.
fn handle_marker(view: &View, h: Handle, selected: bool) {
    let q = view.pt(h.pos);
    let s = if selected { HANDLE * 1.4 } else { HANDLE };
    let color = if selected { SELECTED } else { HANDLE_COLOR };
    match h.role {
        Role::Start => draw_circle(q.x, q.y, s + 1.0, START_COLOR),
        Role::End => {
            let (n, e, so, w) = (
                vec2(q.x, q.y - s - 2.0),
                vec2(q.x + s + 2.0, q.y),
                vec2(q.x, q.y + s + 2.0),
                vec2(q.x - s - 2.0, q.y),
            );
            draw_triangle(n, e, so, END_COLOR);
            draw_triangle(n, so, w, END_COLOR);
        }
        Role::Pivot => {
            draw_line(q.x - s - 2.0, q.y, q.x + s + 2.0, q.y, 2.0, PIVOT_COLOR);
            draw_line(q.x, q.y - s - 2.0, q.x, q.y + s + 2.0, 2.0, PIVOT_COLOR);
            draw_rectangle_lines(q.x - s, q.y - s, 2.0 * s, 2.0 * s, 1.5, PIVOT_COLOR);
        }
        _ => draw_rectangle_lines(q.x - s, q.y - s, 2.0 * s, 2.0 * s, 2.0, color),
    }
}

/// The gate's direction: an arrow from its middle to the direction handle.
fn gate_arrow(view: &View, a: Vec2, b: Vec2, normal: Vec2) {
    let (m, tip) = (
        view.pt((a + b) * 0.5),
        view.pt(edit::gate_arrow_tip(a, b, normal)),
    );
    draw_line(m.x, m.y, tip.x, tip.y, 2.0, ARROW_COLOR);
    let dir = (tip - m).normalize_or_zero();
    for side in [-1.0, 1.0] {
        let h = tip - dir * 9.0 + dir.perp() * 5.0 * side;
        draw_line(tip.x, tip.y, h.x, h.y, 2.0, ARROW_COLOR);
    }
}

fn seg(view: &View, a: Vec2, b: Vec2, w: f32, color: Color) {
    let (p, q) = (view.pt(a), view.pt(b));
    draw_line(p.x, p.y, q.x, q.y, w, color);
}

/// An arc (degrees) as a polyline on screen.
fn arc_line(view: &View, c: Vec2, r: f32, start: f32, end: f32, w: f32, color: Color) {
    let n = ((end - start) / 4.0).ceil().clamp(4.0, 90.0) as usize;
    let at = |k: usize| {
        let deg = start + (end - start) * k as f32 / n as f32;
        c + Vec2::from_angle(deg.to_radians()) * r
    };
    for k in 0..n {
        seg(view, at(k), at(k + 1), w, color);
    }
}

/// A shape description's outline (the selection, the shape being dragged out).
fn outline(view: &View, d: &ShapeDesc, color: Color, w: f32) {
    match &d.kind {
        ShapeKind::Point { p } => {
            let q = view.pt(*p);
            draw_circle_lines(q.x, q.y, 5.0, w, color);
        }
        ShapeKind::Segment { a, b } | ShapeKind::Gate { a, b, .. } => seg(view, *a, *b, w, color),
        ShapeKind::Polyline { points } => {
            for p in points.windows(2) {
                seg(view, p[0], p[1], w, color);
            }
        }
        ShapeKind::Circle { centre, radius } => {
            arc_line(view, *centre, *radius, 0.0, 360.0, w, color)
        }
        ShapeKind::Arc {
            centre,
            radius,
            start,
            end,
        } => arc_line(view, *centre, *radius, *start, *end, w, color),
        ShapeKind::Teardrop {
            centre,
            radius,
            tip,
        } => {
            arc_line(view, *centre, *radius, 0.0, 360.0, w, color);
            seg(view, *centre, *tip, w, color);
        }
        ShapeKind::Rect { min, max } => {
            let c = [*min, Vec2::new(max.x, min.y), *max, Vec2::new(min.x, max.y)];
            for k in 0..4 {
                seg(view, c[k], c[(k + 1) % 4], w, color);
            }
        }
        ShapeKind::OrientedRect {
            centre,
            half_extents,
            angle,
        } => {
            let c =
                collide::geom::oriented_rect_corners(*centre, *half_extents, angle.to_radians());
            for k in 0..4 {
                seg(view, c[k], c[(k + 1) % 4], w, color);
            }
        }
        ShapeKind::Group { shapes, .. } => shapes.iter().for_each(|m| outline(view, m, color, w)),
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
