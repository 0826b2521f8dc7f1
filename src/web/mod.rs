//! The toy in a browser: what the app needs of a page when it is built for
//! `wasm32-unknown-unknown` (`web/build.sh`), the rest of it being the desktop's code. The page
//! itself is `web/index.html` and `web/page.js`, beside macroquad's loader.
//!
//! - `args.rs`: the URL's parameters as the command line's flags, `?help` (also built for the
//!   tests).
//! - `check.rs`: `?check=kernels`, the checks a page can run.
//! - `words.rs`: messages in the page's words, parameters for flags (also built for the tests).
//! - `page.rs`: the calls into the page: the query, lines out, storage, files, the audio
//!   clock, what the window shows for the page's checks, whether the settings are kept.
//! - `print.rs`: `println!` and `eprintln!` into the page.
//! - `storage.rs`: the settings' files as keys of the browser's storage.
//!
//! The other edges are in the files they concern: the clock (`clock.rs`), no threads
//! (`platform.rs`), the files of the record bar and the editor (`app/web.rs`, `editor/web.rs`),
//! the sound (`sound/web.rs`).

#[cfg(target_arch = "wasm32")]
#[macro_use]
mod print;

#[cfg(any(test, target_arch = "wasm32"))]
pub mod args;
#[cfg(target_arch = "wasm32")]
pub mod check;
#[cfg(target_arch = "wasm32")]
pub mod page;
#[cfg(target_arch = "wasm32")]
pub mod storage;
#[cfg(any(test, target_arch = "wasm32"))]
pub mod words;

/// The flags the page's URL asks for; `?help` (the parameters) and a refusal are shown in the
/// page and give none. A panic from here on is shown in the page too, in words, instead of a
/// stopped canvas.
#[cfg(target_arch = "wasm32")]
pub fn args() -> Option<crate::cli::Args> {
    std::panic::set_hook(Box::new(|info| {
        page::report(page::Kind::Error, &format!("the toy stopped: {info}"));
    }));
    let query = page::query();
    if args::asks_help(&query) {
        page::report(page::Kind::Text, &args::help_text());
        return None;
    }
    match args::parse(&query) {
        Ok(a) => Some(a),
        Err(e) => {
            page::report(page::Kind::Error, &e);
            None
        }
    }
}
