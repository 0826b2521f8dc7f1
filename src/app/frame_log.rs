//! `CMT_FRAME_LOG=N` (N frames, 300 if not a number): every N frames a line on stderr with
//! the main thread's work per frame, median and mean (ms: the work the Load line shows as a
//! share of the frame), the mean time `next_frame` took (presenting the frame; in software
//! rendering, rasterising what was queued), and how many of the frames egui drew. For
//! measuring what an overlay costs the main thread (docs/benchmarks.md); off unless the
//! variable is set.

/// The frames since the last line.
pub struct FrameLog {
    every: usize,
    work_ms: Vec<f64>,
    presented_ms: f64,
    /// egui's drawn frames when the last line was written.
    drawn_before: u64,
}

impl FrameLog {
    /// The log the environment asks for, if any.
    pub fn from_env() -> Option<Self> {
        let every = std::env::var("CMT_FRAME_LOG").ok()?;
        Some(Self {
            every: every.parse().ok().filter(|&n| n > 0).unwrap_or(300),
            work_ms: Vec::new(),
            presented_ms: 0.0,
            drawn_before: 0,
        })
    }

    /// Notes a frame: the main thread's work and the last `next_frame` (s), and the frames
    /// egui has drawn so far; writes the line every `every` frames.
    pub fn add(&mut self, work: f64, presented: f64, egui_drawn: u64) {
        self.work_ms.push(work * 1000.0);
        self.presented_ms += presented * 1000.0;
        if self.work_ms.len() < self.every {
            return;
        }
        let n = self.work_ms.len() as f64;
        let mean = self.work_ms.iter().sum::<f64>() / n;
        let median = collide_lab::experiments::median(&mut self.work_ms).unwrap_or(0.0);
        eprintln!(
            "frame log: main thread work median_ms={median:.2} mean_ms={mean:.2} \
             next_frame_ms={:.2} egui_drawn={} (over {n} frames)",
            self.presented_ms / n,
            egui_drawn - self.drawn_before
        );
        self.work_ms.clear();
        (self.presented_ms, self.drawn_before) = (0.0, egui_drawn);
    }
}
