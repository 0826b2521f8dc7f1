//! Scene errors: syntax errors carry RON's line and column; invalid values name the field
//! and point at the line and column of the shape they are in; nothing panics.
mod common;

use collide::{Scene, SceneError};

/// A scene whose `shapes` list holds `shapes`, which start on line 7, column 9 (the header
/// is six lines; each shape line is indented by eight spaces).
fn scene_text(shapes: &[&str]) -> String {
    let mut text = String::from(
        "// A test scene.\n\
         Scene(\n    \
             name: \"errors\",\n    \
             bounds: (min: (0, 0), max: (400, 400)),\n    \
             launch: (pos: (10, 10), dir: (0, 1)),\n    \
             shapes: [\n",
    );
    for s in shapes {
        text.push_str("        ");
        text.push_str(s);
        text.push_str(",\n");
    }
    text.push_str("    ],\n)\n");
    text
}

const GOOD: &str = "Segment(a: (10, 10), b: (100, 10))";

fn error_of(text: &str) -> SceneError {
    match Scene::parse(text, "test.ron") {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e,
    }
}

/// Error for a scene of two good shapes followed by `bad` (so `bad` is on line 9, column 9).
fn error_for_third_shape(bad: &str) -> SceneError {
    let e = error_of(&scene_text(&[GOOD, GOOD, bad]));
    assert_eq!((e.line, e.col), (9, 9), "{e}");
    assert!(e.message.contains("shape 2"), "{e}");
    e
}

#[test]
fn the_test_scene_itself_is_valid() {
    let text = scene_text(&[GOOD, GOOD]);
    let scene = Scene::parse(&text, "test.ron").expect("valid");
    assert_eq!(scene.shapes.len(), 2);
    assert_eq!(
        scene.build(1).shapes().len(),
        2 + 2,
        "two segments, two guard points"
    );
}

#[test]
fn table_scene_is_valid() {
    Scene::parse(common::TABLE, "table.ron").expect("the table parses");
}

#[test]
fn syntax_error_reports_its_line_and_column() {
    // A missing comma between `a` and `b` on line 7: RON stops at `b`, column 29.
    let text = scene_text(&["Segment(a: (10, 10) b: (100, 10))"]);
    let e = error_of(&text);
    assert_eq!((e.line, e.col), (7, 29), "{e}");
    assert_eq!(e.origin, "test.ron");
    assert!(!e.message.is_empty());
}

#[test]
fn unclosed_list_is_an_error_not_a_panic() {
    let text = scene_text(&[GOOD]);
    let cut = &text[..text.len() - 8];
    let e = error_of(cut);
    assert!(e.line > 0, "{e}");
}

#[test]
fn unknown_shape_kind_is_an_error_at_its_line() {
    let e = error_of(&scene_text(&[GOOD, "Triangle(a: (1, 1))"]));
    assert_eq!(e.line, 8, "{e}");
}

#[test]
fn negative_circle_radius_names_the_field_and_the_line() {
    let e = error_for_third_shape("Circle(centre: (50, 50), radius: -3)");
    assert!(e.message.contains("`radius`"), "{e}");
    assert!(e.message.contains("Circle"), "{e}");
}

#[test]
fn error_column_is_the_column_of_the_shape_name() {
    // Regression: on every line after the one holding `shapes:`, columns came out one too far
    // right (the newline itself was counted as column 1), e.g. 9:10 for a shape at 9:9.
    let text = scene_text(&[GOOD, "Circle(centre: (50, 50), radius: -3)"]);
    let e = error_of(&text);
    assert_eq!((e.line, e.col), line_col_of(&text, "Circle"), "{e}");
    let one_line = "Scene(name: \"x\", bounds: (min: (0, 0), max: (9, 9)), \
        launch: (pos: (1, 1), dir: (0, 1)), shapes: [Point(p: (1, 1)), Point(p: (NaN, 1))])";
    let e = error_of(one_line);
    let second_point = one_line.rfind("Point").unwrap() + 1;
    assert_eq!((e.line, e.col), (1, second_point), "{e}");
}

#[test]
fn nan_radius_is_an_error() {
    let e = error_for_third_shape("Circle(centre: (50, 50), radius: NaN)");
    assert!(
        e.message.contains("`radius`") && e.message.contains("finite"),
        "{e}"
    );
}

#[test]
fn infinite_coordinates_are_an_error() {
    let e = error_for_third_shape("Segment(a: (inf, 10), b: (100, 10))");
    assert!(e.message.contains("`a`"), "{e}");
    let e = error_for_third_shape("Point(p: (10, -inf))");
    assert!(e.message.contains("`p`"), "{e}");
}

#[test]
fn nan_elasticity_is_an_error() {
    let e = error_for_third_shape("Segment(a: (1, 1), b: (9, 9), elasticity: NaN)");
    assert!(e.message.contains("`elasticity`"), "{e}");
}

#[test]
fn arc_ending_at_or_before_its_start_is_an_error() {
    for (start, end) in [(90, 90), (90, 45), (0, 361)] {
        let e = error_for_third_shape(&format!(
            "Arc(centre: (50, 50), radius: 20, start: {start}, end: {end})"
        ));
        assert!(e.message.contains("`end`"), "{e}");
    }
}

#[test]
fn zero_gate_normal_is_an_error() {
    let e = error_for_third_shape("Gate(a: (1, 1), b: (9, 1), normal: (0, 0))");
    assert!(e.message.contains("`normal`"), "{e}");
}

#[test]
fn vanishing_gate_normal_is_an_error() {
    // Regression: a normal of (3e-23, 0) passed the `!= 0` check and normalized to a vector
    // of length about 0.8, not 1, so the gate's threshold was judged on a shrunk speed.
    let e = error_for_third_shape("Gate(a: (1, 1), b: (9, 1), normal: (3e-23, 0))");
    assert!(e.message.contains("`normal`"), "{e}");
}

#[test]
fn vanishing_launch_direction_is_an_error() {
    let text = scene_text(&[GOOD]).replace("dir: (0, 1)", "dir: (0, 3e-23)");
    let e = error_of(&text);
    assert!(e.message.contains("`launch.dir`"), "{e}");
}

#[test]
fn other_invalid_shapes_name_their_field() {
    for (bad, field) in [
        ("Polyline(points: [(1, 1)])", "`points`"),
        ("Polyline(points: [(1, 1), (NaN, 2)])", "`points`"),
        (
            "Teardrop(centre: (50, 50), radius: 20, tip: (55, 50))",
            "`tip`",
        ),
        (
            "Arc(centre: (50, 50), radius: 0, start: 0, end: 90)",
            "`radius`",
        ),
        (
            "Segment(a: (1, 1), b: (9, 9), motion: Kinematic(pivot: (0, 0), speed: inf))",
            "`motion.speed`",
        ),
        (
            "Gate(a: (1, 1), b: (9, 1), normal: (0, 1), threshold: -1)",
            "`threshold`",
        ),
    ] {
        let e = error_for_third_shape(bad);
        assert!(e.message.contains(field), "{bad}: {e}");
    }
}

/// 1-based line and column of the first occurrence of `needle`.
fn line_col_of(text: &str, needle: &str) -> (usize, usize) {
    let at = text.find(needle).expect("needle present");
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (
        text[..at].matches('\n').count() + 1,
        text[line_start..at].chars().count() + 1,
    )
}

#[test]
fn shape_positions_skip_comments_and_strings() {
    // Regression: the scan for `shapes:` found it inside the name string (and would have in a
    // comment), and block comments were not skipped, so their commas separated items.
    let text = "Scene(\n\
        \x20   name: \"shapes: [A, B]\",\n\
        \x20   // shapes: are listed below\n\
        \x20   bounds: (min: (0, 0), max: (400, 400)),\n\
        \x20   launch: (pos: (10, 10), dir: (0, 1)),\n\
        \x20   shapes: [ /* first, second */\n\
        \x20       Point(p: (1, 1)), // a, b\n\
        \x20       /* c,\n\
        \x20          d */ Circle(centre: (5, 5), radius: -1),\n\
        \x20   ],\n\
        )\n";
    let e = error_of(text);
    assert_eq!((e.line, e.col), line_col_of(text, "Circle"), "{e}");
    assert!(e.message.contains("shape 1"), "{e}");
}

#[test]
fn invalid_bounds_and_gravity_are_errors() {
    let text = scene_text(&[GOOD]).replace("max: (400, 400)", "max: (0, 400)");
    assert!(error_of(&text).message.contains("`bounds`"));
    let text = scene_text(&[GOOD]).replace("shapes: [", "gravity: Some(NaN),\n    shapes: [");
    assert!(error_of(&text).message.contains("`gravity`"));
}

/// Bounds of 1e30 px were accepted and a Fill on them crashed; every coordinate of a scene is
/// in ±1e7 px, the play area's corners too, and the error points at `bounds` (line 4).
#[test]
fn huge_bounds_are_refused_naming_the_line_and_field() {
    for (corner, text) in [
        ("max", "max: (1e30, 1e30)"),
        ("max", "max: (1e8, 400)"),
        ("min", "min: (-2e7, 0), max: (400, 400)"),
    ] {
        let from = if corner == "max" {
            "max: (400, 400)"
        } else {
            "min: (0, 0), max: (400, 400)"
        };
        let e = error_of(&scene_text(&[GOOD]).replace(from, text));
        assert_eq!((e.line, e.col), (4, 5), "{e}");
        let field = format!("field `bounds.{corner}`: must be in -10000000..=10000000");
        assert!(e.message.starts_with(&field), "{e}");
    }
    let edge = scene_text(&[GOOD]).replace("max: (400, 400)", "max: (1e7, 1e7)");
    Scene::parse(&edge, "test.ron").expect("1e7 px is in range");
}

#[test]
fn display_is_origin_line_col_message() {
    let e = SceneError {
        origin: "scenes/x.ron".into(),
        line: 12,
        col: 5,
        message: "field `radius`: bad".into(),
    };
    assert_eq!(e.to_string(), "scenes/x.ron:12:5: field `radius`: bad");
    let e = error_for_third_shape("Circle(centre: (50, 50), radius: -3)");
    assert!(
        e.to_string()
            .starts_with("test.ron:9:9: shape 2 (Circle): field `radius`"),
        "{e}"
    );
}

#[test]
fn missing_file_is_an_error_naming_the_path_without_a_line_or_column() {
    let path = std::path::Path::new("/nonexistent/dir/scene.ron");
    let e = Scene::load(path).expect_err("no such file");
    assert_eq!(e.to_string(), "/nonexistent/dir/scene.ron: no such file");
    let e = collide::Recording::load(path)
        .map(|_| ())
        .expect_err("no such file");
    assert_eq!(e.to_string(), "/nonexistent/dir/scene.ron: no such file");
    let e = collide::SavedState::load(path)
        .map(|_| ())
        .expect_err("no such file");
    assert_eq!(e.to_string(), "/nonexistent/dir/scene.ron: no such file");
}

#[test]
fn mangled_table_texts_never_panic() {
    // Cut the table at every 7th byte and drop single characters: errors, never panics.
    let table = common::TABLE;
    let mut n_errors = 0;
    for at in (0..table.len())
        .step_by(7)
        .filter(|&i| table.is_char_boundary(i))
    {
        if Scene::parse(&table[..at], "cut.ron").is_err() {
            n_errors += 1;
        }
        let mut dropped = table.to_string();
        dropped.remove(at);
        if let Ok(scene) = Scene::parse(&dropped, "dropped.ron") {
            assert!(!scene.build(1).shapes().is_empty());
        }
    }
    assert!(n_errors > 0);
}
