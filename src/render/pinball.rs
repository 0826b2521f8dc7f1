//! What a played table shows on the field: the score, the lost balls, lit targets, the
//! plunger's pull and the hint to hold its key. (Its keys are in `app/keys.rs`.)

use super::view::View;
use crate::keymap::{self, Action};
use collide::rules::ShapePlay;
use collide::{Control, Geometry, Motion, Shape, Vec2, World};
use macroquad::prelude::*;

const LIT: Color = Color::new(1.0, 0.95, 0.35, 1.0);
const DARK_TARGET: Color = Color::new(0.35, 0.45, 0.95, 1.0);
const SCORE: Color = Color::new(1.0, 1.0, 1.0, 0.85);
const FLIPPER: Color = Color::new(1.0, 0.62, 0.20, 1.0);

/// The colour a played table gives shape `s` (worth `play` in the game), if it has one:
/// targets lit or dark, flippers and plungers orange.
pub fn shape_color(s: &Shape, play: ShapePlay) -> Option<Color> {
    if play.target.is_some() {
        return Some(if play.lit { LIT } else { DARK_TARGET });
    }
    match s.motion {
        Motion::Flipper { .. } | Motion::Plunger { .. } => Some(FLIPPER),
        _ => None,
    }
}

/// The field's own read-outs, drawn under the balls: lit targets filled, the score and the
/// lost balls in big text at the top of the table.
pub fn draw_field(view: &View, world: &World) {
    if !world.is_game() {
        return;
    }
    let lit = |(i, _): &(usize, &Shape)| world.play().shape(*i).lit;
    for (_, s) in world.shapes().iter().enumerate().filter(lit) {
        fill_lit(view, s);
    }
    serve_hint(view, world);
    let b = world.bounds();
    let at = |y: f32| {
        view.pt(Vec2::new(
            (b.min.x + b.max.x) * 0.5,
            b.min.y + y * (b.max.y - b.min.y),
        ))
    };
    let p = world.play();
    centred(&format!("{}", p.score), at(0.93), view.len(56.0), SCORE);
    centred(
        &format!("LOST {}   BALL {}", p.lost, p.lost + 1),
        at(0.885),
        view.len(22.0),
        SCORE,
    );
}

/// "hold SPACE" beside a ball waiting at the launcher, and the plunger's pull as a bar.
fn serve_hint(view: &View, world: &World) {
    let l = world.launcher().pos;
    let waiting = world
        .balls()
        .iter()
        .any(|b| (b.pos - l).length() < 4.0 * b.radius.max(1.0) && b.vel.length() < 30.0);
    let q = view.pt(l);
    if waiting && !world.play().held[Control::Plunger.index()] {
        let size = view.len(18.0).clamp(10.0, 40.0);
        let hint = format!("hold {}", keymap::keys_of(Action::Launch).to_uppercase());
        let width = super::screen::text_width(&hint, size);
        super::screen::text(&hint, q.x - width - view.len(30.0), q.y, size, SCORE);
    }
    for s in world.shapes() {
        if let Motion::Plunger { travel, .. } = s.motion {
            let frac = (s.pull / travel.max(1e-3)).clamp(0.0, 1.0);
            let h = view.len(120.0) * frac;
            let x = q.x + view.len(24.0);
            draw_rectangle(x, q.y + view.len(40.0) - h, view.len(5.0), h, LIT);
        }
    }
}

/// Fills a lit target so it reads at a glance.
fn fill_lit(view: &View, s: &Shape) {
    match s.geom {
        Geometry::Rect { min, max } => {
            let (p, q) = (
                view.pt(Vec2::new(min.x, max.y)),
                view.pt(Vec2::new(max.x, min.y)),
            );
            draw_rectangle(p.x, p.y, q.x - p.x, q.y - p.y, LIT);
        }
        Geometry::Circle { c, r } => {
            let q = view.pt(c);
            draw_circle(q.x, q.y, view.len(r), LIT);
        }
        _ => {}
    }
}

/// Text centred on `at` (screen px), `size` px high.
fn centred(text: &str, at: Vec2, size: f32, color: Color) {
    let size = size.clamp(8.0, 200.0);
    let width = super::screen::text_width(text, size);
    super::screen::text(text, at.x - width * 0.5, at.y, size, color);
}
