//! `--sound-out`: the sound of a run, synthesised from its impacts on simulated time, in a WAV
//! file: heard at the impacts, silent before them, silent when muted, the same every run, and
//! without any change to the simulation.

use std::path::{Path, PathBuf};
use std::process::Command;

const EXE: &str = env!("CARGO_BIN_EXE_collision-math-toy");
const RATE: usize = 44_100;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cmt-sound-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs headless with `args` and `--sound-out wav`; the summary line.
fn run_with_sound(args: &[&str], wav: &Path) -> String {
    let out = Command::new(EXE)
        .args(args)
        .args(["--headless", "--sound-out"])
        .arg(wav)
        .output()
        .expect("the app starts");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The samples of a 16-bit mono WAV at 44.1 kHz, as −1..=1.
fn samples(wav: &Path) -> Vec<f32> {
    let b = std::fs::read(wav).expect("the WAV was written");
    assert_eq!(&b[0..4], b"RIFF");
    assert_eq!(&b[8..16], b"WAVEfmt ");
    let u16_at = |k: usize| u16::from_le_bytes([b[k], b[k + 1]]);
    let u32_at = |k: usize| u32::from_le_bytes([b[k], b[k + 1], b[k + 2], b[k + 3]]);
    assert_eq!(
        (u16_at(20), u16_at(22), u16_at(34)),
        (1, 1, 16),
        "PCM, mono, 16 bits"
    );
    assert_eq!(u32_at(24), RATE as u32);
    assert_eq!(&b[36..40], b"data");
    assert_eq!(u32_at(40) as usize, b.len() - 44);
    b[44..]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]) as f32 / 32767.0)
        .collect()
}

fn rms(s: &[f32]) -> f32 {
    (s.iter().map(|x| x * x).sum::<f32>() / s.len().max(1) as f32).sqrt()
}

/// The impact times (s, the end of each impact's step) of one ball launched on the table over
/// `frames` frames, from the library itself.
fn impact_times(frames: u32) -> Vec<f64> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/collide/scenes/table.ron");
    let scene = collide::Scene::load(&path).expect("the table scene");
    let mut world = scene.build(1);
    world.launch(1);
    let dt = world.step_seconds();
    let mut times = Vec::new();
    for _ in 0..frames * world.settings().motion_iterations {
        world.step();
        times.extend(world.drain_hits().map(|h| (h.step + 1) as f64 * dt));
    }
    times
}

#[test]
fn a_launch_is_heard_at_its_impact_times_and_nowhere_before() {
    let wav = scratch("launch.wav");
    let summary = run_with_sound(&["--launch", "1", "--frames", "180"], &wav);
    assert!(summary.starts_with("frames=180 "), "{summary}");
    let s = samples(&wav);
    assert_eq!(s.len(), 3 * RATE, "three simulated seconds");
    let times = impact_times(180);
    assert!(times.len() >= 3, "{} impacts", times.len());
    let at = |t: f64, len: f64| {
        let a = ((t * RATE as f64) as usize).min(s.len());
        let b = (((t + len) * RATE as f64) as usize).min(s.len());
        rms(&s[a..b])
    };
    for &t in &times {
        assert!(at(t, 0.02) > 0.01, "no sound at the impact at {t:.3} s");
    }
    // The ball climbs the lane before its first impact: silence until then.
    assert!(times[0] > 0.1, "first impact at {}", times[0]);
    assert_eq!(
        at(0.0, times[0] - 0.005),
        0.0,
        "sound before the first impact"
    );
    // The loudest sample is within the limiter's bound.
    assert!(s.iter().all(|x| x.abs() <= 0.9));
    let _ = std::fs::remove_file(&wav);
}

#[test]
fn the_sound_is_the_same_every_run_silent_when_muted_and_changes_nothing() {
    let (a, b, m) = (scratch("a.wav"), scratch("b.wav"), scratch("m.wav"));
    let args = ["--launch", "30", "--frames", "300"];
    let with_a = run_with_sound(&args, &a);
    let with_b = run_with_sound(&args, &b);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let muted = run_with_sound(&[&args[..], &["--mute"]].concat(), &m);
    assert!(rms(&samples(&a)) > 0.01);
    assert!(
        samples(&m).iter().all(|&x| x == 0.0),
        "muted but not silent"
    );
    // Taking the impacts for the sound leaves the simulation as it is.
    let plain = Command::new(EXE)
        .args(args)
        .arg("--headless")
        .output()
        .unwrap();
    let plain = String::from_utf8_lossy(&plain.stdout);
    let hash = |l: &str| l.split_whitespace().last().unwrap().to_string();
    assert!(hash(&with_a).starts_with("hash="));
    for other in [&with_b, &muted, &plain.trim().to_string()] {
        assert_eq!(hash(&with_a), hash(other));
    }
    for f in [a, b, m] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn a_wav_that_cannot_be_written_is_refused_before_the_run() {
    let out = Command::new(EXE)
        .args(["--headless", "--frames", "100000000", "--sound-out"])
        .arg("/no-such-folder/x.wav")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/no-such-folder/x.wav"), "{err}");
}
