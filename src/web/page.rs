//! The page around the canvas, as the app sees it: the calls `web/page.js` provides (the
//! query string, lines out, browser storage, downloads and uploads, the audio clock) wrapped
//! in plain Rust. Strings come from the page in two steps: a call leaves the text in the
//! page's hand-over slot and returns its length in bytes (−1 for none), then [`take`] copies
//! it out.

extern "C" {
    fn cmt_query() -> i32;
    fn cmt_take(ptr: *mut u8);
    fn cmt_report(kind: u32, ptr: *const u8, len: u32);
    fn cmt_exit(code: i32);
    fn cmt_store_get(key: *const u8, key_len: u32) -> i32;
    fn cmt_store_set(key: *const u8, key_len: u32, ptr: *const u8, len: u32) -> u32;
    fn cmt_store_remove(key: *const u8, key_len: u32);
    fn cmt_download(name: *const u8, name_len: u32, ptr: *const u8, len: u32);
    fn cmt_pick(kind: u32);
    fn cmt_upload() -> i32;
    fn cmt_audio_ahead() -> f64;
    fn cmt_audio_push(ptr: *const f32, len: u32, rate: u32);
    fn cmt_facts(ptr: *const u8, len: u32);
}

/// The plugin version `page.js` checks (miniquad's plugin convention).
#[no_mangle]
pub extern "C" fn cmt_page_crate_version() -> u32 {
    2
}

/// What a line is, as `page.js` reads `cmt_report`'s first argument.
#[derive(Clone, Copy)]
#[repr(u32)]
pub enum Kind {
    /// A line of standard output (the summary line): into the page's `#summary`.
    Out = 0,
    /// A line of standard error: the console.
    Err = 1,
    /// A refusal or failure, shown in the page as readable text in place of the toy.
    Error = 2,
    /// Text that answers the run (`?help`, `?tour=list`), shown in the page as readable text.
    Text = 3,
    /// A warning shown over the canvas until dismissed (the last scene did not load).
    Notice = 4,
}

/// Sends a line to the page; standard error, refusals and notices in the page's words
/// (parameters, not flags: `words.rs`).
pub fn report(kind: Kind, text: &str) {
    let words;
    let text = match kind {
        Kind::Err | Kind::Error | Kind::Notice => {
            words = super::words::for_page(text);
            &words
        }
        Kind::Out | Kind::Text => text,
    };
    // SAFETY: page.js reads `len` bytes at `ptr` during the call only.
    unsafe { cmt_report(kind as u32, text.as_ptr(), text.len() as u32) }
}

/// Hands the page what the window shows, as JSON (`window.cmt_facts`, read by the page's
/// checks in `web/test.sh`).
pub fn facts(json: &str) {
    // SAFETY: page.js reads `len` bytes at `ptr` during the call only.
    unsafe { cmt_facts(json.as_ptr(), json.len() as u32) }
}

/// Whether this visit keeps its settings in the browser's storage: a visit whose address has
/// no parameters does, one set up by its address (a shared link, `?tour=3`) does not until
/// the user says so with the page's Keep button ([`cmt_keep_settings`]).
pub fn keeps_settings() -> bool {
    use std::sync::atomic::Ordering;
    match KEEP.load(Ordering::Relaxed) {
        UNASKED => {
            let plain = query().trim_start_matches('?').is_empty();
            KEEP.store(u8::from(plain), Ordering::Relaxed);
            plain
        }
        k => k == 1,
    }
}

/// [`keeps_settings`]: not yet asked, then 0 or 1.
static KEEP: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(UNASKED);
const UNASKED: u8 = 2;

/// The page's Keep button: this visit's settings are kept from now on.
#[no_mangle]
pub extern "C" fn cmt_keep_settings() {
    KEEP.store(1, std::sync::atomic::Ordering::Relaxed);
}

/// Copies out the text a call left in the page's slot (`len` bytes; none when negative).
fn take(len: i32) -> Option<String> {
    let len = usize::try_from(len).ok()?;
    let mut buf = vec![0u8; len];
    // SAFETY: page.js writes exactly the `len` bytes it announced into the buffer.
    unsafe { cmt_take(buf.as_mut_ptr()) };
    Some(String::from_utf8_lossy(&buf).into_owned())
}

/// The URL's query string (`?launch=50&frames=600&headless`), empty when there is none.
pub fn query() -> String {
    // SAFETY: a plain call; the text is taken at once.
    take(unsafe { cmt_query() }).unwrap_or_default()
}

/// Stops the page's frame loop and tells it the exit status (0: the run ended well); the
/// page keeps its last frame and says what ended it.
pub fn exit(code: i32) -> ! {
    // SAFETY: page.js stops the loop and throws, unwinding out of the module; nothing of it
    // runs again.
    unsafe { cmt_exit(code) };
    unreachable!("page.js throws to end the run")
}

/// The text kept under `key` in the browser's storage (`localStorage`).
pub fn stored(key: &str) -> Option<String> {
    // SAFETY: page.js reads `key` during the call; the text is taken at once.
    take(unsafe { cmt_store_get(key.as_ptr(), key.len() as u32) })
}

/// Keeps `text` under `key` in the browser's storage; false when the browser refused (full,
/// or storage turned off).
pub fn store(key: &str, text: &str) -> bool {
    // SAFETY: page.js reads both strings during the call only.
    unsafe {
        cmt_store_set(
            key.as_ptr(),
            key.len() as u32,
            text.as_ptr(),
            text.len() as u32,
        ) == 1
    }
}

/// Forgets `key` in the browser's storage.
pub fn unstore(key: &str) {
    // SAFETY: page.js reads `key` during the call only.
    unsafe { cmt_store_remove(key.as_ptr(), key.len() as u32) }
}

/// Offers `bytes` to the user as a download named `name`.
pub fn download(name: &str, bytes: &[u8]) {
    // SAFETY: page.js copies both during the call.
    unsafe {
        cmt_download(
            name.as_ptr(),
            name.len() as u32,
            bytes.as_ptr(),
            bytes.len() as u32,
        )
    }
}

/// What a chosen file is for, as handed to [`pick`] and back with the [`upload`]: the record
/// bar's recording, state and scene, and the editor's scene.
pub mod file {
    /// A recording, for the record bar.
    pub const RECORDING: u32 = 1;
    /// A saved state, for the record bar.
    pub const STATE: u32 = 2;
    /// A scene to play, for the record bar.
    pub const SCENE: u32 = 3;
    /// A scene to edit, for the editor.
    pub const EDITOR_SCENE: u32 = 4;
}

/// Opens the browser's file chooser; the file chosen comes back, a frame or more later, from
/// [`upload`] with this `kind`.
pub fn pick(kind: u32) {
    // SAFETY: a plain call.
    unsafe { cmt_pick(kind) }
}

/// A file the user chose since the last call: its kind (as given to [`pick`]), name and text.
pub fn upload() -> Option<(u32, String, String)> {
    // SAFETY: a plain call; the text is taken at once.
    let whole = take(unsafe { cmt_upload() })?;
    let (kind, rest) = whole.split_once('\n')?;
    let (name, text) = rest.split_once('\n')?;
    Some((kind.parse().ok()?, name.to_string(), text.to_string()))
}

/// Seconds of sound queued ahead of what the browser is playing; `None` until the page has
/// had the click (or key) that browsers ask for before they play.
pub fn audio_ahead() -> Option<f64> {
    // SAFETY: a plain call.
    let ahead = unsafe { cmt_audio_ahead() };
    (ahead >= 0.0).then_some(ahead)
}

/// Queues mono samples at `rate` Hz after those queued before.
pub fn audio_push(samples: &[f32], rate: u32) {
    // SAFETY: page.js copies the samples during the call.
    unsafe { cmt_audio_push(samples.as_ptr(), samples.len() as u32, rate) }
}
