//! Which way the frame is drawn, chosen from the GL renderer.
//!
//! - **Software** (Mesa's llvmpipe, softpipe, swrast; also SwiftShader and Windows' basic
//!   driver): every triangle has a setup cost on the CPU, so the balls small on screen are
//!   drawn on the CPU into one image copied into the window with `glBlitFramebuffer`
//!   (`splat.rs`, `raw_gl.rs`), and the panels are kept as pixels between refreshes every
//!   50 ms (`panel_cache.rs`).
//! - **GPU**: a GPU draws a triangle for nothing, and the CPU image would be CPU time spent for
//!   nothing: every ball is a textured quad in batches of 16,383 (`sprites.rs`), egui runs
//!   every frame.
//!
//! `--renderer auto|gpu|software` forces one. The copies of the software path need
//! framebuffer blits (OpenGL 3.0, or `GL_ARB_framebuffer_object`); on a GL without them (GL 2,
//! GLES 2) the software path shows its image as a texture and draws the panels every frame,
//! and says so on stderr, instead of calling functions the driver does not have.

use crate::cli::RendererChoice;
use macroquad::miniquad::gl;

/// The two ways of drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// Batched quads, egui every frame.
    Gpu,
    /// The CPU-drawn image of small balls, the kept panels.
    Software,
}

/// The path in use and what it was chosen from.
#[derive(Clone, Debug)]
pub struct Renderer {
    /// The path.
    pub path: Path,
    /// The GL's renderer and version strings.
    pub gl_renderer: String,
    pub gl_version: String,
    /// Framebuffer blits can be used.
    pub blits: bool,
    /// Forced by `--renderer` (else chosen from the renderer string).
    pub forced: bool,
}

/// Renderer strings of GLs that rasterize on the CPU (lower case).
const SOFTWARE: &[&str] = &[
    "llvmpipe",
    "softpipe",
    "swrast",
    "software rasterizer",
    "swiftshader",
    "basic render driver",
];

/// True when the GL renderer string names a rasterizer that runs on the CPU.
pub fn is_software(renderer: &str) -> bool {
    let r = renderer.to_lowercase();
    SOFTWARE.iter().any(|s| r.contains(s))
}

/// True when a GL of this version string (and, below 3.0, extension list) has
/// `glBlitFramebuffer`: desktop OpenGL 3.0 or later, or `GL_ARB_framebuffer_object`. OpenGL ES
/// is left out: its BGRA uploads are an extension too.
pub fn has_blits(version: &str, extensions: &str) -> bool {
    if version.contains("OpenGL ES") {
        return false;
    }
    let major = version
        .split(|c: char| !c.is_ascii_digit())
        .find(|s| !s.is_empty())
        .and_then(|s| s.parse::<u32>().ok())
        .unwrap_or(0);
    major >= 3
        || extensions
            .split_ascii_whitespace()
            .any(|e| e == "GL_ARB_framebuffer_object")
}

/// The path for `choice` on a GL with these strings, and the line for the log when the
/// software path must do without blits.
pub fn decide(choice: RendererChoice, renderer: &str, blits: bool) -> (Path, Option<String>) {
    let path = match choice {
        RendererChoice::Gpu => Path::Gpu,
        RendererChoice::Software => Path::Software,
        RendererChoice::Auto if is_software(renderer) => Path::Software,
        RendererChoice::Auto => Path::Gpu,
    };
    let note = (path == Path::Software && !blits).then(|| {
        "renderer: this GL has no framebuffer blits (OpenGL 3.0 or GL_ARB_framebuffer_object): \
         the software path shows its CPU-drawn balls as a texture and draws the panels every frame"
            .to_string()
    });
    (path, note)
}

/// A GL string (`GL_RENDERER`, …), empty where the GL gives none.
fn gl_string(name: u32) -> String {
    // SAFETY: on macroquad's thread with its context current; glGetString returns a static
    // NUL-terminated string or null.
    unsafe {
        let s = gl::glGetString(name);
        if s.is_null() {
            String::new()
        } else {
            std::ffi::CStr::from_ptr(s.cast())
                .to_string_lossy()
                .into_owned()
        }
    }
}

/// `GL_RENDERER`.
const GL_RENDERER: u32 = 0x1F01;

impl Renderer {
    /// Reads the GL's strings and decides (see the module notes); prints one line saying what
    /// was chosen, and another when the software path does without blits. Call once the
    /// window's GL context exists.
    pub fn choose(choice: RendererChoice) -> Renderer {
        let gl_renderer = gl_string(GL_RENDERER);
        let gl_version = gl_string(gl::GL_VERSION);
        // Asked only below 3.0, where the context is a compatibility one and answers.
        let extensions = if has_blits(&gl_version, "") {
            String::new()
        } else {
            gl_string(gl::GL_EXTENSIONS)
        };
        let blits = has_blits(&gl_version, &extensions);
        let (path, note) = decide(choice, &gl_renderer, blits);
        let r = Renderer {
            path,
            gl_renderer,
            gl_version,
            blits,
            forced: choice != RendererChoice::Auto,
        };
        eprintln!("renderer: {}", r.line());
        if let Some(note) = note {
            eprintln!("{note}");
        }
        r
    }

    /// One line for the log and the panel: the path, why, and the GL.
    pub fn line(&self) -> String {
        let path = match self.path {
            Path::Gpu => "GPU path (batched quads)",
            Path::Software if self.blits => "software path (CPU-drawn balls, kept panels)",
            Path::Software => "software path (CPU-drawn balls as a texture)",
        };
        let why = if self.forced { "--renderer" } else { "auto" };
        format!(
            "Drawing: {path}, {why}; {} / OpenGL {}",
            self.gl_renderer, self.gl_version
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mesa_software_rasterizers_are_told_from_gpus() {
        for r in [
            "llvmpipe (LLVM 15.0.6, 256 bits)",
            "softpipe",
            "Software Rasterizer",
            "Mesa X11 swrast",
            "Google SwiftShader",
        ] {
            assert!(is_software(r), "{r}");
        }
        for r in [
            "AMD Radeon RX 6600 (radeonsi, navi23, LLVM 15.0.6, DRM 3.49)",
            "NVIDIA GeForce RTX 3060/PCIe/SSE2",
            "Mesa Intel(R) UHD Graphics 620 (KBL GT2)",
            "Apple M1",
        ] {
            assert!(!is_software(r), "{r}");
        }
    }

    #[test]
    fn blits_come_with_gl_3_or_the_framebuffer_object_extension() {
        assert!(has_blits("4.5 (Compatibility Profile) Mesa 22.3.6", ""));
        assert!(has_blits("3.0 Mesa 22.3.6", ""));
        assert!(!has_blits("2.1 Mesa 22.3.6", "GL_ARB_multitexture"));
        assert!(has_blits(
            "2.1 Mesa 22.3.6",
            "GL_ARB_multitexture GL_ARB_framebuffer_object"
        ));
        assert!(!has_blits("OpenGL ES 2.0 Mesa 22.3.6", ""));
        assert!(!has_blits("", ""));
    }

    #[test]
    fn auto_follows_the_renderer_and_a_forced_path_is_kept() {
        let llvm = "llvmpipe (LLVM 15.0.6, 256 bits)";
        assert_eq!(decide(RendererChoice::Auto, llvm, true).0, Path::Software);
        assert_eq!(decide(RendererChoice::Auto, "Radeon", true).0, Path::Gpu);
        assert_eq!(decide(RendererChoice::Gpu, llvm, true).0, Path::Gpu);
        assert_eq!(
            decide(RendererChoice::Software, "Radeon", true).0,
            Path::Software
        );
        // Without blits the software path goes on without its copies, and says so.
        let (path, note) = decide(RendererChoice::Auto, llvm, false);
        assert_eq!(path, Path::Software);
        assert!(note.is_some_and(|n| n.contains("blits")));
        assert!(decide(RendererChoice::Gpu, llvm, false).1.is_none());
    }
}
