//! Drawing the editor over the table: every shape's handles, the selection's outline, gate
//! arrows, arc ends, pivots, and the shape being dragged out.

use super::{Drag, Editor, Tool};
use crate::keymap::{self, Action};
use crate::render::screen;
use crate::render::view::View;
use collide::scene::{ShapeDesc, ShapeKind};
use collide::Vec2;
use collide_edit::{self as edit, Handle, Role};
use macroquad::prelude::*;

/// Half size of a handle square (screen px).
const HANDLE: f32 = 4.5;

const HANDLE_COLOR: Color = Color::new(0.95, 0.95, 0.95, 0.9);
const SELECTED: Color = Color::new(1.0, 0.85, 0.2, 1.0);
const START_COLOR: Color = Color::new(0.3, 1.0, 0.4, 1.0);
const END_COLOR: Color = Color::new(1.0, 0.3, 0.3, 1.0);
const PIVOT_COLOR: Color = Color::new(1.0, 0.62, 0.2, 1.0);
const ARROW_COLOR: Color = Color::new(0.35, 0.95, 0.5, 1.0);
const PREVIEW_COLOR: Color = Color::new(0.5, 0.8, 1.0, 0.9);

impl Editor {
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
            let to = view.to_world(screen::mouse());
            if let Some(d) = edit::new_shape(kind, from, to) {
                outline(view, &d, PREVIEW_COLOR, 2.0);
            }
        }
        let text = match self.tool {
            Tool::Select => format!(
                "EDIT: drag handles or shapes; {} removes; {} leaves",
                keymap::key_name(keymap::binding(Action::Delete).keys[0]),
                keymap::keys_of(Action::Editor)
            ),
            Tool::Add(k) => format!("EDIT: drag to add a {}", k.name().to_lowercase()),
        };
        banner(view, &text);
    }
}

/// The editor's banner at the view's top left, set smaller (or broken into lines) where the
/// view is too narrow for it, so that none of it runs under the panels.
fn banner(view: &View, text: &str) {
    let (x, y, w, _) = view.rect();
    let (size, lines) = screen::fitted(text, 24.0, 14.0, w - 24.0);
    for (k, line) in lines.iter().enumerate() {
        let baseline = y + 2.0 + size * (k as f32 + 1.0) * 1.1;
        screen::text(line, x + 12.0, baseline, size, SELECTED);
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
