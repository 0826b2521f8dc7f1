//! The system's ALSA library, loaded at run time: the toy builds without audio development
//! packages and runs silent where there is no `libasound.so.2`. Only the six functions a
//! blocking playback needs are declared, by hand, as `alsa/pcm.h` gives them.

use libloading::Library;
use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, c_void, CStr, CString};
use std::sync::Arc;

/// `SND_PCM_STREAM_PLAYBACK`.
const STREAM_PLAYBACK: c_int = 0;
/// `SND_PCM_FORMAT_S16_LE`.
const FORMAT_S16_LE: c_int = 2;
/// `SND_PCM_ACCESS_RW_INTERLEAVED`.
const ACCESS_RW_INTERLEAVED: c_int = 3;

type OpenFn = unsafe extern "C" fn(*mut *mut c_void, *const c_char, c_int, c_int) -> c_int;
type SetParamsFn =
    unsafe extern "C" fn(*mut c_void, c_int, c_int, c_uint, c_uint, c_int, c_uint) -> c_int;
type WriteiFn = unsafe extern "C" fn(*mut c_void, *const c_void, c_ulong) -> c_long;
type RecoverFn = unsafe extern "C" fn(*mut c_void, c_int, c_int) -> c_int;
type CloseFn = unsafe extern "C" fn(*mut c_void) -> c_int;
type StrerrorFn = unsafe extern "C" fn(c_int) -> *const c_char;

/// The loaded library and its functions.
struct Alsa {
    open: OpenFn,
    set_params: SetParamsFn,
    writei: WriteiFn,
    recover: RecoverFn,
    close: CloseFn,
    strerror: StrerrorFn,
    /// Kept loaded while the functions above are in use.
    _lib: Library,
}

impl Alsa {
    /// Loads the first of `names` that loads, with every function; the error says what was
    /// missing.
    fn load(names: &[&str]) -> Result<Alsa, String> {
        let mut why = String::from("no library name given");
        for name in names {
            // SAFETY: loading ALSA runs its initialisers, which have no preconditions.
            match unsafe { Library::new(name) } {
                Ok(lib) => return Alsa::with(lib).map_err(|e| format!("{name}: {e}")),
                Err(e) => why = e.to_string(),
            }
        }
        Err(why)
    }

    fn with(lib: Library) -> Result<Alsa, String> {
        // SAFETY: each symbol is given the signature `alsa/pcm.h` and `alsa/error.h` declare.
        unsafe {
            let get = |name: &[u8]| lib.get::<*const c_void>(name).map(|s| *s);
            let open = get(b"snd_pcm_open\0");
            let set_params = get(b"snd_pcm_set_params\0");
            let writei = get(b"snd_pcm_writei\0");
            let recover = get(b"snd_pcm_recover\0");
            let close = get(b"snd_pcm_close\0");
            let strerror = get(b"snd_strerror\0");
            let missing = |e: libloading::Error| e.to_string();
            Ok(Alsa {
                open: std::mem::transmute::<*const c_void, OpenFn>(open.map_err(missing)?),
                set_params: std::mem::transmute::<*const c_void, SetParamsFn>(
                    set_params.map_err(missing)?,
                ),
                writei: std::mem::transmute::<*const c_void, WriteiFn>(writei.map_err(missing)?),
                recover: std::mem::transmute::<*const c_void, RecoverFn>(recover.map_err(missing)?),
                close: std::mem::transmute::<*const c_void, CloseFn>(close.map_err(missing)?),
                strerror: std::mem::transmute::<*const c_void, StrerrorFn>(
                    strerror.map_err(missing)?,
                ),
                _lib: lib,
            })
        }
    }

    /// ALSA's words for error `code` (a negative errno).
    fn error(&self, code: c_int) -> String {
        // SAFETY: snd_strerror returns a static string (or null) for any code.
        let text = unsafe { (self.strerror)(code) };
        if text.is_null() {
            return format!("error {code}");
        }
        // SAFETY: non-null, a NUL-terminated static string.
        unsafe { CStr::from_ptr(text) }
            .to_string_lossy()
            .into_owned()
    }
}

/// An open playback device: 16-bit mono samples at a fixed rate, written blocking.
pub struct Pcm {
    alsa: Arc<Alsa>,
    handle: *mut c_void,
    /// The device's name, as opened.
    pub name: String,
}

// SAFETY: the handle is used by one thread at a time (the output thread owns the `Pcm`);
// ALSA allows a PCM to be used from any thread, just not from two at once.
unsafe impl Send for Pcm {}

/// The library names tried, in order.
pub const LIBRARIES: &[&str] = &["libasound.so.2", "libasound.so"];

impl Pcm {
    /// Opens playback device `name` (ALSA's "default" unless the user names another) from the
    /// first of `libraries` that loads, for mono 16-bit samples at `rate` Hz with about
    /// `latency_us` µs of buffer. The error is one line: no library, or the device's refusal.
    pub fn open(libraries: &[&str], name: &str, rate: u32, latency_us: u32) -> Result<Pcm, String> {
        let alsa = Arc::new(Alsa::load(libraries).map_err(|e| format!("no audio library ({e})"))?);
        let c_name = CString::new(name).map_err(|_| format!("bad device name {name:?}"))?;
        let mut handle = std::ptr::null_mut();
        // SAFETY: `handle` is a local out-pointer and the name NUL-terminated; ALSA's
        // complaints on stderr are held back (see `quiet_stderr`).
        let code = quiet_stderr(|| unsafe {
            (alsa.open)(&mut handle, c_name.as_ptr(), STREAM_PLAYBACK, 0)
        });
        if code < 0 || handle.is_null() {
            return Err(format!("no audio device ({name}: {})", alsa.error(code)));
        }
        let pcm = Pcm {
            alsa,
            handle,
            name: name.to_string(),
        };
        // SAFETY: an open handle; plain integer arguments.
        let code = unsafe {
            (pcm.alsa.set_params)(
                pcm.handle,
                FORMAT_S16_LE,
                ACCESS_RW_INTERLEAVED,
                1,
                rate,
                1,
                latency_us,
            )
        };
        if code < 0 {
            return Err(format!("audio device {name}: {}", pcm.alsa.error(code)));
        }
        Ok(pcm)
    }

    /// Plays `samples`, blocking while the device's buffer is full; recovers from an underrun
    /// (the device ran dry) once. The error ends playback.
    pub fn write(&mut self, samples: &[i16]) -> Result<(), String> {
        let mut rest = samples;
        let mut recovered = false;
        while !rest.is_empty() {
            // SAFETY: an open handle; `rest` holds `rest.len()` frames of one channel.
            let n = unsafe {
                (self.alsa.writei)(self.handle, rest.as_ptr().cast(), rest.len() as c_ulong)
            };
            if n >= 0 {
                rest = &rest[(n as usize).min(rest.len())..];
                continue;
            }
            // SAFETY: an open handle and the error code writei returned.
            let code = unsafe { (self.alsa.recover)(self.handle, n as c_int, 1) };
            if code < 0 || recovered {
                return Err(format!(
                    "audio device {}: {}",
                    self.name,
                    self.alsa.error(n as c_int)
                ));
            }
            recovered = true;
        }
        Ok(())
    }
}

impl Drop for Pcm {
    fn drop(&mut self) {
        // SAFETY: closes the handle this value opened, once.
        unsafe { (self.alsa.close)(self.handle) };
    }
}

/// Runs `f` with stderr sent to /dev/null: ALSA prints its configuration's complaints there
/// (eight lines on a machine without a sound card) before returning the error this program
/// reports in one line itself. Called before other threads print.
#[cfg(unix)]
fn quiet_stderr<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: plain descriptor calls; the saved descriptor is put back and closed.
    unsafe {
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_WRONLY);
        let saved = libc::dup(2);
        if null < 0 || saved < 0 {
            return f();
        }
        libc::dup2(null, 2);
        libc::close(null);
        let out = f();
        libc::dup2(saved, 2);
        libc::close(saved);
        out
    }
}

#[cfg(not(unix))]
fn quiet_stderr<T>(f: impl FnOnce() -> T) -> T {
    f()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_library_is_an_error_in_one_line_not_a_crash() {
        let e = Pcm::open(&["libno-such-audio.so.9"], "default", 44_100, 50_000)
            .err()
            .expect("no such library");
        assert!(e.starts_with("no audio library"), "{e}");
        assert!(!e.contains('\n'), "{e}");
    }

    #[test]
    fn a_missing_device_is_an_error_naming_it() {
        // Where there is no ALSA at all this is the library error instead; both are one line.
        let e = Pcm::open(LIBRARIES, "no-such-device-here", 44_100, 50_000)
            .err()
            .expect("no such device");
        assert!(
            e.contains("no-such-device-here") || e.starts_with("no audio library"),
            "{e}"
        );
    }

    #[test]
    fn the_null_device_takes_samples_where_alsa_is_installed() {
        let Ok(mut pcm) = Pcm::open(LIBRARIES, "null", 44_100, 50_000) else {
            return; // no ALSA here: nothing to play through
        };
        assert!(pcm.write(&[0i16; 4410]).is_ok());
    }
}
