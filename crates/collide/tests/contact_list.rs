//! The contact list (`World::contacts`): what the solver answered in the last step, with
//! either solver, and how a removal renumbers it.

use collide::world::{Ball, ContactWith};
use collide::{Aabb, Geometry, Input, Motion, Shape, Solver, Vec2, World};

/// Three balls of 5 px resting side by side on a floor (the middle one touching both
/// neighbours), settled for a second with `solver` (awake: a sleeper has no contacts).
fn three_on_a_floor(solver: Solver) -> World {
    let floor = Geometry::Segment {
        a: Vec2::new(0.0, 0.0),
        b: Vec2::new(200.0, 0.0),
    };
    let shapes = vec![Shape::new(floor, 0.3, Motion::Static)];
    let bounds = Aabb::new(Vec2::ZERO, Vec2::new(200.0, 200.0));
    let mut w = World::new_unguarded(shapes, bounds, 3);
    w.edit_settings(|st| {
        st.solver = solver;
        st.sleep.enabled = Some(false);
    });
    for x in [90.0, 99.9, 109.8] {
        w.add_ball(Ball::new(Vec2::new(x, 5.0), Vec2::ZERO, 5.0, 0.3, 0));
    }
    for _ in 0..w.steps_per_second() {
        w.step();
    }
    w
}

/// The list as (ball, what it touches) in its order.
fn pairs(w: &World) -> Vec<(u32, ContactWith)> {
    w.contacts().iter().map(|c| (c.ball, c.with)).collect()
}

#[test]
fn every_ball_resting_on_the_floor_is_in_the_contact_list_with_either_solver() {
    for solver in [Solver::PushOut, Solver::Soft] {
        let w = three_on_a_floor(solver);
        // The first iteration answers every pair of the step (the later ones find them
        // pushed apart).
        let on_floor: Vec<u32> = w
            .contacts()
            .iter()
            .filter(|c| c.with == ContactWith::Shape(0) && c.iteration == 0)
            .map(|c| c.ball)
            .collect();
        assert_eq!(on_floor, [0, 1, 2], "{solver:?}: {:?}", pairs(&w));
        for c in w
            .contacts()
            .iter()
            .filter(|c| c.with == ContactWith::Shape(0))
        {
            assert!(c.normal.y > 0.99, "{solver:?}: the floor pushes up: {c:?}");
            assert!(c.depth.is_finite());
        }
    }
}

#[test]
fn removing_a_ball_drops_its_contacts_and_renumbers_the_later_balls() {
    for solver in [Solver::PushOut, Solver::Soft] {
        let mut w = three_on_a_floor(solver);
        let before = pairs(&w);
        let id = w.ball_id(1).unwrap();
        w.apply_input(&Input::RemoveBall(id)).unwrap();
        let moved = |b: u32| if b > 1 { b - 1 } else { b };
        let expected: Vec<(u32, ContactWith)> = before
            .iter()
            .filter(|(b, with)| *b != 1 && *with != ContactWith::Ball(1))
            .map(|&(b, with)| match with {
                ContactWith::Ball(o) => (moved(b), ContactWith::Ball(moved(o))),
                shape => (moved(b), shape),
            })
            .collect();
        assert_eq!(pairs(&w), expected, "{solver:?}");
    }
}
