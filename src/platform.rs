//! Where a browser differs from the desktop at the app's edges, besides the clock
//! (`clock.rs`): work handed off the frame ([`spawn`], [`work`]), text that answers a run
//! ([`show_text`], [`notice`]), and leaving ([`exit`]).
//!
//! - On the desktop [`spawn`] starts a thread (the physics of a frame while the frame is
//!   presented). A page built for `wasm32-unknown-unknown` has no threads, so there the work
//!   is done at once, inside the frame, and [`Handle::join`] hands back its result: the same
//!   steps in the same order, so the same hashes.
//! - Long work in steps ([`work`]: an experiment beside the window) runs on a thread of its own
//!   on the desktop; in a browser one step a frame, as the window polls it ([`Worker`]), so
//!   the page keeps drawing and shows the progress.
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

/// Long work as a sequence of messages (progress, then the result), run off the frame: drained
/// on a thread of its own on the desktop, one message per [`Worker::try_recv`] in a browser.
pub fn work<M, I>(steps: I) -> Worker<M>
where
    I: Iterator<Item = M> + Send + 'static,
    M: Send + 'static,
{
    #[cfg(not(target_arch = "wasm32"))]
    {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || steps.for_each(|m| drop(tx.send(m))));
        Worker { rx }
    }
    #[cfg(target_arch = "wasm32")]
    Worker {
        steps: Box::new(steps),
        stepped: false,
    }
}

/// Long work started by [`work`], whose messages are taken without waiting.
pub struct Worker<M> {
    #[cfg(not(target_arch = "wasm32"))]
    rx: std::sync::mpsc::Receiver<M>,
    #[cfg(target_arch = "wasm32")]
    steps: Box<dyn Iterator<Item = M>>,
    /// The last call ran a step (in a browser the next says "nothing yet", so a poll that
    /// takes messages until there are none runs one step).
    #[cfg(target_arch = "wasm32")]
    stepped: bool,
}

impl<M> Worker<M> {
    /// The next message if there is one now: `Empty` while the work goes on, `Disconnected`
    /// once it has ended and every message was taken.
    pub fn try_recv(&mut self) -> Result<M, std::sync::mpsc::TryRecvError> {
        #[cfg(not(target_arch = "wasm32"))]
        return self.rx.try_recv();
        #[cfg(target_arch = "wasm32")]
        {
            use std::sync::mpsc::TryRecvError;
            if std::mem::take(&mut self.stepped) {
                return Err(TryRecvError::Empty);
            }
            self.stepped = true;
            self.steps.next().ok_or(TryRecvError::Disconnected)
        }
    }
}

/// Text that answers the run instead of a window (`--tour list`): printed on the desktop; in a
/// browser, shown in the page as a readable, scrolled text.
pub fn show_text(text: &str) {
    #[cfg(not(target_arch = "wasm32"))]
    print!("{text}");
    #[cfg(target_arch = "wasm32")]
    crate::web::page::report(crate::web::page::Kind::Text, text);
}

/// A warning the user should see before the window starts (the last scene did not load): on
/// standard error on the desktop, a notice over the canvas in a browser.
pub fn notice(text: &str) {
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("{text}");
    #[cfg(target_arch = "wasm32")]
    crate::web::page::report(crate::web::page::Kind::Notice, text);
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

    #[test]
    fn work_in_steps_hands_back_every_message_in_order_then_ends() {
        let mut w = work(1..=3);
        let mut got = Vec::new();
        loop {
            match w.try_recv() {
                Ok(m) => got.push(m),
                Err(std::sync::mpsc::TryRecvError::Empty) => std::thread::yield_now(),
                Err(std::sync::mpsc::TryRecvError::Disconnected) => break,
            }
        }
        assert_eq!(got, [1, 2, 3]);
    }
}
