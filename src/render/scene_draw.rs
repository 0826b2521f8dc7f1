//! Drawing what a scene adds to the table: pockets (dark holes, under the balls) and the
//! pendulum strings (a line from each anchor to its ball, the anchor marked).

use super::view::View;
use collide::World;
use macroquad::prelude::*;

const POCKET: Color = Color::new(0.01, 0.01, 0.02, 1.0);
const POCKET_RIM: Color = Color::new(0.35, 0.30, 0.22, 1.0);
const STRING: Color = Color::new(0.85, 0.85, 0.80, 0.9);

/// Pockets and strings; call after the obstacles and before the balls.
pub fn rules(view: &View, world: &World) {
    for p in &world.rules().pockets {
        let c = view.pt(p.centre);
        let r = view.len(p.radius);
        draw_circle(c.x, c.y, r, POCKET);
        draw_circle_lines(c.x, c.y, r, 1.5, POCKET_RIM);
    }
    for t in &world.rules().tethers {
        let Ok(b) = world.ball(t.ball) else {
            continue;
        };
        let (a, p) = (view.pt(t.anchor), view.pt(b.pos));
        draw_line(a.x, a.y, p.x, p.y, 1.5, STRING);
        draw_circle(a.x, a.y, 3.0, STRING);
    }
}
