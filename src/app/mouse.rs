//! Hands on: the mouse's gestures, turned into [`Message`]s: ball edits and camera moves.
//!
//! - Left drag from empty field: launch a ball from the press point along the drag, at
//!   [`LAUNCH_GAIN`] × the drag length (a preview line shows direction and speed).
//! - Left drag on a ball: grab it; it follows the pointer and is thrown at the pointer's
//!   speed of the last [`THROW_WINDOW`] s on release.
//! - Right click on a ball: delete it. Right or middle drag: pan. Wheel: zoom about the cursor.
//!
//! Ball edits are messages the app applies between frames (so runs stay deterministic given
//! the same messages); nothing fires when egui has the pointer (read after egui's pass of the
//! same frame, so a window opened, moved or reached in that frame counts).

use crate::message::Message;
use crate::render::screen;
use crate::render::view::{Camera, View};
use collide::{BallId, Input, Vec2, World};
use macroquad::prelude::*;
use std::collections::VecDeque;

/// Launch speed per world pixel of drag (px/s per px).
pub const LAUNCH_GAIN: f32 = 4.0;
/// Real seconds of pointer motion averaged into a throw.
const THROW_WINDOW: f64 = 0.08;
/// Screen pixels a right press may move and still be a click.
const CLICK_SLOP: f32 = 4.0;
/// Zoom factor per wheel notch.
const WHEEL_ZOOM: f32 = 1.2;

/// Whether egui has the pointer at `at` (logical px, egui's points) now: it is using it (a
/// drag it started), or `at` is over one of its windows or panels as its last pass laid them
/// out. egui's own answer (`wants_pointer_input`) reads the pointer where its last pass saw
/// it, a frame late, so a press arriving with the move from a panel onto the table (the move
/// and the press in one frame, as after choosing from a drop-down at a low frame rate) would
/// be taken as egui's and the drag lost.
pub fn egui_has_pointer(at: Vec2) -> bool {
    let mut has = false;
    egui_macroquad::cfg(|ctx| has = egui_has_pointer_in(ctx, at));
    has
}

/// [`egui_has_pointer`] in `ctx`.
fn egui_has_pointer_in(ctx: &egui_macroquad::egui::Context, at: Vec2) -> bool {
    use egui_macroquad::egui::{pos2, Order};
    let p = pos2(at.x, at.y);
    let over = ctx
        .layer_id_at(p)
        .is_some_and(|layer| layer.order != Order::Background || !ctx.available_rect().contains(p));
    ctx.is_using_pointer() || over
}

/// The gesture in progress.
#[derive(Clone, Debug)]
enum Gesture {
    /// Left drag from `from` (world px).
    Launch { from: Vec2 },
    /// Holding ball `ball` (by id, so it stays held whatever else leaves), `grip` = ball
    /// centre − pointer (world px); recent pointer places (real time s, world px).
    Grab {
        ball: BallId,
        grip: Vec2,
        trail: VecDeque<(f64, Vec2)>,
    },
    /// Panning; the pointer was at `last` (screen px).
    Pan { last: Vec2 },
}

/// The mouse's state between frames.
#[derive(Default)]
pub struct Mouse {
    gesture: Option<Gesture>,
}

/// What one frame of mouse input needs to know.
pub struct Ctx<'a> {
    /// The view without the camera.
    pub fitted: View,
    /// The world, read only.
    pub world: &'a World,
    /// egui has the pointer: presses and the wheel are egui's.
    pub egui_wants_pointer: bool,
    /// Simulation seconds per real second (throws are in simulation time).
    pub time_scale: f32,
    /// Real time (s).
    pub now: f64,
}

impl Mouse {
    /// Drops a grab (a new world, whose ids name other balls: a restart, a replay, the editor).
    pub fn forget(&mut self) {
        self.gesture = None;
    }

    /// One frame of mouse input: moves `cam` (the caller's copy), returns the ball edits.
    pub fn update(&mut self, cx: &Ctx, cam: &mut Camera) -> Vec<Message> {
        let mut cmds = Vec::new();
        let at = screen::mouse();
        let view = cx.fitted.with_camera(*cam);
        let p = view.to_world(at);
        // Outside the view the pointer is over the panels; over it, egui's answer of this
        // frame's pass says whether a window lies under the pointer (a move and a wheel turn
        // or a press can arrive in one frame): the wheel there scrolls them, a press is
        // theirs, and neither reaches the table.
        if view.covers(at) && !cx.egui_wants_pointer {
            let wheel = mouse_wheel().1;
            if wheel != 0.0 {
                cam.zoom_about(cx.fitted, at, WHEEL_ZOOM.powf(wheel.signum()));
            }
            self.press(cx, &view, at, p, &mut cmds);
        }
        self.drag(cx, cam, at, p, &mut cmds);
        cmds
    }

    fn press(&mut self, cx: &Ctx, view: &View, at: Vec2, p: Vec2, cmds: &mut Vec<Message>) {
        if self.gesture.is_some() {
            return;
        }
        // A few screen pixels of slop, so small balls can be picked when zoomed out.
        let slop = 3.0 / view.scale();
        let under = cx.world.ball_at(p, slop);
        if is_mouse_button_pressed(MouseButton::Left) {
            self.gesture = Some(match under {
                Some(ball) => Gesture::Grab {
                    ball,
                    grip: cx.world.ball(ball).map_or(Vec2::ZERO, |b| b.pos) - p,
                    trail: VecDeque::from([(cx.now, p)]),
                },
                None => Gesture::Launch { from: p },
            });
        } else if is_mouse_button_pressed(MouseButton::Right) {
            match under {
                Some(ball) => cmds.push(Message::World(Input::RemoveBall(ball))),
                None => self.gesture = Some(Gesture::Pan { last: at }),
            }
        } else if is_mouse_button_pressed(MouseButton::Middle) {
            self.gesture = Some(Gesture::Pan { last: at });
        }
    }

    fn drag(&mut self, cx: &Ctx, cam: &mut Camera, at: Vec2, p: Vec2, cmds: &mut Vec<Message>) {
        let left_up = !is_mouse_button_down(MouseButton::Left);
        match &mut self.gesture {
            None => {}
            Some(Gesture::Launch { .. }) if !left_up => {}
            Some(Gesture::Launch { from }) => {
                let vel = launch_velocity(*from, p);
                if vel.length() * (cx.fitted.scale() * cam.zoom) > CLICK_SLOP * LAUNCH_GAIN {
                    cmds.push(Message::World(Input::LaunchAt { pos: *from, vel }));
                }
                self.gesture = None;
            }
            Some(Gesture::Grab { ball, grip, trail }) => {
                if cx.world.ball(*ball).is_err() {
                    // The ball left (drained, pocketed, removed): the grab ends with it.
                    self.gesture = None;
                    return;
                }
                trail.push_back((cx.now, p));
                while trail.len() > 2 && cx.now - trail[0].0 > THROW_WINDOW {
                    trail.pop_front();
                }
                let vel = trail_velocity(trail) / cx.time_scale.max(1e-3);
                cmds.push(Message::World(Input::MoveBall {
                    ball: *ball,
                    pos: p + *grip,
                    vel,
                }));
                if left_up {
                    self.gesture = None;
                }
            }
            Some(Gesture::Pan { last }) => {
                cam.pan_by(cx.fitted, at - *last);
                *last = at;
                let held = is_mouse_button_down(MouseButton::Right)
                    || is_mouse_button_down(MouseButton::Middle);
                if !held {
                    self.gesture = None;
                }
            }
        }
    }

    /// Draws the launch preview: a line from the press point to the pointer, an arrow head
    /// and the speed the ball will leave with; a circle of the next ball's `radius` (px).
    pub fn draw(&self, view: &View, radius: f32) {
        let Some(Gesture::Launch { from }) = &self.gesture else {
            return;
        };
        let to = view.to_world(screen::mouse());
        let vel = launch_velocity(*from, to);
        let (a, b) = (view.pt(*from), view.pt(to));
        let colour = Color::new(1.0, 0.85, 0.3, 0.95);
        draw_line(a.x, a.y, b.x, b.y, 2.0, colour);
        draw_circle_lines(a.x, a.y, view.len(radius).max(3.0), 1.5, colour);
        let dir = (b - a).normalize_or_zero();
        for side in [-1.0, 1.0] {
            let h = b - dir * 12.0 + dir.perp() * 6.0 * side;
            draw_line(b.x, b.y, h.x, h.y, 2.0, colour);
        }
        let label = format!("{:.0} px/s", vel.length());
        screen::label(&label, (b.x + 10.0, b.y - 34.0), 20.0, colour, view.rect());
    }
}

/// Velocity (px/s) of a ball launched by dragging from `from` to `to` (world px).
pub fn launch_velocity(from: Vec2, to: Vec2) -> Vec2 {
    (to - from) * LAUNCH_GAIN
}

/// Mean velocity over the trail (world px per real second).
fn trail_velocity(trail: &VecDeque<(f64, Vec2)>) -> Vec2 {
    match (trail.front(), trail.back()) {
        (Some(a), Some(b)) if b.0 - a.0 > 1e-4 => (b.1 - a.1) / (b.0 - a.0) as f32,
        _ => Vec2::ZERO,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pass of a window with a side panel, the pointer at `pointer`.
    fn pass(ctx: &egui_macroquad::egui::Context, pointer: egui_macroquad::egui::Pos2) {
        use egui_macroquad::egui;
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1280.0, 800.0),
            )),
            events: vec![egui::Event::PointerMoved(pointer)],
            ..Default::default()
        };
        let _ = ctx.run(input, |ctx| {
            egui::SidePanel::right("controls")
                .exact_width(310.0)
                .show(ctx, |ui| {
                    ui.label("panel");
                });
        });
    }

    #[test]
    fn a_press_on_the_table_just_after_the_panel_is_not_egui_s() {
        // The case that found it: a drop-down chosen, then a drag on the table whose press
        // came with the pointer's move off the panel; egui's last pass still saw the pointer
        // over the panel, and the drag was lost.
        let ctx = egui_macroquad::egui::Context::default();
        for _ in 0..3 {
            pass(&ctx, egui_macroquad::egui::pos2(1100.0, 100.0));
        }
        assert!(ctx.wants_pointer_input() || ctx.is_pointer_over_area());
        assert!(!egui_has_pointer_in(&ctx, Vec2::new(400.0, 400.0)));
        assert!(egui_has_pointer_in(&ctx, Vec2::new(1100.0, 400.0)));
    }

    #[test]
    fn launch_speed_grows_with_the_drag() {
        let v = launch_velocity(Vec2::new(10.0, 10.0), Vec2::new(110.0, 10.0));
        assert_eq!(v, Vec2::new(100.0 * LAUNCH_GAIN, 0.0));
    }
}
