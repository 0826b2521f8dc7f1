//! The solver view (Show: impulses): each soft contact of the last step
//! (`World::solver_contacts`) drawn from the ball's centre to its contact point, as thick as
//! its normal impulse (the square root of its share of the step's largest, so a heavy pile's
//! bottom stands out without hiding the light contacts). The colour comes from a function the
//! caller passes: [`by_kind`] now (ball–ball and ball–obstacle apart), the solver's constraint
//! colours or islands when contacts carry them.

use super::view::View;
use collide::world::{HitWith, SolverContact};
use collide::World;
use macroquad::prelude::*;

/// Thickest line (screen px), for the largest impulse.
const THICKEST: f32 = 7.0;
/// Contacts drawn at most (the first ones; a pile of 100,000 balls has about three each).
pub const MOST_CONTACTS: usize = 20_000;

/// A contact's colour by what it touches: another ball (white), an obstacle (orange).
pub fn by_kind(c: &SolverContact) -> Color {
    match c.other {
        HitWith::Ball(_) => Color::new(0.95, 0.95, 1.0, 0.85),
        HitWith::Shape(_) => Color::new(1.0, 0.6, 0.2, 0.9),
    }
}

/// Draws the last step's soft contacts, coloured by `colour`, with a line on the largest
/// impulse (nothing with the push-out: it keeps no contacts).
pub fn draw(view: &View, world: &World, colour: &dyn Fn(&SolverContact) -> Color) {
    let contacts = world.solver_contacts();
    let most = contacts.iter().map(|c| c.impulse).fold(0.0, f32::max);
    if most <= 0.0 {
        return;
    }
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
        draw_line(p.x, p.y, q.x, q.y, width, colour(c));
    }
    let (x, y, w, _) = view.rect();
    let line = format!(
        "Solver view: {} contacts, line width by normal impulse (largest {:.0})",
        contacts.len(),
        most
    );
    let at = (
        x + w - super::screen::text_width(&line, 15.0) - 20.0,
        y + 36.0,
    );
    super::screen::label(&line, at, 15.0, WHITE, view.rect());
}
