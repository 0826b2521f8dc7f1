//! What every panel shares: the two-column rows of read-outs, the two calls that set egui up
//! for the frame (the mouse wheel's scroll, the panels' unpainted fill), and the part of the
//! window the toy's windows keep to.

use egui_macroquad::egui;

/// Points scrolled per notch of the mouse wheel: egui's own line height for scrolling.
const WHEEL_POINTS: f32 = 40.0;

/// Hands egui the mouse wheel's turn this frame (`wheel`: notches, as macroquad reports them;
/// one per notch on X11). egui-macroquad alone passes egui a ninetieth of it, as lines, which
/// scrolls a panel by under a pixel a notch, so the lower sections could be reached only by the
/// scroll bar. Call at the start of the egui pass, before any scroll area reads it; a scroll
/// area under the pointer takes it, as egui's own.
pub fn wheel_scroll(ctx: &egui::Context, wheel: f32) {
    if wheel.is_finite() && wheel != 0.0 {
        ctx.input_mut(|i| i.smooth_scroll_delta.y += wheel * WHEEL_POINTS);
    }
}

/// Leaves the panels' own fill unpainted and returns the colour it has (RGBA, 0–1): the view
/// is one opaque image (`sprites.rs`) and the app clears the window to this colour, so the
/// panels need not paint their background: in software rendering painting it blends every
/// pixel of the panels, where a clear is nearly free. The look does not change.
pub fn panel_fill(ctx: &egui::Context) -> [f32; 4] {
    let theme = ctx.theme().default_visuals().panel_fill;
    let want = egui::Color32::TRANSPARENT;
    if ctx.style().visuals.panel_fill != want {
        ctx.style_mut(|s| s.visuals.panel_fill = want);
    }
    theme.to_array().map(|c| c as f32 / 255.0)
}

/// One row of a [`grid`]: a label and its value in monospace.
pub fn row(ui: &mut egui::Ui, label: &str, value: impl std::fmt::Display) {
    ui.label(label);
    ui.add(egui::Label::new(egui::RichText::new(value.to_string()).monospace()).wrap());
    ui.end_row();
}

/// A two-column grid of [`row`]s named `id`.
pub fn grid(ui: &mut egui::Ui, id: &str, add: impl FnOnce(&mut egui::Ui)) {
    egui::Grid::new(id)
        .num_columns(2)
        .spacing([12.0, 2.0])
        .show(ui, add);
}

/// Room kept free between a window and the edges of [`window_area`] (points).
pub const WINDOW_MARGIN: f32 = 8.0;
/// A window's title bar and frame, not part of its scrolled contents (points).
const WINDOW_TITLE: f32 = 48.0;

/// The part of the screen the toy's windows keep to (points): below the toolbar (whatever
/// its height: it wraps onto more lines in a narrow window), the whole width, down to the
/// bottom. Read after the toolbar of the pass is laid out.
pub fn window_area(ctx: &egui::Context) -> egui::Rect {
    let screen = ctx.screen_rect();
    let top = ctx.available_rect().top().max(screen.top());
    egui::Rect::from_min_max(egui::pos2(screen.left(), top), screen.max)
}

/// The tallest a window's scrolled contents may be in `area` (points), so that the window,
/// its title bar and margins included, fits in it.
pub fn window_content_height(area: egui::Rect) -> f32 {
    (area.height() - WINDOW_TITLE - 2.0 * WINDOW_MARGIN).max(100.0)
}
