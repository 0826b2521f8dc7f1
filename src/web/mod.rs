//! The toy in a browser: what the app needs of a page when it is built for
//! `wasm32-unknown-unknown` (`web/build.sh`), the rest of it being the desktop's code. The page
//! itself is `web/index.html` and `web/page.js`, beside macroquad's loader.
//!
//! - `args.rs`: the URL's parameters as the command line's flags (also built for the tests).
//! - `page.rs`: the calls into the page: the query, lines out, storage, files, the audio clock.
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
pub mod page;
#[cfg(target_arch = "wasm32")]
pub mod storage;

/// The flags the page's URL asks for; a refusal is shown in the page and gives none. A
/// panic from here on is shown in the page too, in words, instead of a stopped canvas.
#[cfg(target_arch = "wasm32")]
pub fn args() -> Option<crate::cli::Args> {
    std::panic::set_hook(Box::new(|info| {
        page::report(page::Kind::Error, &format!("the toy stopped: {info}"));
    }));
    match args::parse(&page::query()) {
        Ok(a) => Some(a),
        Err(e) => {
            page::report(page::Kind::Error, &e);
            None
        }
    }
}
