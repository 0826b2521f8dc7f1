//! The entropy source the page gives `getrandom` (wasm32-unknown-unknown has none): it
//! refuses. The library draws every random number from the world's seeded generator, so
//! nothing asks; if something did, it would fail instead of making a run unrepeatable.

use getrandom::{register_custom_getrandom, Error};

fn refuse(_buf: &mut [u8]) -> Result<(), Error> {
    Err(Error::UNSUPPORTED)
}

register_custom_getrandom!(refuse);
