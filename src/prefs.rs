//! Settings that persist between runs: the overlays, the iterations, the last scene, the
//! window size and the sound (mute, volume), in `settings.ron` in the user's config folder
//! (`dirs::config_dir()`, e.g. `~/.config/collision-math-toy/`; the environment variable
//! `CMT_CONFIG_DIR` overrides the folder). Read at start and written on quit by a window run;
//! `--reset-settings` deletes them. Runs with `--frames` or `--headless` (the tests, CI,
//! scripts) neither read nor write them, so they never depend on what a user saved.

use crate::cli::Args;
use crate::state::{Colouring, Show};
use serde::{Deserialize, Serialize};
#[cfg(not(target_arch = "wasm32"))]
use std::fs;
use std::path::PathBuf;
// In a page the settings file is a key of the browser's storage.
#[cfg(target_arch = "wasm32")]
use crate::web::storage as fs;

/// What is remembered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    /// Overlays on, by `--show` name (and `sweeps`).
    pub show: Vec<String>,
    /// Motion iterations per frame.
    pub motion_iterations: u32,
    /// Collision iterations per motion iteration.
    pub collision_iterations: u32,
    /// The scene last loaded: a built-in name or a file path.
    pub last_scene: Option<String>,
    /// Window size (px).
    pub window: (i32, i32),
    /// Sound muted.
    pub muted: bool,
    /// Sound volume (0..=1).
    pub volume: f32,
    /// Read from and written to the config folder (false for `--frames` runs).
    #[serde(skip)]
    pub persist: bool,
}

impl Default for Prefs {
    fn default() -> Self {
        let s = collide::Settings::default();
        Self {
            show: vec!["lights".into(), "sweeps".into()],
            motion_iterations: s.motion_iterations,
            collision_iterations: s.collision_iterations,
            last_scene: None,
            window: (1280, 800),
            muted: false,
            volume: crate::sound::DEFAULT_VOLUME,
            persist: false,
        }
    }
}

/// The file, if there is a config folder.
#[cfg(not(target_arch = "wasm32"))]
pub fn path() -> Option<PathBuf> {
    let dir = match std::env::var_os("CMT_CONFIG_DIR") {
        Some(d) => PathBuf::from(d),
        None => dirs::config_dir()?.join("collision-math-toy"),
    };
    Some(dir.join("settings.ron"))
}

/// In a page: the key of the browser's storage the settings are kept under.
#[cfg(target_arch = "wasm32")]
pub fn path() -> Option<PathBuf> {
    Some(PathBuf::from("collision-math-toy/settings.ron"))
}

impl Prefs {
    /// The settings this run starts with (see the module notes).
    pub fn for_run(args: &Args) -> Prefs {
        if args.frames.is_some() || args.headless || args.replay.is_some() || args.command.is_some()
        {
            return Prefs::default();
        }
        let persist = Prefs {
            persist: true,
            ..Prefs::default()
        };
        let Some(path) = path() else {
            return persist;
        };
        if args.reset_settings {
            let _ = fs::remove_file(&path);
            return persist;
        }
        let Ok(text) = fs::read_to_string(&path) else {
            return persist;
        };
        match ron::from_str::<Prefs>(&text) {
            Ok(p) => Prefs {
                persist: true,
                window: (p.window.0.clamp(320, 8192), p.window.1.clamp(240, 8192)),
                motion_iterations: p.motion_iterations.clamp(1, 64),
                collision_iterations: p.collision_iterations.clamp(1, 64),
                volume: if p.volume.is_finite() {
                    p.volume.clamp(0.0, 1.0)
                } else {
                    crate::sound::DEFAULT_VOLUME
                },
                ..p
            },
            Err(e) => {
                eprintln!(
                    "warning: {}:{}:{}: {} (saved settings ignored)",
                    path.display(),
                    e.position.line,
                    e.position.col,
                    e.code
                );
                persist
            }
        }
    }

    /// Writes the settings, if this run persists them; a failure is only reported.
    pub fn save(&self) {
        if !self.persist {
            return;
        }
        let Some(path) = path() else { return };
        let text = ron::ser::to_string_pretty(self, Default::default());
        let written = text.map_err(|e| e.to_string()).and_then(|t| {
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir).map_err(|e| e.to_string())?;
            }
            fs::write(&path, t).map_err(|e| e.to_string())
        });
        if let Err(e) = written {
            eprintln!("warning: {}: settings not saved: {e}", path.display());
        }
    }

    /// Overlays on in `show`, by name.
    pub fn shown(show: &Show) -> Vec<String> {
        let flags = [
            ("hit-points", show.hit_points),
            ("tracks", show.tracks),
            ("tangents", show.tangents),
            ("aabbs", show.aabbs),
            ("reticles", show.reticles),
            ("velocity", show.velocity),
            ("sectors", show.sectors),
            ("lights", show.lights),
            ("sweeps", show.sweeps),
            ("heat", show.heat),
            ("impulses", show.impulses),
            (
                "colours",
                show.impulses && show.colouring == Colouring::Colours,
            ),
            (
                "islands",
                show.impulses && show.colouring == Colouring::Islands,
            ),
        ];
        flags
            .iter()
            .filter(|f| f.1)
            .map(|f| f.0.to_string())
            .collect()
    }

    /// Sets `show` to these overlays.
    pub fn apply_show(&self, show: &mut Show) {
        *show = Show::default();
        for name in &self.show {
            show.enable(name);
            if name == "sweeps" {
                show.sweeps = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[test]
    fn runs_with_frames_headless_or_replay_neither_read_nor_write_settings() {
        for argv in [
            &["cmt", "--frames", "10"][..],
            &["cmt", "--headless", "--frames", "1"],
            &["cmt", "--replay", "x.ron"],
        ] {
            let p = Prefs::for_run(&Args::parse_from(argv));
            assert!(!p.persist, "{argv:?}");
            assert_eq!(p, Prefs::default());
        }
    }

    #[test]
    fn settings_round_trip_through_ron_and_missing_fields_take_defaults() {
        let p = Prefs {
            show: vec!["tracks".into(), "aabbs".into()],
            motion_iterations: 9,
            collision_iterations: 2,
            last_scene: Some("lab".into()),
            window: (900, 700),
            muted: true,
            volume: 0.25,
            persist: false,
        };
        let text = ron::ser::to_string(&p).unwrap();
        assert_eq!(ron::from_str::<Prefs>(&text).unwrap(), p);
        let partial: Prefs = ron::from_str("(motion_iterations: 2)").unwrap();
        assert_eq!(partial.motion_iterations, 2);
        assert_eq!(partial.window, Prefs::default().window);
    }

    #[test]
    fn the_overlays_shown_come_back_as_they_were() {
        let mut show = Show {
            tracks: true,
            velocity: true,
            sweeps: true,
            ..Show::default()
        };
        let p = Prefs {
            show: Prefs::shown(&show),
            ..Prefs::default()
        };
        show = Show::default();
        p.apply_show(&mut show);
        assert!(show.tracks && show.velocity && show.sweeps);
        assert!(!show.lights && !show.aabbs);
    }
}
