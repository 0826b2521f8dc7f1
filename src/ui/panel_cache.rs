//! The panels kept as pixels between their refreshes.
//!
//! In software rendering egui is the costliest thing in a frame after the balls: building the
//! panels, and above all rasterizing their few thousand small triangles (mostly text), takes
//! several milliseconds of the main thread a frame. When the canvas of balls is copied into
//! the window (`sprites.rs`), everything of the window outside it is panels; so after egui has
//! drawn, those bands (physical pixels) are copied into a texture ([`WindowSnapshot`], a
//! memory copy in llvmpipe), and on the next frames, as long as nothing asks for egui, copied
//! back instead of running egui at all.
//!
//! egui runs (and the bands are taken again) when the user does anything (the mouse moves, a
//! button, the wheel or a key is down or changes), when the window changes size, when egui
//! itself is busy (it asked for a repaint, a popup is open, a text field has the keyboard, the
//! pointer is on a panel or dragging, a window or tooltip is over the view: those are not in
//! the bands), when no canvas was copied in (no copy in this GL, or an empty view), for a
//! screenshot, and at least every [`REFRESH`] seconds, so the counters in the panels change 20
//! times a second while the balls move at the frame rate. A frame showing the kept panels is
//! not cleared: the canvas and the bands cover the window (see `app/frame.rs`). Only the
//! software path keeps panels (`renderer.rs`); on the GPU path egui runs every frame.

use crate::render::raw_gl::{Rect, WindowSnapshot};
use egui_macroquad::egui;
use macroquad::prelude::*;

/// Longest time the panels are shown unchanged (s).
pub const REFRESH: f64 = 0.05;

/// The kept panels and what decides when egui runs.
#[derive(Default)]
pub struct PanelCache {
    snapshot: Option<WindowSnapshot>,
    /// Making or using a snapshot failed here: egui runs every frame.
    failed: bool,
    /// The canvas the kept bands surround (window px) and when they were taken (s).
    taken: Option<(Rect, f64)>,
    /// Whether egui wanted to run again when it last ran.
    busy: bool,
    /// The mouse position last frame (px).
    mouse: Vec2,
    /// Frames shown from the kept bands, and frames egui drew.
    pub kept_frames: u64,
    pub drawn_frames: u64,
}

/// Whether any input reached the window this frame, and the mouse position.
fn input(last_mouse: Vec2) -> (bool, Vec2) {
    let mouse = crate::render::screen::mouse();
    let buttons = [MouseButton::Left, MouseButton::Right, MouseButton::Middle];
    let any = mouse != last_mouse
        || mouse_wheel() != (0.0, 0.0)
        || buttons.iter().any(|&b| {
            is_mouse_button_down(b) || is_mouse_button_pressed(b) || is_mouse_button_released(b)
        })
        || !get_keys_down().is_empty()
        || !get_keys_pressed().is_empty()
        || !get_keys_released().is_empty();
    (any, mouse)
}

/// The window's size (physical px).
fn window_size() -> (usize, usize) {
    crate::render::screen::physical_size()
}

/// The window outside `canvas`, as four bands (some possibly empty): above, below, left, right.
pub fn bands(canvas: Rect, window: (usize, usize)) -> [Rect; 4] {
    let (x, y, w, h) = canvas;
    let (win_w, win_h) = (window.0 as i32, window.1 as i32);
    [
        (0, 0, win_w, y),
        (0, y + h, win_w, win_h - y - h),
        (0, y, x, h),
        (x + w, y, win_w - x - w, h),
    ]
}

impl PanelCache {
    /// Keeps panels only on the software path with framebuffer blits (`renderer.rs`); else
    /// egui runs every frame.
    pub fn set_path(&mut self, path: crate::render::renderer::Path, blits: bool) {
        self.failed = path == crate::render::renderer::Path::Gpu || !blits;
        self.snapshot = None;
        self.taken = None;
    }

    /// Whether egui must run this frame (see the module notes); `may_keep`: nothing else asks
    /// for fresh panels. Call once at the frame's start.
    pub fn egui_runs(&mut self, may_keep: bool, now: f64) -> bool {
        let (input, mouse) = input(self.mouse);
        self.mouse = mouse;
        let fresh = self.taken.is_some_and(|(_, t)| now - t < REFRESH)
            && self.snapshot.as_ref().map(WindowSnapshot::size) == Some(window_size());
        let keep = may_keep && fresh && !input && !self.busy && !self.failed;
        if keep {
            self.kept_frames += 1;
        } else {
            self.drawn_frames += 1;
        }
        !keep
    }

    /// After egui has drawn: takes the bands around `canvas` (the canvas copied into the
    /// window this frame, if any) at time `now`; `busy`: egui wants to run next frame too.
    pub fn take(&mut self, canvas: Option<Rect>, now: f64, busy: bool) {
        self.busy = busy;
        self.taken = None;
        let Some(canvas) = canvas else {
            return;
        };
        if self.failed {
            return;
        }
        let size = window_size();
        if self.snapshot.as_ref().map(WindowSnapshot::size) != Some(size) {
            self.snapshot = None;
            self.snapshot = WindowSnapshot::new(size.0, size.1);
        }
        let Some(snapshot) = &self.snapshot else {
            self.failed = true;
            return;
        };
        if snapshot.take(&bands(canvas, size)) {
            self.taken = Some((canvas, now));
        } else {
            self.failed = true;
        }
    }

    /// On a frame egui did not run: puts the kept bands back around `canvas`, the canvas
    /// copied into the window this frame. Should that not be the canvas they were taken
    /// around (it moved without input, which nothing does), they are not put back, and egui
    /// runs next frame.
    pub fn put(&mut self, canvas: Option<Rect>) {
        let (Some(snapshot), Some((around, _))) = (&self.snapshot, self.taken) else {
            return;
        };
        if canvas != Some(around) || !snapshot.put(&bands(around, snapshot.size())) {
            self.taken = None;
        }
    }
}

/// Whether egui wants to run next frame too: it asked for a repaint, a popup is open, a text
/// field has the keyboard, the pointer is on egui or dragging, or something of egui's other
/// than the panels (a window, a tooltip, a menu) lies over `canvas` (window px).
pub fn egui_busy(ctx: &egui::Context, canvas: Option<Rect>) -> bool {
    if ctx.has_requested_repaint()
        || ctx.wants_keyboard_input()
        || ctx.is_pointer_over_area()
        || ctx.is_using_pointer()
        || ctx.memory(|m| m.any_popup_open())
    {
        return true;
    }
    let Some((x, y, w, h)) = canvas else {
        return false;
    };
    let ppp = ctx.pixels_per_point();
    let view = egui::Rect::from_min_size(
        egui::pos2(x as f32 / ppp, y as f32 / ppp),
        egui::vec2(w as f32 / ppp, h as f32 / ppp),
    );
    ctx.memory(|m| {
        m.areas().visible_layer_ids().into_iter().any(|layer| {
            layer.order != egui::Order::Background
                && m.area_rect(layer.id).is_some_and(|r| r.intersects(view))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bands_and_the_canvas_tile_the_window() {
        let (ww, wh) = (1280usize, 800usize);
        for canvas in [(0, 44, 970, 692), (10, 20, 30, 40), (0, 0, 1280, 800)] {
            let mut covered = vec![0u8; ww * wh];
            for (x, y, w, h) in bands(canvas, (ww, wh)).into_iter().chain([canvas]) {
                assert!(w >= 0 && h >= 0, "{canvas:?}");
                for yy in y..y + h {
                    for xx in x..x + w {
                        covered[yy as usize * ww + xx as usize] += 1;
                    }
                }
            }
            assert!(covered.iter().all(|&c| c == 1), "{canvas:?}");
        }
    }
}
