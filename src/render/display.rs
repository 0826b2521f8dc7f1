//! The screen's size, so that a window grown by `--scale` still fits on it (miniquad opens a
//! window of the asked size even when it is larger than the screen, leaving the panel out of
//! reach): once the window is open, a window larger than the screen asks to be made smaller.
//!
//! On X11 the size is asked of Xlib through a second connection of its own, after miniquad's
//! window is open (asking before it opened was followed, now and then, by miniquad's own
//! XOpenDisplay failing); the library is the one miniquad loaded and is never unloaded.
//! Elsewhere, or when it cannot be had, the window keeps the asked size.

#[cfg(not(target_arch = "wasm32"))]
use std::ffi::{c_char, c_int, c_void};

/// Share of the screen a fitted window may take along each axis (room for the title bar and
/// a desktop's panels).
const MOST_OF_SCREEN: f32 = 0.92;

/// `wanted` (physical px) if it fits on `screen`; else shrunk to most of the screen, keeping
/// its shape.
pub fn fit_window(wanted: (i32, i32), screen: Option<(i32, i32)>) -> (i32, i32) {
    let Some((sw, sh)) = screen.filter(|&(w, h)| w > 0 && h > 0) else {
        return wanted;
    };
    if wanted.0 <= sw && wanted.1 <= sh {
        return wanted;
    }
    let room = (sw as f32 * MOST_OF_SCREEN, sh as f32 * MOST_OF_SCREEN);
    let f = (room.0 / wanted.0.max(1) as f32)
        .min(room.1 / wanted.1.max(1) as f32)
        .min(1.0);
    if f >= 1.0 {
        return wanted;
    }
    ((wanted.0 as f32 * f) as i32, (wanted.1 as f32 * f) as i32)
}

/// Once the window is open: a window larger than the screen (2560 × 1600 at `--scale 2` on a
/// 1280 × 800 one) asks to be made small enough to fit, keeping its shape.
pub fn fit_open_window() {
    use macroquad::miniquad::window;
    let (w, h) = window::screen_size();
    let wanted = (w as i32, h as i32);
    let fitted = fit_window(wanted, screen_size());
    if fitted != wanted {
        window::set_window_size(fitted.0 as u32, fitted.1 as u32);
    }
}

/// The X11 default screen's size (px), when there is an X display and Xlib.
#[cfg(not(target_arch = "wasm32"))]
pub fn screen_size() -> Option<(i32, i32)> {
    if !cfg!(target_os = "linux") || std::env::var_os("DISPLAY").is_none() {
        return None;
    }
    type OpenFn = unsafe extern "C" fn(*const c_char) -> *mut c_void;
    type ScreenFn = unsafe extern "C" fn(*mut c_void) -> c_int;
    type SizeFn = unsafe extern "C" fn(*mut c_void, c_int) -> c_int;
    type CloseFn = unsafe extern "C" fn(*mut c_void) -> c_int;
    // SAFETY: loading Xlib runs its initialisers, which have no preconditions; each symbol is
    // given the signature `X11/Xlib.h` declares; the display is closed before returning.
    unsafe {
        let lib = libloading::Library::new("libX11.so.6").ok()?;
        let open = *lib.get::<OpenFn>(b"XOpenDisplay\0").ok()?;
        let default_screen = *lib.get::<ScreenFn>(b"XDefaultScreen\0").ok()?;
        let width = *lib.get::<SizeFn>(b"XDisplayWidth\0").ok()?;
        let height = *lib.get::<SizeFn>(b"XDisplayHeight\0").ok()?;
        let close = *lib.get::<CloseFn>(b"XCloseDisplay\0").ok()?;
        // Kept loaded: miniquad's window lives in the same library.
        std::mem::forget(lib);
        let display = open(std::ptr::null());
        if display.is_null() {
            return None;
        }
        let screen = default_screen(display);
        let size = (width(display, screen), height(display, screen));
        close(display);
        Some(size)
    }
}

/// A page has no screen of its own to fit: the canvas fills the browser's window.
#[cfg(target_arch = "wasm32")]
pub fn screen_size() -> Option<(i32, i32)> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_doubled_by_scale_two_fits_a_1280_by_800_screen() {
        let (w, h) = fit_window((2560, 1600), Some((1280, 800)));
        assert!(w <= 1280 && h <= 800, "{w} × {h}");
        assert!(w >= 1100, "shrunk more than needed: {w} × {h}");
        // The same shape, to the pixel the rounding down may take.
        assert!(
            (w * 1600 - h * 2560).abs() <= 2560,
            "the shape changed: {w} × {h}"
        );
    }

    #[test]
    fn a_window_that_fits_or_an_unknown_screen_keeps_its_size() {
        assert_eq!(fit_window((1280, 800), Some((2560, 1600))), (1280, 800));
        assert_eq!(fit_window((2560, 1600), Some((2560, 1600))), (2560, 1600));
        assert_eq!(fit_window((2560, 1600), None), (2560, 1600));
        assert_eq!(fit_window((2560, 1600), Some((0, 0))), (2560, 1600));
    }
}
