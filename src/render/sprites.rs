//! The balls small on screen are drawn on the CPU into one opaque image of the view's area,
//! backdrop included (`splat.rs`), copied into the window first (`raw_gl.rs`; where no copy
//! can be made, drawn as a rectangle without blending); the table, overlays and panels go on
//! top. In llvmpipe a blended rectangle the size of the view costs several milliseconds a
//! frame, an unblended one about half that, the copy a memory copy; and every triangle has a
//! setup cost, so even a few hundred balls as quads cost more than the image.
//!
//! Larger balls are drawn in batches: one textured quad per ball, tinted by its vertex colour,
//! in meshes of at most 16,383 quads (macroquad's indices are u16), one draw call for them
//! all. The circle texture is anti-aliased (a one-texel alpha ramp at the rim) with a soft
//! highlight baked in, so those balls look smooth without MSAA, and like the image's.
//!
//! Textures come in power-of-two sizes (4…128 px); each ball uses the smallest that is at
//! least its screen diameter, so the rim ramp stays about one screen pixel wide at any zoom.
//!
//! On the GPU path (`renderer.rs`) there is no image: every ball is a quad, and the backdrop
//! the image would carry is two rectangles.

use super::heat_paint::HeatGrid;
use super::raw_gl::{Rect, WindowCopy};
use super::splat::{Backdrop, Canvas, Disc};
use super::view::View;
use collide::world::Ball;
use macroquad::prelude::*;
use std::rc::Rc;

/// Largest screen radius (physical px) drawn into the image; larger balls stay quads.
const SPLAT_MAX_RADIUS: f32 = 12.0;

/// Most quads in one mesh: 4 vertices each, indices must fit in u16.
pub const MAX_QUADS: usize = 16_383;
/// Texture sizes 2^MIN_LOG2 … 2^MAX_LOG2 px.
const MIN_LOG2: u32 = 2;
const MAX_LOG2: u32 = 7;
const CLASSES: usize = (MAX_LOG2 - MIN_LOG2 + 1) as usize;

/// The circle textures and reused vertex buffers.
#[derive(Default)]
pub struct Sprites {
    textures: Vec<Texture2D>,
    /// Meshes of each texture class; `used[k]` of `meshes[k]` are filled this frame.
    meshes: Vec<Vec<Mesh>>,
    used: Vec<usize>,
    /// The CPU-drawn balls, and the texture showing them (recreated when the size changes).
    canvas: Canvas,
    canvas_texture: Option<Texture2D>,
    /// This frame's CPU-drawn balls, and the canvas's sorting scratch.
    discs: Vec<Disc>,
    order: Vec<u32>,
    starts: Vec<u32>,
    /// Where this frame's canvas goes (its top-left corner, screen px) and its size, if
    /// balls are drawn into one and it is not drawn yet; its backdrop.
    canvas_at: Option<(Vec2, (usize, usize))>,
    backdrop: Backdrop,
    /// Draws a texture without blending (the canvas is opaque).
    opaque: Option<Material>,
    /// The canvas's copy in GL, and whether making or using one failed.
    copy: Option<WindowCopy>,
    copy_failed: bool,
    /// Where the canvas was copied into the window this frame (left, top, width, height px).
    copied: Option<Rect>,
    /// The GPU path: every ball a quad, no canvas.
    gpu: bool,
    /// The heat map to paint under the balls, and what the canvas's underlay was made for:
    /// the heat's version, the canvas's size and the world points at two of its corners.
    heat: Option<Rc<HeatGrid>>,
    underlay_for: Option<(u64, (usize, usize), [u32; 4])>,
    /// The GPU path's rectangles of the heat, and the heat's version they were made from.
    heat_runs: Option<(u64, Vec<(collide::Aabb, Color)>)>,
}

impl Sprites {
    /// Draws by `path`; without framebuffer blits (`blits` false) the canvas is never copied,
    /// only drawn as a texture.
    pub fn set_path(&mut self, path: super::renderer::Path, blits: bool) {
        self.gpu = path == super::renderer::Path::Gpu;
        self.copy_failed = !blits;
        self.copy = None;
    }

    /// The heat map drawn under the balls from the next [`Sprites::prepare`] on (`None`:
    /// none): painted into the canvas, or on the GPU path rectangles over the backdrop.
    pub fn set_heat(&mut self, heat: Option<Rc<HeatGrid>>) {
        self.heat = heat;
    }

    /// The GPU path's heat: its runs of texels as rectangles over the backdrop (made again
    /// when the heat changed).
    fn heat_quad(&mut self, view: &View) {
        let Some(heat) = self.heat.as_ref() else {
            return;
        };
        if self.heat_runs.as_ref().map(|t| t.0) != Some(heat.version) {
            self.heat_runs = Some((heat.version, heat.runs()));
        }
        let Some((_, runs)) = &self.heat_runs else {
            return;
        };
        for (r, c) in runs {
            let p = view.pt(collide::Vec2::new(r.min.x, r.max.y));
            let size = r.size() * view.scale();
            draw_rectangle(p.x, p.y, size.x, size.y, *c);
        }
    }

    /// The heat map set by [`Sprites::set_heat`].
    pub fn heat(&self) -> Option<Rc<HeatGrid>> {
        self.heat.clone()
    }

    /// Gives the canvas the heat's places over its backdrop, remade when the heat, the
    /// canvas's size or the view changed since it was made.
    fn sync_underlay(&mut self, view: &View, at: Vec2, s: f32, size: (usize, usize)) {
        let Some(heat) = self.heat.clone() else {
            if self.underlay_for.take().is_some() {
                self.canvas.set_underlay(None);
            }
            return;
        };
        let corner = |c: Vec2| view.to_world(c / s);
        let (a, b) = (corner(at), corner(at + vec2(size.0 as f32, size.1 as f32)));
        let key = (heat.version, size, [a.x, a.y, b.x, b.y].map(f32::to_bits));
        if self.underlay_for == Some(key) {
            return;
        }
        let back = self.backdrop;
        let under = heat.underlay(view, at, s, size, |x, y| back.pixel(x, y));
        self.canvas.set_underlay(under);
        self.underlay_for = Some(key);
    }

    /// Lays out every ball, as a disc of the canvas (small on screen) or a quad,
    /// on a backdrop of `inside` within the screen rectangle `field` (the play area) and
    /// `outside` around it. [`Sprites::draw_canvas`] draws the canvas: it reads nothing of
    /// the world, so it may run while the world steps. The canvas goes under everything drawn
    /// through macroquad in the frame, as long as macroquad has drawn nothing of it yet (see
    /// there). [`Sprites::draw_quads`] draws the quads. `color` gives each ball's tint.
    pub fn prepare(
        &mut self,
        view: &View,
        balls: &[Ball],
        color: impl Fn(&Ball) -> Color,
        field: (Vec2, Vec2),
        inside: Color,
        outside: Color,
    ) {
        self.ensure_textures();
        self.used.iter_mut().for_each(|u| *u = 0);
        self.copied = None;
        // The view's area in logical pixels (the quads' and the backdrop's), and the canvas
        // over it in physical ones, `s` per logical pixel (`screen.rs`): balls are drawn into
        // it at the screen's own resolution.
        let area = view.pixels(super::screen::size());
        let s = super::screen::scale();
        let (x, y, w, h) = super::screen::to_physical(area, s);
        let (x0, y0, w, h) = (x as f32, y as f32, w.max(0) as usize, h.max(0) as usize);
        let splat = !self.gpu && w > 0 && h > 0;
        if self.gpu {
            let (ax, ay, aw, ah) = area;
            let area = (ax as f32, ay as f32, aw as f32, ah as f32);
            backdrop_rects(area, field, inside, outside);
            self.heat_quad(view);
        }
        self.discs.clear();
        for b in balls {
            let p = view.pt(b.pos);
            let r = view.len(b.radius).max(1.0);
            if splat && r * s <= SPLAT_MAX_RADIUS {
                let disc = (p.x * s - x0, p.y * s - y0, r * s, tint(color(b)));
                self.discs.push(disc);
            } else {
                self.push_quad(class_of(2.0 * r * s), p, r, tint(color(b)));
            }
        }
        let at = vec2(x0, y0);
        let px = |v: f32, at: f32, n: usize| (v * s - at).round().clamp(0.0, n as f32) as usize;
        self.backdrop = Backdrop {
            inside_box: (
                px(field.0.x, at.x, w),
                px(field.1.x, at.x, w),
                px(field.0.y, at.y, h),
                px(field.1.y, at.y, h),
            ),
            inside: inside.into(),
            outside: outside.into(),
        };
        self.canvas_at = splat.then_some((at, (w, h)));
        if splat {
            self.sync_underlay(view, at, s, (w, h));
        }
        if splat && !self.ready_to_copy((w, h)) {
            // No copy into the window: the canvas is queued now, under what follows.
            self.draw_canvas();
        }
    }

    /// Draws the quads laid out by [`Sprites::prepare`].
    pub fn draw_quads(&mut self) {
        for (k, meshes) in self.meshes.iter().enumerate() {
            for m in &meshes[..self.used[k]] {
                draw_mesh(m);
            }
        }
    }

    /// Draws the discs laid out by [`Sprites::prepare`] on its backdrop and shows the canvas,
    /// opaque, over the view's area, once (a later call draws nothing until the next
    /// `prepare`). The copy into the window ([`WindowCopy`]) goes to the window at once, so
    /// the draw calls macroquad has queued and not yet drawn end up on top of it. Where there
    /// is no copy, `prepare` has drawn the canvas already, queued as a rectangle under what
    /// follows.
    pub fn draw_canvas(&mut self) {
        let Some((at, (w, h))) = self.canvas_at.take() else {
            return;
        };
        let back = self.backdrop;
        (self.canvas).discs((w, h), back, &self.discs, &mut self.order, &mut self.starts);
        if self.copy_canvas(at, (w, h)) {
            self.copied = Some((at.x as i32, at.y as i32, w as i32, h as i32));
            return;
        }
        // No framebuffer copy here: the canvas as a textured rectangle, its bytes read as
        // BGRA by the material.
        let fits = |t: &Texture2D| t.width() as usize == w && t.height() as usize == h;
        let texture = match self.canvas_texture.take() {
            Some(t) if fits(&t) => {
                t.update_from_bytes(w as u32, h as u32, self.canvas.bytes());
                t
            }
            _ => {
                let t = Texture2D::from_rgba8(w as u16, h as u16, self.canvas.bytes());
                t.set_filter(FilterMode::Nearest);
                t
            }
        };
        // Drawn in logical pixels over the physical canvas's area: one texel per pixel.
        let s = super::screen::scale();
        let params = DrawTextureParams {
            dest_size: Some(vec2(w as f32, h as f32) / s),
            ..Default::default()
        };
        let opaque = self.opaque.get_or_insert_with(opaque_material);
        gl_use_material(opaque);
        draw_texture_ex(&texture, at.x / s, at.y / s, WHITE, params);
        gl_use_default_material();
        self.canvas_texture = Some(texture);
    }

    /// Where the canvas was copied into the window this frame, if it was (by
    /// [`Sprites::draw_canvas`]; not when drawn as a rectangle).
    pub fn copied_canvas(&self) -> Option<Rect> {
        self.copied
    }

    /// Makes the copy of a `size` canvas into the window ([`WindowCopy`]) if needed; false
    /// when there is none: not possible here (then or ever: a failure is remembered).
    fn ready_to_copy(&mut self, size: (usize, usize)) -> bool {
        if self.copy_failed {
            return false;
        }
        if self.copy.as_ref().map(WindowCopy::size) != Some(size) {
            self.copy = None;
            self.copy = WindowCopy::new(size.0, size.1);
            self.copy_failed = self.copy.is_none();
        }
        !self.copy_failed
    }

    /// Shows the canvas by copying it into the window; false when there is no copy (see
    /// [`Sprites::ready_to_copy`]) or GL reported an error (remembered).
    fn copy_canvas(&mut self, at: Vec2, size: (usize, usize)) -> bool {
        if !self.ready_to_copy(size) {
            return false;
        }
        let Some(copy) = self.copy.as_mut() else {
            return false;
        };
        copy.upload(self.canvas.bytes());
        let screen_h = super::screen::physical_size().1 as i32;
        if !copy.show(at.x as i32, at.y as i32, screen_h) {
            self.copy_failed = true;
            return false;
        }
        true
    }

    fn ensure_textures(&mut self) {
        if self.textures.is_empty() {
            self.textures = (MIN_LOG2..=MAX_LOG2)
                .map(|l| circle_texture(1 << l))
                .collect();
            self.meshes = (0..CLASSES).map(|_| Vec::new()).collect();
            self.used = vec![0; CLASSES];
        }
    }

    /// Appends one quad centred at `p` (screen px) of radius `r` to class `k`'s open mesh.
    fn push_quad(&mut self, k: usize, p: Vec2, r: f32, c: [u8; 4]) {
        let meshes = &mut self.meshes[k];
        let open = self.used[k];
        let full = open > 0 && meshes[open - 1].vertices.len() >= 4 * MAX_QUADS;
        if open == 0 || full {
            if meshes.len() == open {
                meshes.push(Mesh {
                    vertices: Vec::new(),
                    indices: Vec::new(),
                    texture: Some(self.textures[k].clone()),
                });
            }
            meshes[open].vertices.clear();
            meshes[open].indices.clear();
            self.used[k] += 1;
        }
        let m = &mut meshes[self.used[k] - 1];
        let base = m.vertices.len() as u16;
        for (dx, dy, u, v) in [
            (-1., -1., 0., 0.),
            (1., -1., 1., 0.),
            (1., 1., 1., 1.),
            (-1., 1., 0., 1.),
        ] {
            m.vertices.push(Vertex {
                position: vec3(p.x + dx * r, p.y + dy * r, 0.0),
                uv: vec2(u, v),
                color: c,
                normal: Vec4::ZERO,
            });
        }
        m.indices.extend([0, 1, 2, 0, 2, 3].map(|i: u16| base + i));
    }
}

/// The backdrop the canvas would carry, as two rectangles: `outside` over the view's area
/// (left, top, width, height px), `inside` over the play area `field` within it.
fn backdrop_rects(area: (f32, f32, f32, f32), field: (Vec2, Vec2), inside: Color, outside: Color) {
    let (x, y, w, h) = area;
    draw_rectangle(x, y, w, h, outside);
    let lo = field.0.max(vec2(x, y));
    let hi = field.1.min(vec2(x + w, y + h));
    if hi.x > lo.x && hi.y > lo.y {
        draw_rectangle(lo.x, lo.y, hi.x - lo.x, hi.y - lo.y, inside);
    }
}

/// macroquad's textured-quad shaders with blending off, reading the texture's bytes as BGRA
/// (the canvas's layout).
fn opaque_material() -> Material {
    const VERTEX: &str = "#version 100
attribute vec3 position;
attribute vec2 texcoord;
attribute vec4 color0;
varying lowp vec2 uv;
varying lowp vec4 color;
uniform mat4 Model;
uniform mat4 Projection;
void main() {
    gl_Position = Projection * Model * vec4(position, 1);
    color = color0 / 255.0;
    uv = texcoord;
}";
    const FRAGMENT: &str = "#version 100
varying lowp vec4 color;
varying lowp vec2 uv;
uniform sampler2D Texture;
void main() {
    gl_FragColor = color * texture2D(Texture, uv).bgra;
}";
    let params = MaterialParams {
        pipeline_params: PipelineParams {
            color_blend: None,
            ..Default::default()
        },
        ..Default::default()
    };
    let source = ShaderSource::Glsl {
        vertex: VERTEX,
        fragment: FRAGMENT,
    };
    // Fixed shaders the default material compiles too: failing is a broken GL.
    load_material(source, params).expect("the opaque canvas material")
}

/// Texture class for a screen diameter (px): the smallest size ≥ the diameter.
fn class_of(diameter: f32) -> usize {
    let l = diameter.max(1.0).log2().ceil() as u32;
    (l.clamp(MIN_LOG2, MAX_LOG2) - MIN_LOG2) as usize
}

/// The ball colour as vertex bytes, brightened a little to make up for the texture's shading.
fn tint(c: Color) -> [u8; 4] {
    let up = |x: f32| ((x * 1.12).min(1.0) * 255.0) as u8;
    [up(c.r), up(c.g), up(c.b), (c.a * 255.0) as u8]
}

/// A white disc of `size` px with a one-texel anti-aliased rim and a soft highlight at the
/// upper left (brightness 1 there, falling to 0.7 at the far rim).
fn circle_texture(size: u16) -> Texture2D {
    let s = size as f32;
    let (centre, radius) = (s * 0.5, s * 0.5);
    let mut bytes = Vec::with_capacity(size as usize * size as usize * 4);
    for y in 0..size {
        for x in 0..size {
            let d = Vec2::new(x as f32 + 0.5, y as f32 + 0.5) - Vec2::splat(centre);
            // Coverage: 1 inside, 0 outside, linear over the last texel (tiny textures: half).
            let ramp = if size <= 8 { 0.75 } else { 1.0 };
            let alpha = ((radius - d.length()) / ramp + 0.5).clamp(0.0, 1.0);
            let shade = super::splat::shade(d.x / radius, d.y / radius);
            let v = (shade * 255.0) as u8;
            bytes.extend([v, v, v, (alpha * 255.0) as u8]);
        }
    }
    let t = Texture2D::from_rgba8(size, size, &bytes);
    t.set_filter(FilterMode::Linear);
    t
}
