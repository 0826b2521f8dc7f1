//! The page's URL parameters, with the desktop's names and ranges: `launch`, `frames`,
//! `headless`. A bad value is refused with a message naming it.

/// What the URL asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// Balls to launch at the start (0-1000, as `--launch`).
    pub launch: u32,
    /// Frames to run before printing the summary line (`--frames`), if any.
    pub frames: Option<u64>,
    /// Run the frames as fast as possible, without drawing each (`--headless`).
    pub headless: bool,
}

/// Balls launched when the URL names no count, so the first page shows balls flying.
pub const DEFAULT_LAUNCH: u32 = 20;

/// The most balls a launch takes, as the desktop's `--launch`.
pub const MAX_LAUNCH: u32 = 1000;

impl Params {
    /// The parameters of a query string (`?launch=50&frames=600&headless`, the `?` optional).
    pub fn parse(query: &str) -> Result<Params, String> {
        let mut p = Params {
            launch: DEFAULT_LAUNCH,
            frames: None,
            headless: false,
        };
        let query = query.strip_prefix('?').unwrap_or(query);
        for pair in query.split('&').filter(|s| !s.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            match key {
                "launch" => p.launch = number(key, value, MAX_LAUNCH as u64)? as u32,
                "frames" => p.frames = Some(number(key, value, u64::MAX)?),
                "headless" if value.is_empty() || value == "1" || value == "true" => {
                    p.headless = true
                }
                "headless" => return Err(format!("headless: {value:?} is not 1 or true")),
                _ => {
                    return Err(format!(
                        "unknown parameter {key:?} (launch, frames, headless)"
                    ))
                }
            }
        }
        if p.headless && p.frames.is_none() {
            return Err("headless needs frames=N: how many frames to run".to_owned());
        }
        Ok(p)
    }
}

fn number(key: &str, value: &str, max: u64) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!(
            "{key}: {value:?} is not a whole number from 0 to {max}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_readme_headless_example_parses() {
        let p = Params::parse("?launch=50&frames=600&headless").unwrap();
        assert_eq!(
            p,
            Params {
                launch: 50,
                frames: Some(600),
                headless: true
            }
        );
    }

    #[test]
    fn an_empty_query_launches_the_default_balls_and_runs_on() {
        let p = Params::parse("").unwrap();
        assert_eq!(
            (p.launch, p.frames, p.headless),
            (DEFAULT_LAUNCH, None, false)
        );
    }

    #[test]
    fn a_launch_over_the_desktop_range_is_refused_with_its_name() {
        let e = Params::parse("?launch=1001").unwrap_err();
        assert!(e.starts_with("launch: \"1001\""), "{e}");
    }

    #[test]
    fn an_unknown_parameter_is_refused_with_its_name() {
        let e = Params::parse("?lunch=5").unwrap_err();
        assert!(e.contains("\"lunch\""), "{e}");
    }

    #[test]
    fn headless_without_frames_is_refused() {
        assert!(Params::parse("?headless").is_err());
    }
}
