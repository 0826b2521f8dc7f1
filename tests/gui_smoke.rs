//! The real binary in a real window: runs frames, writes a screenshot that is not blank, and
//! ends in the same state as the headless run. Uses $DISPLAY, or starts Xvfb when there is
//! none. With CI=true a missing display is a failure, not a skip.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const EXE: &str = env!("CARGO_BIN_EXE_collision-math-toy");

/// One window test at a time: each may start its own Xvfb and a window that Mesa renders on
/// the CPU, and two at once on a two-core machine only slow each other down.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// A virtual X server, stopped when dropped: SIGTERM first, so that it removes its socket and
/// lock file (a killed server leaves both behind), SIGKILL if it has not gone in two seconds.
struct Xvfb(Child);

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status();
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(2) {
            if let Ok(Some(_)) = self.0.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A display to use: the existing one, or a fresh Xvfb. The error says why neither could be had.
fn display() -> Result<(String, Option<Xvfb>), String> {
    if let Ok(d) = std::env::var("DISPLAY") {
        if !d.is_empty() {
            return Ok((d, None));
        }
    }
    let (n, xvfb) = start_xvfb()?;
    Ok((format!(":{n}"), Some(xvfb)))
}

/// A fresh Xvfb and its display number. Xvfb picks a free number itself (`-displayfd`) and
/// writes it once it accepts connections, so nothing here scans /tmp for sockets or locks.
fn start_xvfb() -> Result<(u32, Xvfb), String> {
    start_xvfb_sized("1280x800x24")
}

/// [`start_xvfb`] with a screen of `size` ("WxHxDEPTH").
fn start_xvfb_sized(size: &str) -> Result<(u32, Xvfb), String> {
    let child = Command::new("Xvfb")
        .args(["-displayfd", "1", "-screen", "0", size, "-nolisten", "tcp"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start Xvfb: {e}"))?;
    let mut guard = Xvfb(child);
    let mut line = String::new();
    let stdout = guard.0.stdout.take().expect("piped stdout");
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line)
        .map_err(|e| format!("reading Xvfb's display number: {e}"))?;
    match line.trim().parse::<u32>() {
        Ok(n) => Ok((n, guard)),
        Err(_) => {
            let status = guard.0.wait().map(|s| s.to_string()).unwrap_or_default();
            Err(format!("Xvfb gave no display number ({status})"))
        }
    }
}

/// An Xvfb this suite starts leaves no socket or lock file behind once stopped: killed
/// outright, each one did, and after a hundred runs CI's tests found no free display number.
#[test]
fn a_stopped_xvfb_leaves_no_socket_or_lock() {
    let _turn = one_at_a_time();
    let Some((n, xvfb)) = or_skip(start_xvfb()) else {
        return;
    };
    let lock = format!("/tmp/.X{n}-lock");
    let socket = format!("/tmp/.X11-unix/X{n}");
    assert!(Path::new(&socket).exists(), "{socket} while Xvfb runs");
    drop(xvfb);
    assert!(!Path::new(&lock).exists(), "{lock} left behind");
    assert!(!Path::new(&socket).exists(), "{socket} left behind");
}

fn need_display() -> Option<(String, Option<Xvfb>)> {
    or_skip(display())
}

/// The display (or Xvfb) to test with, or `None` to skip the test with a word why; with
/// CI=true no display is a failure.
fn or_skip<T>(got: Result<T, String>) -> Option<T> {
    match got {
        Ok(d) => Some(d),
        Err(why) => {
            let ci = std::env::var("CI").is_ok_and(|v| v == "true");
            assert!(!ci, "CI=true but no X display could be had: {why}");
            eprintln!("skipping: no X display ({why})");
            None
        }
    }
}

fn field(summary: &str, key: &str) -> String {
    summary
        .split_whitespace()
        .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
        .unwrap_or_else(|| panic!("no {key} in {summary:?}"))
        .to_string()
}

/// A screenshot's pixels: the bytes, row after row from the top, its width and height, and
/// the bytes per pixel.
fn png_pixels(path: &Path) -> (Vec<u8>, usize, usize, usize) {
    let decoder = png::Decoder::new(std::fs::File::open(path).expect("screenshot exists"));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("PNG data");
    buf.truncate(info.buffer_size());
    let (w, h) = (info.width as usize, info.height as usize);
    (buf, w, h, info.color_type.samples())
}

/// Distinct colours among a sample of the PNG's pixels.
fn distinct_colours(path: &Path) -> usize {
    let (buf, _, _, bpp) = png_pixels(path);
    let mut seen: Vec<&[u8]> = buf.chunks(bpp).step_by(97).collect();
    seen.sort();
    seen.dedup();
    seen.len()
}

/// A folder of this test process for a test's screenshots, named by `tag`.
fn scratch_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cmt-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the app in a window on `display` with `args`, writing a screenshot of the last frame
/// to `png`.
fn window_run(display: &str, args: &[&str], png: &Path) -> std::process::Output {
    Command::new(EXE)
        .env("DISPLAY", display)
        .args(args)
        .arg("--screenshot")
        .arg(png)
        .output()
        .expect("the app starts")
}

/// The hash on the summary line of the headless run with `args`.
fn headless_hash(args: &[&str]) -> String {
    let out = Command::new(EXE)
        .args(args)
        .arg("--headless")
        .output()
        .expect("the app starts");
    let stdout = String::from_utf8_lossy(&out.stdout);
    field(stdout.lines().last().expect("a summary line"), "hash")
}

#[test]
fn window_runs_frames_and_writes_a_screenshot() {
    let _turn = one_at_a_time();
    let Some((display, _xvfb)) = need_display() else {
        return;
    };
    let dir = scratch_dir("smoke");
    let png = dir.join("smoke.png");
    let args = ["--launch", "50", "--frames", "300"];
    let out = window_run(&display, &args, &png);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "exit {:?}\nstdout {stdout}\nstderr {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = stdout.lines().last().expect("a summary line");
    assert_eq!(field(summary, "frames"), "300");
    assert_eq!(field(summary, "balls"), "50");
    // Just before it, where the main thread's time went: three figures in ms per frame.
    let main = stdout.lines().rev().nth(1).expect("a main-thread line");
    assert!(main.starts_with("main thread: "), "{main}");
    for key in ["work_ms", "waited_for_physics_ms", "next_frame_ms"] {
        let ms: f64 = field(main, key).parse().expect("a number of ms");
        assert!(ms.is_finite() && ms >= 0.0, "{key}={ms}");
    }
    // The panels are kept as pixels between refreshes (`panel_cache.rs`): with 50 balls the
    // frames come far faster than the 20 refreshes a second, so most show them kept; the first
    // frame and the last (the screenshot's) draw them.
    let count = |key| field(main, key).parse::<u64>().expect("a count");
    let (drawn, kept) = (count("panels_drawn"), count("panels_kept"));
    assert!(drawn >= 2 && kept > 0, "{main}");
    assert_eq!(drawn + kept, 301, "{main}");
    let colours = distinct_colours(&png);
    assert!(
        colours > 20,
        "screenshot looks blank: {colours} distinct colours"
    );

    // The window fed 1/60 s per frame, so it must end where the headless run ends.
    assert_eq!(
        field(summary, "hash"),
        headless_hash(&args),
        "window and headless runs differ"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Pixels of the PNG whose colour is within `tol` of `rgb` on every channel.
fn pixels_near(path: &Path, rgb: [u8; 3], tol: u8) -> usize {
    let (buf, _, _, bpp) = png_pixels(path);
    buf.chunks(bpp)
        .filter(|px| (0..3).all(|k| px[k].abs_diff(rgb[k]) <= tol))
        .count()
}

/// `--edit` opens the editor on the table: the arc-start markers (green discs, rgb 0.3, 1,
/// 0.4) are drawn, and they are not there in play mode.
#[test]
fn edit_flag_opens_the_editor_with_arc_end_markers() {
    let _turn = one_at_a_time();
    let Some((display, _xvfb)) = need_display() else {
        return;
    };
    let dir = scratch_dir("edit");
    let shot = |edit: bool| {
        let png = dir.join(format!("edit-{edit}.png"));
        let mut cmd = Command::new(EXE);
        cmd.env("DISPLAY", &display)
            .args(["--frames", "5", "--screenshot"])
            .arg(&png);
        if edit {
            cmd.arg("--edit");
        }
        let out = cmd.output().expect("the app starts");
        assert!(out.status.success(), "{out:?}");
        pixels_near(&png, [77, 255, 102], 3)
    };
    let (editing, playing) = (shot(true), shot(false));
    assert!(editing > 100, "{editing} marker pixels in edit mode");
    assert_eq!(playing, 0, "{playing} marker pixels in play mode");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Saturated pixels (balls, lit shapes: max − min channel over 80) in rows `rows` and
/// columns `cols`, as fractions of the PNG's height and width.
fn saturated_in(path: &Path, rows: (f32, f32), cols: (f32, f32)) -> usize {
    let (buf, w, h, bpp) = png_pixels(path);
    let span = |(a, b): (f32, f32), n: usize| (a * n as f32) as usize..(b * n as f32) as usize;
    let mut n = 0;
    for y in span(rows, h) {
        for x in span(cols, w) {
            let px = &buf[(y * w + x) * bpp..][..3];
            let (lo, hi) = (px.iter().min().unwrap(), px.iter().max().unwrap());
            n += (hi - lo > 80) as usize;
        }
    }
    n
}

/// With thousands of balls the view is drawn on the CPU and copied into the window in one go
/// (`splat.rs`, `raw_gl.rs`): the copy must not turn it upside down. On the table with
/// gravity the balls pile up at the bottom, so the bottom of the view has far more ball
/// pixels than its top. The run still ends where the headless one does.
#[test]
fn many_balls_drawn_on_the_cpu_land_right_side_up() {
    let _turn = one_at_a_time();
    let Some((display, _xvfb)) = need_display() else {
        return;
    };
    let dir = scratch_dir("pile");
    let png = dir.join("pile.png");
    let args = ["--scene", "table", "--fill", "3000", "--frames", "150"];
    let out = window_run(&display, &args, &png);
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary = stdout.lines().last().expect("a summary line");
    assert_eq!(
        field(summary, "hash"),
        headless_hash(&args),
        "window and headless runs differ"
    );
    let cols = (0.03, 0.68);
    let top = saturated_in(&png, (0.08, 0.2), cols);
    let bottom = saturated_in(&png, (0.78, 0.9), cols);
    assert!(
        bottom > 10_000 && bottom > 4 * top,
        "ball pixels: {top} near the top of the view, {bottom} near the bottom"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs the app in a window on `display` with `args` and `env`, writing a screenshot of the
/// last frame to `png`; panics with the output when it fails. The output.
fn window_run_env(
    display: &str,
    args: &[&str],
    env: &[(&str, &str)],
    png: &Path,
) -> std::process::Output {
    let out = Command::new(EXE)
        .env("DISPLAY", display)
        .envs(env.iter().copied())
        .args(args)
        .arg("--screenshot")
        .arg(png)
        .output()
        .expect("the app starts");
    assert!(out.status.success(), "{out:?}");
    out
}

/// The pixels of a screenshot as RGB, with its width and height.
fn rgb(path: &Path) -> (Vec<[u8; 3]>, usize, usize) {
    let (buf, w, h, bpp) = png_pixels(path);
    let px = buf.chunks(bpp).map(|p| [p[0], p[1], p[2]]).collect();
    (px, w, h)
}

/// How far two pictures of the same size are apart within `rows` × `cols` (fractions of the
/// height and width): the mean difference of a channel (0–255) and the share of pixels with
/// a channel more than 64 apart.
fn picture_difference(
    a: &(Vec<[u8; 3]>, usize, usize),
    b: &(Vec<[u8; 3]>, usize, usize),
    rows: (f32, f32),
    cols: (f32, f32),
) -> (f64, f64) {
    assert_eq!((a.1, a.2), (b.1, b.2), "sizes differ");
    let (w, h) = (a.1, a.2);
    let (y0, y1) = ((rows.0 * h as f32) as usize, (rows.1 * h as f32) as usize);
    let (x0, x1) = ((cols.0 * w as f32) as usize, (cols.1 * w as f32) as usize);
    let (mut sum, mut far, mut n) = (0u64, 0u64, 0u64);
    for y in y0..y1 {
        for x in x0..x1 {
            let (p, q) = (a.0[y * w + x], b.0[y * w + x]);
            let d: Vec<u8> = (0..3).map(|k| p[k].abs_diff(q[k])).collect();
            sum += d.iter().map(|&v| v as u64).sum::<u64>();
            far += (d.iter().any(|&v| v > 64)) as u64;
            n += 1;
        }
    }
    (sum as f64 / (3 * n) as f64, far as f64 / n as f64)
}

/// The view of the table: below the toolbar, left of the panel, above the bar (fractions
/// of a 1280 × 800 window's height and width).
const VIEW_ROWS: (f32, f32) = (0.09, 0.89);
const VIEW_COLS: (f32, f32) = (0.03, 0.72);

/// The two drawing paths, forced, draw the same frame alike: the CPU-drawn image of small
/// balls (software) and one quad per ball (GPU), within a tolerance for the balls' rims; the
/// panel names the path; the simulation is the same.
#[test]
fn the_gpu_and_software_paths_draw_the_same_picture() {
    let _turn = one_at_a_time();
    let Some((display, _xvfb)) = need_display() else {
        return;
    };
    let dir = scratch_dir("paths");
    let args = ["--fill", "2000", "--frames", "90", "--renderer"];
    let run = |path: &str| {
        let png = dir.join(format!("{path}.png"));
        let out = window_run_env(&display, &[&args[..], &[path]].concat(), &[], &png);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        (
            rgb(&png),
            err,
            field(stdout.lines().last().unwrap(), "hash"),
        )
    };
    let (gpu, gpu_log, gpu_hash) = run("gpu");
    let (soft, soft_log, soft_hash) = run("software");
    assert!(gpu_log.contains("GPU path"), "{gpu_log}");
    assert!(soft_log.contains("software path"), "{soft_log}");
    assert_eq!(gpu_hash, soft_hash);
    let (mean, far) = picture_difference(&gpu, &soft, VIEW_ROWS, VIEW_COLS);
    assert!(mean < 3.0 && far < 0.01, "mean {mean:.2}, far {far:.4}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A GL without framebuffer blits (here Mesa told to be OpenGL 2.1 without
/// GL_ARB_framebuffer_object) keeps the software path running without its copies, with a line
/// in the log, and draws the same frame.
#[test]
fn a_gl_without_blits_falls_back_with_a_line_in_the_log() {
    let _turn = one_at_a_time();
    let Some((display, _xvfb)) = need_display() else {
        return;
    };
    let dir = scratch_dir("gl21");
    let args = ["--fill", "2000", "--frames", "60", "--renderer", "software"];
    let old_gl = [
        ("MESA_GL_VERSION_OVERRIDE", "2.1"),
        ("MESA_EXTENSION_OVERRIDE", "-GL_ARB_framebuffer_object"),
    ];
    let (a, b) = (dir.join("gl21.png"), dir.join("gl45.png"));
    let out = window_run_env(&display, &args, &old_gl, &a);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("no framebuffer blits"), "{log}");
    window_run_env(&display, &args, &[], &b);
    let (mean, far) = picture_difference(&rgb(&a), &rgb(&b), VIEW_ROWS, VIEW_COLS);
    assert!(mean < 1.0 && far < 0.002, "mean {mean:.2}, far {far:.4}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// At a forced scale of 2 the window shows the scale-1 picture at twice the size: the view,
/// the balls and the panels where they were, in twice the pixels (compared 2 × 2 pixels to
/// one). Both paths; the view's edges and the balls' rims are sharper, not moved.
#[test]
fn a_forced_scale_of_two_draws_the_same_picture_twice_as_large() {
    let _turn = one_at_a_time();
    let Some((n, _xvfb)) = or_skip(start_xvfb_sized("2560x1600x24")) else {
        return;
    };
    let display = format!(":{n}");
    let dir = scratch_dir("scale");
    for path in ["software", "gpu"] {
        let args = ["--fill", "1000", "--frames", "60", "--renderer", path];
        let (one, two) = (dir.join("one.png"), dir.join("two.png"));
        window_run_env(&display, &args, &[], &one);
        window_run_env(
            &display,
            &[&args[..], &["--scale", "2"]].concat(),
            &[],
            &two,
        );
        let one = rgb(&one);
        let (big, w, h) = rgb(&two);
        assert_eq!((w, h), (2 * one.1, 2 * one.2), "{path}: the window doubles");
        // Each 2 × 2 block of the large picture, averaged, against one pixel of the small.
        let halved: Vec<[u8; 3]> = (0..one.2)
            .flat_map(|y| (0..one.1).map(move |x| (x, y)))
            .map(|(x, y)| {
                let at = |dx: usize, dy: usize| big[(2 * y + dy) * w + 2 * x + dx];
                let mean = |k: usize| {
                    let s: u32 = [at(0, 0), at(1, 0), at(0, 1), at(1, 1)]
                        .iter()
                        .map(|p| p[k] as u32)
                        .sum();
                    (s / 4) as u8
                };
                [mean(0), mean(1), mean(2)]
            })
            .collect();
        // Sharp, not magnified: where the balls are (saturated colours), many 2 × 2 blocks of
        // the large picture hold more than one colour, as a rim drawn at the full resolution
        // does; a picture drawn at scale 1 and magnified would have none there.
        let (mut blocks, mut mixed) = (0u64, 0u64);
        for y in (VIEW_ROWS.0 * one.2 as f32) as usize..(VIEW_ROWS.1 * one.2 as f32) as usize {
            for x in (VIEW_COLS.0 * one.1 as f32) as usize..(VIEW_COLS.1 * one.1 as f32) as usize {
                let p = one.0[y * one.1 + x];
                let (lo, hi) = (p.iter().min().unwrap(), p.iter().max().unwrap());
                if hi - lo < 80 {
                    continue;
                }
                let at = |dx: usize, dy: usize| big[(2 * y + dy) * w + 2 * x + dx];
                blocks += 1;
                mixed +=
                    (at(0, 0) != at(1, 0) || at(0, 0) != at(0, 1) || at(0, 0) != at(1, 1)) as u64;
            }
        }
        let share = mixed as f64 / blocks.max(1) as f64;
        assert!(
            blocks > 1000 && share > 0.4,
            "{path}: {mixed} of {blocks} blocks mixed"
        );
        let halved = (halved, one.1, one.2);
        let (mean, far) = picture_difference(&halved, &one, VIEW_ROWS, VIEW_COLS);
        assert!(
            mean < 4.0 && far < 0.02,
            "{path}: mean {mean:.2}, far {far:.4}"
        );
        // The panel's upper sections too (text is drawn afresh at each size, so more loosely);
        // lower down, the load read-outs and the advice follow the frame's timing.
        let (mean, _) = picture_difference(&halved, &one, (0.1, 0.4), (0.77, 0.99));
        assert!(mean < 12.0, "{path}: panels differ by {mean:.2}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--sound-out` in a window writes the same sound as the headless run: the impacts are
/// timed on simulated time, whatever the frame rate.
#[test]
fn the_window_writes_the_same_sound_as_the_headless_run() {
    let _turn = one_at_a_time();
    let Some((display, _xvfb)) = need_display() else {
        return;
    };
    let dir = scratch_dir("sound");
    let (window_wav, headless_wav) = (dir.join("w.wav"), dir.join("h.wav"));
    let args = ["--launch", "20", "--frames", "240", "--sound-out"];
    let w = [&args[..], &[window_wav.to_str().unwrap()]].concat();
    window_run_env(&display, &w, &[], &dir.join("w.png"));
    let h = [&args[..], &[headless_wav.to_str().unwrap(), "--headless"]].concat();
    let out = Command::new(EXE).args(&h).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let (a, b) = (
        std::fs::read(&window_wav).unwrap(),
        std::fs::read(&headless_wav).unwrap(),
    );
    assert_eq!(a.len(), 44 + 2 * 4 * 44_100, "four simulated seconds");
    assert!(a == b, "the window's sound differs from the headless run's");
    assert!(a[44..].iter().any(|&x| x != 0), "silence");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Waits until `app`'s window shows on `display`: fails if the app ends first or no window
/// shows within a minute (`xdotool search --sync` alone would wait for ever on an app that
/// ended before its window showed, as one did once on a loaded machine).
fn wait_for_window(display: &str, app: &mut Child) {
    let found = ["search", "--onlyvisible", "--name", "Collision Math Toy"];
    let start = Instant::now();
    while !xdotool(display, &found) {
        if let Ok(Some(status)) = app.try_wait() {
            panic!("the app ended ({status}) before its window showed");
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no window within a minute"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Runs `xdotool` on `display` with `args`; false when it is missing or failed.
fn xdotool(display: &str, args: &[&str]) -> bool {
    Command::new("xdotool")
        .env("DISPLAY", display)
        .args(args)
        .status()
        .is_ok_and(|s| s.success())
}

/// Tab hides the panels, Tab shows them again, and Space then launches a ball: it does not
/// press the record bar's button that egui's Tab focused (which rewound the run to step 0).
#[test]
fn tab_tab_space_launches_a_ball_and_does_not_rewind() {
    let _turn = one_at_a_time();
    let Some((display, _xvfb)) = need_display() else {
        return;
    };
    if !xdotool(&display, &["version"]) {
        eprintln!("skipping: no xdotool");
        return;
    }
    let dir = scratch_dir("tab");
    let png = dir.join("tab.png");
    let args = ["--launch", "5", "--frames", "4000", "--screenshot"];
    let mut app = Command::new(EXE)
        .env("DISPLAY", &display)
        .args(args)
        .arg(&png)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the app starts");
    wait_for_window(&display, &mut app);
    std::thread::sleep(Duration::from_millis(500));
    for key in ["Tab", "Tab", "space"] {
        assert!(xdotool(&display, &["key", key]));
        std::thread::sleep(Duration::from_millis(400));
    }
    let out = app.wait_with_output().expect("the app ends");
    assert!(out.status.success(), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary = stdout.lines().last().expect("a summary line");
    assert_eq!(field(summary, "frames"), "4000");
    assert_eq!(
        field(summary, "balls"),
        "6",
        "Space did not launch: {summary}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The toy in a window on `display`, its folder (and settings folder) `dir`, driven by the
/// test: F12 writes its screenshots there. Killed when dropped.
struct Driven {
    app: Child,
    display: String,
    dir: PathBuf,
}

impl Driven {
    fn start(display: &str, dir: &Path, args: &[&str]) -> Driven {
        let mut app = Command::new(EXE)
            .env("DISPLAY", display)
            .env("XDG_CONFIG_HOME", dir)
            .current_dir(dir)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("the app starts");
        wait_for_window(display, &mut app);
        std::thread::sleep(Duration::from_millis(800));
        let (display, dir) = (display.to_string(), dir.to_path_buf());
        Driven { app, display, dir }
    }

    /// Runs xdotool with `args` (one string, split at spaces), then waits `ms`.
    fn act(&self, args: &str, ms: u64) {
        let args: Vec<&str> = args.split_whitespace().collect();
        assert!(xdotool(&self.display, &args), "xdotool {args:?}");
        std::thread::sleep(Duration::from_millis(ms));
    }

    /// F12, and the screenshot it wrote, as RGB (waits for it, at most 10 s).
    fn shot(&self) -> (Vec<[u8; 3]>, usize, usize) {
        let pngs = || {
            std::fs::read_dir(&self.dir)
                .unwrap()
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "png"))
                .collect::<Vec<_>>()
        };
        let before = pngs();
        // The name is the second's: a new one needs a new second.
        std::thread::sleep(Duration::from_millis(1050));
        self.act("key F12", 0);
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if let Some(new) = pngs().into_iter().find(|p| !before.contains(p)) {
                std::thread::sleep(Duration::from_millis(300));
                return rgb(&new);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("F12 wrote no screenshot in {}", self.dir.display());
    }
}

impl Drop for Driven {
    fn drop(&mut self) {
        let _ = self.app.kill();
        let _ = self.app.wait();
    }
}

/// The mouse wheel turned over the Help window, and a drag pressed on it, in the frame the
/// pointer reached it from the table (one xdotool command), are the window's: the table
/// behind it neither zooms nor gets a ball launched. The table is the same before and after.
#[test]
fn the_wheel_and_a_press_over_a_window_never_reach_the_table() {
    let _turn = one_at_a_time();
    let Some((display, _xvfb)) = need_display() else {
        return;
    };
    if !xdotool(&display, &["version"]) {
        eprintln!("skipping: no xdotool");
        return;
    }
    let dir = scratch_dir("through");
    let app = Driven::start(&display, &dir, &["--mute"]);
    app.act("mousemove 700 650", 200);
    let before = app.shot();
    app.act("key F1", 500);
    for _ in 0..3 {
        app.act("mousemove 700 650", 150);
        app.act("mousemove 300 400 click 4", 150);
    }
    app.act("mousemove 700 650", 150);
    app.act("mousemove 300 300 mousedown 1", 150);
    app.act("mousemove 360 380", 150);
    app.act("mouseup 1", 150);
    app.act("key F1", 300);
    app.act("mousemove 700 650", 200);
    let after = app.shot();
    drop(app);
    let (mean, far) = picture_difference(&before, &after, VIEW_ROWS, VIEW_COLS);
    assert!(
        mean < 0.2 && far < 0.0005,
        "the table changed behind the window: mean {mean:.2}, far {far:.4}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
