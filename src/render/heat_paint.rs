//! The heat map as pixels: its places painted once into a grid of texels over the world
//! ([`HeatGrid`], remade when the heat changes, at most every half second), from which the
//! software path takes the colours into its CPU-drawn image of the balls (`splat.rs`)
//! instead of blending a texture over the view; the GPU path draws it as a texture under the
//! balls.
//!
//! Why: in llvmpipe a texture blended over the whole table costs its every pixel each frame
//! (the frame took several milliseconds longer to present with it). Painted into the image,
//! the heat costs almost nothing a frame: the backdrop under the balls is copied from an
//! image of the heat's colours ([`Underlay`], remade only when the heat or the view changes),
//! and the balls are drawn over it with the opacity `1 − weight`. Inside a ball that gives
//! `(1 − weight) · ball + weight · heat`, what the heat blended over the ball at its weight
//! gave; between the balls the places show in their own colours. (Mixing each ball's tint
//! with the heat at its centre instead cost a look-up per ball, about half a millisecond a
//! frame for 10,000 balls.)

use super::splat::Underlay;
use super::view::View;
use collide::{Aabb, Vec2};
use macroquad::prelude::{Color, FilterMode, Image, Texture2D};

/// Most texels a side of the grid.
const MOST_TEXELS: f32 = 512.0;

/// The heat's places painted into texels over the world, a texel per half of the smallest
/// place (or coarser, at most [`MOST_TEXELS`] a side); row 0 is the top (y up in the world).
#[derive(Clone, Debug)]
pub struct HeatGrid {
    /// The area covered (world px) and the side of a texel (px).
    pub area: Aabb,
    texel: f32,
    size: (usize, usize),
    /// Each texel's colour as RGBA bytes, opaque (alpha 0: no place there).
    texels: Vec<[u8; 4]>,
    /// How much of the heat shows through a ball (0..=1): the balls' opacity is `1 − weight`.
    pub weight: f32,
    /// Changes with every painting, for the images made from the grid.
    pub version: u64,
}

impl HeatGrid {
    /// `places` (box, opaque colour) painted in order, a later one over an earlier where they
    /// overlap, shown at `weight` through the balls; `None` without places.
    pub fn painted(places: &[(Aabb, Color)], weight: f32, version: u64) -> Option<HeatGrid> {
        let area = places.iter().map(|p| p.0).reduce(|a, b| a.merged(&b))?;
        let smallest = places
            .iter()
            .map(|p| p.0.size().min_element())
            .fold(f32::INFINITY, f32::min);
        let texel = (smallest / 2.0)
            .max(area.size().max_element() / MOST_TEXELS)
            .max(0.5);
        let (w, h) = (
            (area.size().x / texel).ceil().max(1.0) as usize,
            (area.size().y / texel).ceil().max(1.0) as usize,
        );
        let mut texels = vec![[0u8; 4]; w * h];
        for &(r, c) in places {
            let x0 = ((r.min.x - area.min.x) / texel).round() as usize;
            let x1 = (((r.max.x - area.min.x) / texel).round() as usize).max(x0 + 1);
            let y0 = ((area.max.y - r.max.y) / texel).round() as usize;
            let y1 = (((area.max.y - r.min.y) / texel).round() as usize).max(y0 + 1);
            let rgba: [u8; 4] = c.into();
            for y in y0..y1.min(h) {
                texels[y * w + x0.min(w)..y * w + x1.min(w)].fill(rgba);
            }
        }
        Some(HeatGrid {
            area,
            texel,
            size: (w, h),
            texels,
            weight,
            version,
        })
    }

    /// The texel's column of world x, if inside the grid.
    fn col(&self, x: f32) -> Option<usize> {
        let c = ((x - self.area.min.x) / self.texel).floor();
        (c >= 0.0 && c < self.size.0 as f32).then_some(c as usize)
    }

    /// The texel's row of world y, if inside the grid.
    fn row(&self, y: f32) -> Option<usize> {
        let r = ((self.area.max.y - y) / self.texel).floor();
        (r >= 0.0 && r < self.size.1 as f32).then_some(r as usize)
    }

    /// The colour `c` of a ball drawn over the heat: its opacity lowered to `1 − weight`.
    pub fn ball_colour(&self, c: Color) -> Color {
        Color::new(c.r, c.g, c.b, c.a * (1.0 - self.weight))
    }

    /// The grid as a texture to draw under the balls (the GPU path): the places opaque.
    pub fn texture(&self) -> Texture2D {
        let (w, h) = self.size;
        let mut img = Image::gen_image_color(w as u16, h as u16, Color::new(0.0, 0.0, 0.0, 0.0));
        for (k, t) in self.texels.iter().enumerate() {
            img.set_pixel(
                (k % w) as u32,
                (k / w) as u32,
                Color::from_rgba(t[0], t[1], t[2], t[3]),
            );
        }
        let tex = Texture2D::from_image(&img);
        tex.set_filter(FilterMode::Nearest);
        tex
    }

    /// The heat over the backdrop of a canvas `size` px whose pixel `(0, 0)` has its top-left
    /// corner at screen point `at` (physical px, `s` per logical px) under `view`: the
    /// rectangle of the canvas the grid covers, each pixel the place's colour there, or the
    /// backdrop's (`back(x, y)`, BGRA as the canvas stores it) where there is no place.
    pub fn underlay(
        &self,
        view: &View,
        (at, s): (Vec2, f32),
        size: (usize, usize),
        back: impl Fn(usize, usize) -> u32,
    ) -> Option<Underlay> {
        // The mapping is separable: a column's world x and a row's world y.
        let world = |cx: f32, cy: f32| view.to_world(Vec2::new(cx, cy) / s + at / s);
        let cols: Vec<Option<usize>> = (0..size.0)
            .map(|x| self.col(world(x as f32 + 0.5, 0.0).x))
            .collect();
        let rows: Vec<Option<usize>> = (0..size.1)
            .map(|y| self.row(world(0.0, y as f32 + 0.5).y))
            .collect();
        let span = |v: &[Option<usize>]| {
            let first = v.iter().position(Option::is_some)?;
            let last = v.iter().rposition(Option::is_some)?;
            Some(first..last + 1)
        };
        let (xs, ys) = (span(&cols)?, span(&rows)?);
        let mut pixels = Vec::with_capacity(xs.len() * ys.len());
        for y in ys.clone() {
            for x in xs.clone() {
                let under = back(x, y);
                let heat = rows[y]
                    .zip(cols[x])
                    .map(|(r, c)| self.texels[r * self.size.0 + c]);
                pixels.push(match heat {
                    Some([r, g, b, a]) if a > 0 => u32::from_le_bytes([b, g, r, 255]),
                    _ => under,
                });
            }
        }
        Some(Underlay {
            rect: (xs.start, ys.start, xs.len(), ys.len()),
            pixels,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid() -> HeatGrid {
        // Two 10 px cells side by side: no place on the left, a red one on the right.
        let red = Color::new(1.0, 0.0, 0.0, 1.0);
        let none = Color::new(0.0, 0.0, 0.0, 0.0);
        let places = [
            (Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0)), none),
            (Aabb::new(Vec2::new(10.0, 0.0), Vec2::new(20.0, 10.0)), red),
        ];
        HeatGrid::painted(&places, 0.5, 1).unwrap()
    }

    #[test]
    fn a_ball_over_the_heat_shows_it_through_by_its_weight() {
        let blue = Color::new(0.0, 0.0, 1.0, 1.0);
        assert_eq!(grid().ball_colour(blue), Color::new(0.0, 0.0, 1.0, 0.5));
    }

    #[test]
    fn the_underlay_is_the_places_colours_and_the_backdrop_where_there_is_none() {
        let g = grid();
        // The world 0..20 × 0..10 fitted into a screen area; the canvas over that area.
        let view = View::fit(g.area, Vec2::ZERO, Vec2::new(224.0, 134.0));
        let grey = u32::from_le_bytes([40, 40, 40, 255]);
        let u = g
            .underlay(&view, (Vec2::ZERO, 1.0), (224, 134), |_, _| grey)
            .unwrap();
        let (x0, y0, w, h) = u.rect;
        assert_eq!(u.pixels.len(), w * h);
        let middle_row = &u.pixels[(h / 2) * w..(h / 2 + 1) * w];
        assert_eq!(middle_row[2], grey);
        assert_eq!(middle_row[w - 3].to_le_bytes(), [0, 0, 255, 255]);
        assert!(x0 > 0 && y0 > 0, "{:?}", u.rect);
    }
}
