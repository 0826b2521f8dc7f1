//! The page around the canvas: the URL's query string in; the summary line, messages and the
//! first frame's time out to the console and into the page's HTML (`web/page.js` is the other
//! side). Built for the desktop (to test the page's code), the query is the first argument
//! and the output goes to stdout and stderr.

/// What a report is, as `page.js` reads its first argument.
#[derive(Clone, Copy)]
#[repr(u32)]
enum Kind {
    /// The summary line of a run of N frames.
    Summary = 0,
    /// A message for the user (what the page is doing).
    Status = 1,
    /// Something refused or failed.
    Error = 2,
    /// The first frame has been drawn.
    FirstFrame = 3,
}

#[cfg(target_arch = "wasm32")]
mod js {
    extern "C" {
        pub fn cmt_query_len() -> u32;
        pub fn cmt_query_copy(ptr: *mut u8, len: u32);
        pub fn cmt_report(kind: u32, ptr: *const u8, len: u32);
        pub fn cmt_now() -> f64;
    }

    /// The plugin version `page.js` checks (miniquad's plugin convention).
    #[no_mangle]
    pub extern "C" fn cmt_page_crate_version() -> u32 {
        1
    }
}

/// The URL's query string (`?launch=50&frames=600&headless`), empty when there is none.
#[cfg(target_arch = "wasm32")]
pub fn query() -> String {
    // SAFETY: page.js writes at most `len` bytes into the buffer handed to it.
    unsafe {
        let len = js::cmt_query_len();
        let mut buf = vec![0u8; len as usize];
        js::cmt_query_copy(buf.as_mut_ptr(), len);
        String::from_utf8_lossy(&buf).into_owned()
    }
}

/// The query string: the first command-line argument when built for the desktop.
#[cfg(not(target_arch = "wasm32"))]
pub fn query() -> String {
    std::env::args().nth(1).unwrap_or_default()
}

#[cfg(target_arch = "wasm32")]
fn report(kind: Kind, text: &str) {
    // SAFETY: page.js only reads `len` bytes from `ptr` during the call.
    unsafe { js::cmt_report(kind as u32, text.as_ptr(), text.len() as u32) }
}

#[cfg(not(target_arch = "wasm32"))]
fn report(kind: Kind, text: &str) {
    match kind {
        Kind::Summary => println!("{text}"),
        _ => eprintln!("{text}"),
    }
}

/// Prints the summary line to the console and into the page.
pub fn summary(line: &str) {
    report(Kind::Summary, line);
}

/// Shows what the page is doing.
pub fn status(text: &str) {
    report(Kind::Status, text);
}

/// Shows a refusal or failure, in words.
pub fn error(text: &str) {
    report(Kind::Error, &format!("error: {text}"));
}

/// Tells the page the first frame has been drawn (it notes the time since the page loaded).
pub fn first_frame() {
    report(Kind::FirstFrame, "");
}

/// Nanoseconds from a fixed origin: the clock the world times its broad phase with
/// (`std::time::Instant` panics on the web).
pub fn nanos() -> u64 {
    (seconds() * 1e9) as u64
}

/// Seconds since the page loaded, from the browser's `performance.now()` (miniquad's own
/// clock counts whole milliseconds).
#[cfg(target_arch = "wasm32")]
pub fn seconds() -> f64 {
    // SAFETY: a plain call with no pointers.
    unsafe { js::cmt_now() }
}

/// Seconds from a fixed origin, when built for the desktop.
#[cfg(not(target_arch = "wasm32"))]
pub fn seconds() -> f64 {
    macroquad::miniquad::date::now()
}
