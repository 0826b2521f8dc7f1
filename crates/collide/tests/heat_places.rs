//! The heat map's places are the structure's own rectangles: every place a broad phase gives
//! heat to (`Probe::heat`, summed by the world's probe) is a rectangle its `debug_draw` draws,
//! either as a box or as a cell of a lattice it draws, so a heat map coloured from them sits on
//! the drawn leaves, sectors and cells. Found on the field scene with the quadtree, whose heat
//! patches were painted off its leaf lines.

use collide::broad::{Place, Visit};
use collide::world::ProbeAsk;
use collide::{Aabb, BroadKind, DebugDraw, Prim, Scene};
use std::collections::HashSet;

/// What a structure drew: its boxes, and the edges of its lattices by colour (vertical ones
/// by x, horizontal ones by y: the lines and the extent they span), as bits so that equality
/// is exact.
#[derive(Default)]
struct Drawn {
    rects: HashSet<[u32; 4]>,
    verticals: HashSet<([u32; 4], u32)>,
    horizontals: HashSet<([u32; 4], u32)>,
}

impl DebugDraw for Drawn {
    fn draw(&mut self, prim: Prim) {
        match prim {
            Prim::Rect { aabb, .. } => {
                self.rects.insert(bits(&aabb));
            }
            Prim::Line { a, b, color } => {
                let c = [color.0, color.1, color.2, color.3].map(f32::to_bits);
                // A lattice's lines end at its extent's edges, which bound its border cells.
                if a.x == b.x {
                    self.verticals.insert((c, a.x.to_bits()));
                    self.horizontals
                        .extend([a.y, b.y].map(|y| (c, y.to_bits())));
                } else if a.y == b.y {
                    self.horizontals.insert((c, a.y.to_bits()));
                    self.verticals.extend([a.x, b.x].map(|x| (c, x.to_bits())));
                }
            }
            Prim::Text { .. } => {}
        }
    }
}

impl Drawn {
    /// Whether `r` is a box drawn, or a cell between four edges of one lattice drawn.
    fn holds(&self, r: &Aabb) -> bool {
        if self.rects.contains(&bits(r)) {
            return true;
        }
        self.verticals.iter().any(|&(c, _)| {
            let v = |x: f32| self.verticals.contains(&(c, x.to_bits()));
            let h = |y: f32| self.horizontals.contains(&(c, y.to_bits()));
            v(r.min.x) && v(r.max.x) && h(r.min.y) && h(r.max.y)
        })
    }
}

fn bits(r: &Aabb) -> [u32; 4] {
    [r.min.x, r.min.y, r.max.x, r.max.y].map(f32::to_bits)
}

/// The field scene with `balls` balls (few enough that the grid draws every ball's cells).
fn field(balls: u32) -> collide::World {
    let mut scene = Scene::builtin("field").expect("built in");
    scene.fill.as_mut().expect("the field fills itself").count = balls;
    scene.build(1)
}

/// The places given heat in 20 steps of `kind` on the field, and what it drew after them.
fn heat_and_drawing(kind: BroadKind) -> (Vec<Visit>, Drawn) {
    let mut w = field(300);
    w.edit_settings(|s| s.pair_cache = false);
    w.set_broad_phase(kind);
    w.set_probe(Some(ProbeAsk {
        focus: None,
        heat: true,
    }));
    for _ in 0..20 {
        w.step();
    }
    let places = w.probe().expect("asked").heat().places();
    let mut drawn = Drawn::default();
    w.broad().debug_draw(&mut drawn);
    (places, drawn)
}

#[test]
fn field_heat_places_are_the_rectangles_the_structure_draws() {
    for kind in [
        BroadKind::Quadtree,
        BroadKind::Sectors,
        BroadKind::Adjacent,
        BroadKind::Grid,
    ] {
        let (places, drawn) = heat_and_drawing(kind);
        let coloured: Vec<&Visit> = places.iter().filter(|v| v.place != Place::Node).collect();
        assert!(
            coloured.len() > 3,
            "{}: {} places",
            kind.name(),
            coloured.len()
        );
        for v in coloured {
            assert!(drawn.holds(&v.rect), "{}: {v:?} is not drawn", kind.name());
        }
    }
}

#[test]
fn field_quadtree_heat_is_given_to_its_leaves_only() {
    // Three levels over 960 × 704: sixteen leaves of 240 × 176 px, the leaf lines at x = 240,
    // 480, 720 where the heat once showed edges at 264, 440, 704.
    let (places, _) = heat_and_drawing(BroadKind::Quadtree);
    for v in &places {
        assert_eq!(v.place, Place::Leaf, "{v:?}");
        let (x, y) = (v.rect.min.x / 240.0, v.rect.min.y / 176.0);
        assert_eq!((x.fract(), y.fract()), (0.0, 0.0), "{v:?}");
        assert_eq!(v.rect.size(), collide::Vec2::new(240.0, 176.0));
    }
}
