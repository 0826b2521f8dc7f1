//! The probe on the table: for the focus ball (under the pointer, or pinned), what the broad
//! phase did for it in its last call, from the world's record (`World::probe`,
//! `world/probing.rs`): the places visited for it (quadtree nodes and leaves, sectors of each
//! shift, the 3 × 3 blocks, grid cells, tree nodes, its interval in the sweep, RDC's cluster),
//! the boxes it was tested against (thin outlines), its candidate pairs (thick, joined to it; red where they touch)
//! and the counts beside it. Every count is the broad phase's own; nothing is guessed here.
//!
//! Cheap to draw: a few dozen rectangles and lines, the boxes tested against capped at
//! [`MOST_AGAINST`] (brute force tests a ball against every box before it).

use super::view::View;
use collide::broad::Place;
use collide::world::{FocusRecord, ProbeRecord};
use collide::{Aabb, Vec2};
use macroquad::prelude::*;

/// Boxes tested against drawn at most (the count says how many there were).
pub const MOST_AGAINST: usize = 200;

/// The colour of a kind of place.
fn place_colour(p: Place) -> Color {
    match p {
        Place::Leaf => Color::new(0.3, 0.9, 0.4, 1.0),
        Place::Node => Color::new(0.7, 0.7, 0.75, 1.0),
        Place::Sector(k) => [
            Color::new(0.3, 0.6, 1.0, 1.0),
            Color::new(1.0, 0.5, 0.3, 1.0),
            Color::new(0.4, 1.0, 0.6, 1.0),
            Color::new(1.0, 0.9, 0.3, 1.0),
        ][k as usize % 4],
        Place::Block => Color::new(0.5, 0.7, 1.0, 1.0),
        Place::Cell => Color::new(0.45, 0.65, 1.0, 1.0),
        Place::ObstacleCell => Color::new(1.0, 0.65, 0.25, 1.0),
        Place::Cluster => Color::new(1.0, 0.4, 0.9, 1.0),
        Place::Interval => Color::new(1.0, 0.95, 0.4, 1.0),
    }
}

fn outline(view: &View, r: &Aabb, width: f32, c: Color) {
    let p = view.pt(Vec2::new(r.min.x, r.max.y));
    let s = r.size() * view.scale();
    draw_rectangle_lines(p.x, p.y, s.x.max(1.0), s.y.max(1.0), width, c);
}

fn fill(view: &View, r: &Aabb, c: Color) {
    let p = view.pt(Vec2::new(r.min.x, r.max.y));
    let s = r.size() * view.scale();
    draw_rectangle(p.x, p.y, s.x, s.y, c);
}

/// Draws the focus's record, and its counts beside `near` (screen px).
pub fn draw(view: &View, rec: &ProbeRecord, near: Vec2) {
    let Some(f) = &rec.focus else {
        return;
    };
    for v in &f.visited {
        let c = place_colour(v.place);
        fill(view, &v.rect, Color::new(c.r, c.g, c.b, 0.10));
        outline(view, &v.rect, 1.5, Color::new(c.r, c.g, c.b, 0.9));
    }
    let thin = Color::new(1.0, 1.0, 1.0, 0.55);
    for (_, b) in f.against.iter().take(MOST_AGAINST) {
        outline(view, b, 1.0, thin);
    }
    let centre = f.aabb.centre();
    for ((_, b), &touching) in f.candidates.iter().zip(&f.touching) {
        let colour = if touching {
            Color::new(1.0, 0.3, 0.3, 1.0)
        } else {
            Color::new(1.0, 0.85, 0.2, 1.0)
        };
        outline(view, b, 2.5, colour);
        let (p, q) = (view.pt(centre), view.pt(b.centre()));
        draw_line(p.x, p.y, q.x, q.y, 2.0, colour);
    }
    outline(view, &f.aabb, 2.5, Color::new(0.3, 1.0, 1.0, 1.0));
    counts(view, rec, f, near);
}

/// The lines beside the pointer.
pub fn lines(rec: &ProbeRecord, f: &FocusRecord) -> Vec<String> {
    let t = crate::advice::thousands;
    let brute = rec.boxes.saturating_sub(1) as u64;
    let plural =
        |n: u64, one: &str, many: &str| format!("{} {}", t(n), if n == 1 { one } else { many });
    let mut out = vec![format!(
        "{}, {}, {}; brute force: {}",
        plural(f.tests, "box test", "box tests"),
        plural(f.candidates.len() as u64, "candidate", "candidates"),
        plural(f.contacts as u64, "contact", "contacts"),
        t(brute)
    )];
    if f.asleep {
        out.push("asleep: a static box to the broad phase, which works for no static".into());
    }
    let named = f.against.len();
    if named as u64 != f.tests && named > 0 {
        out.push(format!(
            "{named} boxes named; the rest of its tests were node or place tests"
        ));
    }
    out.push(format!(
        "this call: balls {} + obstacles {} + structure {} = {} tests",
        t(rec.ball_tests),
        t(rec.obstacle_tests),
        t(rec.structure),
        t(rec.aabb_tests)
    ));
    out
}

/// The lines as one block beside `near`, kept whole inside the view: a line wider than the
/// view is set smaller, or broken, so none runs under the panels beside it.
fn counts(view: &View, rec: &ProbeRecord, f: &FocusRecord, near: Vec2) {
    let (x0, y0, w, h) = view.rect();
    let area = (x0 + MARGIN, y0 + MARGIN, w - 2.0 * MARGIN, h - 2.0 * MARGIN);
    let laid: Vec<(f32, String)> = lines(rec, f)
        .iter()
        .enumerate()
        .flat_map(|(k, line)| {
            let size = if k == 0 { 17.0 } else { 14.0 };
            // The label's padding is a quarter of the size each side.
            let (size, parts) = super::screen::fitted(line, size, 11.0, area.2 - size * 0.5);
            parts.into_iter().map(move |p| (size, p))
        })
        .collect();
    let step = |size: f32| size + 8.0;
    let width = (laid.iter())
        .map(|(size, l)| super::screen::text_width(l, *size) + size * 0.5)
        .fold(0.0, f32::max);
    let height: f32 = laid.iter().map(|(size, _)| step(*size)).sum();
    let at = (near.x + 16.0, near.y + 14.0);
    let (x, mut y) = super::screen::label_at(at, (width, height), area);
    for (size, line) in &laid {
        super::screen::label(line, (x, y), *size, WHITE, area);
        y += step(*size);
    }
}

/// Room kept between the counts and the view's edge (px).
const MARGIN: f32 = 4.0;
