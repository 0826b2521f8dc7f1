//! F12: the frame as drawn, to a PNG named by the date and time in the current folder.

use super::App;
use macroquad::prelude::get_screen_data;

impl App {
    /// Writes the frame as drawn to `screenshot-YYYYMMDD-HHMMSS.png` and says so in the panel.
    pub(super) fn screenshot(&mut self) {
        let name = screenshot_name();
        #[cfg(not(target_arch = "wasm32"))]
        get_screen_data().export_png(&name);
        // A page has no folder: the picture is downloaded (`web.rs`).
        #[cfg(target_arch = "wasm32")]
        let name = self.download_png(get_screen_data(), name);
        self.feedback.notes.message = Some(format!("Screenshot written: {name}"));
    }
}

/// A file name in the current folder from the wall clock: `screenshot-YYYYMMDD-HHMMSS.png`
/// (UTC).
fn screenshot_name() -> String {
    let secs = crate::clock::unix_seconds();
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let (y, m, d) = civil_from_days(days);
    let (hh, mm, ss) = (rem / 3600, rem / 60 % 60, rem % 60);
    format!("screenshot-{y:04}{m:02}{d:02}-{hh:02}{mm:02}{ss:02}.png")
}

/// Year, month, day of a day count since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + (m <= 2) as i64, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates_match_known_days() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
    }
}
