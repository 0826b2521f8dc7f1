//! Pinball in the app: the keys that drive the controls, and what a played table shows on the
//! field (score, lost balls, lit targets, the plunger's pull).
//!
//! Keys never touch the world: each frame the held keys are compared with the controls the
//! world holds, and a difference becomes a [`Command::Control`], so a recording of commands
//! replays the game.

use crate::panel::Command;
use crate::view::View;
use collide::{Control, Geometry, Motion, Shape, Vec2, World};
use macroquad::prelude::*;

/// The keys of a played table, for the help window.
pub const HELP: &[(&str, &str)] = &[
    (
        "Space (pinball)",
        "hold to pull the plunger, release to fire the ball up the lane",
    ),
    (
        "Left / right Shift",
        "pinball: raise the left / right flipper while held",
    ),
];

const LIT: Color = Color::new(1.0, 0.95, 0.35, 1.0);
const DARK_TARGET: Color = Color::new(0.35, 0.45, 0.95, 1.0);
const SCORE: Color = Color::new(1.0, 1.0, 1.0, 0.85);
const FLIPPER: Color = Color::new(1.0, 0.62, 0.20, 1.0);

/// The keys held for each control.
fn keys_for(c: Control) -> &'static [KeyCode] {
    match c {
        Control::LeftFlipper => &[KeyCode::LeftShift],
        Control::RightFlipper => &[KeyCode::RightShift],
        Control::Plunger => &[KeyCode::Space],
    }
}

/// Commands that bring the world's held controls in line with the held keys (none when the
/// world is not a game or egui has the keyboard).
pub fn control_commands(world: &World, egui_wants_keys: bool) -> Vec<Command> {
    if !world.is_game() {
        return Vec::new();
    }
    let held = world.play().held;
    Control::ALL
        .into_iter()
        .filter_map(|c| {
            let down = !egui_wants_keys && keys_for(c).iter().any(|&k| is_key_down(k));
            (down != held[c.index()]).then_some(Command::Control(c, down))
        })
        .collect()
}

/// True when Space drives the plunger instead of launching a ball.
pub fn space_is_plunger(world: &World) -> bool {
    world.is_game()
}

/// The colour a played table gives shape `s`, if it has one: targets lit or dark, flippers
/// and plungers orange.
pub fn shape_color(s: &Shape) -> Option<Color> {
    if s.play.target.is_some() {
        return Some(if s.play.lit { LIT } else { DARK_TARGET });
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
    for s in world.shapes().iter().filter(|s| s.play.lit) {
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
        let width = crate::screen::text_width("hold SPACE", size);
        crate::screen::text("hold SPACE", q.x - width - view.len(30.0), q.y, size, SCORE);
    }
    for s in world.shapes() {
        if let Motion::Plunger { travel, .. } = s.motion {
            let frac = (s.play.pull / travel.max(1e-3)).clamp(0.0, 1.0);
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
    let width = crate::screen::text_width(text, size);
    crate::screen::text(text, at.x - width * 0.5, at.y, size, color);
}
