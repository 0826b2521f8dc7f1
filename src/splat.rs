//! Many small balls drawn on the CPU into one RGBA image, shown as one textured rectangle.
//!
//! In software rendering (llvmpipe) every triangle has a fixed setup cost, so ten thousand
//! quads of a few pixels each cost far more than the pixels they cover: about 14 ms a frame
//! here for 10,000 balls. Writing the few dozen pixels of each ball into an image on the CPU
//! costs about as much as the pixels themselves, and the image then goes to the GPU in one
//! upload and one rectangle.
//!
//! The disc looks like the sprite texture's (see `sprites.rs`): a one-pixel anti-aliased rim
//! and a soft highlight at the upper left. Discs are drawn on an opaque backdrop
//! ([`Backdrop`]); a disc's rim blends by its coverage over what is under it.

/// An RGBA8 image, rows top to bottom.
#[derive(Clone, Debug, Default)]
pub struct Canvas {
    /// Width and height (px).
    size: (usize, usize),
    /// One `u32` per pixel, bytes R, G, B, A in memory order (little-endian packing).
    pixels: Vec<u32>,
    /// Rows `[0, cleared)` are cleared this frame ([`Canvas::discs`] clears just ahead).
    cleared: usize,
    /// What clearing fills in.
    back: Backdrop,
}

/// The opaque backdrop the discs are drawn on: one colour inside a rectangle (the play area),
/// another around it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Backdrop {
    /// Columns `x0..x1` and rows `y0..y1` (canvas px, clipped) are inside.
    pub inside_box: (usize, usize, usize, usize),
    /// RGBA inside and around.
    pub inside: [u8; 4],
    pub outside: [u8; 4],
}

/// A disc to draw: centre x, y and radius (px), tint.
pub type Disc = (f32, f32, f32, [u8; 4]);

/// Rows per strip of [`Canvas::discs`]: a strip of a 1,000-px-wide canvas (128 KB) stays in
/// L2 while its discs are drawn.
const STRIP_ROWS: usize = 32;

/// Where the highlight is, relative to the centre in radii (screen y down: upper left).
const LIGHT: (f32, f32) = (-0.35, -0.35);

/// A ball's brightness at `(ux, uy)`, its offset from the centre in radii (screen y down):
/// 1 at the highlight, falling to 0.7 at the far rim. The CPU discs here and the quads'
/// circle texture (`sprites.rs`) both shade with it, so the two look alike.
#[inline(always)]
pub fn shade(ux: f32, uy: f32) -> f32 {
    let (lx, ly) = (ux - LIGHT.0, uy - LIGHT.1);
    let u2 = (lx * lx + ly * ly) * (1.0 / (1.35 * 1.35));
    1.0 - 0.3 * u2.min(1.0)
}

/// Packs R, G, B, A into a pixel.
#[inline(always)]
fn pack(r: f32, g: f32, b: f32, a: f32) -> u32 {
    (r as u8 as u32) | (g as u8 as u32) << 8 | (b as u8 as u32) << 16 | (a as u8 as u32) << 24
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

    /// Clears the rows not yet cleared before row `row` to the backdrop.
    fn clear_to(&mut self, row: usize) {
        let (w, h) = self.size;
        let row = row.min(h);
        let b = self.back;
        let (inside, outside) = (u32::from_le_bytes(b.inside), u32::from_le_bytes(b.outside));
        let (x0, x1, y0, y1) = b.inside_box;
        let (x1, y1) = (x1.min(w), y1.min(h));
        let x0 = x0.min(x1);
        for y in self.cleared..row {
            let line = &mut self.pixels[y * w..(y + 1) * w];
            if (y0..y1).contains(&y) {
                line[..x0].fill(outside);
                line[x0..x1].fill(inside);
                line[x1..].fill(outside);
            } else {
                line.fill(outside);
            }
        }
        self.cleared = self.cleared.max(row);
    }

    /// The pixels as bytes R, G, B, A, row by row.
    pub fn bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.pixels)
    }

    /// Clears to `w × h` filled with `back` and draws `discs` as [`Canvas::disc`] does, strip
    /// by strip: each disc with the strip of its top row, so the pixels written are near each
    /// other whatever order the discs come in (in index order, each disc's rows missed the
    /// cache), and rows cleared just before the first disc that reaches them. Within a strip
    /// the discs keep their order; a disc over one of an earlier strip is drawn after it too.
    pub fn discs(
        &mut self,
        (w, h): (usize, usize),
        back: Backdrop,
        discs: &[Disc],
        order: &mut Vec<u32>,
        starts: &mut Vec<u32>,
    ) {
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
    /// `(x, y)` covers `[x, x + 1) × [y, y + 1)`) of radius `r` px, tinted `rgba`. Parts
    /// outside the image are clipped; a radius that is not a positive finite number, or a
    /// centre that is not finite, draws nothing. Rows not yet cleared up to the last it
    /// reaches are cleared first.
    pub fn disc(&mut self, cx: f32, cy: f32, r: f32, rgba: [u8; 4]) {
        let (w, h) = self.size;
        if !(r > 0.0 && r < 1e6 && cx.is_finite() && cy.is_finite()) {
            return;
        }
        let reach = r + 0.5;
        let lo = |c: f32| (c - reach).floor().max(0.0);
        let hi = |c: f32, n: usize| (c + reach).ceil().min(n as f32).max(0.0);
        let (x0, x1) = (lo(cx) as usize, hi(cx, w) as usize);
        let (y0, y1) = (lo(cy) as usize, hi(cy, h) as usize);
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        self.clear_to(y1);
        let (outer, inner) = (reach * reach, (r - 0.5).max(0.0).powi(2));
        let inv_r = 1.0 / r;
        let [cr, cg, cb, ca] = rgba.map(|c| c as f32);
        let opaque = rgba[3] == 255;
        for y in y0..y1 {
            let dy = y as f32 + 0.5 - cy;
            let row = &mut self.pixels[y * w + x0..y * w + x1];
            for (px, x) in row.iter_mut().zip(x0..) {
                let dx = x as f32 + 0.5 - cx;
                let d2 = dx * dx + dy * dy;
                if d2 >= outer {
                    continue;
                }
                let shade = shade(dx * inv_r, dy * inv_r);
                let (r8, g8, b8) = (cr * shade, cg * shade, cb * shade);
                if d2 <= inner && opaque {
                    *px = pack(r8, g8, b8, 255.0);
                    continue;
                }
                // Coverage: 1 inside, 0 outside, linear over the last pixel.
                let cover = if d2 <= inner {
                    1.0
                } else {
                    (r - d2.sqrt() + 0.5).clamp(0.0, 1.0)
                };
                *px = blend(*px, [r8, g8, b8], cover * ca);
            }
        }
    }
}

/// Straight-alpha "over": `src` (0–255 channels) with alpha `a` (0–255) over `dst`.
#[inline(always)]
fn blend(dst: u32, src: [f32; 3], a: f32) -> u32 {
    let da = (dst >> 24) as f32;
    if a >= 255.0 || da == 0.0 {
        return pack(src[0], src[1], src[2], a);
    }
    let t = a * (1.0 / 255.0);
    let mix = |k: u32, s: f32| {
        let d = ((dst >> (8 * k)) & 0xff) as f32;
        d + (s - d) * t
    };
    pack(
        mix(0, src[0]),
        mix(1, src[1]),
        mix(2, src[2]),
        (a + da * (1.0 - t)).min(255.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alpha(c: &Canvas, x: usize, y: usize) -> u8 {
        c.bytes()[4 * (y * c.size.0 + x) + 3]
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
            .map(|k| c.bytes()[4 * k + 3] as f32 / 255.0)
            .sum();
        let want = std::f32::consts::PI * 25.0;
        assert!((covered - want).abs() < 0.03 * want, "{covered} vs {want}");
        // The highlight: upper left brighter than lower right.
        let red = |x: usize, y: usize| c.bytes()[4 * (y * 40 + x)];
        assert!(red(18, 13) > red(23, 18));
        assert!(red(18, 13) <= 200);
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
        let px = |c: &Canvas, x: usize, y: usize| {
            let k = 4 * (y * 10 + x);
            [
                c.bytes()[k],
                c.bytes()[k + 1],
                c.bytes()[k + 2],
                c.bytes()[k + 3],
            ]
        };
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
        let px = |x: usize| &c.bytes()[4 * (5 * 20 + x)..4 * (5 * 20 + x) + 4];
        // Inside the second disc: blue wins, opaque.
        assert_eq!(px(12)[0], 0);
        assert_eq!(px(12)[3], 255);
        // Inside the first only: red.
        assert!(px(4)[0] > 150 && px(4)[2] == 0);
    }
}
