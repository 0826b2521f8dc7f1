//! Sweep and prune drawn: the sweep axis along the world's bottom edge (x) or left edge (y),
//! just inside it (outside, the view's edge and the panels around it would hide it), each
//! box's interval on it in one of a few rows (red where the box is in a pair), the axis's
//! label beside that strip, and the band boundaries across the world.

use super::Sap;
use crate::debug_draw::{DebugDraw, Prim, Rgba};
use glam::Vec2;

/// Rows the projected intervals are spread over, 3 px apart from 8 px inside the world's edge;
/// the strip ends at [`STRIP`] px, its label [`LABEL_INSET`] px on.
const DRAW_ROWS: usize = 8;
const STRIP: f32 = 8.0 + 3.0 * DRAW_ROWS as f32;
const LABEL_INSET: f32 = 6.0;

impl Sap {
    /// The sweep axis with each box's interval on it, and the band boundaries across the world.
    pub(super) fn draw_structure(&self, draw: &mut dyn DebugDraw) {
        let (w, axis) = (self.world, self.axis);
        // The sweep axis runs along the world's bottom edge (x) or left edge (y), just inside
        // (outside it, the view's edge and the panels around it would hide it), its label
        // beside the strip of intervals.
        let place = |along: f32, offset: f32| match axis {
            0 => Vec2::new(along, w.min.y + offset),
            _ => Vec2::new(w.min.x + offset, along),
        };
        let grey = Rgba(0.7, 0.7, 0.7, 0.8);
        let (lo, hi) = (w.min[axis], w.max[axis]);
        draw.draw(Prim::Line {
            a: place(lo, 4.0),
            b: place(hi, 4.0),
            color: grey,
        });
        draw.draw(Prim::Text {
            at: place(lo + LABEL_INSET, STRIP + LABEL_INSET),
            text: format!("sweep {}", ["x", "y"][axis]),
            color: grey,
        });
        // Band boundaries across the world (the first few dozen).
        let bands = self.bands;
        for k in 1..bands.count.min(64) {
            let at = bands.lo + k as f32 / bands.per_px;
            let (a, b) = match axis {
                0 => (Vec2::new(w.min.x, at), Vec2::new(w.max.x, at)),
                _ => (Vec2::new(at, w.min.y), Vec2::new(at, w.max.y)),
            };
            draw.draw(Prim::Line {
                a,
                b,
                color: Rgba(0.7, 0.7, 0.7, 0.35),
            });
        }
        for (k, iv) in self.intervals.iter().enumerate() {
            let offset = 8.0 + 3.0 * (k % DRAW_ROWS) as f32;
            let color = match (iv.in_pair, iv.ball) {
                (true, _) => Rgba(1.0, 0.45, 0.3, 1.0),
                (false, true) => Rgba(0.4, 0.8, 1.0, 0.5),
                (false, false) => Rgba(0.6, 0.6, 0.6, 0.4),
            };
            draw.draw(Prim::Line {
                a: place(iv.lo, offset),
                b: place(iv.hi, offset),
                color,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::broad::{BroadInput, BroadPhase};
    use crate::debug_draw::Recorder;
    use crate::geom::Aabb;

    /// Drawn below the world, the strip lay under the app's record bar and its label over the
    /// wall: every line of it is inside the world box now, its label beyond the strip.
    #[test]
    fn sweep_strip_and_its_label_are_drawn_inside_the_world() {
        let world = Aabb::new(Vec2::ZERO, Vec2::splat(100.0));
        let boxes: Vec<Aabb> = (0..6)
            .map(|k| Aabb::around(Vec2::new(10.0 + 12.0 * k as f32, 50.0), 4.0))
            .collect();
        let input = BroadInput {
            aabbs: &boxes,
            first_moving: 1,
            first_dynamic: 1,
            statics_version: 1,
            world,
        };
        for (axis, param) in [(0, 1.0), (1, 2.0)] {
            let mut sap = Sap::default();
            sap.set_param("axis", param).unwrap();
            sap.find_pairs(&input, &mut Vec::new(), &mut Default::default());
            let mut rec = Recorder::default();
            sap.debug_draw(&mut rec);
            let mut labels = 0;
            for prim in &rec.prims {
                match prim {
                    Prim::Line { a, b, .. } => {
                        assert!(world.contains(*a) && world.contains(*b), "{prim:?}")
                    }
                    Prim::Text { at, .. } => {
                        assert!(world.contains(*at) && at[1 - axis] > STRIP, "{prim:?}");
                        labels += 1;
                    }
                    Prim::Rect { .. } => {}
                }
            }
            assert_eq!(labels, 1);
        }
    }
}
