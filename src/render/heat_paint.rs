//! The heat map as pixels: its places painted once into a grid of texels over the world
//! ([`HeatGrid`], remade when the heat changes, at most every half second), from which the
//! software path takes the colours into its CPU-drawn image of the balls (`splat.rs`)
//! instead of blending a texture over the view; the GPU path draws its runs of texels as
//! rectangles under the balls. The texels' edges are the places' edges, so the colours sit
//! exactly on the rectangles the broad phase draws (`BroadPhase::debug_draw`), which are the
//! ones it gives the heat at.
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
use macroquad::prelude::Color;

/// The heat's places painted into texels over the world; row 0 is the top (y up in the
/// world). The texels' edges are the places' own edges (every distinct x and y of them), so
/// each place covers whole texels and its colour ends exactly on its rectangle, whatever its
/// shape: the leaves of a quadtree (not square), sectors of four shifts, cells.
#[derive(Clone, Debug)]
pub struct HeatGrid {
    /// The texels' column edges and row edges (world px, ascending): column `c` spans
    /// `xs[c]..xs[c + 1]`, row `r` (from the top) `ys[h − r − 1]..ys[h − r]`.
    xs: Vec<f32>,
    ys: Vec<f32>,
    size: (usize, usize),
    /// Each texel's colour as RGBA bytes, opaque (alpha 0: no place there).
    texels: Vec<[u8; 4]>,
    /// How much of the heat shows through a ball (0..=1): the balls' opacity is `1 − weight`.
    pub weight: f32,
    /// Changes with every painting, for the images made from the grid.
    pub version: u64,
}

/// The distinct values of `v`, ascending.
fn edges(v: impl Iterator<Item = f32>) -> Vec<f32> {
    let mut e: Vec<f32> = v.filter(|x| x.is_finite()).collect();
    e.sort_by(f32::total_cmp);
    e.dedup();
    e
}

/// The span `lo..hi` of edges `e` from `a` to `b` (both among them).
fn span(e: &[f32], a: f32, b: f32) -> std::ops::Range<usize> {
    let at = |x: f32| e.partition_point(|&v| v < x);
    at(a)..at(b)
}

/// The texel of `x` among edges `e`, if inside them.
fn texel_of(e: &[f32], x: f32) -> Option<usize> {
    let k = e.partition_point(|&v| v <= x);
    (k >= 1 && k < e.len()).then(|| k - 1)
}

impl HeatGrid {
    /// `places` (box, opaque colour) painted in order, a later one over an earlier where they
    /// overlap, shown at `weight` through the balls; `None` without places.
    pub fn painted(places: &[(Aabb, Color)], weight: f32, version: u64) -> Option<HeatGrid> {
        let xs = edges(places.iter().flat_map(|p| [p.0.min.x, p.0.max.x]));
        let ys = edges(places.iter().flat_map(|p| [p.0.min.y, p.0.max.y]));
        let (w, h) = (xs.len().checked_sub(1)?, ys.len().checked_sub(1)?);
        if w == 0 || h == 0 {
            return None;
        }
        let mut texels = vec![[0u8; 4]; w * h];
        for &(r, c) in places {
            let rgba: [u8; 4] = c.into();
            let cols = span(&xs, r.min.x, r.max.x);
            // Rows from the top: the highest y first.
            let rows = span(&ys, r.min.y, r.max.y);
            for row in h - rows.end..h - rows.start {
                texels[row * w + cols.start..row * w + cols.end].fill(rgba);
            }
        }
        Some(HeatGrid {
            xs,
            ys,
            size: (w, h),
            texels,
            weight,
            version,
        })
    }

    /// The area covered (world px).
    #[cfg(test)]
    fn area(&self) -> Aabb {
        let (w, h) = self.size;
        Aabb::new(
            Vec2::new(self.xs[0], self.ys[0]),
            Vec2::new(self.xs[w], self.ys[h]),
        )
    }

    /// The texel's column of world x, if inside the grid.
    fn col(&self, x: f32) -> Option<usize> {
        texel_of(&self.xs, x)
    }

    /// The texel's row (from the top) of world y, if inside the grid.
    fn row(&self, y: f32) -> Option<usize> {
        texel_of(&self.ys, y).map(|k| self.size.1 - 1 - k)
    }

    /// The colour painted at world point `p`, if any place covers it.
    #[cfg(test)]
    fn at(&self, p: Vec2) -> Option<[u8; 4]> {
        let t = self.texels[self.row(p.y)? * self.size.0 + self.col(p.x)?];
        (t[3] > 0).then_some(t)
    }

    /// The painted texels as rectangles (world px) with their colours, a row's neighbours of
    /// one colour joined: what the GPU path draws under the balls.
    pub fn runs(&self) -> Vec<(Aabb, Color)> {
        let (w, h) = self.size;
        let mut out = Vec::new();
        for row in 0..h {
            let (y0, y1) = (self.ys[h - row - 1], self.ys[h - row]);
            let line = &self.texels[row * w..(row + 1) * w];
            let mut c = 0;
            while c < w {
                let t = line[c];
                let end = c + line[c..].iter().take_while(|&&u| u == t).count();
                if t[3] > 0 {
                    let r = Aabb::new(Vec2::new(self.xs[c], y0), Vec2::new(self.xs[end], y1));
                    out.push((r, Color::from_rgba(t[0], t[1], t[2], t[3])));
                }
                c = end;
            }
        }
        out
    }

    /// The colour `c` of a ball drawn over the heat: its opacity lowered to `1 − weight`.
    pub fn ball_colour(&self, c: Color) -> Color {
        Color::new(c.r, c.g, c.b, c.a * (1.0 - self.weight))
    }

    /// The heat over the backdrop of a canvas `size` px whose pixel `(0, 0)` has its top-left
    /// corner at screen point `at` (physical px, `s` per logical px) under `view`: the
    /// rectangle of the canvas the grid covers, each pixel the place's colour there, or the
    /// backdrop's (`back(x, y)`, BGRA as the canvas stores it) where there is no place.
    pub fn underlay(
        &self,
        view: &View,
        at: Vec2,
        s: f32,
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

    /// The field scene with the quadtree (3 levels over 960 × 704 px): its heat was painted
    /// in texels of half the leaves' shorter side (88 px), so the patches' edges fell at
    /// x = 264, 440, 704 instead of the leaf lines at 240, 480, 720, and the last column
    /// reached past the right wall to 968.
    #[test]
    fn field_quadtree_heat_covers_exactly_its_leaves() {
        let leaf = |c: usize, r: usize| {
            let min = Vec2::new(240.0 * c as f32, 176.0 * r as f32);
            Aabb::new(min, min + Vec2::new(240.0, 176.0))
        };
        let colour = |k: usize| Color::from_rgba(10 * k as u8, 200, 100, 255);
        let places: Vec<(Aabb, Color)> = (0..16).map(|k| (leaf(k % 4, k / 4), colour(k))).collect();
        let g = HeatGrid::painted(&places, 0.5, 1).unwrap();
        assert_eq!(g.area(), Aabb::new(Vec2::ZERO, Vec2::new(960.0, 704.0)));
        for (k, (r, c)) in places.iter().enumerate() {
            let want: [u8; 4] = (*c).into();
            let e = 0.01;
            for p in [
                r.min,
                r.max - e,
                Vec2::new(r.min.x, r.max.y - e),
                r.centre(),
            ] {
                assert_eq!(g.at(p), Some(want), "leaf {k} at {p}");
            }
        }
        // The strip x = 865..918 lies in the last column of leaves; nothing past the wall.
        assert_eq!(g.at(Vec2::new(890.0, 100.0)), Some(colour(3).into()));
        assert_eq!(g.at(Vec2::new(962.0, 100.0)), None);
        // Drawn as runs (the GPU path), each leaf is its own rectangle.
        let runs = g.runs();
        assert_eq!(runs.len(), 16);
        assert!(runs.iter().all(|(r, _)| places.iter().any(|p| p.0 == *r)));
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
        let view = View::fit(g.area(), Vec2::ZERO, Vec2::new(224.0, 134.0));
        let grey = u32::from_le_bytes([40, 40, 40, 255]);
        let u = g
            .underlay(&view, Vec2::ZERO, 1.0, (224, 134), |_, _| grey)
            .unwrap();
        let (x0, y0, w, h) = u.rect;
        assert_eq!(u.pixels.len(), w * h);
        let middle_row = &u.pixels[(h / 2) * w..(h / 2 + 1) * w];
        assert_eq!(middle_row[2], grey);
        assert_eq!(middle_row[w - 3].to_le_bytes(), [0, 0, 255, 255]);
        assert!(x0 > 0 && y0 > 0, "{:?}", u.rect);
    }
}
