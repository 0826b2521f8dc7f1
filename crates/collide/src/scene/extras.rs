//! The parts of a scene beyond the table: settings the scene starts with, balls placed by
//! the scene (optionally on pendulum strings), a fill of N seeded random balls (at the start,
//! or raining in over time), table friction and pockets. Every field is optional in the file,
//! so older scenes read as before.

use super::check::{check_num, check_vec, At};
use crate::geom::Ball;
use crate::rules::{Pocket, Rain, Rules, Tether};
use crate::world::World;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// Most balls a scene may place or fill.
pub(crate) const MAX_SCENE_BALLS: u32 = 1_000_000;

fn one() -> f32 {
    1.0
}

/// Settings a scene starts with (each left alone when absent).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingsDesc {
    /// Motion iterations per frame (1–64).
    #[serde(default)]
    pub motion_iterations: Option<u32>,
    /// Collision iterations per motion iteration (1–64).
    #[serde(default)]
    pub collision_iterations: Option<u32>,
    /// Factor on every combined elasticity (0–10).
    #[serde(default)]
    pub elasticity_scale: Option<f32>,
    /// Contact solver: `PushOut` (default) or `Soft`.
    #[serde(default)]
    pub solver: Option<crate::world::Solver>,
    /// Balls fall asleep (default: on with soft contacts, off with push-out).
    #[serde(default)]
    pub sleep: Option<bool>,
    /// Kinematic shapes turn at their speeds from the start (default off: the Rotate
    /// setting, which the app's `--rotate` and its Rotate box also turn on).
    #[serde(default)]
    pub rotate: Option<bool>,
}

/// A ball the scene places.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BallDesc {
    /// Centre (px).
    pub pos: Vec2,
    /// Velocity (px/s; default at rest).
    #[serde(default)]
    pub vel: Vec2,
    /// Radius (px).
    pub radius: f32,
    /// Elasticity (default 1).
    #[serde(default = "one")]
    pub elasticity: f32,
    /// Hangs on a string from this point (px): a pendulum whose string is the distance from
    /// the anchor to `pos`.
    #[serde(default)]
    pub anchor: Option<Vec2>,
}

/// Balls raining in along a segment instead of being placed at the start.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RainDesc {
    /// One end of the entry segment (px).
    pub from: Vec2,
    /// The other end (px).
    pub to: Vec2,
    /// Velocity the balls enter with (px/s); its length sets how often a wave enters.
    pub vel: Vec2,
}

/// N balls at seeded random places.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FillDesc {
    /// How many balls.
    pub count: u32,
    /// Smallest radius (px).
    pub min_radius: f32,
    /// Largest radius (px); radii shrink when `count` would not fit at the start.
    pub max_radius: f32,
    /// Top speed of balls placed at the start, in random directions (px/s; default 0).
    #[serde(default)]
    pub speed: f32,
    /// Rain them in over time instead (default: all at the start).
    #[serde(default)]
    pub rain: Option<RainDesc>,
}

/// A pocket.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PocketDesc {
    /// Centre (px).
    pub centre: Vec2,
    /// Radius (px): a ball whose centre comes this close falls in.
    pub radius: f32,
}

impl SettingsDesc {
    pub(super) fn validate(&self) -> Result<(), (At, String)> {
        let at = |m| (At::Key("settings"), m);
        for (v, name) in [
            (self.motion_iterations, "settings.motion_iterations"),
            (self.collision_iterations, "settings.collision_iterations"),
        ] {
            if let Some(n) = v {
                check_num(n as f32, name, 1.0, 64.0).map_err(at)?;
            }
        }
        if let Some(e) = self.elasticity_scale {
            check_num(e, "settings.elasticity_scale", 0.0, 10.0).map_err(at)?;
        }
        Ok(())
    }

    pub(super) fn apply(&self, w: &mut World) {
        if let Some(n) = self.motion_iterations {
            w.edit_settings(|st| st.motion_iterations = n);
        }
        if let Some(n) = self.collision_iterations {
            w.edit_settings(|st| st.collision_iterations = n);
        }
        if let Some(e) = self.elasticity_scale {
            w.edit_settings(|st| st.elasticity_scale = e);
        }
        if let Some(s) = self.solver {
            w.edit_settings(|st| st.solver = s);
        }
        if let Some(on) = self.sleep {
            w.edit_settings(|st| st.sleep.enabled = Some(on));
        }
        if let Some(on) = self.rotate {
            w.edit_settings(|st| st.rotate = on);
        }
    }
}

impl BallDesc {
    fn validate(&self) -> Result<(), String> {
        check_vec(self.pos, "pos")?;
        check_vec(self.vel, "vel")?;
        check_num(self.radius, "radius", 1e-3, 1e5)?;
        check_num(self.elasticity, "elasticity", 0.0, 10.0)?;
        if let Some(a) = self.anchor {
            check_vec(a, "anchor")?;
        }
        Ok(())
    }
}

impl FillDesc {
    fn validate(&self) -> Result<(), String> {
        if self.count > MAX_SCENE_BALLS {
            return Err(format!(
                "field `count`: at most {MAX_SCENE_BALLS}, got {}",
                self.count
            ));
        }
        check_num(self.min_radius, "min_radius", 0.05, 1e4)?;
        check_num(self.max_radius, "max_radius", 0.05, 1e4)?;
        if self.min_radius > self.max_radius {
            return Err(format!(
                "field `max_radius`: must be at least `min_radius` ({} > {})",
                self.min_radius, self.max_radius
            ));
        }
        check_num(self.speed, "speed", 0.0, 1e6)?;
        if let Some(r) = &self.rain {
            check_vec(r.from, "rain.from")?;
            check_vec(r.to, "rain.to")?;
            check_vec(r.vel, "rain.vel")?;
            check_num(r.vel.length(), "rain.vel (its length)", 1.0, 1e6)?;
        }
        Ok(())
    }
}

impl PocketDesc {
    fn validate(&self) -> Result<(), String> {
        check_vec(self.centre, "centre")?;
        check_num(self.radius, "radius", 1e-3, 1e5)
    }
}

/// Checks the scene's extra fields.
pub(super) fn validate(
    settings: &SettingsDesc,
    friction: Option<f32>,
    balls: &[BallDesc],
    fill: Option<&FillDesc>,
    pockets: &[PocketDesc],
) -> Result<(), (At, String)> {
    settings.validate()?;
    if let Some(f) = friction {
        check_num(f, "friction", 0.0, 1e7).map_err(|m| (At::Key("friction"), m))?;
    }
    if balls.len() > MAX_SCENE_BALLS as usize {
        let m = format!("field `balls`: at most {MAX_SCENE_BALLS} balls");
        return Err((At::Key("balls"), m));
    }
    for (i, b) in balls.iter().enumerate() {
        b.validate()
            .map_err(|m| (At::Key("balls"), format!("field `balls`: ball {i}: {m}")))?;
    }
    if let Some(f) = fill {
        f.validate()
            .map_err(|m| (At::Key("fill"), format!("field `fill`: {m}")))?;
    }
    for (i, p) in pockets.iter().enumerate() {
        p.validate().map_err(|m| {
            (
                At::Key("pockets"),
                format!("field `pockets`: pocket {i}: {m}"),
            )
        })?;
    }
    Ok(())
}

/// Places the scene's balls and fill and sets its rules in a freshly built world.
pub(super) fn populate(
    w: &mut World,
    friction: Option<f32>,
    balls: &[BallDesc],
    fill: Option<&FillDesc>,
    pockets: &[PocketDesc],
) {
    let mut rules = Rules {
        friction: friction.unwrap_or(0.0),
        pockets: pockets
            .iter()
            .map(|p| Pocket {
                centre: p.centre,
                radius: p.radius,
            })
            .collect(),
        ..Rules::default()
    };
    for (i, b) in balls.iter().enumerate() {
        // Scene balls take fixed colours by index, so a scene looks the same for every seed.
        let color = (i as u32).wrapping_mul(0x9e37_79b9);
        w.add_ball(Ball::new(b.pos, b.vel, b.radius, b.elasticity, color));
        if let Some(anchor) = b.anchor {
            let id = w.ball_id(w.balls().len() - 1).expect("the ball just added");
            rules.tethers.push(Tether {
                ball: id,
                anchor,
                length: (b.pos - anchor).length(),
            });
        }
    }
    if let Some(f) = fill {
        match f.rain {
            None => {
                w.fill_random(f.count, (f.min_radius, f.max_radius), f.speed);
            }
            Some(r) => {
                let scale = rain_scale(w.bounds(), f.count, f.max_radius);
                rules.rain = Some(Rain {
                    from: r.from,
                    to: r.to,
                    remaining: f.count,
                    radius: (f.min_radius * scale, f.max_radius * scale),
                    vel: r.vel,
                    wait: 0,
                })
            }
        }
    }
    w.set_rules(rules);
}

/// Share of the play area the rain's balls may cover at most.
const RAIN_COVER: f32 = 0.4;

/// Factor (≤ 1) on the rain's radii so that `n` balls of radius `r_max` cover at most
/// [`RAIN_COVER`] of the play area: `n·π·(s·r)² = c·A` gives `s = √(c·A / (n·π)) / r`.
fn rain_scale(bounds: crate::geom::Aabb, n: u32, r_max: f32) -> f32 {
    let size = bounds.size();
    let area = size.x * size.y * RAIN_COVER;
    let fit = (area / (n.max(1) as f32 * std::f32::consts::PI)).sqrt();
    (fit / r_max.max(1e-6)).clamp(0.01, 1.0)
}
