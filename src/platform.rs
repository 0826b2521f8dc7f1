//! Where a browser differs from the desktop at the app's edges, besides the clock
//! (`clock.rs`): work handed off the frame ([`spawn`]), and leaving ([`exit`]).
//!
//! - On the desktop [`spawn`] starts a thread (the physics of a frame while the frame is
//!   presented, an experiment beside the window). A page built for `wasm32-unknown-unknown`
//!   has no threads, so there the work is done at once, inside the frame, and [`Handle::join`]
//!   hands back its result: the same steps in the same order, so the same hashes.
//! - On the desktop [`exit`] ends the process; in a browser it stops the page's frame loop
//!   and tells the page the status (`web/page.js`), which keeps the last frame on show.

/// Work started by [`spawn`], its result taken with [`Handle::join`].
pub struct Handle<T> {
    #[cfg(not(target_arch = "wasm32"))]
    thread: std::thread::JoinHandle<T>,
    #[cfg(target_arch = "wasm32")]
    done: T,
}

/// Runs `work` off the frame: on a thread of its own on the desktop, at once in a browser.
pub fn spawn<T, F>(work: F) -> Handle<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    #[cfg(not(target_arch = "wasm32"))]
    return Handle {
        thread: std::thread::spawn(work),
    };
    #[cfg(target_arch = "wasm32")]
    return Handle { done: work() };
}

impl<T> Handle<T> {
    /// Waits for the work and hands back its result, or the panic that ended it (a panic in a
    /// browser ends the page, so there it is always the result).
    pub fn join(self) -> std::thread::Result<T> {
        #[cfg(not(target_arch = "wasm32"))]
        return self.thread.join();
        #[cfg(target_arch = "wasm32")]
        return Ok(self.done);
    }
}

/// Ends the run with `code` (0: done, 1: a check failed, 2: a bad file or flag).
pub fn exit(code: i32) -> ! {
    #[cfg(target_arch = "wasm32")]
    crate::web::page::exit(code);
    #[cfg(not(target_arch = "wasm32"))]
    std::process::exit(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spawned_work_hands_back_its_result() {
        let h = spawn(|| (1..=10).sum::<u32>());
        assert_eq!(h.join().ok(), Some(55));
    }
}
