//! GL calls macroquad does not make: an image copied 1:1 into the window with
//! `glBlitFramebuffer` ([`WindowCopy`]), and a clear of the colour alone ([`clear_colour`]).
//!
//! The image lives in a BGRA texture attached to a framebuffer of its own; a copy of the same
//! size, without scaling, between images of the same layout is a plain memory copy in
//! llvmpipe, where drawing the image as a textured rectangle runs the rasterizer over every
//! pixel. "The same layout" is in
//! memory: Mesa stores the window's rows from the top and a texture's from row 0 (GL's
//! bottom), so the copy must turn the image upside down in GL's terms to be a plain one; a
//! copy that does not runs the shader path, as costly as the rectangle.
//! macroquad has no such copy, so this speaks GL through miniquad's bindings; it restores
//! every binding it changes, so macroquad's own state cache stays true.
//!
//! There are two such textures, uploaded to in turn: uploading into the texture the last
//! frame copied from waits for that frame in llvmpipe. Their internal format is the unsized
//! `GL_RGBA`: given BGRA bytes, Mesa then stores them as BGRA and the upload is a memory
//! copy, where the sized `GL_RGBA8` gets RGBA storage and a conversion of every pixel.

use macroquad::miniquad::gl::*;

const GL_BGRA: GLenum = 0x80E1;
const GL_TEXTURE_BINDING_2D: GLenum = 0x8069;
const GL_READ_FRAMEBUFFER_BINDING: GLenum = 0x8CAA;

/// Clears the window to `rgba` (0–1 each), the colour buffer only, and drops the draw calls
/// macroquad has queued, as `clear_background` does. `clear_background` clears the depth
/// buffer too, which this program never uses: in llvmpipe that is a masked write of every
/// pixel (the stencil bits kept), which costs each rasterizer thread more than the colour
/// clear itself.
pub fn clear_colour([r, g, b, a]: [f32; 4]) {
    // SAFETY: macroquad's documented way to mix its drawing with raw GL, on its thread.
    let gl = unsafe { macroquad::window::get_internal_gl() };
    gl.quad_gl.clear_draw_calls();
    // SAFETY: on macroquad's thread, between its passes: the default framebuffer is bound and
    // the scissor test off (miniquad ends every pass so); the clear colour is set again by
    // every clear miniquad makes.
    unsafe {
        glClearColor(r, g, b, a);
        glClear(GL_COLOR_BUFFER_BIT);
    }
}

/// Turns writes to the colour buffer on or off (`glColorMask`, all four channels): off, a clear
/// or a drawing changes no pixel. Turned off only between frames, with nothing of macroquad's
/// queued, and on again before anything is drawn: miniquad keeps the mask on and sets it only
/// when a pipeline asks otherwise, so its own record of the mask stays true.
pub fn colour_writes(on: bool) {
    let v = if on { GL_TRUE } else { GL_FALSE } as GLboolean;
    // SAFETY: a state change with plain arguments, on macroquad's thread.
    unsafe { glColorMask(v, v, v, v) };
}

/// Limits macroquad's drawing queued from now on to `rect` of the window (a scissor on its
/// draw calls), or lifts the limit.
pub fn clip_drawing(rect: Option<Rect>) {
    // SAFETY: macroquad's documented access to its drawing state, on its thread.
    unsafe { macroquad::window::get_internal_gl() }
        .quad_gl
        .scissor(rect);
}

/// Sends what GL has queued to be drawn (in llvmpipe: to the rasterizer) without waiting for
/// it. Called after the window's clear at the start of a frame, it gets the clear done while
/// the canvas is drawn on the CPU: the copy of the canvas into the window must wait for every
/// drawing queued before it, and would otherwise wait for the clear.
pub fn flush() {
    // SAFETY: a flush has no arguments and changes no state; on macroquad's thread.
    unsafe { glFlush() };
}

/// A `w × h` BGRA image in a framebuffer of its own, two of them used in turn.
pub struct WindowCopy {
    images: [Image; 2],
    /// The image uploaded last.
    current: usize,
    size: (usize, usize),
}

/// A texture and the framebuffer it is attached to.
struct Image {
    texture: GLuint,
    framebuffer: GLuint,
}

/// The texture bound to the active unit now, bound again when dropped.
struct TextureBinding(GLint);

impl TextureBinding {
    fn save() -> Self {
        let mut old = 0;
        // SAFETY: a query into a local, on the thread that owns the GL context (macroquad's).
        unsafe { glGetIntegerv(GL_TEXTURE_BINDING_2D, &mut old) };
        TextureBinding(old)
    }
}

impl Drop for TextureBinding {
    fn drop(&mut self) {
        // SAFETY: binds back a texture name GL handed out.
        unsafe { glBindTexture(GL_TEXTURE_2D, self.0 as GLuint) };
    }
}

impl WindowCopy {
    /// A `w × h` image, or `None` when this GL cannot make one (no framebuffer objects, an
    /// incomplete framebuffer, any GL error).
    pub fn new(w: usize, h: usize) -> Option<Self> {
        let first = Image::new(w, h)?;
        let second = Image::new(w, h)?;
        Some(WindowCopy {
            images: [first, second],
            current: 0,
            size: (w, h),
        })
    }

    /// Width and height (px).
    pub fn size(&self) -> (usize, usize) {
        self.size
    }

    /// Replaces the image by `bgra`: B, G, R, A bytes, rows from the top down.
    pub fn upload(&mut self, bgra: &[u8]) {
        let (w, h) = self.size;
        assert_eq!(bgra.len(), w * h * 4, "the image is {w} × {h} px");
        self.current = 1 - self.current;
        // SAFETY: on macroquad's thread; `bgra` holds exactly w × h pixels (asserted), the
        // size the texture was made with, and GL reads it before returning.
        unsafe {
            let _bound = TextureBinding::save();
            glBindTexture(GL_TEXTURE_2D, self.images[self.current].texture);
            glTexSubImage2D(
                GL_TEXTURE_2D,
                0,
                0,
                0,
                w as GLint,
                h as GLint,
                GL_BGRA,
                GL_UNSIGNED_BYTE,
                bgra.as_ptr().cast(),
            );
        }
    }

    /// Copies the image into the window's framebuffer (`screen_h` px high) with its top-left
    /// corner at `(x, y)` px from the window's top-left corner; false on a GL error.
    pub fn show(&self, x: i32, y: i32, screen_h: i32) -> bool {
        let (w, h) = (self.size.0 as i32, self.size.1 as i32);
        // GL counts rows from the bottom; the image's first row (texture row 0) goes to the
        // top (see the module notes).
        let bottom = screen_h - y - h;
        let image = self.images[self.current].framebuffer;
        blit(
            Some(image),
            None,
            [[0, 0, w, h, x, bottom + h, x + w, bottom]],
        )
    }
}

/// Copies between the window and an image of this module (`None`: the window, the
/// framebuffer bound for drawing between macroquad's passes): each `[sx0, sy0, sx1, sy1, dx0,
/// dy0, dx1, dy1]` as `glBlitFramebuffer` takes them, without scaling or filtering. Puts both
/// framebuffer bindings back; false on a GL error.
fn blit(
    from: Option<GLuint>,
    to: Option<GLuint>,
    copies: impl IntoIterator<Item = [i32; 8]>,
) -> bool {
    // SAFETY: on macroquad's thread, between its passes; only framebuffers of this module and
    // the window's are bound, and both bindings are put back. The scissor test is off after
    // macroquad's passes (it turns it off when a pass ends) and is turned off here in any
    // case: a copy under a scissor would not be the plain copy.
    unsafe {
        let (mut read, mut draw) = (0, 0);
        glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &mut read);
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &mut draw);
        let window = draw as GLuint;
        glBindFramebuffer(GL_READ_FRAMEBUFFER, from.unwrap_or(window));
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, to.unwrap_or(window));
        glDisable(GL_SCISSOR_TEST);
        for [a, b, c, d, e, f, g, h] in copies {
            glBlitFramebuffer(a, b, c, d, e, f, g, h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        }
        glBindFramebuffer(GL_READ_FRAMEBUFFER, read as GLuint);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, draw as GLuint);
        glGetError() == GL_NO_ERROR
    }
}

/// Parts of the window kept in a texture of the window's size and put back on later frames
/// (the panels, while egui is not run: `panel_cache.rs`). Both copies are plain memory copies
/// in llvmpipe, as [`WindowCopy`]'s: rows are kept from the top down, so each copy turns the
/// rows over in GL's terms. Taking a copy waits for what is queued to be drawn into the window.
pub struct WindowSnapshot {
    image: Image,
    size: (usize, usize),
}

/// A rectangle of the window: left, top (px from the window's top-left corner), width, height.
pub type Rect = (i32, i32, i32, i32);

impl WindowSnapshot {
    /// A snapshot for a `w × h` window, or `None` (see [`WindowCopy::new`]).
    pub fn new(w: usize, h: usize) -> Option<Self> {
        Some(WindowSnapshot {
            image: Image::new(w, h)?,
            size: (w, h),
        })
    }

    /// Width and height (px) of the window it is for.
    pub fn size(&self) -> (usize, usize) {
        self.size
    }

    /// Copies `rects` of the window into the snapshot; false on a GL error.
    pub fn take(&self, rects: &[Rect]) -> bool {
        self.copy(rects, true)
    }

    /// Copies `rects` of the snapshot back into the window, where they were; false on a GL
    /// error.
    pub fn put(&self, rects: &[Rect]) -> bool {
        self.copy(rects, false)
    }

    fn copy(&self, rects: &[Rect], take: bool) -> bool {
        let win_h = self.size.1 as i32;
        let image = Some(self.image.framebuffer);
        let (from, to) = if take { (None, image) } else { (image, None) };
        let copies = rects
            .iter()
            .filter(|r| r.2 > 0 && r.3 > 0)
            .map(|&(x, y, w, h)| {
                // The window's rows in GL's terms (from the bottom), the texture's from the top:
                // the rectangle's bottom edge in one goes to the other's bottom edge, which turns
                // the rows over in GL's terms.
                let (bottom, top) = (win_h - y - h, win_h - y);
                let (s0, s1, d0, d1) = if take {
                    (bottom, top, y + h, y)
                } else {
                    (y, y + h, top, bottom)
                };
                [x, s0, x + w, s1, x, d0, x + w, d1]
            });
        blit(from, to, copies)
    }
}

impl Image {
    /// A `w × h` BGRA texture in a framebuffer, or `None` (see [`WindowCopy::new`]).
    fn new(w: usize, h: usize) -> Option<Self> {
        let (wi, hi) = (i32::try_from(w).ok()?, i32::try_from(h).ok()?);
        // SAFETY: called on macroquad's thread, which holds the GL context; every pointer
        // handed to GL is a local, and the null pixel pointer asks GL for uninitialised
        // storage, which is allowed. The bindings changed are put back before returning.
        unsafe {
            let (mut texture, mut framebuffer) = (0, 0);
            {
                let _bound = TextureBinding::save();
                glGenTextures(1, &mut texture);
                glBindTexture(GL_TEXTURE_2D, texture);
                glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST as GLint);
                glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST as GLint);
                glTexImage2D(
                    GL_TEXTURE_2D,
                    0,
                    GL_RGBA as GLint,
                    wi,
                    hi,
                    0,
                    GL_BGRA,
                    GL_UNSIGNED_BYTE,
                    std::ptr::null(),
                );
            }
            let mut read = 0;
            glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &mut read);
            glGenFramebuffers(1, &mut framebuffer);
            glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
            glFramebufferTexture2D(
                GL_READ_FRAMEBUFFER,
                GL_COLOR_ATTACHMENT0,
                GL_TEXTURE_2D,
                texture,
                0,
            );
            let complete = glCheckFramebufferStatus(GL_READ_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
            glBindFramebuffer(GL_READ_FRAMEBUFFER, read as GLuint);
            let made = Image {
                texture,
                framebuffer,
            };
            (complete && glGetError() == GL_NO_ERROR).then_some(made)
        }
    }
}

impl Drop for Image {
    fn drop(&mut self) {
        // SAFETY: deletes the names this value made, on macroquad's thread.
        unsafe {
            glDeleteFramebuffers(1, &self.framebuffer);
            glDeleteTextures(1, &self.texture);
        }
    }
}
