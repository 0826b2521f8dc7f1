//! The table scene runs: balls launch, stay finite, counters move.
mod common;

#[test]
fn table_scene_runs_and_balls_stay_finite() {
    let mut w = common::table(7);
    w.edit_settings(|st| st.rotate = true);
    w.launch(40);
    for _ in 0..240 * 10 {
        w.step();
    }
    assert_eq!(w.counters().launched, 40);
    assert!(w.all_finite());
    assert!(w.counters().total.collisions > 0);
    let strays = w.counters().strays;
    println!(
        "balls {} strays {} overlaps {} hash {:016x}",
        w.balls().len(),
        strays,
        w.counters().co_located,
        w.state_hash()
    );
}
