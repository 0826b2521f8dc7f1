//! Drawing the editor over the table: every shape's handles, the selection's outline, gate
//! arrows, arc ends, pivots, and the shape being dragged out.

use super::{Drag, Editor, Tool};
use crate::keymap::{self, Action};
use crate::render::screen;
use crate::render::view::View;
use collide::geom::{Group, Outline};
use collide::scene::{ShapeDesc, ShapeKind};
use collide::{Shape, Vec2};
use collide_edit::{self as edit, Handle, Role};
use macroquad::prelude::*;
use std::f32::consts::TAU;

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

/// An arc (rad) as a polyline on screen, one piece per 4° or so.
fn arc_line(view: &View, c: Vec2, r: f32, start: f32, end: f32, w: f32, color: Color) {
    let n = ((end - start).to_degrees() / 4.0).ceil().clamp(4.0, 90.0) as usize;
    let at = |k: usize| c + Vec2::from_angle(start + (end - start) * k as f32 / n as f32) * r;
    for k in 0..n {
        seg(view, at(k), at(k + 1), w, color);
    }
}

/// A shape description's outline (the selection, the shape being dragged out): the outlines
/// of the obstacles it builds into, guard points left out.
fn outline(view: &View, d: &ShapeDesc, color: Color, w: f32) {
    let (shapes, groups) = d.built();
    for s in &shapes {
        built_outline(view, s, &groups, color, w);
    }
}

/// One built obstacle's outline; a group draws its members.
fn built_outline(view: &View, s: &Shape, groups: &[Group], color: Color, w: f32) {
    if s.guard_of.is_some() {
        return;
    }
    match s.geom.outline() {
        Outline::Dot(p) => {
            let q = view.pt(p);
            draw_circle_lines(q.x, q.y, 5.0, w, color);
        }
        Outline::Line { a, b } | Outline::Gate { a, b, .. } => seg(view, a, b, w, color),
        Outline::Disc { c, r } => arc_line(view, c, r, 0.0, TAU, w, color),
        Outline::Arc { c, r, start, end } => arc_line(view, c, r, start, end, w, color),
        Outline::Polygon(k) => {
            for i in 0..k.len() {
                seg(view, k[i], k[(i + 1) % k.len()], w, color);
            }
        }
        Outline::Group(id) => {
            for m in groups.get(id as usize).map_or(&[][..], |g| &g.members) {
                built_outline(view, m, groups, color, w);
            }
        }
    }
}
