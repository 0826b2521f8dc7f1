//! Settings that fit the load: the broad phase a ball count calls for when the user has not
//! chosen one, and, when the physics cannot keep up, the one setting most likely to help.
//!
//! Brute force tests every ball against every other, `n (n − 1) / 2` box tests per
//! collision iteration: at the default 4 × 6 iterations a frame that is 12 million tests a
//! frame for 1,000 balls and 1.2 billion for 10,000, far too many for a frame. The grid costs
//! about `n` per iteration. Brute force stays the
//! default for the table's few balls, where it is the plainest baseline; above
//! [`BRUTE_MAX_BALLS`] a start or a Fill picks the grid, and says so. Switching never changes
//! the simulation (every broad phase gives the same pairs), only its cost. A Fill of more than
//! [`BRUTE_MAX_BALLS`] balls also takes soft contacts unless a solver was chosen
//! ([`solver_for_fill`]).

use crate::state::{Load, Show};
use collide::{BroadKind, Solver, Tunnelling, World};

/// Most balls brute force is kept for when nobody asked for it (a start, a Fill).
pub const BRUTE_MAX_BALLS: usize = 1000;

/// The broad phase to use for `balls` balls: `chosen` if the user chose one, else brute force
/// up to [`BRUTE_MAX_BALLS`] and the grid above.
pub fn broad_for(balls: usize, chosen: Option<BroadKind>) -> BroadKind {
    match chosen {
        Some(kind) => kind,
        None if balls > BRUTE_MAX_BALLS => BroadKind::Grid,
        None => BroadKind::Brute,
    }
}

/// The contact solver for a Fill of `balls` balls when nobody chose one: soft contacts above
/// [`BRUTE_MAX_BALLS`] (a pile of thousands rests and falls asleep with them; the push-out
/// lets it sink into itself and jitter), else `None` (the solver stays as it is).
pub fn solver_for_fill(balls: usize, chosen: bool) -> Option<Solver> {
    (!chosen && balls > BRUTE_MAX_BALLS).then_some(Solver::Soft)
}

/// What the panel says after a Fill of `balls` balls took soft contacts.
pub fn soft_fill_note(balls: usize) -> String {
    format!(
        "Contacts set to soft contacts for {} balls: the pile rests and falls asleep; the \
         push-out lets it sink into itself. Pick Push-out under Contacts and rest to compare.",
        thousands(balls as u64)
    )
}

/// Box tests brute force makes per collision iteration among `balls` balls (obstacles aside).
pub fn brute_tests(balls: usize) -> u64 {
    let n = balls as u64;
    n * n.saturating_sub(1) / 2
}

/// What the panel says after the toy picked the grid for `balls` balls.
pub fn switched_note(balls: usize) -> String {
    format!(
        "Broad phase set to the grid: brute force would make {} box tests per iteration with {} \
         balls. Pick another under Broad phase to compare (same simulation, other cost).",
        millions(brute_tests(balls)),
        thousands(balls as u64)
    )
}

/// What the panel says when the user chose brute force and filled with `balls` balls.
pub fn brute_kept_note(balls: usize) -> String {
    format!(
        "Brute force kept as chosen: {} box tests per iteration with {} balls; the grid scales.",
        millions(brute_tests(balls)),
        thousands(balls as u64)
    )
}

/// What the panel says of the broad phase `kind` for `balls` balls: why the toy picked the
/// grid (when the user did not choose), or that a chosen brute force will be slow; `None`
/// when there is nothing to say. Set at every start, scene load and Fill, so it never keeps
/// the count of the scene before.
pub fn broad_note(balls: usize, kind: BroadKind, chosen: bool) -> Option<String> {
    match (chosen, kind) {
        (true, BroadKind::Brute) if balls > BRUTE_MAX_BALLS => Some(brute_kept_note(balls)),
        (false, k) if k != BroadKind::Brute => Some(switched_note(balls)),
        _ => None,
    }
}

/// The setting most likely to help when the physics cannot keep up (`slow_motion`: the
/// stepper is down to 1/60 s a frame), or nearly (`busy`: the physics thread's share of the
/// wall-clock time, over 0.8); `None` when it keeps up. Checked from the costliest extra to
/// the plain count of balls.
pub fn when_slow(world: &World, busy: f32, slow_motion: bool) -> Option<String> {
    if !slow_motion && busy < 0.8 {
        return None;
    }
    let s = world.settings();
    let n = world.balls().len();
    let kind = world.broad().kind();
    let tip = if s.verify {
        "untick Verify against brute force (it runs brute force beside the broad phase)".into()
    } else if n > 200 && matches!(kind, BroadKind::Brute | BroadKind::Quadtree) {
        format!(
            "pick the grid under Broad phase ({} tests every pair of {} balls)",
            kind.label(),
            thousands(n as u64)
        )
    } else if s.tunnelling != Tunnelling::Off {
        "set Tunnelling to Off (the swept tests cost several times the plain ones)".into()
    } else if !s.pair_cache {
        "tick Keep pairs between iterations".into()
    } else if s.collision_iterations > 2 {
        format!(
            "lower the collision Iterations ({} a step now: each is a pass over every contact; \
             fewer let a pile sink more)",
            s.collision_iterations
        )
    } else {
        format!(
            "fewer balls (Fill or Clear): {} is more than this machine steps in real time",
            thousands(n as u64)
        )
    };
    Some(format!("To keep up: {tip}."))
}

/// Frame rate under which a frame held down by its drawing gets a tip.
const SLOW_FPS: f32 = 30.0;

/// The overlay to untick when the drawing, not the physics, holds the frame rate down
/// (frames slower than [`SLOW_FPS`] with the physics thread idle most of each; the drawing
/// is the main thread's work and the driver's at `next_frame`): the costliest one shown, or
/// `None` when none is on or the frames are not held by the drawing. In software rendering
/// "AABBs + structure" is the dear one: a tree or a grid fills the view once per level of
/// it, each fill blended over every pixel it covers.
pub fn when_drawing_slow(show: &Show, load: &Load) -> Option<String> {
    if load.fps <= 0.0 || load.fps >= SLOW_FPS || load.physics_share > 0.5 {
        return None;
    }
    let overlay = [
        (
            show.aabbs,
            "AABBs + structure (a box and a tinted fill per node)",
        ),
        (show.sweeps, "swept paths (a line per ball)"),
        (show.tracks, "tracks (a line per ball)"),
        (show.velocity, "velocity (an arrow per ball)"),
        (show.sectors, "sectors"),
    ]
    .into_iter()
    .find_map(|(on, name)| on.then_some(name))?;
    Some(format!("To draw faster: untick Show {overlay}; the drawing, not the physics, holds the frame rate down."))
}

/// `n` with thousands separated by commas.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` things, with thousands separated, the noun agreeing: "1 input", "2 inputs",
/// "1,234 inputs".
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// A count in millions with one decimal (or as a plain number below a million).
fn millions(n: u64) -> String {
    if n >= 1_000_000 {
        format!("{:.1} million", n as f64 / 1e6)
    } else {
        thousands(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brute_force_stays_for_few_balls_and_the_grid_takes_many_unless_chosen() {
        assert_eq!(broad_for(0, None), BroadKind::Brute);
        assert_eq!(broad_for(BRUTE_MAX_BALLS, None), BroadKind::Brute);
        assert_eq!(broad_for(BRUTE_MAX_BALLS + 1, None), BroadKind::Grid);
        assert_eq!(broad_for(10_000, Some(BroadKind::Brute)), BroadKind::Brute);
        assert_eq!(broad_for(5, Some(BroadKind::Sap)), BroadKind::Sap);
    }

    #[test]
    fn the_broad_phase_note_counts_the_balls_of_the_scene_now() {
        let rain = broad_note(3000, broad_for(3000, None), false).unwrap();
        let field = broad_note(2000, broad_for(2000, None), false).unwrap();
        assert!(
            rain.contains("4.5 million") && rain.contains("3,000"),
            "{rain}"
        );
        assert!(
            field.contains("2.0 million") && field.contains("2,000"),
            "{field}"
        );
        assert_eq!(broad_note(30, broad_for(30, None), false), None);
        assert!(broad_note(5000, BroadKind::Brute, true)
            .unwrap()
            .contains("kept as chosen"));
        assert_eq!(broad_note(5000, BroadKind::Sap, true), None);
    }

    /// The record bar read "1 inputs".
    #[test]
    fn one_input_reads_in_the_singular() {
        assert_eq!(counted(1, "input", "inputs"), "1 input");
        assert_eq!(counted(0, "input", "inputs"), "0 inputs");
        assert_eq!(counted(1234, "input", "inputs"), "1,234 inputs");
    }

    #[test]
    fn counts_read_with_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(10_000), "10,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(millions(brute_tests(10_000)), "50.0 million");
    }

    #[test]
    fn a_frame_held_by_the_tree_overlay_names_it() {
        let show = Show {
            aabbs: true,
            sweeps: true,
            ..Show::default()
        };
        let slow = Load {
            fps: 14.0,
            cpu: 0.77,
            physics_share: 0.01,
            ..Load::default()
        };
        let tip = when_drawing_slow(&show, &slow).unwrap();
        assert!(tip.contains("AABBs + structure"), "{tip}");
        let fast = Load { fps: 60.0, ..slow };
        assert_eq!(when_drawing_slow(&show, &fast), None);
        let physics_bound = Load {
            physics_share: 0.9,
            ..slow
        };
        assert_eq!(when_drawing_slow(&show, &physics_bound), None);
        assert_eq!(when_drawing_slow(&Show::default(), &slow), None);
    }

    #[test]
    fn a_slow_world_is_told_the_setting_that_helps_most() {
        let scene = collide::Scene::parse(crate::cli::TABLE_RON, "table").unwrap();
        let mut w = scene.build(1);
        w.fill_random(2000, (2.0, 3.0), 0.0);
        assert_eq!(when_slow(&w, 0.3, false), None);
        assert!(when_slow(&w, 0.9, false).is_some());
        let tip = when_slow(&w, 0.5, true).unwrap();
        assert!(tip.contains("grid"), "{tip}");
        w.set_broad_phase(BroadKind::Grid);
        w.edit_settings(|st| st.tunnelling = Tunnelling::Exact);
        assert!(when_slow(&w, 1.0, true).unwrap().contains("Tunnelling"));
        w.edit_settings(|st| st.verify = true);
        assert!(when_slow(&w, 1.0, true).unwrap().contains("Verify"));
        w.edit_settings(|st| st.verify = false);
        w.edit_settings(|st| st.tunnelling = Tunnelling::Off);
        assert!(when_slow(&w, 1.0, true)
            .unwrap()
            .contains("collision Iterations"));
        w.edit_settings(|st| st.collision_iterations = 2);
        assert!(when_slow(&w, 1.0, true).unwrap().contains("fewer balls"));
    }
}
