//! Logical and physical pixels: the scale factor between them, for high-DPI screens.
//!
//! Everything the app lays out (the view, the mouse, the editor's handles, line widths, text)
//! is in logical pixels; the framebuffer, the CPU-drawn canvas, its copies and the scissor
//! are in physical pixels, `scale` times as many along each axis. The scale is the screen's
//! own (miniquad's `dpi_scale`: `Xft.dpi / 96` on X11, the backing scale on macOS) times the
//! factor forced by `--scale` or `CMT_SCALE`. A forced factor makes macroquad's drawing go
//! through a camera of the logical size and egui's pixels per point follow, so the app's own
//! code sees what a screen of that scale shows it: the same logical sizes, mouse positions and
//! physical canvas. That is how a scale of 2 is tested on a virtual display, which has none.

use macroquad::prelude::*;
use std::sync::atomic::{AtomicU32, Ordering};

/// The forced factor as `f32` bits (1.0 until [`force`] is called).
static FORCED: AtomicU32 = AtomicU32::new(0x3f80_0000);

/// The environment variable that forces a scale when `--scale` does not.
pub const SCALE_VAR: &str = "CMT_SCALE";

/// Sets the forced factor (1 to 4; anything else leaves 1). Call once, before the window.
pub fn force(factor: f32) {
    let f = if (1.0..=4.0).contains(&factor) {
        factor
    } else {
        1.0
    };
    FORCED.store(f.to_bits(), Ordering::Relaxed);
}

/// The forced factor from `--scale`, else [`SCALE_VAR`]; an unusable value of the variable is
/// reported and ignored.
pub fn forced_from(flag: Option<f32>) -> f32 {
    if let Some(f) = flag {
        return f;
    }
    match std::env::var(SCALE_VAR) {
        Ok(v) => match crate::cli::parse_scale(v.trim()) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("warning: {SCALE_VAR}={v:?}: {e}; scale 1 instead");
                1.0
            }
        },
        Err(_) => 1.0,
    }
}

/// The forced factor.
pub fn forced() -> f32 {
    f32::from_bits(FORCED.load(Ordering::Relaxed))
}

/// Physical pixels per logical pixel.
pub fn scale() -> f32 {
    miniquad::window::dpi_scale() * forced()
}

/// The window's size in logical pixels.
pub fn size() -> (f32, f32) {
    (screen_width() / forced(), screen_height() / forced())
}

/// The window's size in physical pixels.
pub fn physical_size() -> (usize, usize) {
    let (w, h) = miniquad::window::screen_size();
    (w as usize, h as usize)
}

/// The mouse position in logical pixels.
pub fn mouse() -> Vec2 {
    Vec2::from(mouse_position()) / forced()
}

/// A rectangle (left, top, width, height) of logical pixels in physical pixels, `s` per
/// logical pixel: the edges rounded, so rectangles that meet still meet.
pub fn to_physical(rect: (i32, i32, i32, i32), s: f32) -> (i32, i32, i32, i32) {
    let (x, y, w, h) = rect;
    let at = |v: i32| (v as f32 * s).round() as i32;
    let (x0, y0) = (at(x), at(y));
    (x0, y0, at(x + w) - x0, at(y + h) - y0)
}

/// macroquad's projection for a window of `w × h` logical pixels: its own "pixel perfect"
/// one, for the logical size.
struct Logical {
    w: f32,
    h: f32,
}

impl Camera for Logical {
    fn matrix(&self) -> Mat4 {
        Mat4::orthographic_rh_gl(0.0, self.w, self.h, 0.0, -1.0, 1.0)
    }
    fn depth_enabled(&self) -> bool {
        false
    }
    fn render_pass(&self) -> Option<RenderPass> {
        None
    }
    fn viewport(&self) -> Option<(i32, i32, i32, i32)> {
        None
    }
}

/// At the start of a frame: with a forced factor, macroquad draws in logical pixels through
/// a camera, as it does by itself at the screen's own scale.
pub fn begin_frame() {
    if forced() != 1.0 {
        let (w, h) = size();
        set_camera(&Logical { w, h });
    }
}

/// egui's pixels per point follow the scale (egui-miniquad leaves them at 1 until the scale
/// changes while running, so even a screen's own scale needs this). Takes effect from the
/// next pass.
pub fn egui_scale(ctx: &egui_macroquad::egui::Context) {
    let s = scale();
    if (ctx.pixels_per_point() - s).abs() > 1e-4 {
        ctx.set_pixels_per_point(s);
    }
}

/// Text at (x, y) logical px, `size` logical px high: rasterized at the physical size, so it
/// is as sharp at a forced scale as at the screen's own.
pub fn text(text: &str, x: f32, y: f32, size: f32, color: Color) {
    text_at(text, x, y, size, color);
}

fn text_at(text: &str, x: f32, y: f32, size: f32, color: Color) {
    let f = forced();
    let params = TextParams {
        font_size: (size * f).round() as u16,
        font_scale: 1.0 / f,
        color,
        ..Default::default()
    };
    draw_text_ex(text, x, y, params);
}

/// Where a label `w` × `h` (logical px) asked at top-left `(x, y)` goes: moved inside
/// `area` (x, y, w, h) so the view's edge never cuts it (at its top-left when it is larger).
pub fn label_at(at: (f32, f32), size: (f32, f32), area: (f32, f32, f32, f32)) -> (f32, f32) {
    let ((x, y), (w, h)) = (at, size);
    let (ax, ay, aw, ah) = area;
    let x = x.min(ax + aw - w).max(ax);
    let y = y.min(ay + ah - h).max(ay);
    (x, y)
}

/// A label over the view: `text` at `size` on a dark backdrop, its top-left at `(x, y)` moved
/// inside `area` (see [`label_at`]). Drawn over the table, it stays readable whatever lies
/// under it (an arc, a wall, a kinematic bar).
pub fn label(text: &str, at: (f32, f32), size: f32, color: Color, area: (f32, f32, f32, f32)) {
    let (x, y) = at;
    let pad = size * 0.25;
    let (w, h) = (text_width(text, size) + 2.0 * pad, size + 2.0 * pad);
    let (x, y) = label_at((x, y), (w, h), area);
    draw_rectangle(x, y, w, h, Color::new(0.0, 0.0, 0.0, 0.7));
    text_at(text, x + pad, y + pad + size * 0.78, size, color);
}

/// A line centred across `area` (x, y, w, h) at `top` px from the screen's top, on
/// [`label`]'s backdrop: at `size`, or smaller down to `least`, or broken into lines, so that
/// none of it runs past the area's sides (a narrow window's view).
pub fn centred_label(text: &str, top: f32, sizes: Sizes, color: Color, area: (f32, f32, f32, f32)) {
    let (x, _, w, _) = area;
    let (size, lines) = fitted(text, sizes.size, sizes.least, w - 24.0);
    for (k, line) in lines.iter().enumerate() {
        let left = x + (w - text_width(line, size)) / 2.0;
        let at = (left, top + k as f32 * size * 1.5);
        label(line, at, size, color, area);
    }
}

/// The size a text is set at where it fits, and the least it may shrink to (logical px).
#[derive(Clone, Copy, Debug)]
pub struct Sizes {
    pub size: f32,
    pub least: f32,
}

/// `text` laid out to fit `width` logical px: at `size` on one line when it fits, else at the
/// size that fits down to `least`, else at `least` broken at spaces into lines that fit (a
/// word wider than `width` alone on its line). Returns the size and the lines.
pub fn fitted(text: &str, size: f32, least: f32, width: f32) -> (f32, Vec<String>) {
    fitted_by(text, (size, least), width, text_width)
}

/// [`fitted`] with the width of a text at a size given by `measure`.
pub fn fitted_by(
    text: &str,
    sizes: (f32, f32),
    width: f32,
    measure: impl Fn(&str, f32) -> f32,
) -> (f32, Vec<String>) {
    let (size, least) = sizes;
    let whole = measure(text, size);
    if whole <= width {
        return (size, vec![text.to_string()]);
    }
    // Text widths grow in proportion to the size, near enough; rounding of the glyphs may
    // leave the scaled size a hair too wide, so it is checked.
    let scaled = (size * width / whole).floor();
    if scaled >= least && measure(text, scaled) <= width {
        return (scaled, vec![text.to_string()]);
    }
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if measure(&format!("{line} {word}"), least) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    (least, lines)
}

/// The width of [`text`]'s `text` at `size` (logical px).
pub fn text_width(text: &str, size: f32) -> f32 {
    let f = forced();
    measure_text(text, None, (size * f).round() as u16, 1.0 / f).width
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_near_the_views_edge_is_moved_inside_it() {
        let area = (0.0, 40.0, 900.0, 680.0);
        assert_eq!(
            label_at((880.0, 100.0), (120.0, 30.0), area),
            (780.0, 100.0)
        );
        assert_eq!(label_at((-20.0, 10.0), (120.0, 30.0), area), (0.0, 40.0));
        assert_eq!(
            label_at((100.0, 700.0), (120.0, 30.0), area),
            (100.0, 690.0)
        );
        assert_eq!(
            label_at((100.0, 100.0), (120.0, 30.0), area),
            (100.0, 100.0)
        );
    }

    /// Half the size a character: a stand-in for the font's widths.
    fn half(t: &str, size: f32) -> f32 {
        t.chars().count() as f32 * size * 0.5
    }

    #[test]
    fn text_that_fits_keeps_its_size_and_text_too_wide_shrinks_then_breaks() {
        assert_eq!(
            fitted_by("one two", (20.0, 10.0), 100.0, half),
            (20.0, vec!["one two".to_string()])
        );
        // 7 characters at 20 px are 70 px: 60 px fit them at 17 px.
        assert_eq!(
            fitted_by("one two", (20.0, 10.0), 60.0, half),
            (17.0, vec!["one two".to_string()])
        );
        // At least 10 px, 7 characters need 35 px: broken at the space, each line fits.
        let (size, lines) = fitted_by("one two three", (20.0, 10.0), 30.0, half);
        assert_eq!(size, 10.0);
        assert_eq!(lines, ["one", "two", "three"]);
        assert!(lines.iter().all(|l| half(l, size) <= 30.0));
    }

    #[test]
    fn rectangles_that_meet_still_meet_in_physical_pixels() {
        for s in [1.0, 1.5, 2.0, 3.0] {
            let a = to_physical((3, 5, 7, 9), s);
            let b = to_physical((10, 5, 4, 9), s);
            assert_eq!(a.0 + a.2, b.0, "scale {s}");
            assert_eq!(a.1, b.1);
        }
        assert_eq!(to_physical((10, 20, 30, 40), 2.0), (20, 40, 60, 80));
    }
}
