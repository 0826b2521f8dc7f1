//! Short-lived visual effects fed by the world's hits: hit points, reticles, tangents, lights,
//! and ball tracks. Frame-time based; they never touch the simulation.

use collide::geom::Outline;
use collide::world::{Hit, HitWith};
use collide::{BallId, Geometry, Vec2, World};
use std::collections::{HashMap, HashSet, VecDeque};

/// How long a hit point, reticle or tangent stays (s).
pub const HIT_LIFE: f32 = 1.0;
/// How long a shape stays lit after a hit (s).
pub const LIGHT_LIFE: f32 = 0.35;
/// Positions kept per ball track.
const TRACK_LEN: usize = 40;
/// Balls with a track: the first this many (one line per track point is costly in software
/// rendering, and filled balls are placed at random, so these are a fair sample).
pub const TRACK_BALLS: usize = 500;
/// Most hit effects alive at once.
const MAX_HITS: usize = 1500;

/// What kind of collision a reticle marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HitKind {
    /// Ball against ball.
    Ball,
    /// Ball against a segment or gate.
    Segment,
    /// Ball against an arc.
    Arc,
    /// Ball against a point or a circle.
    Round,
}

/// One hit being shown.
#[derive(Clone, Copy, Debug)]
pub struct HitFx {
    /// Contact point (world px).
    pub point: Vec2,
    /// Tangent direction at the contact (unit), for the tangents overlay.
    pub tangent: Option<Vec2>,
    /// Kind of collision.
    pub kind: HitKind,
    /// Seconds since the hit.
    pub age: f32,
}

/// All effects.
#[derive(Default)]
pub struct Fx {
    /// Recent hits.
    pub hits: VecDeque<HitFx>,
    /// Seconds each obstacle stays lit.
    pub lights: Vec<f32>,
    /// Recent positions of the first [`TRACK_BALLS`] balls, by id (a track stays with its
    /// ball when others leave).
    pub tracks: HashMap<BallId, VecDeque<Vec2>>,
    /// The hits taken in the last update (for the energy window's restitution).
    pub frame_hits: Vec<Hit>,
}

impl Fx {
    /// Forgets everything (new scene, clear).
    pub fn reset(&mut self) {
        self.hits.clear();
        self.lights.clear();
        self.tracks.clear();
    }

    /// Ages the effects by `dt` seconds and takes the world's new hits.
    pub fn update(&mut self, world: &mut World, dt: f32, keep_tracks: bool) {
        for h in &mut self.hits {
            h.age += dt;
        }
        while self.hits.front().is_some_and(|h| h.age > HIT_LIFE) {
            self.hits.pop_front();
        }
        self.lights.resize(world.shapes().len(), 0.0);
        for l in &mut self.lights {
            *l = (*l - dt).max(0.0);
        }
        let hits: Vec<Hit> = world.drain_hits().collect();
        for hit in &hits {
            self.take_hit(world, hit);
        }
        self.frame_hits = hits;
        self.update_tracks(world, keep_tracks);
    }

    fn take_hit(&mut self, world: &World, hit: &Hit) {
        let (kind, tangent) = match hit.with {
            HitWith::Ball(_) => (HitKind::Ball, None),
            HitWith::Shape(s) => {
                self.lights[s as usize] = LIGHT_LIFE;
                classify(world.shapes()[s as usize].geom, hit.point)
            }
        };
        if self.hits.len() >= MAX_HITS {
            self.hits.pop_front();
        }
        self.hits.push_back(HitFx {
            point: hit.point,
            tangent,
            kind,
            age: 0.0,
        });
    }

    fn update_tracks(&mut self, world: &World, keep: bool) {
        if !keep {
            self.tracks.clear();
            return;
        }
        let balls = world.balls();
        let n = balls.len().min(TRACK_BALLS);
        let tracked: HashSet<BallId> = (0..n).filter_map(|i| world.ball_id(i)).collect();
        self.tracks.retain(|id, _| tracked.contains(id));
        for (i, b) in balls.iter().enumerate().take(n) {
            let Some(id) = world.ball_id(i) else { continue };
            let t = self.tracks.entry(id).or_default();
            if t.len() >= TRACK_LEN {
                t.pop_front();
            }
            t.push_back(b.pos);
        }
    }
}

/// The reticle style and the tangent at `p` for a hit on geometry `g`: along a line, round an
/// arc or a disc, none at a point, a group or a polygon's face.
fn classify(g: Geometry, p: Vec2) -> (HitKind, Option<Vec2>) {
    match g.outline() {
        Outline::Line { a, b } | Outline::Gate { a, b, .. } => {
            (HitKind::Segment, Some((b - a).normalize_or_zero()))
        }
        Outline::Arc { c, .. } => (HitKind::Arc, Some((p - c).perp().normalize_or_zero())),
        Outline::Disc { c, .. } => (HitKind::Round, Some((p - c).perp().normalize_or_zero())),
        Outline::Dot(_) | Outline::Group(_) => (HitKind::Round, None),
        Outline::Polygon(_) => (HitKind::Segment, None),
    }
}
