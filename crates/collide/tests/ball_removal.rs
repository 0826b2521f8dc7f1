//! A ball leaving the world (pocketed, drained, deleted): the one path every stage follows.

use collide::world::{Ball, KeptImpulse};
use collide::{Aabb, BroadKind, Geometry, Input, Motion, Shape, Solver, Vec2, World};

/// A 200 × 300 px box with 120 balls dropped in, soft contacts, settled for 6 s (and asleep,
/// when `sleep`).
fn settled_pile(sleep: bool) -> World {
    let wall = |a: Vec2, b: Vec2| Shape::new(Geometry::Segment { a, b }, 0.5, Motion::Static);
    let (w0, h) = (200.0, 300.0);
    let shapes = vec![
        wall(Vec2::ZERO, Vec2::new(w0, 0.0)),
        wall(Vec2::ZERO, Vec2::new(0.0, h)),
        wall(Vec2::new(w0, 0.0), Vec2::new(w0, h)),
    ];
    let mut w = World::new_unguarded(shapes, Aabb::new(Vec2::ZERO, Vec2::new(w0, h)), 5);
    w.edit_settings(|st| {
        st.solver = Solver::Soft;
        st.sleep.enabled = Some(sleep);
    });
    w.set_broad_phase(BroadKind::Grid);
    for k in 0..120 {
        let (col, row) = ((k % 15) as f32, (k / 15) as f32);
        let pos = Vec2::new(14.0 + col * 12.0 + (row % 2.0) * 3.0, 8.0 + row * 12.0);
        w.add_ball(Ball::new(pos, Vec2::ZERO, 5.0, 0.3, k));
    }
    for _ in 0..6 * w.steps_per_second() {
        w.step();
    }
    let asleep = if sleep { 120 } else { 0 };
    assert_eq!(
        w.counters().asleep,
        asleep,
        "the pile sleeps before the test"
    );
    w
}

/// The ball on top of the pile.
fn top(w: &World) -> usize {
    let y = |i: usize| w.balls()[i].pos.y;
    (0..w.balls().len())
        .max_by(|&a, &b| y(a).total_cmp(&y(b)))
        .unwrap()
}

/// `kept` as it should read once ball `gone` has left (ball `k` is `n_shapes + k` in the
/// pair space): its contacts dropped, every later ball one place down.
fn without_ball(kept: &[KeptImpulse], gone: u32, n_shapes: u32) -> Vec<KeptImpulse> {
    let gone = n_shapes + gone;
    let moved = |x: u32| if x > gone { x - 1 } else { x };
    kept.iter()
        .filter(|k| k.pair.0 != gone && k.pair.1 != gone)
        .map(|k| KeptImpulse {
            pair: (moved(k.pair.0), moved(k.pair.1)),
            ..*k
        })
        .collect()
}

#[test]
fn pocketing_one_ball_of_a_settled_pile_keeps_every_other_contacts_warm_start() {
    let mut w = settled_pile(false);
    let top = top(&w);
    let before = w.save_state().soft_impulses;
    assert!(before.len() > 200, "{} contacts kept", before.len());
    let id = w.ball_id(top).unwrap();
    w.apply_input(&Input::RemoveBall(id)).unwrap();
    let n_shapes = w.shapes().len() as u32;
    let expected = without_ball(&before, top as u32, n_shapes);
    assert!(
        expected.len() < before.len(),
        "the ball on top touched others"
    );
    assert_eq!(w.save_state().soft_impulses, expected);
}

#[test]
fn pocketing_one_ball_of_a_pile_asleep_leaves_the_pile_asleep() {
    let mut w = settled_pile(true);
    let top = top(&w);
    let id = w.ball_id(top).unwrap();
    w.apply_input(&Input::RemoveBall(id)).unwrap();
    for _ in 0..2 * w.steps_per_second() {
        w.step();
    }
    assert_eq!(w.counters().asleep, 119, "the pile sleeps again");
}

#[test]
fn a_hit_kept_across_a_removal_still_names_its_ball() {
    let floor = Geometry::Segment {
        a: Vec2::ZERO,
        b: Vec2::new(400.0, 0.0),
    };
    let shapes = vec![Shape::new(floor, 0.5, Motion::Static)];
    let mut w = World::new_unguarded(shapes, Aabb::new(Vec2::ZERO, Vec2::splat(400.0)), 5);
    let xs = [100.0, 200.0, 300.0];
    let ids: Vec<_> = (xs.iter())
        .map(|&x| w.add_ball(Ball::new(Vec2::new(x, 60.0), Vec2::ZERO, 5.0, 0.5, 0)))
        .collect();
    for _ in 0..w.steps_per_second() {
        w.step();
    }
    let first = w.ball_id(0).unwrap();
    w.apply_input(&Input::RemoveBall(first)).unwrap();
    let hits: Vec<_> = w.drain_hits().collect();
    for (id, x) in ids.iter().zip(xs).skip(1) {
        let hit = hits
            .iter()
            .find(|h| h.ball == *id)
            .expect("each ball hit the floor");
        assert_eq!(hit.point.x, x, "{id}");
        assert_eq!(w.ball(*id).unwrap().pos.x, x);
    }
    assert!(
        hits.iter().any(|h| h.ball == ids[0]),
        "the removed ball's hit keeps its id"
    );
    assert!(w.ball(ids[0]).is_err());
}
