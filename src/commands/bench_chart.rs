//! PNG charts of the `bench` experiments, drawn with plotters' bitmap backend. Text uses the
//! Ubuntu Light font shipped inside `epaint_default_fonts` (already in the tree through egui),
//! so no system font is needed.

use collide::BroadKind;
use collide_lab::experiments::fit::linear_fit;
use collide_lab::experiments::scale::ScaleRow;
use collide_lab::experiments::sectors_1994::{self as sectors, HarnessRow};
use collide_lab::experiments::table_sweep::{self, Sweep};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

type Area<'a> = DrawingArea<BitMapBackend<'a>, Shift>;

const FONT: &str = "sans-serif";
const SIZE: (u32, u32) = (1600, 720);

/// A colour per algorithm, stable across charts and the experiment window.
fn kind_color(kind: BroadKind) -> RGBColor {
    let (r, g, b) = crate::render::palette::broad_colour(kind);
    RGBColor(r, g, b)
}

fn err(e: impl std::fmt::Display) -> String {
    format!("chart: {e}")
}

/// Registers the shipped font under plotters' default family name, once.
fn register_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let _ = plotters::style::register_font(
            FONT,
            FontStyle::Normal,
            epaint_default_fonts::UBUNTU_LIGHT,
        );
    });
}

/// A white canvas split into a left and a right panel under a title.
fn canvas<'a>(path: &'a Path, title: &str) -> Result<(Area<'a>, Area<'a>, Area<'a>), String> {
    register_font();
    let root = BitMapBackend::new(path, SIZE).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let body = root.titled(title, (FONT, 30)).map_err(err)?;
    let (left, right) = body.split_horizontally(SIZE.0 / 2);
    Ok((root, left, right))
}

/// Brute force thin and the others wide: drawn last, brute force stays visible on top of an
/// algorithm that does exactly its work (RDC when it finds no gap to split at), and both show.
fn kind_style(kind: BroadKind) -> ShapeStyle {
    let width = if kind == BroadKind::Brute { 2 } else { 5 };
    kind_color(kind).stroke_width(width)
}

fn line_style(c: RGBColor) -> ShapeStyle {
    c.stroke_width(3)
}

/// Range `lo..hi` with a margin on a log axis.
fn log_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = values
        .filter(|v| *v > 0.0 && v.is_finite())
        .fold((f64::MAX, f64::MIN), |(a, b), v| (a.min(v), b.max(v)));
    if lo > hi {
        return 1.0..10.0;
    }
    lo / 1.6..hi * 1.6
}

// ---------------------------------------------------------------------------------------------

/// `sectors.png`: complete checks per second against objects (left) and the four-shifts vs
/// adjacent-sectors ratio against K (right).
pub fn sectors(path: &Path, rows: &[HarnessRow]) -> Result<(), String> {
    let (root, left, right) = canvas(
        path,
        "1994 sector harness: 640 x 480 screen, 30 x 30 objects",
    )?;
    sectors_rates(&left, rows)?;
    sectors_ratio(&right, rows)?;
    root.present().map_err(err)
}

fn sectors_rates(area: &Area, rows: &[HarnessRow]) -> Result<(), String> {
    let posted = sectors::POST_68K.iter().chain(&sectors::POST_PPC).copied();
    let y = log_range(rows.iter().map(|r| r.checks_per_second).chain(posted));
    let mut chart = ChartBuilder::on(area)
        .caption("complete checks per second (median)", (FONT, 24))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(90)
        .build_cartesian_2d(-5f64..205f64, y.log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("objects")
        .y_desc("complete checks / s")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .label_style((FONT, 18))
        .axis_desc_style((FONT, 20))
        .y_label_formatter(&|v| short(*v))
        .draw()
        .map_err(err)?;
    for &kind in BroadKind::ALL {
        let pts: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r.kind == kind && r.checks_per_second > 0.0)
            .map(|r| (r.objects as f64, r.checks_per_second))
            .collect();
        let c = kind_color(kind);
        chart
            .draw_series(LineSeries::new(pts.clone(), line_style(c)).point_size(4))
            .map_err(err)?
            .label(kind.name())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], line_style(c)));
    }
    for (name, values, c) in [
        ("1994 68K", sectors::POST_68K, RGBColor(60, 60, 60)),
        ("1994 PPC", sectors::POST_PPC, RGBColor(140, 140, 140)),
    ] {
        let pts: Vec<(f64, f64)> = sectors::POST_COUNTS
            .iter()
            .zip(values)
            .map(|(&n, v)| (n as f64, v))
            .collect();
        chart
            .draw_series(DashedLineSeries::new(pts, 10, 6, line_style(c)))
            .map_err(err)?
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], line_style(c)));
    }
    legend(&mut chart, SeriesLabelPosition::UpperRight)
}

fn sectors_ratio(area: &Area, rows: &[HarnessRow]) -> Result<(), String> {
    let ratios = sectors::ratios(rows);
    let mut chart = ChartBuilder::on(area)
        .caption("adjacent-sector tests / four-shift tests", (FONT, 24))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(0f64..3.2f64, 0f64..80f64)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("K, mean objects per 64 x 64 sector")
        .y_desc("ratio")
        .label_style((FONT, 18))
        .axis_desc_style((FONT, 20))
        .draw()
        .map_err(err)?;
    let model: Vec<(f64, f64)> = (0..=300)
        .map(|i| 1.0 + i as f64 * 0.0075)
        .filter_map(|k| sectors::predicted_ratio(k).map(|r| (k, r)))
        .filter(|p| p.1 <= 80.0)
        .collect();
    let black = RGBColor(40, 40, 40);
    chart
        .draw_series(LineSeries::new(model, line_style(black)))
        .map_err(err)?
        .label("1994 model R(K) = ((81K^2 - 9K)/2) / (2K^2 - 2K)")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], line_style(black)));
    let grey = RGBColor(150, 150, 150);
    chart
        .draw_series(DashedLineSeries::new(
            vec![(0.0, 20.25), (3.2, 20.25)],
            10,
            6,
            line_style(grey),
        ))
        .map_err(err)?
        .label("20.25 = 81/4: random counts (mean K(K-1) = K^2), no border")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], line_style(grey)));
    let blue = kind_color(BroadKind::Sectors);
    let e = sectors::expected_ratio();
    chart
        .draw_series(DashedLineSeries::new(
            vec![(0.0, e), (3.2, e)],
            4,
            4,
            line_style(blue),
        ))
        .map_err(err)?
        .label(format!(
            "{e:.1}: random counts, with the screen's border sectors"
        ))
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], line_style(blue)));
    let red = kind_color(BroadKind::Brute);
    let measured: Vec<(f64, f64)> = ratios
        .iter()
        .filter_map(|r| r.measured.map(|m| (r.k, m)))
        .collect();
    chart
        .draw_series(measured.iter().map(|&p| Circle::new(p, 8, red.filled())))
        .map_err(err)?
        .label("measured (this run)")
        .legend(move |(x, y)| Circle::new((x + 12, y), 6, red.filled()));
    chart
        .draw_series(
            measured
                .iter()
                .map(|&(k, m)| Text::new(format!("{m:.1}"), (k + 0.06, m - 2.0), (FONT, 18))),
        )
        .map_err(err)?;
    legend(&mut chart, SeriesLabelPosition::UpperRight)
}

// ---------------------------------------------------------------------------------------------

/// `quadtree.png`: AABB tests per iteration against balls for every algorithm (left), and the
/// toy-comparable ball–ball counts with the toy's line (right).
pub fn quadtree(path: &Path, sweep: &Sweep) -> Result<(), String> {
    let title = "Fig. 26-28 on the table: balls of radius 21 px, 60 x 44 px quadtree leaves";
    let (root, left, right) = canvas(path, title)?;
    quadtree_all(&left, sweep)?;
    quadtree_toy(&right, sweep)?;
    root.present().map_err(err)
}

fn x_range(ns: impl Iterator<Item = u32>) -> std::ops::Range<f64> {
    let (lo, hi) = ns.fold((u32::MAX, 0), |(a, b), n| (a.min(n), b.max(n)));
    (lo.min(hi) as f64 - 0.5)..(hi as f64 + 0.5)
}

/// Axes of AABB tests per iteration (0 to a little above `ymax`) against balls (`x`), with a
/// caption and the mesh drawn.
fn tests_per_ball_count_chart<'a>(
    area: &Area<'a>,
    caption: &str,
    x: std::ops::Range<f64>,
    ymax: f64,
) -> Result<ChartContext<'a, BitMapBackend<'a>, Cartesian2d<RangedCoordf64, RangedCoordf64>>, String>
{
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 24))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(x, 0f64..ymax * 1.05)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("balls")
        .y_desc("AABB tests per iteration")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| short(*v))
        .label_style((FONT, 18))
        .axis_desc_style((FONT, 20))
        .draw()
        .map_err(err)?;
    Ok(chart)
}

fn quadtree_all(area: &Area, sweep: &Sweep) -> Result<(), String> {
    let x = x_range(sweep.rows.iter().map(|r| r.balls));
    let ymax = sweep
        .rows
        .iter()
        .map(|r| r.tests_per_iteration)
        .fold(1.0, f64::max);
    let mut chart = tests_per_ball_count_chart(
        area,
        "AABB tests per 1/60 s iteration, all tests counted",
        x,
        ymax,
    )?;
    for &kind in BroadKind::ALL.iter().rev() {
        let pts: Vec<(f64, f64)> = sweep
            .rows
            .iter()
            .filter(|r| r.kind == kind)
            .map(|r| (r.balls as f64, r.tests_per_iteration))
            .collect();
        if pts.is_empty() {
            continue;
        }
        let c = kind_color(kind);
        chart
            .draw_series(LineSeries::new(pts, kind_style(kind)))
            .map_err(err)?
            .label(kind.name())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], line_style(c)));
    }
    legend(&mut chart, SeriesLabelPosition::UpperLeft)
}

fn quadtree_toy(area: &Area, sweep: &Sweep) -> Result<(), String> {
    let leaf = &sweep.leaf_rows;
    let x = x_range(leaf.iter().map(|l| l.balls));
    let xmax = x.end;
    let ymax = leaf.iter().map(|l| l.brute_ball_tests).fold(10.0, f64::max);
    let mut chart = tests_per_ball_count_chart(
        area,
        "toy-comparable: tests in quadtree leaves, no node tests",
        x,
        ymax,
    )?;
    let red = kind_color(BroadKind::Brute);
    let green = kind_color(BroadKind::Quadtree);
    let brute: Vec<(f64, f64)> = leaf
        .iter()
        .map(|l| (l.balls as f64, l.brute_ball_tests))
        .collect();
    let tree: Vec<(f64, f64)> = leaf
        .iter()
        .map(|l| (l.balls as f64, l.leaf_ball_tests))
        .collect();
    chart
        .draw_series(LineSeries::new(brute, line_style(red)).point_size(3))
        .map_err(err)?
        .label("brute force, n(n-1)/2")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], line_style(red)));
    let all: Vec<(f64, f64)> = leaf
        .iter()
        .map(|l| (l.balls as f64, l.leaf_tests))
        .collect();
    let light = RGBColor(120, 200, 120);
    for (pts, c, what) in [
        (tree, green, "quadtree leaves, ball-ball sum k(k-1)/2"),
        (all, light, "quadtree leaves, + balls vs obstacles sum k*o"),
    ] {
        let label = match linear_fit(&pts) {
            Some(f) => format!(
                "{what}: {:.2} n {:+.1}, R^2 {:.3}",
                f.slope, f.intercept, f.r2
            ),
            None => what.to_string(),
        };
        chart
            .draw_series(LineSeries::new(pts, line_style(c)).point_size(3))
            .map_err(err)?
            .label(label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], line_style(c)));
    }
    let grey = RGBColor(90, 90, 90);
    let toy = vec![(0.0, 0.0), (xmax, table_sweep::TOY_SLOPE * xmax)];
    chart
        .draw_series(DashedLineSeries::new(toy, 10, 6, line_style(grey)))
        .map_err(err)?
        .label("toy's fit: ~3 n, R^2 = 0.996")
        .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], line_style(grey)));
    legend(&mut chart, SeriesLabelPosition::UpperLeft)
}

// ---------------------------------------------------------------------------------------------

/// `scale.png`: build-plus-all-pairs time (left) and AABB tests per ball (right) against the
/// number of balls, log–log.
pub fn scale(path: &Path, rows: &[ScaleRow]) -> Result<(), String> {
    let title = "Uniform random balls (area fraction 0.3): one build + all pairs";
    let (root, left, right) = canvas(path, title)?;
    scale_panel(&left, rows, "time (ms), log-log", "ms", |r| r.millis)?;
    scale_panel(
        &right,
        rows,
        "AABB tests per ball, log-log",
        "tests / ball",
        |r| r.tests_per_object,
    )?;
    root.present().map_err(err)
}

fn scale_panel(
    area: &Area,
    rows: &[ScaleRow],
    caption: &str,
    y_desc: &str,
    value: fn(&ScaleRow) -> f64,
) -> Result<(), String> {
    let x = log_range(rows.iter().map(|r| r.n as f64));
    let y = log_range(rows.iter().map(value));
    // Head room on the log axis for the legend above the data.
    let y = y.start..y.end * 30.0;
    let mut chart = ChartBuilder::on(area)
        .caption(caption, (FONT, 24))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(80)
        .build_cartesian_2d(x.log_scale(), y.log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc("balls")
        .y_desc(y_desc)
        .label_style((FONT, 18))
        .axis_desc_style((FONT, 20))
        .x_label_formatter(&|v| short(*v))
        .y_label_formatter(&|v| short(*v))
        .draw()
        .map_err(err)?;
    // Reversed, so brute force comes last (see `kind_style`).
    for &kind in BroadKind::ALL.iter().rev() {
        let pts: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r.kind == kind && value(r) > 0.0)
            .map(|r| (r.n as f64, value(r)))
            .collect();
        if pts.is_empty() {
            continue;
        }
        let c = kind_color(kind);
        chart
            .draw_series(LineSeries::new(pts, kind_style(kind)).point_size(4))
            .map_err(err)?
            .label(kind.name())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 24, y)], line_style(c)));
    }
    legend(&mut chart, SeriesLabelPosition::UpperLeft)
}

// ---------------------------------------------------------------------------------------------

fn legend<'a, X, Y>(
    chart: &mut ChartContext<'a, BitMapBackend<'a>, Cartesian2d<X, Y>>,
    pos: SeriesLabelPosition,
) -> Result<(), String>
where
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
{
    chart
        .configure_series_labels()
        .position(pos)
        .label_font((FONT, 18))
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(err)
}

/// 1234 → "1.2k", 2500000 → "2.5M": short axis labels.
fn short(v: f64) -> String {
    let a = v.abs();
    if a >= 1e6 {
        format!("{}M", trim(v / 1e6))
    } else if a >= 1e3 {
        format!("{}k", trim(v / 1e3))
    } else {
        trim(v)
    }
}

fn trim(v: f64) -> String {
    let s = if v.abs() >= 10.0 || v == v.round() {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    };
    s
}
