//! The browser's storage (`localStorage`) with the names and signatures of the few `std::fs`
//! functions the settings use (`prefs.rs`), a path being the key: the settings persist in a
//! page as they do in a config folder. A write of the text already kept writes nothing.

use super::page;
use std::io::{Error, ErrorKind, Result};
use std::path::Path;

fn key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The text kept under `path`.
pub fn read_to_string(path: impl AsRef<Path>) -> Result<String> {
    page::stored(&key(path.as_ref())).ok_or_else(|| Error::from(ErrorKind::NotFound))
}

/// Keeps `text` under `path`.
pub fn write(path: impl AsRef<Path>, text: impl AsRef<[u8]>) -> Result<()> {
    let (key, text) = (key(path.as_ref()), String::from_utf8_lossy(text.as_ref()));
    if page::stored(&key).as_deref() == Some(&*text) || page::store(&key, &text) {
        Ok(())
    } else {
        Err(Error::other(
            "the browser refused to keep it (storage full or turned off)",
        ))
    }
}

/// Forgets what is kept under `path`.
pub fn remove_file(path: impl AsRef<Path>) -> Result<()> {
    page::unstore(&key(path.as_ref()));
    Ok(())
}

/// Storage has no folders: nothing to make.
pub fn create_dir_all(_: impl AsRef<Path>) -> Result<()> {
    Ok(())
}
