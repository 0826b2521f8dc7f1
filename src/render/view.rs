//! The camera: world pixels (y up) to screen pixels (y down), fitted to the free area, then
//! zoomed and panned by a [`Camera`]; [`View::to_world`] is the inverse.

use collide::{Aabb, Vec2};

/// Maps the world into a screen rectangle: `screen = centre_screen + (p − centre_world)·scale`
/// with y flipped.
#[derive(Clone, Copy, Debug)]
pub struct View {
    centre_world: Vec2,
    centre_screen: Vec2,
    scale: f32,
    area: (Vec2, Vec2),
}

/// Zoom and pan on top of the fitted view; the default frames the whole scene.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Magnification over the fitted view (1 = whole scene).
    pub zoom: f32,
    /// World point (px) at the centre of the free area, relative to the scene's centre.
    pub offset: Vec2,
}

impl Default for Camera {
    fn default() -> Self {
        Self {
            zoom: 1.0,
            offset: Vec2::ZERO,
        }
    }
}

/// Zoom limits.
const ZOOM_MIN: f32 = 0.25;
const ZOOM_MAX: f32 = 64.0;

impl View {
    /// Fits `world` into the screen rectangle `min`..`max` with a small margin.
    pub fn fit(world: Aabb, min: Vec2, max: Vec2) -> Self {
        let avail = (max - min - Vec2::splat(24.0)).max(Vec2::splat(10.0));
        let size = world.size().max(Vec2::splat(1e-3));
        let scale = (avail.x / size.x).min(avail.y / size.y);
        Self {
            centre_world: (world.min + world.max) * 0.5,
            centre_screen: (min + max) * 0.5,
            scale,
            area: (min, max),
        }
    }

    /// This view seen through `cam`.
    pub fn with_camera(self, cam: Camera) -> Self {
        Self {
            centre_world: self.centre_world + cam.offset,
            centre_screen: self.centre_screen,
            scale: self.scale * cam.zoom,
            area: self.area,
        }
    }

    /// The view's area as x, y, width, height (logical px): where labels over it stay.
    pub fn rect(&self) -> (f32, f32, f32, f32) {
        let (lo, hi) = self.area;
        (lo.x, lo.y, hi.x - lo.x, hi.y - lo.y)
    }

    /// True when screen point `s` (px) lies in the area (edges included): the pointer is over
    /// the view, not over the panels around it.
    pub fn covers(&self, s: Vec2) -> bool {
        let (lo, hi) = self.area;
        s.cmpge(lo).all() && s.cmple(hi).all()
    }

    /// The whole pixels of the area within a window of `screen` (width, height px): left,
    /// top, width, height, never negative. The canvas of balls covers them, and the world's
    /// drawing is clipped to them.
    pub fn pixels(&self, screen: (f32, f32)) -> (i32, i32, i32, i32) {
        let (sw, sh) = screen;
        let (lo, hi) = self.area;
        let (x0, y0) = (lo.x.floor().clamp(0.0, sw), lo.y.floor().clamp(0.0, sh));
        let (x1, y1) = (hi.x.ceil().clamp(x0, sw), hi.y.ceil().clamp(y0, sh));
        (x0 as i32, y0 as i32, (x1 - x0) as i32, (y1 - y0) as i32)
    }

    /// Screen position of a world point.
    pub fn pt(&self, p: Vec2) -> Vec2 {
        let d = (p - self.centre_world) * self.scale;
        self.centre_screen + Vec2::new(d.x, -d.y)
    }

    /// World point under a screen position (the inverse of [`View::pt`]).
    pub fn to_world(self, s: Vec2) -> Vec2 {
        let d = (s - self.centre_screen) / self.scale;
        self.centre_world + Vec2::new(d.x, -d.y)
    }

    /// Screen length of a world length.
    pub fn len(&self, l: f32) -> f32 {
        l * self.scale
    }

    /// Pixels per world pixel.
    pub fn scale(&self) -> f32 {
        self.scale
    }
}

impl Camera {
    /// Zooms by `factor` about the screen point `at`, which keeps the world point under it;
    /// `fitted` is the view without the camera.
    pub fn zoom_about(&mut self, fitted: View, at: Vec2, factor: f32) {
        let before = fitted.with_camera(*self).to_world(at);
        self.zoom = (self.zoom * factor).clamp(ZOOM_MIN, ZOOM_MAX);
        let after = fitted.with_camera(*self).to_world(at);
        self.offset += before - after;
    }

    /// Pans by a screen displacement `delta` (px): the world follows the pointer.
    pub fn pan_by(&mut self, fitted: View, delta: Vec2) {
        let s = fitted.scale * self.zoom;
        self.offset -= Vec2::new(delta.x, -delta.y) / s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fitted() -> View {
        let world = Aabb::new(Vec2::ZERO, Vec2::new(800.0, 600.0));
        View::fit(world, Vec2::ZERO, Vec2::new(1000.0, 700.0))
    }

    #[test]
    fn the_pixels_of_the_area_hold_every_pixel_it_touches_within_the_window() {
        let world = Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0));
        let v = View::fit(world, Vec2::new(1.5, 2.2), Vec2::new(10.1, 20.0));
        assert_eq!(v.pixels((100.0, 100.0)), (1, 2, 10, 18));
        // Clipped to the window, and never a negative size.
        assert_eq!(v.pixels((8.0, 100.0)), (1, 2, 7, 18));
        assert_eq!(v.pixels((0.5, 0.5)).2, 0);
    }

    #[test]
    fn covers_the_area_edges_included_whatever_the_camera() {
        let world = Aabb::new(Vec2::ZERO, Vec2::new(10.0, 10.0));
        let v = View::fit(world, Vec2::new(1.5, 2.2), Vec2::new(10.1, 20.0));
        let zoomed = v.with_camera(Camera {
            zoom: 4.0,
            offset: Vec2::new(3.0, -2.0),
        });
        for view in [v, zoomed] {
            assert!(view.covers(Vec2::new(1.5, 2.2)) && view.covers(Vec2::new(10.1, 20.0)));
            assert!(!view.covers(Vec2::new(10.2, 5.0)) && !view.covers(Vec2::new(5.0, 2.0)));
        }
    }

    #[test]
    fn to_world_inverts_pt_through_any_camera() {
        let cam = Camera {
            zoom: 3.5,
            offset: Vec2::new(-40.0, 25.0),
        };
        let v = fitted().with_camera(cam);
        for p in [Vec2::ZERO, Vec2::new(123.0, 456.0), Vec2::new(800.0, -30.0)] {
            assert!((v.to_world(v.pt(p)) - p).length() < 1e-3);
        }
    }

    #[test]
    fn zoom_about_keeps_the_point_under_the_cursor() {
        let mut cam = Camera::default();
        let at = Vec2::new(300.0, 200.0);
        let w = fitted().to_world(at);
        cam.zoom_about(fitted(), at, 2.0);
        cam.zoom_about(fitted(), at, 1.7);
        assert!((fitted().with_camera(cam).to_world(at) - w).length() < 1e-3);
        assert!((cam.zoom - 3.4).abs() < 1e-5);
    }

    #[test]
    fn pan_moves_the_world_with_the_pointer() {
        let mut cam = Camera::default();
        let p = Vec2::new(400.0, 300.0);
        let s0 = fitted().pt(p);
        cam.pan_by(fitted(), Vec2::new(50.0, -20.0));
        let s1 = fitted().with_camera(cam).pt(p);
        assert!((s1 - s0 - Vec2::new(50.0, -20.0)).length() < 1e-3);
    }
}
