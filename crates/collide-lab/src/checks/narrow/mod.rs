//! The narrow phase against an exact reference: every contact test (`contact_ball_*`) and
//! swept test (`toi_ball_*`) run on seeded cases (see [`cases`]) and compared with the f64
//! answers of [`reference`].
//!
//! Tolerance: `1e-4 · max(1, r)` px. A hit/miss disagreement counts only when the reference
//! grown by the tolerance still misses (a false hit) or shrunk by it still hits (a missed
//! one); see [`reference`] for what grows. For robust hits (both agree) it measures the depth
//! error (px), the normal's angle error (degrees), and, for swept tests, the impact error
//! measured along the normal: `|t − t_ref| · |d·n|` (px). Extreme cases (0, ±1e-30, ±1e30) are
//! only checked for finite output.
//!
//! The promises, failures if broken: no disagreement for a ball starting free of contact
//! (clear of it by more than the tolerance), every swept impact within 0.01 px, no non-finite
//! output. Disagreements for balls starting in contact are reported, not failed: their answer
//! hangs on conventions (which way a centre on the line is pushed). Depth and normal errors
//! are reported: a normal near its feature (a centre within a few f32 roundings of a corner)
//! is as uncertain as the f32 inputs make it.

pub mod cases;
pub mod reference;

use super::CheckReport;
use cases::{Case, Kind, Pair};
use collide::narrow::{
    contact_ball_ball, contact_ball_shape, toi_ball_ball, toi_ball_shape, Contact, Impact,
};
use collide::Geometry;
use glam::DVec2;
use rand::rngs::StdRng;
use rand::SeedableRng;
use reference::{Near, Shape64, Touch};

/// Size of the check: cases per pair and test, and the seed.
#[derive(Clone, Copy, Debug)]
pub struct NarrowSize {
    /// Cases per pair (each runs the contact and the swept test).
    pub cases: u64,
    /// Seed of the first pair (the others follow it).
    pub seed: u64,
}

/// Largest swept impact error allowed, along the normal (px).
pub const IMPACT_LIMIT: f64 = 0.01;

/// The tolerance of a ball of radius `r` (px).
pub fn tolerance(r: f32) -> f64 {
    1e-4 * (r as f64).max(1.0)
}

/// What one pair's contact or swept test did.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Cases run.
    pub cases: u64,
    /// Disagreements with a ball starting free of contact.
    pub free: u64,
    /// Disagreements with a ball starting in contact.
    pub started: u64,
    /// Outputs with a NaN or an infinity.
    pub non_finite: u64,
    /// Worst depth error (px).
    pub depth: f64,
    /// Worst normal error (degrees).
    pub normal: f64,
    /// Worst impact error along the normal (px); swept tests only.
    pub impact: f64,
    /// Impacts beyond [`IMPACT_LIMIT`].
    pub late: u64,
    /// A few failing cases.
    pub examples: Vec<String>,
}

impl Tally {
    /// Failures: the promises broken.
    pub fn failures(&self) -> u64 {
        self.free + self.non_finite + self.late
    }

    /// The check report for `name`.
    pub fn report(&self, name: &str) -> CheckReport {
        let mut r = CheckReport::new(name);
        r.cases = self.cases;
        r.failures = self.failures();
        r.worst = format!(
            "{} started-in-contact disagreements, depth {:.1e} px, normal {:.1e}°, impact {:.1e} px",
            self.started, self.depth, self.normal, self.impact
        );
        r.examples = self.examples.clone();
        r
    }

    /// Keeps a failing case's description if there is room.
    fn note(&mut self, what: String) {
        if self.examples.len() < 5 {
            self.examples.push(what);
        }
    }
}

/// One pair's results: contact test and swept test.
#[derive(Clone, Debug)]
pub struct PairResult {
    /// The pair.
    pub pair: Pair,
    /// The contact test.
    pub contact: Tally,
    /// The swept test.
    pub swept: Tally,
}

/// Runs `size.cases` cases of `pair`.
pub fn run_pair(pair: Pair, size: NarrowSize) -> PairResult {
    let seed = size.seed.wrapping_mul(31).wrapping_add(pair as u64);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = PairResult {
        pair,
        contact: Tally::default(),
        swept: Tally::default(),
    };
    for i in 0..size.cases {
        let case = cases::case(&mut rng, pair, cases::kind_of(i));
        check_contact(pair, &case, &mut out.contact);
        check_swept(pair, &case, &mut out.swept);
    }
    out
}

/// Runs every pair; one report per pair and test.
pub fn run(size: NarrowSize) -> Vec<CheckReport> {
    Pair::ALL
        .iter()
        .flat_map(|&p| {
            let r = run_pair(p, size);
            [
                r.contact.report(&format!("contact {}", p.name())),
                r.swept.report(&format!("toi {}", p.name())),
            ]
        })
        .collect()
}

/// The table of results: pair, test, cases, disagreements (starting free, starting in
/// contact), non-finite outputs, worst errors, and impacts beyond [`IMPACT_LIMIT`].
pub fn table(results: &[PairResult]) -> String {
    let mut out = format!(
        "{:<14} {:<7} {:>8} {:>6} {:>7} {:>6} {:>10} {:>10} {:>10} {:>6}\n",
        "pair",
        "test",
        "cases",
        "free",
        "started",
        "nan",
        "depth px",
        "normal °",
        "impact px",
        "late"
    );
    for r in results {
        for (test, t) in [("contact", &r.contact), ("toi", &r.swept)] {
            let (impact, late) = if test == "toi" {
                (format!("{:.2e}", t.impact), t.late.to_string())
            } else {
                ("-".into(), "-".into())
            };
            out.push_str(&format!(
                "{:<14} {:<7} {:>8} {:>6} {:>7} {:>6} {:>10.2e} {:>10.2e} {:>10} {:>6}\n",
                r.pair.name(),
                test,
                t.cases,
                t.free,
                t.started,
                t.non_finite,
                t.depth,
                t.normal,
                impact,
                late
            ));
        }
    }
    out
}

/// The reference shape of a case, or `None` for a gate the ball passes.
pub fn shape64(case: &Case) -> Option<Shape64> {
    crate::kinds::shape64(case.geom, case.v)
}

/// The library's contact for a case.
fn library_contact(pair: Pair, case: &Case) -> Option<Contact> {
    match (pair, case.geom) {
        (Pair::Ball, Geometry::Circle { c, r }) => contact_ball_ball(case.c, case.r, c, r),
        (_, g) => contact_ball_shape(case.c, case.r, case.v, &g),
    }
}

/// The library's swept answer for a case.
fn library_toi(pair: Pair, case: &Case) -> Option<Impact> {
    match (pair, case.geom) {
        (Pair::Ball, Geometry::Circle { c, r }) => {
            toi_ball_ball(case.c, case.r, case.d, c, r, case.d2)
        }
        (_, g) => toi_ball_shape(case.c, case.r, case.d, case.v, &g),
    }
}

/// Compares one contact test with the reference.
fn check_contact(pair: Pair, case: &Case, tally: &mut Tally) {
    tally.cases += 1;
    let got = library_contact(pair, case);
    if let Some(h) = got {
        if !contact_finite(&h) {
            tally.non_finite += 1;
            tally.note(format!("non-finite contact {h:?} for {case:?}"));
        }
    }
    if case.kind == Kind::Extreme {
        return;
    }
    let tol = tolerance(case.r);
    let (c, r) = (case.c.as_dvec2(), case.r.max(0.0) as f64);
    let shape = shape64(case);
    let at = |slack: f64| shape.and_then(|s| reference::contact(&s, c, r, slack));
    let (strict, loose) = (at(-tol), at(tol));
    if (got.is_some() && loose.is_none()) || (got.is_none() && strict.is_some()) {
        tally.free += 1;
        tally.note(format!(
            "contact {got:?}, reference {:?}, {case:?}",
            at(0.0)
        ));
        return;
    }
    if let (Some(h), Some(sure), Some(want)) = (got, strict, at(0.0)) {
        let depth_err = (h.depth as f64 - (r - want.gap)).abs();
        measure(tally, depth_err, normal_error(&h, &want, sure.sure), 0.0);
    }
}

/// Compares one swept test with the reference.
fn check_swept(pair: Pair, case: &Case, tally: &mut Tally) {
    tally.cases += 1;
    let got = library_toi(pair, case);
    if let Some(h) = got {
        if !(contact_finite(&h.contact) && (0.0..=1.0).contains(&h.t)) {
            tally.non_finite += 1;
            tally.note(format!("non-finite impact {h:?} for {case:?}"));
        }
    }
    if case.kind == Kind::Extreme {
        return;
    }
    let tol = tolerance(case.r);
    let (c, r) = (case.c.as_dvec2(), case.r.max(0.0) as f64);
    let d = case.d.as_dvec2() - case.d2.as_dvec2();
    let shape = shape64(case);
    let at = |slack: f64| shape.and_then(|s| reference::first_touch(&s, c, r, d, slack));
    let (strict, loose, want) = (at(-tol), at(tol), at(0.0));
    // Free: clear of contact by more than the tolerance.
    let free = shape.is_none_or(|s| reference::contact(&s, c, r, tol).is_none());
    // Growing a test does not always make it hit more (a ball inside a ring can be moving out
    // grown and in as it is), so a hit is surely wrong only when all three miss, and a miss
    // only when all three hit and the ball does not come in beside the feature first (where
    // the guard point takes it).
    let none_hit = strict.is_none() && want.is_none() && loose.is_none();
    let all_hit = strict.is_some() && want.is_some() && loose.is_some_and(|l| !l.side);
    if (got.is_some() && none_hit) || (got.is_none() && all_hit) {
        if free {
            tally.free += 1;
            tally.note(format!(
                "free start: toi {got:?}, reference {want:?}, {case:?}"
            ));
        } else {
            tally.started += 1;
        }
        return;
    }
    let (Some(h), Some(sure), Some(want), Some(grown)) = (got, strict, want, loose) else {
        return;
    };
    // The impact is well defined only if the tolerance moves it by about itself (a ball that
    // starts at the end of a sweep may touch it at once grown and only later shrunk) and it
    // is not within the tolerance of a span's or sweep's end (the guard point's business).
    let inside = shape.is_some_and(|s| reference::nearest(&s, c + d * want.t, -tol).is_some());
    if inside && (sure.t - grown.t) * d.dot(want.near.normal).abs() <= 4.0 * tol {
        measure_impact(tally, &h, [sure, want, grown], d, r, case);
    }
}

/// Folds a robust swept hit's errors into the tally, against the nearest of the shrunk,
/// nominal and grown reference answers (the library may round to any of them).
fn measure_impact(tally: &mut Tally, h: &Impact, refs: [Touch; 3], d: DVec2, r: f64, case: &Case) {
    let off = |w: &Touch| (h.t as f64 - w.t).abs() * d.dot(w.near.normal).abs();
    let want = refs
        .into_iter()
        .reduce(|a, b| if off(&b) < off(&a) { b } else { a })
        .expect("three answers");
    let impact = off(&want);
    let depth_want = if want.t == 0.0 {
        r - want.near.gap
    } else {
        0.0
    };
    let depth_err = (h.contact.depth as f64 - depth_want.max(0.0)).abs();
    let normal = normal_error(&h.contact, &want.near, refs[0].near.sure);
    measure(tally, depth_err, normal, impact);
    if impact > IMPACT_LIMIT {
        tally.late += 1;
        tally.note(impact_note(impact, h, &want, case));
    }
}

/// The description of a late impact.
fn impact_note(err: f64, h: &Impact, want: &Touch, case: &Case) -> String {
    format!(
        "impact error {err:.3e} px: t {} against {}, {case:?}",
        h.t, want.t
    )
}

/// Folds one robust hit's errors into the worst figures.
fn measure(tally: &mut Tally, depth: f64, normal: Option<f64>, impact: f64) {
    tally.depth = tally.depth.max(depth);
    tally.impact = tally.impact.max(impact);
    if let Some(n) = normal {
        tally.normal = tally.normal.max(n);
    }
}

/// Angle between the library's normal and the reference's (degrees), where the reference's
/// is not arbitrary (`sure`: not even within the tolerance).
fn normal_error(h: &Contact, want: &Near, sure: bool) -> Option<f64> {
    if !(sure && want.sure) {
        return None;
    }
    let n = h.normal.as_dvec2();
    let cos = n.dot(want.normal) / n.length().max(1e-300);
    Some(cos.clamp(-1.0, 1.0).acos().to_degrees())
}

/// True when every field of the contact is finite.
fn contact_finite(h: &Contact) -> bool {
    h.point.is_finite() && h.normal.is_finite() && h.depth.is_finite()
}
