//! The heat map: the broad phase's places (quadtree leaves, sectors of each shift, the grid's
//! cells, the adjacent method's sectors) coloured by the AABB tests they cost over the last
//! simulated second, from the world's probe (`World::probe`, `world/probing.rs`), with a
//! legend and the hottest place's count. Algorithms without fixed places (brute force, RDC,
//! the sweep, the tree) colour the balls by their own tests instead ([`ball_tints`]).
//!
//! Each place is coloured on the rectangle the probe gives it, the one the broad phase draws
//! for it (`BroadPhase::debug_draw`): one source, so the heat sits on the drawn structure.
//!
//! Cheap to draw: the places are summed once per simulated second (the heat changes only
//! then; the second in progress at most every half second) and painted into a grid of
//! texels whose edges are the places' edges ([`HeatCache`], `heat_paint.rs`), which goes
//! under the balls (`sprites.rs`): on the software path into the CPU-drawn image of the
//! balls, so a frame blends nothing; on the GPU path as rectangles over the backdrop. The
//! balls are drawn over it half transparent, however many places.

use super::heat_paint::HeatGrid;
use super::view::View;
use collide::broad::{Place, Visit};
use collide::world::ProbeRecord;
use collide::{Aabb, BroadKind};
use macroquad::prelude::*;
use std::collections::HashMap;
use std::rc::Rc;

/// Whether `kind`'s heat is drawn on its places (else on the balls): whether it declares
/// places (`BroadInfo::places`).
pub fn on_places(kind: BroadKind) -> bool {
    kind.describe().places.is_some()
}

/// The places to draw, summed, for the heat last read.
#[derive(Default)]
pub struct HeatCache {
    /// What the places were made from: the calls summed, whether complete, the algorithm.
    key: Option<(u64, bool, BroadKind, u64)>,
    /// When they were made (s, the app's clock): the second in progress is painted again at
    /// most every [`REPAINT`] s, a complete one once.
    places: Vec<(Aabb, u64)>,
    hottest: u64,
    /// Tests of places not drawn (internal nodes: the quadtree's descent).
    undrawn: u64,
    /// The places painted.
    grid: Option<Rc<HeatGrid>>,
    painted_at: f64,
    /// Paintings so far (each grid's version).
    paintings: u64,
}

/// Seconds between paintings of the second in progress.
const REPAINT: f64 = 0.5;

impl HeatCache {
    /// The places painted, brought up to date with `rec` for `kind` (`now`: the app's clock,
    /// s); `None` for an algorithm without places, or before any.
    pub fn grid(&mut self, rec: &ProbeRecord, kind: BroadKind, now: f64) -> Option<Rc<HeatGrid>> {
        if !on_places(kind) {
            return None;
        }
        self.update(rec, kind, now);
        self.grid.clone()
    }

    /// Brings the places up to date with `rec` for `kind` (once per simulated second).
    fn update(&mut self, rec: &ProbeRecord, kind: BroadKind, now: f64) {
        let heat = rec.heat();
        let key = (heat.calls, rec.heat_complete(), kind, heat.place_tests());
        let fresh = self.key.is_some_and(|k| k.1 == key.1 && k.2 == kind);
        if self.key == Some(key) || (fresh && !key.1 && now - self.painted_at < REPAINT) {
            return;
        }
        (self.key, self.painted_at) = (Some(key), now);
        let mut by_rect: HashMap<[u32; 4], (Aabb, u64)> = HashMap::new();
        self.undrawn = 0;
        for v in heat.places() {
            match drawn_rect(&v) {
                Some(r) => by_rect.entry(bits(&r)).or_insert((r, 0)).1 += v.tests,
                None => self.undrawn += v.tests,
            }
        }
        self.places = by_rect.into_values().collect();
        self.places.sort_by_key(|p| p.1);
        self.hottest = self.places.last().map_or(0, |p| p.1);
        let alpha = kind.describe().places.map_or(0.5, |p| p.heat_alpha);
        let coloured: Vec<(Aabb, Color)> = (self.places.iter())
            .map(|&(r, t)| (r, ramp(level(t, self.hottest), 1.0)))
            .collect();
        self.paintings += 1;
        self.grid = HeatGrid::painted(&coloured, alpha, self.paintings).map(Rc::new);
    }
}

fn bits(r: &Aabb) -> [u32; 4] {
    [r.min.x, r.min.y, r.max.x, r.max.y].map(f32::to_bits)
}

/// Where a place's heat is drawn: leaves, sectors, cells and blocks (at their centre sector)
/// on the rectangle the probe gives them (a cell's ball and obstacle tests together);
/// internal nodes not at all.
fn drawn_rect(v: &Visit) -> Option<Aabb> {
    match v.place {
        Place::Leaf | Place::Sector(_) | Place::Cell | Place::ObstacleCell | Place::Block => {
            Some(v.rect)
        }
        Place::Node | Place::Cluster | Place::Interval => None,
    }
}

/// The colour of `t` in 0..=1 on the heat ramp: dark blue, through red, to yellow.
pub fn ramp(t: f32, alpha: f32) -> Color {
    let t = t.clamp(0.0, 1.0);
    let (r, g, b) = if t < 0.5 {
        let u = t * 2.0;
        (0.15 + 0.85 * u, 0.1 + 0.1 * u, 0.55 - 0.45 * u)
    } else {
        let u = (t - 0.5) * 2.0;
        (1.0, 0.2 + 0.75 * u, 0.1 + 0.3 * u)
    };
    Color::new(r, g, b, alpha)
}

/// `tests` against `hottest` on a square-root scale (one hot cell does not wash out the
/// rest), 0..=1.
pub fn level(tests: u64, hottest: u64) -> f32 {
    if hottest == 0 {
        0.0
    } else {
        (tests as f32 / hottest as f32).sqrt()
    }
}

/// Draws the heat map's legend for `rec` and `kind`: the places are under the balls (from
/// [`HeatCache::grid`], `sprites.rs`), and for the algorithms that colour the balls, the balls
/// are tinted by [`ball_tints`].
pub fn draw(view: &View, rec: &ProbeRecord, kind: BroadKind, cache: &mut HeatCache) {
    let per = if rec.heat_complete() {
        "last second"
    } else {
        "so far"
    };
    if let Some(places) = kind.describe().places {
        cache.update(rec, kind, get_time());
        let place = places.word;
        let mut lines = vec![format!(
            "Heat: box tests per {place}, {per}; hottest {}",
            crate::advice::thousands(cache.hottest)
        )];
        if cache.undrawn > 0 {
            lines.push(format!(
                "node tests of the descent (not drawn): {}",
                crate::advice::thousands(cache.undrawn)
            ));
        }
        legend(view, &lines);
    } else {
        let hottest = rec.ball_heat().iter().copied().max().unwrap_or(0);
        let lines = [format!(
            "Heat: each ball coloured by its own box tests, {per}; hottest ball {}",
            crate::advice::thousands(hottest)
        )];
        legend(view, &lines);
    }
}

/// The colour seeds (`draw::ball_color`'s hue) of each ball by its own tests, for the
/// algorithms without places: cold blue to hot red.
pub fn ball_tints(rec: &ProbeRecord, balls: usize) -> Vec<u32> {
    let heat = rec.ball_heat();
    let hottest = heat.iter().copied().max().unwrap_or(0);
    (0..balls)
        .map(|i| {
            let t = level(heat.get(i).copied().unwrap_or(0), hottest);
            // Hue 240° (blue) for none, 0° (red) for the hottest.
            ((1.0 - t) * 2400.0) as u32
        })
        .collect()
}

/// The legend at the view's bottom left: the ramp, and the lines above it.
fn legend(view: &View, lines: &[String]) {
    let (x, y, w, h) = view.rect();
    let (x0, y0) = (x + 10.0, y + h - 18.0);
    let steps = 40;
    for k in 0..steps {
        let c = ramp(k as f32 / (steps - 1) as f32, 1.0);
        draw_rectangle(x0 + k as f32 * 4.0, y0, 4.0, 10.0, c);
    }
    super::screen::text("0", x0, y0 - 3.0, 14.0, LIGHTGRAY);
    super::screen::text(
        "hottest",
        x0 + 4.0 * steps as f32 - 40.0,
        y0 - 3.0,
        14.0,
        LIGHTGRAY,
    );
    // A line wider than the view is set smaller or broken, not run under the panels.
    let laid: Vec<(f32, String)> = (lines.iter())
        .flat_map(|l| {
            let (size, parts) = super::screen::fitted(l, 15.0, 11.0, w - 28.0);
            parts.into_iter().map(move |p| (size, p))
        })
        .collect();
    for (k, (size, line)) in laid.iter().rev().enumerate() {
        let at = (x0, y0 - 40.0 - 22.0 * k as f32);
        super::screen::label(line, at, *size, WHITE, view.rect());
    }
}
