//! The measures every engine is held to, taken from its balls alone, the same way for all:
//! the overlap of each touching pair as a fraction of the smaller radius (`(r1 + r2 − d) /
//! min(r1, r2)`; a ball against a wall, its depth past the wall's face over its radius),
//! mean and worst over the touching pairs; and the balls lost, wholly past a wall (centre
//! beyond its back by more than the radius: out of the box, through the floor, outside the
//! drum; a ball with a non-finite centre counts too). A segment's back is its face.

use crate::engine::Disc;
use crate::setup::Wall;

/// Overlap and loss at one moment.
#[derive(Clone, Copy, Debug, Default)]
pub struct Overlap {
    /// Mean overlap of the touching pairs (fraction of the smaller radius).
    pub mean: f64,
    /// Worst overlap of the touching pairs.
    pub worst: f32,
    /// Balls wholly outside the walls.
    pub lost: usize,
}

/// A wall as it stands: its ends and its unit normal pointing in (px).
struct Side {
    a: [f32; 2],
    along: [f32; 2],
    length: f32,
    inward: [f32; 2],
}

/// `walls` turned by `angle` (rad) about `pivot`, each with its normal pointing to `pivot`.
fn sides(walls: &[Wall], pivot: [f32; 2], angle: f32) -> Vec<Side> {
    let (s, c) = angle.sin_cos();
    let turn = |p: [f32; 2]| {
        let (x, y) = (p[0] - pivot[0], p[1] - pivot[1]);
        [pivot[0] + c * x - s * y, pivot[1] + s * x + c * y]
    };
    let side = |w: &Wall| {
        let (a, b) = (turn(w.a), turn(w.b));
        let d = [b[0] - a[0], b[1] - a[1]];
        let length = d[0].hypot(d[1]);
        let along = [d[0] / length, d[1] / length];
        let mut inward = [-along[1], along[0]];
        if (pivot[0] - a[0]) * inward[0] + (pivot[1] - a[1]) * inward[1] < 0.0 {
            inward = [-inward[0], -inward[1]];
        }
        Side {
            a,
            along,
            length,
            inward,
        }
    };
    walls.iter().map(side).collect()
}

/// An engine's walls as they stand.
pub struct Walls<'a> {
    /// At their starting pose.
    pub walls: &'a [Wall],
    /// The point they enclose and turn about (px).
    pub pivot: [f32; 2],
    /// How far they have turned (rad).
    pub angle: f32,
    /// How deep they are behind their faces (px; 0 for segments).
    pub depth: f32,
}

/// The overlap of `discs` among themselves and with `walls`, and the balls lost.
pub fn measure(discs: &[Disc], walls: &Walls) -> Overlap {
    let (mut sum, mut worst, mut pairs) = (0.0f64, 0.0f32, 0u64);
    let mut add = |fraction: f32| {
        sum += f64::from(fraction);
        worst = worst.max(fraction);
        pairs += 1;
    };
    between_balls(discs, &mut add);
    let sides = sides(walls.walls, walls.pivot, walls.angle);
    let mut lost = 0;
    for d in discs {
        let mut out = !(d.pos[0].is_finite() && d.pos[1].is_finite());
        for s in &sides {
            let rel = [d.pos[0] - s.a[0], d.pos[1] - s.a[1]];
            let gap = rel[0] * s.inward[0] + rel[1] * s.inward[1];
            let t = rel[0] * s.along[0] + rel[1] * s.along[1];
            let behind = -(walls.depth + d.r);
            out |= gap <= behind;
            if (behind..d.r).contains(&gap) && (0.0..=s.length).contains(&t) {
                add((d.r - gap) / d.r);
            }
        }
        lost += usize::from(out);
    }
    Overlap {
        mean: sum / pairs.max(1) as f64,
        worst,
        lost,
    }
}

/// Calls `add` with the overlap of every touching pair of balls (a sweep along x).
fn between_balls(discs: &[Disc], add: &mut impl FnMut(f32)) {
    let mut order: Vec<usize> = (0..discs.len()).collect();
    order.sort_by(|&i, &j| discs[i].pos[0].total_cmp(&discs[j].pos[0]));
    for (n, &i) in order.iter().enumerate() {
        let a = discs[i];
        for &j in &order[n + 1..] {
            let b = discs[j];
            if b.pos[0] - a.pos[0] > a.r + b.r {
                break;
            }
            let d = (a.pos[0] - b.pos[0]).hypot(a.pos[1] - b.pos[1]);
            if d < a.r + b.r {
                add((a.r + b.r - d) / a.r.min(b.r));
            }
        }
    }
}
