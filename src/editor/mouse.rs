//! The editor's mouse, read after the panels: the wheel zooms, right and middle drags pan, the
//! left button picks a handle or a shape and drags it, or drags out a new shape.

use super::{Drag, Editor, Tool};
use crate::render::screen;
use crate::render::view::{Camera, View};
use collide::Vec2;
use collide_edit::{self as edit, Handle, Pick};
use macroquad::prelude::*;

/// Screen pixels around a handle or a shape that still pick it.
const PICK_SLOP: f32 = 8.0;
/// Zoom factor per wheel notch (as in normal mode).
const WHEEL_ZOOM: f32 = 1.2;

impl Editor {
    /// One frame of mouse input, after the panels: the wheel zooms, right / middle drags pan,
    /// the left button picks, drags and adds. `fitted` is the view without the camera.
    pub fn mouse(&mut self, fitted: View, cam: &mut Camera) {
        let at = screen::mouse();
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
}
