//! A small task system for Box2D's workers: Box2D v3 hands its parallel work to the caller's
//! `enqueueTask` and waits for each piece with `finishTask`. Here a fixed pool of threads
//! (the workers beyond the calling one) takes the tasks from one queue, in order. Waiting for
//! a task no worker has started yet, the caller runs it itself, so a step never waits on a
//! descheduled worker for a task it could do (Box2D's own scheduler does the same), and a
//! caller already waiting spins a little, then yields.

use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// Box2D's task: a function and its context.
type TaskFn = unsafe extern "C" fn(*mut c_void);

const WAITING: u8 = 0;
const RUNNING: u8 = 1;
const DONE: u8 = 2;

/// One enqueued task and how far it is.
struct Job {
    run: TaskFn,
    context: *mut c_void,
    state: AtomicU8,
}

// SAFETY: the context is Box2D's, made to be run on any thread; Box2D keeps it alive until
// `finishTask` returns, and the state's compare-and-swap lets only one thread run it.
unsafe impl Send for Job {}
unsafe impl Sync for Job {}

impl Job {
    /// Runs the job here unless another thread has taken it; true when this call ran it.
    fn take_and_run(&self) -> bool {
        let taken =
            self.state
                .compare_exchange(WAITING, RUNNING, Ordering::Acquire, Ordering::Relaxed);
        if taken.is_err() {
            return false;
        }
        // SAFETY: Box2D's task with the context it gave, run once.
        unsafe { (self.run)(self.context) };
        self.state.store(DONE, Ordering::Release);
        true
    }
}

/// What the caller and the workers share.
struct Shared {
    queue: Mutex<VecDeque<Arc<Job>>>,
    ready: Condvar,
    stop: AtomicBool,
}

/// The pool; dropping it stops and joins the workers (after the world that used it is gone).
pub struct Tasks {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
}

impl Tasks {
    /// A pool of `workers` threads.
    pub fn new(workers: usize) -> Self {
        let shared = Arc::new(Shared {
            queue: Mutex::new(VecDeque::new()),
            ready: Condvar::new(),
            stop: AtomicBool::new(false),
        });
        let workers = (0..workers)
            .map(|i| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("box2d-worker-{}", i + 1))
                    .spawn(move || work(&shared))
                    .expect("a worker thread starts")
            })
            .collect();
        Self { shared, workers }
    }

    /// The context Box2D passes back to [`enqueue`] and [`finish`].
    pub fn context(&self) -> *mut c_void {
        Arc::as_ptr(&self.shared) as *mut c_void
    }
}

impl Drop for Tasks {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Release);
        drop(self.shared.queue.lock().expect("the queue's lock"));
        self.shared.ready.notify_all();
        for w in self.workers.drain(..) {
            w.join().expect("a worker ends cleanly");
        }
    }
}

/// A worker: takes the queue's tasks in order until told to stop.
fn work(shared: &Shared) {
    loop {
        let job = {
            let mut queue = shared.queue.lock().expect("the queue's lock");
            loop {
                if shared.stop.load(Ordering::Acquire) {
                    return;
                }
                if let Some(job) = queue.pop_front() {
                    break job;
                }
                queue = shared.ready.wait(queue).expect("the queue's lock");
            }
        };
        job.take_and_run();
    }
}

/// Box2D's `enqueueTask`: queues the task and returns its handle for [`finish`].
///
/// # Safety
/// `user` is a [`Tasks::context`] whose pool outlives the task.
pub unsafe extern "C" fn enqueue(
    task: Option<TaskFn>,
    context: *mut c_void,
    user: *mut c_void,
) -> *mut c_void {
    let run = task.expect("Box2D enqueues a task function");
    // SAFETY: `user` is the pool's shared state (the caller's promise).
    let shared = unsafe { &*(user as *const Shared) };
    let job = Arc::new(Job {
        run,
        context,
        state: AtomicU8::new(WAITING),
    });
    shared
        .queue
        .lock()
        .expect("the queue's lock")
        .push_back(Arc::clone(&job));
    shared.ready.notify_one();
    Arc::into_raw(job) as *mut c_void
}

/// Box2D's `finishTask`: returns once the task has run, running it here if no worker has
/// taken it yet.
///
/// # Safety
/// `handle` came from [`enqueue`] and is finished once.
pub unsafe extern "C" fn finish(handle: *mut c_void, _user: *mut c_void) {
    // SAFETY: the handle is the `Arc` that `enqueue` gave away, taken back once.
    let job = unsafe { Arc::from_raw(handle as *const Job) };
    if job.take_and_run() {
        return;
    }
    let mut spins = 0u32;
    while job.state.load(Ordering::Acquire) != DONE {
        spins += 1;
        if spins < 1_000 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
}
