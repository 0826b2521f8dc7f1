//! Drawing the world: the table's shapes as lines, the balls as discs, in a view that fits
//! the play area into the canvas (y up, as the library's coordinates).

use collide::{Geometry, Vec2 as V, World};
use macroquad::prelude::*;

/// Margin around the play area (screen px).
const MARGIN: f32 = 12.0;

/// Line width of the shapes (screen px).
const LINE: f32 = 2.0;

const SHAPE: Color = Color::new(0.80, 0.85, 0.92, 1.0);
const GATE: Color = Color::new(0.95, 0.75, 0.25, 1.0);
const BACKGROUND: Color = Color::new(0.07, 0.08, 0.11, 1.0);

/// The world → screen mapping: scale, then offset, y flipped.
struct View {
    scale: f32,
    origin: Vec2,
}

impl View {
    fn fit(world: &World) -> View {
        let b = world.bounds();
        let size = (b.max - b.min).max(V::splat(1.0));
        let room = vec2(screen_width(), screen_height()) - 2.0 * MARGIN;
        let scale = (room.x / size.x).min(room.y / size.y).max(0.01);
        let used = vec2(size.x, size.y) * scale;
        let corner = vec2(MARGIN, MARGIN) + (room - used) / 2.0;
        View {
            scale,
            origin: vec2(
                corner.x - b.min.x * scale,
                corner.y + used.y + b.min.y * scale,
            ),
        }
    }

    fn at(&self, p: V) -> Vec2 {
        vec2(
            self.origin.x + p.x * self.scale,
            self.origin.y - p.y * self.scale,
        )
    }
}

/// Clears the canvas and draws the shapes, the balls and a caption.
pub fn world(world: &World, caption: &str) {
    clear_background(BACKGROUND);
    let view = View::fit(world);
    for shape in world.shapes() {
        match shape.geom {
            Geometry::Group { id, .. } => {
                for m in world.group(id).map_or(&[][..], |g| &g.members[..]) {
                    geometry(&view, &m.geom);
                }
            }
            g => geometry(&view, &g),
        }
    }
    for b in world.balls() {
        let c = view.at(b.pos);
        let collide::Rgba(r, g, bl, _) = collide::Rgba::palette(b.color as usize);
        draw_circle(
            c.x,
            c.y,
            (b.radius * view.scale).max(1.0),
            Color::new(r, g, bl, 1.0),
        );
    }
    draw_text(caption, MARGIN + 4.0, MARGIN + 18.0, 22.0, WHITE);
}

fn geometry(view: &View, g: &Geometry) {
    let line = |a: V, b: V, c: Color| {
        let (a, b) = (view.at(a), view.at(b));
        draw_line(a.x, a.y, b.x, b.y, LINE, c);
    };
    match *g {
        Geometry::Point { p } => {
            let q = view.at(p);
            draw_circle(q.x, q.y, LINE, SHAPE);
        }
        Geometry::Segment { a, b } => line(a, b, SHAPE),
        Geometry::Gate { a, b, .. } => line(a, b, GATE),
        Geometry::Circle { c, r } => {
            let q = view.at(c);
            draw_circle_lines(q.x, q.y, r * view.scale, LINE, SHAPE);
        }
        Geometry::Arc { c, r, start, end } => {
            let n = ((end - start).abs() * 12.0).ceil().max(2.0) as usize;
            let at = |i: usize| {
                let t = start + (end - start) * i as f32 / n as f32;
                c + r * V::new(t.cos(), t.sin())
            };
            for i in 0..n {
                line(at(i), at(i + 1), SHAPE);
            }
        }
        Geometry::Rect { min, max } => {
            let corners = [min, V::new(max.x, min.y), max, V::new(min.x, max.y)];
            polygon(&corners, &line);
        }
        Geometry::OrientedRect { c, half, angle } => {
            polygon(&collide::geom::oriented_rect_corners(c, half, angle), &line);
        }
        Geometry::Group { hull, .. } => {
            let b = hull.aabb();
            let corners = [
                b.min,
                V::new(b.max.x, b.min.y),
                b.max,
                V::new(b.min.x, b.max.y),
            ];
            polygon(&corners, &line);
        }
    }
}

fn polygon(corners: &[V], line: &impl Fn(V, V, Color)) {
    for (i, &a) in corners.iter().enumerate() {
        line(a, corners[(i + 1) % corners.len()], SHAPE);
    }
}
