//! The solver view (Show: impulses): each soft contact of the last step
//! (`World::solver_contacts`) drawn from the ball's centre to its contact point, as thick as
//! its normal impulse (the square root of its share of the step's largest, so a heavy pile's
//! bottom stands out without hiding the light contacts). Coloured three ways
//! ([`Colouring`]): by what the contact touches; by the constraint colour the solver gave it
//! (Box2D's samples draw the same: each colour is a set of contacts that share no ball and
//! are solved together, eight lanes at a time); or by island (`World::islands`: the balls
//! that would fall asleep together), with each island's box drawn around it.

use super::view::View;
use crate::state::Colouring;
use collide::world::{ConstraintColour, ContactWith, Island, SolverContact};
use collide::{Aabb, World};
use macroquad::prelude::*;
use std::collections::HashMap;

/// Thickest line (screen px), for the largest impulse.
const THICKEST: f32 = 7.0;
/// Contacts drawn at most (the first ones; a pile of 100,000 balls has about three each).
pub const MOST_CONTACTS: usize = 20_000;
/// Island boxes drawn at most (the largest first).
const MOST_ISLANDS: usize = 400;

/// A contact's colour in one of the three colourings.
type ContactColour = Box<dyn Fn(&SolverContact) -> Color>;

/// Draws the last step's soft contacts coloured as `how` says, with a line saying what the
/// colours mean (nothing with the push-out: it keeps no contacts).
pub fn draw(view: &View, world: &World, how: Colouring) {
    let contacts = world.solver_contacts();
    let most = contacts.iter().map(|c| c.impulse).fold(0.0, f32::max);
    if most <= 0.0 {
        return;
    }
    let lined: (String, ContactColour) = match how {
        Colouring::Kind => (
            "white: ball–ball, orange: ball–obstacle".into(),
            Box::new(by_kind),
        ),
        Colouring::Colours => (colours_line(&contacts), Box::new(|c| by_colour(c.colour))),
        Colouring::Islands => {
            let islands = world.islands();
            let line = draw_islands(view, world, &islands);
            let colour =
                move |c: &SolverContact| islands.get(c.ball).map_or(GRAY, |&i| island_colour(i));
            (line, Box::new(colour))
        }
    };
    let (line, colour) = lined;
    let balls = world.balls();
    for c in contacts
        .iter()
        .take(MOST_CONTACTS)
        .filter(|c| c.impulse > 0.0)
    {
        let Some(b) = balls.get(c.ball) else {
            continue;
        };
        let width = 0.5 + THICKEST * (c.impulse / most).sqrt();
        let (p, q) = (view.pt(b.pos), view.pt(c.point));
        // A dark rim first, so the colour reads over balls of every colour.
        draw_line(
            p.x,
            p.y,
            q.x,
            q.y,
            width + 2.0,
            Color::new(0.0, 0.0, 0.0, 0.7),
        );
        draw_line(p.x, p.y, q.x, q.y, width, colour(c));
    }
    let (x, y, w, _) = view.rect();
    let head = format!(
        "Solver view: {} contacts, width by normal impulse (largest {:.0})",
        contacts.len(),
        most
    );
    for (k, text) in [head, line].iter().enumerate() {
        let at = (
            x + w - super::screen::text_width(text, 15.0) - 20.0,
            y + 36.0 + 26.0 * k as f32,
        );
        super::screen::label(text, at, 15.0, WHITE, view.rect());
    }
}

/// A contact's colour by what it touches: another ball (white), an obstacle (orange).
pub fn by_kind(c: &SolverContact) -> Color {
    match c.other {
        ContactWith::Ball(_) => Color::new(0.95, 0.95, 1.0, 0.85),
        ContactWith::Shape(_) => Color::new(1.0, 0.6, 0.2, 0.9),
    }
}

/// A constraint colour's colour: the ball colours around the hue circle, the obstacle
/// colours paler, the overflow red.
pub fn by_colour(c: ConstraintColour) -> Color {
    match c {
        ConstraintColour::Balls(k) => hue(k as u32, 0.85, 1.0),
        ConstraintColour::Obstacles(k) => hue(k as u32 + 7, 0.35, 1.0),
        ConstraintColour::Overflow => Color::new(1.0, 0.1, 0.1, 1.0),
    }
}

/// An island's colour: awake islands bright, sleeping ones dim.
pub fn island_colour(i: Island) -> Color {
    match i {
        Island::Awake(k) => hue(k, 0.8, 1.0),
        Island::Asleep(k) => hue(k, 0.5, 0.55),
    }
}

/// The `k`th of a sequence of well-spread hues (golden-angle steps), with saturation `s`
/// and value `v`.
fn hue(k: u32, s: f32, v: f32) -> Color {
    let h = (k as f32 * 0.618_034).fract() * 6.0;
    let f = h.fract();
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)));
    let (r, g, b) = match h as u32 {
        0 => (v, t, p),
        1 => (q, v, p),
        2 => (p, v, t),
        3 => (p, q, v),
        4 => (t, p, v),
        _ => (v, p, q),
    };
    Color::new(r, g, b, 0.9)
}

/// What the colours mean, with the count of each kind.
fn colours_line(contacts: &[SolverContact]) -> String {
    let (mut balls, mut obstacles, mut overflow) = (0u64, 0u64, 0usize);
    for c in contacts {
        match c.colour {
            ConstraintColour::Balls(k) => balls |= 1 << k,
            ConstraintColour::Obstacles(k) => obstacles |= 1 << k,
            ConstraintColour::Overflow => overflow += 1,
        }
    }
    format!(
        "{} ball colours (bright), {} obstacle colours (pale, solved last), {} in the overflow (red)",
        balls.count_ones(),
        obstacles.count_ones(),
        overflow
    )
}

/// Draws a box around each island of two balls or more (the largest first) and says how
/// many there are.
fn draw_islands(view: &View, world: &World, islands: &[Island]) -> String {
    let mut boxes: HashMap<Island, (Aabb, u32)> = HashMap::new();
    for (b, &i) in world.balls().iter().zip(islands) {
        let e = boxes.entry(i).or_insert((b.aabb(), 0));
        e.0 = e.0.merged(&b.aabb());
        e.1 += 1;
    }
    let mut list: Vec<_> = boxes.into_iter().collect();
    // The largest first; equal sizes in the islands' order, the same every frame.
    list.sort_by_key(|(i, (_, n))| (std::cmp::Reverse(*n), *i));
    let asleep = list
        .iter()
        .filter(|(i, _)| matches!(i, Island::Asleep(_)))
        .count();
    for (i, (bx, _)) in list.iter().filter(|e| e.1 .1 > 1).take(MOST_ISLANDS) {
        let (a, b) = (view.pt(bx.min), view.pt(bx.max));
        let (x0, y0) = (a.x.min(b.x), a.y.min(b.y));
        let (w, h) = ((a.x - b.x).abs(), (a.y - b.y).abs());
        draw_rectangle_lines(x0, y0, w, h, 1.5, island_colour(*i));
    }
    let largest = list.first().map_or(0, |e| e.1 .1);
    format!(
        "{} islands ({} asleep, dim), the largest {} balls; a box around each",
        list.len(),
        asleep,
        largest
    )
}
