//! Drawing the world with macroquad: obstacles, balls and the overlays.

use super::fx::{Fx, HitKind, HIT_LIFE, LIGHT_LIFE};
use super::sprites::Sprites;
use super::view::View;
use crate::state::Show;
use collide::geom::{Hull, Outline};
use collide::rules::ShapePlay;
use collide::{Aabb, DebugDraw, Geometry, Motion, Prim, Rgba, Shape, Vec2, World};
use macroquad::prelude::*;
use std::f32::consts::TAU;

const BACKGROUND: Color = Color::new(0.06, 0.07, 0.09, 1.0);
const FIELD: Color = Color::new(0.09, 0.11, 0.14, 1.0);
const WALL: Color = Color::new(0.72, 0.80, 0.90, 1.0);
const KINEMATIC: Color = Color::new(1.0, 0.62, 0.20, 1.0);
const BUMPER: Color = Color::new(1.0, 0.35, 0.70, 1.0);
const GATE: Color = Color::new(0.35, 0.95, 0.50, 1.0);
const LIT: Color = Color::new(1.0, 1.0, 0.55, 1.0);

fn rgba(c: Rgba) -> Color {
    Color::new(c.0, c.1, c.2, c.3)
}

/// The play area on screen: top-left and bottom-right corners (px).
fn play_area(view: &View, world: &World) -> (Vec2, Vec2) {
    let b = world.bounds();
    (
        view.pt(Vec2::new(b.min.x, b.max.y)),
        view.pt(Vec2::new(b.max.x, b.min.y)),
    )
}

/// Per-ball overlays (boxes, velocity arrows, swept paths) are drawn for the first this many
/// balls only: one `draw_line` each is too slow for tens of thousands in software rendering.
pub const OVERLAY_BALLS: usize = 2000;

/// What the world is drawn with besides itself: the effects of its impacts, the overlays
/// asked for, and the heat map's tints when it is on.
pub struct Looks<'a> {
    /// Tracks, hit points, lights.
    pub fx: &'a Fx,
    /// The overlays to draw.
    pub show: &'a Show,
    /// A hue seed a ball, in place of its own colour (the heat map).
    pub tints: Option<&'a [u32]>,
}

/// Draws everything the Show toggles ask for, in back-to-front order; with many balls, lays
/// out the canvas of balls under everything else, for the caller to draw with
/// [`Sprites::draw_canvas`] before macroquad draws anything queued here. `tints`, when given,
/// colours each ball by that hue seed instead of its own (the heat map); the heat map's places
/// set on `sprites` ([`Sprites::set_heat`]) colour the balls and the backdrop under them.
pub fn world(view: &View, world: &World, looks: Looks, time: f32, sprites: &mut Sprites) {
    let Looks { fx, show, tints } = looks;
    let field = play_area(view, world);
    let tinted: Vec<collide::world::Ball>;
    let balls = match tints {
        Some(seeds) => {
            let recolour = |(b, &seed): (&collide::world::Ball, &u32)| {
                let mut b = *b;
                b.color = seed;
                b
            };
            tinted = world.balls().iter().zip(seeds).map(recolour).collect();
            &tinted[..]
        }
        None => world.balls(),
    };
    // The heat map's places, painted into the canvas under the balls, show through them
    // (see `heat_paint.rs`).
    let heat = sprites.heat();
    let colour = |b: &collide::world::Ball| {
        let c = if b.mass == 0.0 {
            FIELD
        } else {
            ball_color(b.color)
        };
        heat.as_ref().map_or(c, |h| h.ball_colour(c))
    };
    let asleep: Vec<bool> = world.asleep_each().collect();
    let rings = with_rings(balls, |i| asleep.get(i).copied().unwrap_or(false));
    sprites.prepare(view, &rings, colour, field, FIELD, BACKGROUND);
    if show.sectors {
        arc_sectors(view, world);
    }
    let mut structure = MqDraw::new(view);
    if show.aabbs {
        world.broad().debug_draw(&mut structure);
        boxes(view, world);
        hulls(view, world);
    }
    obstacles(view, world, fx, show.lights);
    super::pinball::draw_field(view, world);
    super::scene_draw::rules(view, world);
    launcher(view, world);
    if show.tracks {
        tracks(view, world, fx);
    }
    if show.sweeps {
        sweeps(view, world);
    }
    sprites.draw_quads();
    structure.draw_labels();
    if show.velocity {
        velocities(view, world);
    }
    hits(view, fx, show, time);
}

fn line(view: &View, a: Vec2, b: Vec2, width: f32, color: Color) {
    let (p, q) = (view.pt(a), view.pt(b));
    draw_line(p.x, p.y, q.x, q.y, width, color);
}

fn arc_points(c: Vec2, r: f32, start: f32, end: f32, view: &View) -> Vec<Vec2> {
    let n = ((view.len(r) * (end - start)) / 6.0).clamp(6.0, 160.0) as usize;
    (0..=n)
        .map(|i| c + Vec2::from_angle(start + (end - start) * i as f32 / n as f32) * r)
        .collect()
}

fn shape_color(s: &Shape, play: ShapePlay, light: f32) -> Color {
    let played = super::pinball::shape_color(s, play);
    let base = match (s.geom, s.motion) {
        _ if played.is_some() => played.unwrap_or(WALL),
        (Geometry::Gate { .. }, _) => GATE,
        (_, Motion::Kinematic { .. }) => KINEMATIC,
        _ if s.elasticity > 1.0 => BUMPER,
        _ => WALL,
    };
    let t = (light / LIGHT_LIFE).clamp(0.0, 1.0);
    Color::new(
        base.r + (LIT.r - base.r) * t,
        base.g + (LIT.g - base.g) * t,
        base.b + (LIT.b - base.b) * t,
        1.0,
    )
}

fn obstacles(view: &View, world: &World, fx: &Fx, lights: bool) {
    let w = view.len(3.0).clamp(1.5, 4.0);
    for (i, s) in world.shapes().iter().enumerate() {
        let light = if lights {
            fx.lights.get(i).copied().unwrap_or(0.0)
        } else {
            0.0
        };
        let color = shape_color(s, world.play().shape(i), light);
        shape(view, world, s, w, color);
        if let Motion::Kinematic { pivot, .. } = s.motion {
            let q = view.pt(pivot);
            draw_circle_lines(q.x, q.y, 3.0, 1.0, KINEMATIC);
        }
    }
}

/// One obstacle's outline; a group draws its members.
fn shape(view: &View, world: &World, s: &Shape, w: f32, color: Color) {
    match s.geom.outline() {
        Outline::Dot(p) => {
            let q = view.pt(p);
            let r = if s.guard_of.is_some() {
                w * 0.6
            } else {
                w * 1.2
            };
            draw_circle(q.x, q.y, r, color);
        }
        Outline::Line { a, b } => line(view, a, b, w, color),
        Outline::Disc { c, r } => {
            let q = view.pt(c);
            draw_circle(
                q.x,
                q.y,
                view.len(r),
                Color::new(color.r, color.g, color.b, 0.25),
            );
            draw_circle_lines(q.x, q.y, view.len(r), w, color);
        }
        Outline::Arc { c, r, start, end } => {
            for pair in arc_points(c, r, start, end, view).windows(2) {
                line(view, pair[0], pair[1], w, color);
            }
        }
        Outline::Gate { a, b, normal } => gate(view, a, b, normal, w, color),
        Outline::Polygon(corners) => polygon(view, &corners, w, color),
        Outline::Group(id) => {
            for m in world.group(id).map_or(&[][..], |g| &g.members) {
                shape(view, world, m, w, color);
            }
        }
    }
}

/// A closed convex outline, lightly filled (a fan of triangles from the first corner).
fn polygon(view: &View, corners: &[Vec2], w: f32, color: Color) {
    let q: Vec<_> = corners.iter().map(|&k| view.pt(k)).collect();
    let fill = Color::new(color.r, color.g, color.b, 0.25);
    for i in 1..q.len().saturating_sub(1) {
        draw_triangle(q[0], q[i], q[i + 1], fill);
    }
    for i in 0..corners.len() {
        line(view, corners[i], corners[(i + 1) % corners.len()], w, color);
    }
}

/// A dashed bar with an arrow showing the direction balls may pass (against the normal).
fn gate(view: &View, a: Vec2, b: Vec2, normal: Vec2, w: f32, color: Color) {
    let n = 8;
    for i in (0..n).step_by(2) {
        let (t0, t1) = (i as f32 / n as f32, (i + 1) as f32 / n as f32);
        line(view, a.lerp(b, t0), a.lerp(b, t1), w, color);
    }
    let mid = (a + b) * 0.5;
    let len = (b - a).length().clamp(10.0, 40.0) * 0.6;
    let tip = mid - normal * len;
    line(view, mid + normal * len * 0.3, tip, 1.5, color);
    let side = normal.perp() * len * 0.25;
    line(view, tip, tip + normal * len * 0.35 + side, 1.5, color);
    line(view, tip, tip + normal * len * 0.35 - side, 1.5, color);
}

fn launcher(view: &View, world: &World) {
    let l = world.launcher();
    let p = view.pt(l.pos);
    draw_circle_lines(
        p.x,
        p.y,
        view.len(world.settings().ball_radius).max(2.0),
        1.0,
        Color::new(1.0, 1.0, 1.0, 0.3),
    );
    if world.pending_launches() > 0 {
        // Beside the launch point, clear of the lane it sits in (four radii to its left, a
        // line above the floor), on a backdrop so that whatever lies under it stays readable.
        let text = format!("{} waiting", world.pending_launches());
        let w = super::screen::text_width(&text, 16.0) + 8.0;
        let r = view.len(world.settings().ball_radius.max(2.0));
        let at = (p.x - 4.0 * r - 4.0 - w, p.y - 2.0 * r - 24.0);
        super::screen::label(&text, at, 16.0, LIGHTGRAY, view.rect());
    }
}

fn arc_sectors(view: &View, world: &World) {
    for s in world.shapes() {
        if let Geometry::Arc { c, r, start, end } = s.geom {
            let pts = arc_points(c, r, start, end, view);
            let centre = view.pt(c);
            let fill = Color::new(0.3, 0.5, 0.9, 0.18);
            for pair in pts.windows(2) {
                draw_triangle(centre, view.pt(pair[0]), view.pt(pair[1]), fill);
            }
        }
    }
}

fn boxes(view: &View, world: &World) {
    let mut d = MqDraw::new(view);
    let shape_col = Rgba(0.5, 0.8, 1.0, 0.55);
    for s in world.shapes() {
        d.draw(Prim::Rect {
            aabb: s.aabb(),
            fill: None,
            stroke: Some(shape_col),
        });
    }
    // The balls' boxes as the broad phase last saw them: swept boxes in the tunnelling modes.
    let ball_col = Rgba(1.0, 1.0, 1.0, 0.45);
    let seen = world
        .last_aabbs()
        .get(world.shapes().len()..)
        .unwrap_or(&[]);
    for (k, b) in world.balls().iter().enumerate().take(OVERLAY_BALLS) {
        d.draw(Prim::Rect {
            aabb: seen.get(k).copied().unwrap_or_else(|| b.aabb()),
            fill: None,
            stroke: Some(ball_col),
        });
    }
}

/// The balls to draw: asleep balls (ball `i` sleeps when `asleep(i)`) as rings, as the
/// original toy draws them: each gets a disc of the field's colour over its centre (marked by
/// a zero mass; a ball's is positive).
fn with_rings(
    balls: &[collide::world::Ball],
    asleep: impl Fn(usize) -> bool,
) -> std::borrow::Cow<'_, [collide::world::Ball]> {
    if !(0..balls.len()).any(&asleep) {
        return std::borrow::Cow::Borrowed(balls);
    }
    let mut all = balls.to_vec();
    let sleepers = balls.iter().enumerate().filter(|(i, _)| asleep(*i));
    all.extend(sleepers.map(|(_, b)| {
        let mut hole = *b;
        hole.radius = b.radius * 0.55;
        hole.mass = 0.0;
        hole
    }));
    std::borrow::Cow::Owned(all)
}

/// Hue in 0..1 from a ball's colour seed, to an RGB colour.
pub fn ball_color(seed: u32) -> Color {
    let h = (seed % 3600) as f32 / 3600.0;
    let (s, l) = (0.75, 0.58);
    let c = (1.0 - (2.0 * l - 1.0_f32).abs()) * s;
    let hp = h * 6.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = l - c / 2.0;
    Color::new(r + m, g + m, b + m, 1.0)
}

fn tracks(view: &View, world: &World, fx: &Fx) {
    let balls = world.balls().iter().enumerate();
    let tracked = balls.filter_map(|(i, b)| Some((fx.tracks.get(&world.ball_id(i)?)?, b)));
    for (t, b) in tracked {
        let c = ball_color(b.color);
        let n = t.len().max(1) as f32;
        for (k, pair) in t.iter().zip(t.iter().skip(1)).enumerate() {
            let a = (k as f32 + 1.0) / n * 0.6;
            line(view, *pair.0, *pair.1, 1.5, Color::new(c.r, c.g, c.b, a));
        }
    }
}

fn velocities(view: &View, world: &World) {
    for b in world.balls().iter().take(OVERLAY_BALLS) {
        // Arrow length: where the ball will be in 0.05 s.
        let tip = b.pos + b.vel * 0.05;
        line(view, b.pos, tip, 1.5, YELLOW);
        let dir = (tip - b.pos).normalize_or_zero();
        let side = dir.perp() * view.len(1.0).recip() * 4.0;
        let back = tip - dir * view.len(1.0).recip() * 7.0;
        line(view, tip, back + side, 1.5, YELLOW);
        line(view, tip, back - side, 1.5, YELLOW);
    }
}

fn hits(view: &View, fx: &Fx, show: &Show, time: f32) {
    for h in &fx.hits {
        let fade = 1.0 - h.age / HIT_LIFE;
        let p = view.pt(h.point);
        if show.hit_points {
            draw_circle(p.x, p.y, 3.0, Color::new(1.0, 0.3, 0.3, fade));
        }
        if show.tangents {
            if let Some(t) = h.tangent {
                let d = Vec2::new(t.x, -t.y) * 18.0;
                draw_line(
                    p.x - d.x,
                    p.y - d.y,
                    p.x + d.x,
                    p.y + d.y,
                    1.5,
                    Color::new(0.4, 1.0, 1.0, fade),
                );
            }
        }
        if show.reticles {
            reticle(p, h.kind, time * 4.0 + h.age * 6.0, fade);
        }
    }
}

/// A spinning marker whose shape tells the collision type.
fn reticle(p: Vec2, kind: HitKind, spin: f32, fade: f32) {
    let (sides, color) = match kind {
        HitKind::Ball => (0, Color::new(1.0, 1.0, 1.0, fade)),
        HitKind::Segment => (4, Color::new(0.4, 0.9, 1.0, fade)),
        HitKind::Arc => (3, Color::new(1.0, 0.8, 0.3, fade)),
        HitKind::Round => (6, Color::new(1.0, 0.4, 0.9, fade)),
    };
    let r = 9.0;
    if sides == 0 {
        draw_circle_lines(p.x, p.y, r, 1.5, color);
    } else {
        draw_poly_lines(p.x, p.y, sides, r, spin.to_degrees(), 1.5, color);
    }
    for k in 0..4 {
        let d = Vec2::from_angle(spin + k as f32 * TAU / 4.0);
        draw_line(
            p.x + d.x * r * 0.5,
            p.y + d.y * r * 0.5,
            p.x + d.x * r * 1.4,
            p.y + d.y * r * 1.4,
            1.0,
            color,
        );
    }
}

/// The library's debug-draw primitives, drawn with macroquad: boxes and lines at once, the
/// texts kept for [`MqDraw::draw_labels`], over the balls.
pub struct MqDraw<'a> {
    /// The camera.
    view: &'a View,
    /// The texts drawn so far, to draw over the balls: anchor (px) and colour.
    labels: Vec<(Vec2, String, Rgba)>,
}

impl<'a> MqDraw<'a> {
    /// Draws through `view`.
    pub fn new(view: &'a View) -> Self {
        MqDraw {
            view,
            labels: Vec::new(),
        }
    }

    /// The texts, each on a backdrop inside the view (the anchor is the text's baseline), so
    /// a label over balls, walls or the view's edge stays readable.
    pub fn draw_labels(&mut self) {
        for (at, text, color) in self.labels.drain(..) {
            let (p, size) = (self.view.pt(at), 14.0);
            let top_left = (p.x - size * 0.25, p.y - size * (0.78 + 0.25));
            super::screen::label(&text, top_left, size, rgba(color), self.view.rect());
        }
    }
}

impl DebugDraw for MqDraw<'_> {
    fn draw(&mut self, prim: Prim) {
        match prim {
            Prim::Rect { aabb, fill, stroke } => rect(self.view, aabb, fill, stroke),
            Prim::Line { a, b, color } => line(self.view, a, b, 1.0, rgba(color)),
            Prim::Text { at, text, color } => self.labels.push((at, text, color)),
        }
    }
}

fn rect(view: &View, aabb: Aabb, fill: Option<Rgba>, stroke: Option<Rgba>) {
    let p = view.pt(Vec2::new(aabb.min.x, aabb.max.y));
    let size = aabb.size() * view.scale();
    if let Some(f) = fill {
        draw_rectangle(p.x, p.y, size.x, size.y, rgba(f));
    }
    if let Some(s) = stroke {
        draw_rectangle_lines(p.x, p.y, size.x.max(1.0), size.y.max(1.0), 1.0, rgba(s));
    }
}

/// The hull around each shape group, drawn with the boxes.
fn hulls(view: &View, world: &World) {
    let col = Color::new(0.75, 0.45, 1.0, 0.9);
    for s in world.shapes() {
        let Geometry::Group { hull, .. } = s.geom else {
            continue;
        };
        match hull {
            Hull::Rect(b) => {
                let p = view.pt(Vec2::new(b.min.x, b.max.y));
                let size = b.size() * view.scale();
                draw_rectangle_lines(p.x, p.y, size.x, size.y, 1.5, col);
            }
            Hull::Circle { c, r } => {
                let q = view.pt(c);
                draw_circle_lines(q.x, q.y, view.len(r), 1.5, col);
            }
        }
    }
}

/// Each ball's path in the last step (start, impacts, end) and the impacts found: the ball's
/// outline where it hit and a dot at the contact point. For the first [`OVERLAY_BALLS`] balls
/// only; one pass over the impacts (they are in the order answered), not one per ball.
fn sweeps(view: &View, world: &World) {
    let balls = world.balls();
    let n = balls
        .len()
        .min(world.step_starts().len())
        .min(OVERLAY_BALLS);
    let mut at = world.step_starts()[..n].to_vec();
    let colour = |b: &collide::world::Ball| {
        let c = ball_color(b.color);
        Color::new(c.r, c.g, c.b, 0.8)
    };
    let shown = |h: &&collide::world::SweptImpact| (h.ball as usize) < n;
    for hit in world.step_impacts().iter().filter(shown) {
        let (i, b) = (hit.ball as usize, &balls[hit.ball as usize]);
        line(view, at[i], hit.centre, 1.5, colour(b));
        let q = view.pt(hit.centre);
        draw_circle_lines(q.x, q.y, view.len(b.radius).max(2.0), 1.0, colour(b));
        at[i] = hit.centre;
    }
    for (b, from) in balls.iter().zip(&at) {
        line(view, *from, b.pos, 1.5, colour(b));
    }
    for hit in world.step_impacts().iter().filter(shown) {
        let p = view.pt(hit.point);
        draw_circle(p.x, p.y, 3.5, Color::new(1.0, 0.25, 0.2, 1.0));
    }
}
