//! Many small balls drawn on the CPU into one image, shown in the window by one copy.
//!
//! In software rendering (llvmpipe) every triangle has a fixed setup cost, so ten thousand
//! quads of a few pixels each cost far more than the pixels they cover. Writing the few
//! dozen pixels of each ball into an image on the CPU costs about as much as the pixels
//! themselves, and the image then goes to the window in one upload and one copy.
//!
//! The image has the layout of the window's own framebuffer as llvmpipe stores it: BGRA
//! bytes, rows from the top down. So a `glBlitFramebuffer` into the window that turns it
//! upside down in GL's terms (see `raw_gl.rs`) is a plain memory copy there; a copy that
//! keeps GL's rows in order runs a shader over every pixel instead, as does drawing the
//! image as a textured rectangle (`sprites.rs` still does that where the copy is not
//! available).
//!
//! The disc looks like the sprite texture's (see `sprites.rs`): a one-pixel anti-aliased rim
//! and a soft highlight at the upper left. Its coverage and shading come from a stamp: the
//! disc's pixels precomputed for its radius (in 1/16 px) and the position of its centre
//! within a pixel (in 1/8 px), made the first time they are needed. Drawing a disc is then
//! integer work per pixel: the tint times the shade, blended over what is under it by the
//! coverage, without a branch. Discs larger than [`STAMP_MAX_RADIUS`] are computed pixel by
//! pixel, the same way.

/// An image of BGRA8 pixels, rows from the top down (see the module notes).
#[derive(Clone, Debug, Default)]
pub struct Canvas {
    /// Width and height (px).
    size: (usize, usize),
    /// One `u32` per pixel, `a << 24 | r << 16 | g << 8 | b` (bytes B, G, R, A in memory):
    /// pixel `(x, y)`, `y` counted from the top, is at `y * w + x`.
    pixels: Vec<u32>,
    /// Rows `[0, cleared)` (from the top) are cleared this frame ([`Canvas::discs`] clears
    /// just ahead).
    cleared: usize,
    /// What clearing fills in.
    back: Backdrop,
    /// Pixels clearing copies in over the backdrop (the heat map's places).
    underlay: Option<Underlay>,
    /// The stamps made so far.
    stamps: Stamps,
}

/// The opaque backdrop the discs are drawn on: one colour inside a rectangle (the play area),
/// another around it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Backdrop {
    /// Columns `x0..x1` and rows `y0..y1` (canvas px from the top-left, clipped) are inside.
    pub inside_box: (usize, usize, usize, usize),
    /// RGBA inside and around.
    pub inside: [u8; 4],
    pub outside: [u8; 4],
}

/// Pixels that replace the backdrop in a rectangle of the canvas: `rect` is left, top,
/// width, height (px), `pixels` its rows from the top, BGRA as the canvas stores them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Underlay {
    pub rect: (usize, usize, usize, usize),
    pub pixels: Vec<u32>,
}

impl Underlay {
    /// Row `y` of a canvas `w` px wide: where the underlay's part of it starts and its
    /// pixels, cut at the canvas's edge; `None` off the underlay.
    fn row(&self, y: usize, w: usize) -> Option<(usize, &[u32])> {
        let (ux, uy, uw, uh) = self.rect;
        if !(uy..uy + uh).contains(&y) || ux >= w {
            return None;
        }
        let from = (y - uy) * uw;
        Some((ux, self.pixels.get(from..from + uw.min(w - ux))?))
    }
}

impl Backdrop {
    /// The backdrop's pixel at `(x, y)` (canvas px), BGRA as the canvas stores it.
    pub fn pixel(&self, x: usize, y: usize) -> u32 {
        let (x0, x1, y0, y1) = self.inside_box;
        let inside = (x0..x1).contains(&x) && (y0..y1).contains(&y);
        pixel_of(if inside { self.inside } else { self.outside })
    }
}

/// A disc to draw: centre x, y and radius (px), tint (RGBA).
pub type Disc = (f32, f32, f32, [u8; 4]);

/// Rows per strip of [`Canvas::discs`]: a strip of a 1,000-px-wide canvas (128 KB) stays in
/// L2 while its discs are drawn.
const STRIP_ROWS: usize = 32;

/// Where the highlight is, relative to the centre in radii (screen y down: upper left).
const LIGHT: (f32, f32) = (-0.35, -0.35);

/// Largest radius (px) drawn from a stamp.
const STAMP_MAX_RADIUS: f32 = 16.0;
/// Stamp radii come in steps of 1 / this px.
const RADIUS_STEPS: f32 = 16.0;
/// Stamp centres come in steps of 1 / this px along each axis.
const SUB: usize = 8;

/// A ball's brightness at `(ux, uy)`, its offset from the centre in radii (screen y down):
/// 1 at the highlight, falling to 0.7 at the far rim. The CPU discs here and the quads'
/// circle texture (`sprites.rs`) both shade with it, so the two look alike.
#[inline(always)]
pub fn shade(ux: f32, uy: f32) -> f32 {
    let (lx, ly) = (ux - LIGHT.0, uy - LIGHT.1);
    let u2 = (lx * lx + ly * ly) * (1.0 / (1.35 * 1.35));
    1.0 - 0.3 * u2.min(1.0)
}

/// RGBA bytes as a pixel.
fn pixel_of([r, g, b, a]: [u8; 4]) -> u32 {
    u32::from_le_bytes([b, g, r, a])
}

/// One pixel of a disc: its coverage and shade, each in 0..=256 (256 is 1), packed
/// `cover << 16 | shade`.
fn texel(dx: f32, dy: f32, r: f32) -> u32 {
    let reach = r + 0.5;
    let d2 = dx * dx + dy * dy;
    if d2 >= reach * reach {
        return 0;
    }
    let inner = (r - 0.5).max(0.0);
    // Coverage: 1 inside, 0 outside, linear over the last pixel.
    let cover = if d2 <= inner * inner {
        1.0
    } else {
        (r - d2.sqrt() + 0.5).clamp(0.0, 1.0)
    };
    let s = shade(dx / r, dy / r);
    let q = |v: f32| (v * 256.0).round() as u32;
    q(cover) << 16 | q(s)
}

/// `over` blended onto `under` with weight `a` in 0..=256 (256: `over` itself), all four
/// bytes alike, two at a time.
#[inline(always)]
fn lerp(under: u32, over: u32, a: u32) -> u32 {
    let b = 256 - a;
    let rb = ((over & 0x00ff_00ff) * a + (under & 0x00ff_00ff) * b) >> 8;
    let ag = ((over >> 8) & 0x00ff_00ff) * a + ((under >> 8) & 0x00ff_00ff) * b;
    (rb & 0x00ff_00ff) | (ag & 0xff00_ff00)
}

/// An opaque `tint` darkened by `shade` in 0..=256.
#[inline(always)]
fn shaded(tint: u32, shade: u32) -> u32 {
    let rb = ((tint & 0x00ff_00ff) * shade) >> 8;
    let g = ((tint & 0x0000_ff00) * shade) >> 8;
    (rb & 0x00ff_00ff) | (g & 0x0000_ff00) | 0xff00_0000
}

/// Paints `texels` (see [`texel`]) over `row`, tinted `tint` (opaque), their coverage scaled
/// by `alpha` in 0..=256: four pixels at a time with SSE2 where there is SSE2 (every x86-64),
/// the same integer arithmetic as [`paint_row_plain`] lane by lane.
#[inline(always)]
fn paint_row(row: &mut [u32], texels: &[u32], tint: u32, alpha: u32) {
    #[cfg(target_arch = "x86_64")]
    {
        let quads = row.len().min(texels.len()) / 4 * 4;
        // SAFETY: SSE2 is part of x86-64; the quads are within both slices.
        unsafe { sse2::paint_quads(&mut row[..quads], &texels[..quads], tint, alpha) };
        paint_row_plain(&mut row[quads..], &texels[quads..], tint, alpha);
    }
    #[cfg(not(target_arch = "x86_64"))]
    paint_row_plain(row, texels, tint, alpha);
}

/// [`paint_row`] one pixel at a time.
fn paint_row_plain(row: &mut [u32], texels: &[u32], tint: u32, alpha: u32) {
    for (p, &t) in row.iter_mut().zip(texels) {
        paint(p, t, tint, alpha);
    }
}

/// Paints texel `t` (see [`texel`]) over pixel `p`, tinted `tint`, its coverage scaled by
/// `alpha` (as [`ink`] gives them).
#[inline(always)]
fn paint(p: &mut u32, t: u32, tint: u32, alpha: u32) {
    let a = ((t >> 16) * alpha) >> 8;
    *p = lerp(*p, shaded(tint, t & 0xffff), a);
}

/// An RGBA tint as the painters take it: the opaque pixel, and its alpha in 0..=256.
fn ink(rgba: [u8; 4]) -> (u32, u32) {
    let a = rgba[3] as u32;
    (pixel_of(rgba) | 0xff00_0000, a + (a >> 7))
}

#[cfg(target_arch = "x86_64")]
mod sse2 {
    use std::arch::x86_64::*;

    /// [`super::paint_row_plain`] on whole groups of four pixels (`row.len()` a multiple of
    /// four, `texels` at least as long). Each pixel's four bytes become 16-bit lanes, two
    /// pixels to a register; products stay below 2^16 (a byte times at most 256).
    ///
    /// # Safety
    /// Needs SSE2 (every x86-64 has it).
    #[inline(always)]
    pub(super) unsafe fn paint_quads(row: &mut [u32], texels: &[u32], tint: u32, alpha: u32) {
        debug_assert!(row.len().is_multiple_of(4) && texels.len() >= row.len());
        let zero = _mm_setzero_si128();
        // The tint's bytes as lanes, for two pixels.
        let tint = _mm_unpacklo_epi8(_mm_set1_epi32(tint as i32), zero);
        // The alpha lane is never shaded: its factor is 256.
        let alpha_lane = _mm_set_epi16(256, 0, 0, 0, 256, 0, 0, 0);
        let colour_lanes = _mm_set_epi16(0, -1, -1, -1, 0, -1, -1, -1);
        let scale = _mm_set1_epi16(alpha as i16);
        let full = _mm_set1_epi16(256);
        // Two pixels' lanes `[s, s, s, c | s, s, s, c]`, from texels `[s, c, s, c]`.
        let two = |t: __m128i, under: __m128i| -> __m128i {
            let shade =
                _mm_shufflehi_epi16::<0b01_00_00_00>(_mm_shufflelo_epi16::<0b01_00_00_00>(t));
            let cover =
                _mm_shufflehi_epi16::<0b01_01_01_01>(_mm_shufflelo_epi16::<0b01_01_01_01>(t));
            let shade = _mm_or_si128(_mm_and_si128(shade, colour_lanes), alpha_lane);
            let over = _mm_srli_epi16::<8>(_mm_mullo_epi16(tint, shade));
            // Coverage times alpha over 256; at full alpha (256) the product would not fit.
            let a = if alpha >= 256 {
                cover
            } else {
                _mm_srli_epi16::<8>(_mm_mullo_epi16(cover, scale))
            };
            let sum = _mm_add_epi16(
                _mm_mullo_epi16(over, a),
                _mm_mullo_epi16(under, _mm_sub_epi16(full, a)),
            );
            _mm_srli_epi16::<8>(sum)
        };
        for (p, t) in row.chunks_exact_mut(4).zip(texels.chunks_exact(4)) {
            let under = _mm_loadu_si128(p.as_ptr().cast());
            let t = _mm_loadu_si128(t.as_ptr().cast());
            let lo = two(_mm_unpacklo_epi32(t, t), _mm_unpacklo_epi8(under, zero));
            let hi = two(_mm_unpackhi_epi32(t, t), _mm_unpackhi_epi8(under, zero));
            _mm_storeu_si128(p.as_mut_ptr().cast(), _mm_packus_epi16(lo, hi));
        }
    }
}

/// Where a disc's texels for one radius step and one centre position within a pixel are.
#[derive(Clone, Copy, Debug)]
struct Stamp {
    /// Offset of the stamp's top-left texel from the pixel holding the centre.
    left: i32,
    top: i32,
    /// Texels per row, a multiple of four (the rows are padded with texels of no coverage,
    /// which leave a pixel as it was: whole groups of four are painted, no tail) and rows.
    w: u32,
    rows: u32,
    /// Where the rows start in [`Stamps::texels`].
    start: u32,
}

/// The stamps made so far, by radius step and centre position; their texels in one array
/// (one stamp's are near each other, and the stamps of a field's few radii near together).
#[derive(Clone, Debug, Default)]
struct Stamps {
    /// Index + 1 into `stamps` by radius step and centre position, 0 while not made.
    table: Vec<u32>,
    stamps: Vec<Stamp>,
    /// Rows of `w` texels (see [`texel`]), top to bottom, stamp after stamp.
    texels: Vec<u32>,
}

impl Stamps {
    /// The stamp for a disc of radius `r` (0 < r ≤ [`STAMP_MAX_RADIUS`]) whose centre is
    /// `(fx, fy)` (each in [0, 1)) into its pixel, and its texels.
    fn get(&mut self, r: f32, fx: f32, fy: f32) -> (Stamp, &[u32]) {
        let step = (r * RADIUS_STEPS).round().max(1.0) as usize;
        let sub = |f: f32| ((f * SUB as f32) as usize).min(SUB - 1);
        let (qx, qy) = (sub(fx), sub(fy));
        let k = (step * SUB + qy) * SUB + qx;
        if self.table.len() <= k {
            self.table.resize(k + 1, 0);
        }
        if self.table[k] == 0 {
            let at = |q: usize| (q as f32 + 0.5) / SUB as f32;
            self.make(step as f32 / RADIUS_STEPS, at(qx), at(qy));
            self.table[k] = self.stamps.len() as u32;
        }
        let stamp = self.stamps[self.table[k] as usize - 1];
        let from = stamp.start as usize;
        let texels = &self.texels[from..from + (stamp.w * stamp.rows) as usize];
        (stamp, texels)
    }

    /// Makes the stamp of radius `r` px centred `(fx, fy)` px from its pixel's top-left
    /// corner.
    fn make(&mut self, r: f32, fx: f32, fy: f32) {
        let reach = r + 0.5;
        let (left, top) = ((fx - reach).floor() as i32, (fy - reach).floor() as i32);
        let (right, bottom) = ((fx + reach).ceil() as i32, (fy + reach).ceil() as i32);
        let w = ((right - left) as u32).next_multiple_of(4);
        let start = self.texels.len() as u32;
        for y in top..bottom {
            for x in left..left + w as i32 {
                self.texels
                    .push(texel(x as f32 + 0.5 - fx, y as f32 + 0.5 - fy, r));
            }
        }
        self.stamps.push(Stamp {
            left,
            top,
            w,
            rows: (bottom - top) as u32,
            start,
        });
    }
}

impl Canvas {
    /// Resizes to `w × h` and clears to transparent.
    #[cfg(test)]
    pub fn clear(&mut self, w: usize, h: usize) {
        self.start(w, h, Backdrop::default());
        self.clear_to(h);
    }

    /// Resizes to `w × h` with nothing cleared yet.
    fn start(&mut self, w: usize, h: usize, back: Backdrop) {
        self.size = (w, h);
        self.pixels.resize(w * h, 0);
        self.cleared = 0;
        self.back = back;
    }

    /// Copies `underlay` over the backdrop from the next clearing on (`None`: the backdrop
    /// alone). The part outside the canvas is left out.
    pub fn set_underlay(&mut self, underlay: Option<Underlay>) {
        self.underlay = underlay;
    }

    /// Where row `y` (from the top) starts in `pixels`.
    #[inline(always)]
    fn row_start(&self, y: usize) -> usize {
        y * self.size.0
    }

    /// Clears the rows not yet cleared before row `row` to the backdrop.
    fn clear_to(&mut self, row: usize) {
        let (w, h) = self.size;
        let row = row.min(h);
        let b = self.back;
        let (inside, outside) = (pixel_of(b.inside), pixel_of(b.outside));
        let (x0, x1, y0, y1) = b.inside_box;
        let (x1, y1) = (x1.min(w), y1.min(h));
        let x0 = x0.min(x1);
        let underlay = self.underlay.take();
        for y in self.cleared..row {
            let at = self.row_start(y);
            let line = &mut self.pixels[at..at + w];
            // The underlay's part of the row, copied; the backdrop around it.
            let (from, to) = match underlay.as_ref().and_then(|u| u.row(y, w)) {
                Some((ux, pixels)) => {
                    line[ux..ux + pixels.len()].copy_from_slice(pixels);
                    (ux, ux + pixels.len())
                }
                None => (w, w),
            };
            let mut fill = |a: usize, b: usize, c: u32| {
                // The parts of a..b before and after the copied from..to.
                line[a.min(from)..b.min(from)].fill(c);
                let after = a.max(to);
                if after < b {
                    line[after..b].fill(c);
                }
            };
            if (y0..y1).contains(&y) {
                fill(0, x0, outside);
                fill(x0, x1, inside);
                fill(x1, w, outside);
            } else {
                fill(0, w, outside);
            }
        }
        self.underlay = underlay;
        self.cleared = self.cleared.max(row);
    }

    /// The pixels as bytes B, G, R, A, rows from the top down.
    pub fn bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.pixels)
    }

    /// Pixel `(x, y)` (from the top-left) as RGBA bytes.
    #[cfg(test)]
    pub fn rgba(&self, x: usize, y: usize) -> [u8; 4] {
        let [b, g, r, a] = self.pixels[self.row_start(y) + x].to_le_bytes();
        [r, g, b, a]
    }

    /// Clears to `w × h` filled with `back` and draws `discs` as [`Canvas::disc`] does, strip
    /// by strip: each disc with the strip of its top row, so the pixels written are near each
    /// other whatever order the discs come in (in index order, each disc's rows missed the
    /// cache), and rows cleared just before the first disc that reaches them. Within a strip
    /// the discs keep their order; a disc over one of an earlier strip is drawn after it too.
    pub fn discs(
        &mut self,
        size: (usize, usize),
        back: Backdrop,
        discs: &[Disc],
        order: &mut Vec<u32>,
        starts: &mut Vec<u32>,
    ) {
        let (w, h) = size;
        self.start(w, h, back);
        let strips = h.div_ceil(STRIP_ROWS).max(1);
        let strip = |d: &Disc| {
            let top = (d.1 - d.2 - 0.5).floor();
            // NaN and negatives go to the first strip (`as` saturates), beyond to the last.
            ((top.max(0.0) as usize) / STRIP_ROWS).min(strips - 1)
        };
        starts.clear();
        starts.resize(strips + 1, 0);
        for d in discs {
            starts[strip(d) + 1] += 1;
        }
        for k in 0..strips {
            starts[k + 1] += starts[k];
        }
        order.clear();
        order.resize(discs.len(), 0);
        for (i, d) in discs.iter().enumerate() {
            let at = &mut starts[strip(d)];
            order[*at as usize] = i as u32;
            *at += 1;
        }
        // The discs are in strip order now (each strip's cursor ended at the next one's
        // start); `disc` clears the rows each reaches before drawing it.
        for &i in order.iter() {
            let (x, y, r, c) = discs[i as usize];
            self.disc(x, y, r, c);
        }
        self.clear_to(h);
    }

    /// Draws a disc centred at `(cx, cy)` (px from the image's top-left corner; pixel
    /// `(x, y)` covers `[x, x + 1) × [y, y + 1)`) of radius `r` px, tinted `rgba`: from a
    /// stamp up to [`STAMP_MAX_RADIUS`], pixel by pixel beyond. Parts outside the image are
    /// clipped; a radius that is not a positive finite number, or a centre that is not
    /// finite, draws nothing. Rows not yet cleared up to the last it reaches are cleared
    /// first.
    pub fn disc(&mut self, cx: f32, cy: f32, r: f32, rgba: [u8; 4]) {
        if !(r > 0.0 && r < 1e6 && cx.is_finite() && cy.is_finite()) {
            return;
        }
        if r > STAMP_MAX_RADIUS || cx.abs() > 1e7 || cy.abs() > 1e7 {
            self.disc_exact(cx, cy, r, rgba);
            return;
        }
        let (ix, iy) = (cx.floor(), cy.floor());
        let mut stamps = std::mem::take(&mut self.stamps);
        let (stamp, texels) = stamps.get(r, cx - ix, cy - iy);
        let at = (ix as i32 + stamp.left, iy as i32 + stamp.top);
        self.put(at, stamp, texels, rgba);
        self.stamps = stamps;
    }

    /// Draws `stamp` (its `texels`) with its top-left texel at `(x, y)`, clipped.
    fn put(&mut self, at: (i32, i32), stamp: Stamp, texels: &[u32], rgba: [u8; 4]) {
        let (x, y) = at;
        let (w, h) = (self.size.0 as i32, self.size.1 as i32);
        let (x0, x1) = (x.max(0), (x + stamp.w as i32).min(w));
        let (y0, y1) = (y.max(0), (y + stamp.rows as i32).min(h));
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        self.clear_to(y1 as usize);
        let (tint, alpha) = ink(rgba);
        let n = (x1 - x0) as usize;
        for row in y0..y1 {
            let from = (row - y) as usize * stamp.w as usize + (x0 - x) as usize;
            let at = self.row_start(row as usize) + x0 as usize;
            paint_row(
                &mut self.pixels[at..at + n],
                &texels[from..from + n],
                tint,
                alpha,
            );
        }
    }

    /// [`Canvas::disc`] computed pixel by pixel (large discs).
    fn disc_exact(&mut self, cx: f32, cy: f32, r: f32, rgba: [u8; 4]) {
        let (w, h) = self.size;
        let reach = r + 0.5;
        let lo = |c: f32| (c - reach).floor().max(0.0);
        let hi = |c: f32, n: usize| (c + reach).ceil().min(n as f32).max(0.0);
        let (x0, x1) = (lo(cx) as usize, hi(cx, w) as usize);
        let (y0, y1) = (lo(cy) as usize, hi(cy, h) as usize);
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        self.clear_to(y1);
        let (tint, alpha) = ink(rgba);
        for y in y0..y1 {
            let dy = y as f32 + 0.5 - cy;
            let at = self.row_start(y);
            for x in x0..x1 {
                let t = texel(x as f32 + 0.5 - cx, dy, r);
                paint(&mut self.pixels[at + x], t, tint, alpha);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alpha(c: &Canvas, x: usize, y: usize) -> u8 {
        c.rgba(x, y)[3]
    }

    #[test]
    fn clearing_copies_the_underlay_over_the_backdrop_and_the_backdrop_around_it() {
        let back = Backdrop {
            inside_box: (2, 18, 2, 8),
            inside: [10, 20, 30, 255],
            outside: [1, 2, 3, 255],
        };
        let heat = pixel_of([200, 0, 0, 255]);
        let mut c = Canvas::default();
        // A 6 × 3 underlay reaching past the right edge of a 20 × 10 canvas, over the inside
        // and the outside.
        c.set_underlay(Some(Underlay {
            rect: (16, 1, 6, 3),
            pixels: vec![heat; 18],
        }));
        c.discs((20, 10), back, &[], &mut Vec::new(), &mut Vec::new());
        for y in 0..10 {
            for x in 0..20 {
                let under = (16..22).contains(&x) && (1..4).contains(&y);
                let want = if under {
                    [200, 0, 0, 255]
                } else if (2..18).contains(&x) && (2..8).contains(&y) {
                    back.inside
                } else {
                    back.outside
                };
                assert_eq!(c.rgba(x, y), want, "({x}, {y})");
            }
        }
        // Without it, the backdrop alone.
        c.set_underlay(None);
        c.discs((20, 10), back, &[], &mut Vec::new(), &mut Vec::new());
        assert_eq!(c.rgba(17, 2), back.inside);
    }

    #[test]
    fn a_disc_covers_its_pixels_and_nothing_beyond_its_rim() {
        let mut c = Canvas::default();
        c.clear(40, 30);
        c.disc(20.0, 15.0, 5.0, [200, 100, 50, 255]);
        // Centre and a pixel well inside: opaque.
        assert_eq!(alpha(&c, 20, 15), 255);
        assert_eq!(alpha(&c, 17, 15), 255);
        // Beyond the radius plus half a pixel: untouched.
        assert_eq!(alpha(&c, 26, 15), 0);
        assert_eq!(alpha(&c, 20, 21), 0);
        assert_eq!(alpha(&c, 24, 19), 0);
        // Covered area is about π r².
        let covered: f32 = (0..30 * 40)
            .map(|k| c.rgba(k % 40, k / 40)[3] as f32 / 255.0)
            .sum();
        let want = std::f32::consts::PI * 25.0;
        assert!((covered - want).abs() < 0.03 * want, "{covered} vs {want}");
        // The highlight: upper left brighter than lower right.
        let red = |x: usize, y: usize| c.rgba(x, y)[0];
        assert!(red(18, 13) > red(23, 18));
        assert!(red(18, 13) <= 200);
    }

    #[test]
    fn a_stamped_disc_is_the_exact_disc_to_within_its_steps() {
        // Stamps round the radius to 1/16 px and the centre to 1/8 px: a rim pixel may move by
        // a fraction of its coverage, nothing else.
        let (mut worst, mut total, mut n) = (0u32, 0u64, 0u64);
        for k in 0..200 {
            let f = k as f32;
            let (x, y) = (10.0 + (f * 0.137) % 1.0, 11.0 + (f * 0.291) % 1.0);
            let r = 0.6 + (f * 0.0731) % 9.0;
            let tint = [(k * 7 % 256) as u8, (k * 13 % 256) as u8, 200, 255];
            let (mut a, mut b) = (Canvas::default(), Canvas::default());
            a.clear(24, 24);
            b.clear(24, 24);
            a.disc(x, y, r, tint);
            b.disc_exact(x, y, r, tint);
            for py in 0..24 {
                for px in 0..24 {
                    let (p, q) = (a.rgba(px, py), b.rgba(px, py));
                    for c in 0..4 {
                        let d = (p[c] as i32 - q[c] as i32).unsigned_abs();
                        worst = worst.max(d);
                        total += d as u64;
                        n += 1;
                    }
                }
            }
        }
        let mean = total as f64 / n as f64;
        assert!(worst <= 40, "worst channel difference {worst}");
        assert!(mean < 0.5, "mean channel difference {mean}");
    }

    #[test]
    fn rows_painted_four_at_a_time_are_rows_painted_one_at_a_time() {
        // Every length 0..13 (whole quads and tails), opaque and translucent tints, every
        // coverage and shade from 0 to 256.
        let mut seed = 0x9e37_79b9_u32;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        };
        for len in 0..13 {
            for alpha in [256, 255, 128, 1, 0] {
                let under: Vec<u32> = (0..len).map(|_| next()).collect();
                let texels: Vec<u32> = (0..len)
                    .map(|_| ((next() % 257) << 16) | (next() % 257))
                    .collect();
                let tint = next() | 0xff00_0000;
                let (mut a, mut b) = (under.clone(), under.clone());
                paint_row(&mut a, &texels, tint, alpha);
                paint_row_plain(&mut b, &texels, tint, alpha);
                assert_eq!(a, b, "length {len}, alpha {alpha}");
            }
        }
    }

    #[test]
    fn clipped_and_degenerate_discs_are_safe() {
        let mut c = Canvas::default();
        c.clear(10, 10);
        for (x, y, r) in [
            (-3.0, -3.0, 4.0),
            (12.0, 5.0, 3.0),
            (5.0, 5.0, 0.0),
            (5.0, 5.0, -1.0),
            (f32::NAN, 5.0, 2.0),
            (5.0, f32::INFINITY, 2.0),
            (5.0, 5.0, f32::NAN),
            (5.0, 5.0, f32::INFINITY),
            (1e30, -1e30, 1e5),
            (5.0, 5.0, 1e5),
            (5.0, 5.0, 0.01),
        ] {
            c.disc(x, y, r, [255, 255, 255, 255]);
        }
        // The corner disc reaches (0, 0); the huge one covers everything.
        assert_eq!(alpha(&c, 0, 0), 255);
        assert_eq!(alpha(&c, 9, 9), 255);
    }

    #[test]
    fn discs_by_strips_draw_what_single_discs_draw() {
        let mut list = Vec::new();
        for k in 0..300 {
            let f = k as f32;
            let (x, y, r) = (
                (f * 37.3) % 130.0 - 5.0,
                (f * 53.1) % 110.0 - 5.0,
                1.0 + f % 7.0,
            );
            list.push((x, y, r, [k as u8, 255 - k as u8, 90, 255]));
        }
        // Apart from each other (no overlaps), so order does not matter: a grid of discs.
        let apart: Vec<Disc> = (0..120)
            .map(|k| {
                (
                    8.0 + 16.0 * (k % 8) as f32,
                    7.0 + 15.0 * (k / 8) as f32,
                    6.0,
                    [k as u8, 3, 200, 255],
                )
            })
            .collect();
        let (mut a, mut b) = (Canvas::default(), Canvas::default());
        a.clear(128, 230);
        for &(x, y, r, c) in &apart {
            a.disc(x, y, r, c);
        }
        let (mut order, mut starts) = (Vec::new(), Vec::new());
        b.discs(
            (128, 230),
            Backdrop::default(),
            &apart,
            &mut order,
            &mut starts,
        );
        assert_eq!(a.bytes(), b.bytes());
        // Drawn again over an old frame: cleared first.
        b.discs(
            (128, 230),
            Backdrop::default(),
            &apart[..5],
            &mut order,
            &mut starts,
        );
        a.clear(128, 230);
        for &(x, y, r, c) in &apart[..5] {
            a.disc(x, y, r, c);
        }
        assert_eq!(a.bytes(), b.bytes());
        // Overlapping, clipped and out-of-range discs: every pixel some disc reaches is drawn.
        a.clear(120, 100);
        list.push((f32::NAN, 5.0, 3.0, [1, 1, 1, 255]));
        list.push((5.0, 1e9, 3.0, [1, 1, 1, 255]));
        for &(x, y, r, c) in &list {
            a.disc(x, y, r, c);
        }
        b.discs(
            (120, 100),
            Backdrop::default(),
            &list,
            &mut order,
            &mut starts,
        );
        let covered = |c: &Canvas| c.bytes().chunks(4).filter(|p| p[3] > 0).count();
        assert_eq!(covered(&a), covered(&b));
    }

    #[test]
    fn the_backdrop_fills_the_play_area_and_its_surround_and_discs_blend_over_it() {
        let back = Backdrop {
            inside_box: (2, 8, 3, 6),
            inside: [10, 20, 30, 255],
            outside: [1, 2, 3, 255],
        };
        let mut c = Canvas::default();
        let (mut order, mut starts) = (Vec::new(), Vec::new());
        c.discs(
            (10, 8),
            back,
            &[(30.0, 30.0, 2.0, [255; 4])],
            &mut order,
            &mut starts,
        );
        let px = |c: &Canvas, x: usize, y: usize| c.rgba(x, y);
        for y in 0..8 {
            for x in 0..10 {
                let inside = (2..8).contains(&x) && (3..6).contains(&y);
                let want = if inside { back.inside } else { back.outside };
                assert_eq!(px(&c, x, y), want, "({x}, {y})");
            }
        }
        // A disc's rim over the backdrop: between the two, opaque.
        c.discs(
            (10, 8),
            back,
            &[(5.0, 4.5, 1.5, [250, 250, 250, 255])],
            &mut order,
            &mut starts,
        );
        assert_eq!(px(&c, 5, 4)[3], 255);
        assert!(px(&c, 5, 4)[0] > 150);
        let rim = px(&c, 3, 4);
        assert!(rim[0] > 10 && rim[0] < 250 && rim[3] == 255, "{rim:?}");
    }

    #[test]
    fn a_ball_over_another_blends_by_coverage() {
        let mut c = Canvas::default();
        c.clear(20, 10);
        c.disc(6.0, 5.0, 4.0, [255, 0, 0, 255]);
        c.disc(12.0, 5.0, 4.0, [0, 0, 255, 255]);
        let px = |x: usize| c.rgba(x, 5);
        // Inside the second disc: blue wins, opaque.
        assert_eq!(px(12)[0], 0);
        assert_eq!(px(12)[3], 255);
        // Inside the first only: red.
        assert!(px(4)[0] > 150 && px(4)[2] == 0);
    }
}
