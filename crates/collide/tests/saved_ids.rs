//! A saved state keeps the ball table's ids: after a restore every id names the ball it
//! named when the state was saved, and the next ball added gets the id it would have got
//! without the save. States saved before ids were kept still load, with fresh ids.

mod common;

use collide::world::{BallId, WorldState};
use collide::{Input, SavedState, Vec2, World};

/// The table with twelve balls in flight, some of them removed on the way (so ids and
/// places differ and the table has free slots).
fn table_after_removals() -> World {
    let mut w = common::table(7);
    w.apply_input(&Input::Launch(12)).unwrap();
    for step in 0..400 {
        if [150, 220, 300].contains(&step) {
            common::remove_ball(&mut w, 1);
        }
        w.step();
    }
    assert!(w.balls().len() >= 6, "{} balls in play", w.balls().len());
    w
}

/// The world restored from `state` through its text, on the scene built afresh.
fn restored(state: &WorldState) -> World {
    let text = ron::to_string(state).unwrap();
    let mut w = common::table(7);
    w.restore_state(&ron::from_str(&text).unwrap())
        .expect("the state restores");
    w
}

fn ids(w: &World) -> Vec<BallId> {
    (0..w.balls().len())
        .map(|i| w.ball_id(i).unwrap())
        .collect()
}

#[test]
fn every_id_names_the_same_ball_after_a_save_and_a_load() {
    let w = table_after_removals();
    let back = restored(&w.save_state());
    assert_eq!(ids(&back), ids(&w));
    for id in ids(&w) {
        assert_eq!(back.ball(id).unwrap().pos, w.ball(id).unwrap().pos, "{id}");
    }
    assert_eq!(back.state_hash(), w.state_hash());
}

#[test]
fn a_ball_added_after_a_load_gets_the_id_it_gets_without_the_save() {
    let mut w = table_after_removals();
    let mut back = restored(&w.save_state());
    for world in [&mut w, &mut back] {
        let at = Input::LaunchAt {
            pos: Vec2::new(400.0, 400.0),
            vel: Vec2::ZERO,
        };
        world.apply_input(&at).unwrap();
        world.apply_input(&at).unwrap();
    }
    assert_eq!(ids(&back), ids(&w), "the two new balls took the same slots");
    for _ in 0..120 {
        w.step();
        back.step();
    }
    assert_eq!(back.state_hash(), w.state_hash());
}

#[test]
fn a_state_saved_before_ids_were_kept_loads_with_fresh_ids() {
    // Written by the golden runs before saved states held ids (a copy kept as it was).
    let text = include_str!("before_ids/state.ron");
    assert!(!text.contains("ball_ids"), "the file is in the old form");
    let (_, w) = SavedState::parse(text, "state.ron").expect("the old form loads");
    assert!(!w.balls().is_empty());
    for (i, id) in ids(&w).into_iter().enumerate() {
        let fresh: BallId = ron::from_str(&format!("(slot: {i}, generation: 0)")).unwrap();
        assert_eq!(id, fresh);
    }
}

#[test]
fn saved_ids_that_do_not_fit_the_balls_are_refused_by_field() {
    let w = table_after_removals();
    let mut state = w.save_state();
    state.ball_ids.as_mut().unwrap().balls.pop();
    let err = common::table(7).restore_state(&state).unwrap_err();
    assert_eq!(err.field, "ball_ids");
}
