//! Rectangles: the corners and the local frame of an oriented rectangle.
//!
//! An oriented rectangle is a centre, half extents and an angle (rad, counter-clockwise). Its
//! tests run in its local frame, where it is the axis-aligned box `[-half, half]`: turn the
//! other shape by `-angle` about the centre, test, turn the answer back (Schwarzl 2012).

use super::Aabb;
use crate::geom::angle;
use glam::Vec2;

/// `v` turned by the unit rotation `rot` backwards (by minus its angle).
#[inline]
pub(crate) fn unrotated(rot: Vec2, v: Vec2) -> Vec2 {
    Vec2::new(rot.x, -rot.y).rotate(v)
}

/// The four corners of the rectangle (`c`, `half`, `angle`), counter-clockwise from the
/// local lower left one.
pub fn oriented_rect_corners(c: Vec2, half: Vec2, angle: f32) -> [Vec2; 4] {
    let rot = angle::from_angle(angle);
    [
        Vec2::new(-half.x, -half.y),
        Vec2::new(half.x, -half.y),
        Vec2::new(half.x, half.y),
        Vec2::new(-half.x, half.y),
    ]
    .map(|k| c + rot.rotate(k))
}

/// The bounding rectangle of an oriented rectangle: the box of its four corners (Schwarzl 2012,
/// `oriented_rectangle_rectangle_hull`).
pub(crate) fn oriented_rect_aabb(c: Vec2, half: Vec2, angle: f32) -> Aabb {
    let k = oriented_rect_corners(c, half, angle);
    Aabb::new(k[0], k[2]).merged(&Aabb::new(k[1], k[3]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turned_square_box_grows_to_its_diagonal() {
        let b = oriented_rect_aabb(Vec2::ZERO, Vec2::ONE, std::f32::consts::FRAC_PI_4);
        let d = std::f32::consts::SQRT_2;
        assert!((b.max - Vec2::splat(d)).length() < 1e-5);
        assert!((b.min + Vec2::splat(d)).length() < 1e-5);
    }

    #[test]
    fn unrotating_undoes_rotating() {
        let rot = angle::from_angle(0.7);
        let v = Vec2::new(3.0, -2.0);
        assert!((unrotated(rot, rot.rotate(v)) - v).length() < 1e-5);
    }
}
