//! # collide-replay — the record-and-replay tape of a `collide` world
//!
//! A [`Tape`] is both the recorder and the replayer of one world, on the library's public
//! interface (`collide::record`: [`Recording`], [`Input`], the world's saved state and hash).
//! At the end of its recording it records (steps extend it, inputs are appended, with the
//! state hash every [`CHECK_EVERY`] steps); rewound with [`Tape::seek`] it replays,
//! restoring the nearest in-memory snapshot and stepping forward, and an input given while
//! rewound drops the recorded future and records on from there (a branch). [`replay`] runs a
//! whole recording and says where it first diverged.
#![warn(missing_docs)]

use collide::record::{Input, InputError, Recording, SavedState};
use collide::world::{World, WorldState};

/// Steps between two checkpoints of a recording.
pub const CHECK_EVERY: u64 = 60;
/// Steps between two in-memory snapshots of a [`Tape`] (one second at 4 motion iterations).
const SNAPSHOT_EVERY: u64 = 240;
/// Most snapshots a tape keeps (every other one is dropped past this).
const MAX_SNAPSHOTS: usize = 400;
/// Most balls and shapes all snapshots may hold together (about 30 bytes each).
const SNAPSHOT_OBJECTS: usize = 4_000_000;

/// Replays the whole recording `rec` on `world` (its start world) to the end: the first
/// divergence, if any, and the world at the end.
pub fn replay(rec: Recording, world: &mut World) -> Option<Divergence> {
    let mut tape = Tape::replaying(rec, world);
    let end = tape.end();
    tape.seek(world, end);
    tape.divergence()
}

/// A checkpoint whose hash came out differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The step of the checkpoint.
    pub step: u64,
    /// Hash in the recording.
    pub recorded: u64,
    /// Hash of the replay.
    pub replayed: u64,
}

/// A snapshot: the world after `state.steps` steps, with the first `cursor` inputs applied.
#[derive(Clone, Debug)]
struct Snapshot {
    state: WorldState,
    cursor: usize,
}

/// Recorder and replayer of one world (see the module notes). The world itself stays with
/// the caller; pass the same world to every call.
#[derive(Clone, Debug)]
pub struct Tape {
    rec: Recording,
    /// Inputs applied to the world so far.
    cursor: usize,
    /// Checkpoints the world has passed.
    next_check: usize,
    snapshots: Vec<Snapshot>,
    divergence: Option<Divergence>,
    /// The last checkpoint compared: `(step, recorded, replayed)`.
    last_checked: Option<(u64, u64, u64)>,
    /// The recording's end is not a multiple of [`CHECK_EVERY`] and its checkpoint is not
    /// taken yet: hashing the world every step costs as much as a tenth of a step with
    /// thousands of balls, so the end's hash is taken only when needed ([`Tape::settle`]).
    end_pending: bool,
}

impl Tape {
    /// Starts recording `world`, built from `scene_text` (named `scene_origin`) with `seed`.
    pub fn recording(scene_origin: &str, scene_text: &str, seed: u64, world: &World) -> Self {
        let start = SavedState::of(scene_origin, scene_text, seed, world);
        let rec = Recording {
            end: start.state.steps,
            start,
            inputs: Vec::new(),
            checkpoints: Vec::new(),
        };
        Self::replaying(rec, world)
    }

    /// A tape positioned at the start of `rec`; `world` must be its start world.
    pub fn replaying(rec: Recording, world: &World) -> Self {
        let first = Snapshot {
            state: rec.start.state.clone(),
            cursor: 0,
        };
        debug_assert_eq!(world.steps(), first.state.steps);
        Self {
            rec,
            cursor: 0,
            next_check: 0,
            snapshots: vec![first],
            divergence: None,
            last_checked: None,
            end_pending: false,
        }
    }

    /// The recording so far, with the checkpoint at its end (`world` is the world this
    /// tape steps).
    pub fn record(&mut self, world: &World) -> &Recording {
        self.settle(world);
        &self.rec
    }

    /// The recording as kept so far: the checkpoint at the end may still be missing.
    pub fn recorded(&self) -> &Recording {
        &self.rec
    }

    /// Takes the end's checkpoint if it is due and the world is still there (right after
    /// the last recorded step, before any input at that step). Called before anything that
    /// moves the world away from the end or changes it there.
    fn settle(&mut self, world: &World) {
        if self.end_pending && world.steps() == self.rec.end && self.at_end(world) {
            // Pending means `extend` left the end without one (and popped any older end).
            let cps = &mut self.rec.checkpoints;
            cps.push((self.rec.end, world.state_hash()));
            self.next_check = cps.len();
            self.end_pending = false;
        }
    }

    /// First step of the recording.
    pub fn start(&self) -> u64 {
        self.rec.start.state.steps
    }

    /// Last step of the recording.
    pub fn end(&self) -> u64 {
        self.rec.end
    }

    /// True when the world is at the end of the recording (new steps and inputs record).
    pub fn at_end(&self, world: &World) -> bool {
        self.cursor == self.rec.inputs.len() && world.steps() >= self.rec.end
    }

    /// The first checkpoint that came out differently, since the replay last passed it.
    pub fn divergence(&self) -> Option<Divergence> {
        self.divergence
    }

    /// The last checkpoint the replay compared: `(step, recorded, replayed)`.
    pub fn last_checked(&self) -> Option<(u64, u64, u64)> {
        self.last_checked
    }

    /// The recorded hash right after `step`, if that step is a checkpoint.
    pub fn recorded_hash(&self, step: u64) -> Option<u64> {
        let k = self.rec.checkpoints.partition_point(|c| c.0 < step);
        self.rec
            .checkpoints
            .get(k)
            .filter(|c| c.0 == step)
            .map(|c| c.1)
    }

    /// Applies `input` now and records it. While rewound, the recorded future is dropped
    /// first (a branch). A refused input is still recorded (it is refused again on replay).
    pub fn input(&mut self, world: &mut World, input: Input) -> Result<(), InputError> {
        // The end's hash is of the world before inputs at that step.
        self.settle(world);
        if !self.at_end(world) {
            self.branch(world);
        }
        let result = world.apply_input(&input);
        self.rec.inputs.push((world.steps(), input));
        self.cursor += 1;
        result
    }

    /// Drops everything recorded after the world's position.
    fn branch(&mut self, world: &World) {
        let s = world.steps();
        self.rec.inputs.truncate(self.cursor);
        self.rec.checkpoints.retain(|c| c.0 <= s);
        self.snapshots.retain(|sn| sn.state.steps <= s);
        self.rec.end = s;
        self.end_pending = false;
        if self.divergence.is_some_and(|d| d.step > s) {
            self.divergence = None;
        }
        self.next_check = self.rec.checkpoints.len();
    }

    /// Applies the recorded inputs due at the world's step that are not yet applied.
    fn apply_due(&mut self, world: &mut World) {
        while let Some((step, input)) = self.rec.inputs.get(self.cursor) {
            if *step != world.steps() {
                break;
            }
            // A refused input was refused when recorded too: the world is unchanged alike.
            let _ = world.apply_input(input);
            self.cursor += 1;
        }
    }

    /// One step: due inputs, [`World::step`], then a checkpoint (recording) or its check
    /// (replaying), and a snapshot now and then.
    pub fn step(&mut self, world: &mut World) {
        let live = self.at_end(world);
        if !live {
            self.apply_due(world);
        }
        world.step();
        let s = world.steps();
        if live || s > self.rec.end {
            self.extend(world);
        } else {
            self.check(world);
        }
        let last = self.snapshots.last().map_or(0, |sn| sn.state.steps);
        if s >= last + SNAPSHOT_EVERY {
            self.snapshot(world);
        }
    }

    /// A recorded step: the end moves on; a checkpoint every [`CHECK_EVERY`] steps and one
    /// at the end.
    fn extend(&mut self, world: &World) {
        let s = world.steps();
        self.rec.end = s;
        let cps = &mut self.rec.checkpoints;
        if cps.last().is_some_and(|c| c.0 % CHECK_EVERY != 0) {
            cps.pop();
        }
        // The end's checkpoint only when asked for (see `end_pending`).
        self.end_pending = !s.is_multiple_of(CHECK_EVERY);
        if !self.end_pending {
            cps.push((s, world.state_hash()));
        }
        self.next_check = cps.len();
    }

    /// A replayed step: compare with the checkpoint at this step, if any.
    fn check(&mut self, world: &World) {
        let s = world.steps();
        let cps = &self.rec.checkpoints;
        while self.next_check < cps.len() && cps[self.next_check].0 < s {
            self.next_check += 1;
        }
        let Some(&(step, recorded)) = cps.get(self.next_check).filter(|c| c.0 == s) else {
            return;
        };
        self.next_check += 1;
        let replayed = world.state_hash();
        self.last_checked = Some((step, recorded, replayed));
        if recorded != replayed && self.divergence.is_none() {
            self.divergence = Some(Divergence {
                step,
                recorded,
                replayed,
            });
        }
    }

    fn snapshot(&mut self, world: &World) {
        self.snapshots.push(Snapshot {
            state: world.save_state(),
            cursor: self.cursor,
        });
        let size = |sn: &Snapshot| sn.state.balls.len() + sn.state.shapes.len() + 1;
        let mut total: usize = self.snapshots.iter().map(size).sum();
        while self.snapshots.len() > 2
            && (self.snapshots.len() > MAX_SNAPSHOTS || total > SNAPSHOT_OBJECTS)
        {
            // Keep the first and every other one after it: coarser, but bounded memory.
            let mut k = 0;
            self.snapshots.retain(|_| {
                k += 1;
                k == 1 || k % 2 == 0
            });
            total = self.snapshots.iter().map(size).sum();
        }
    }

    /// Puts the world at `target` (clamped to the recording): restores the latest snapshot
    /// at or before it (unless the world is already between that snapshot and the target),
    /// replays forward, and applies the inputs recorded at `target`.
    pub fn seek(&mut self, world: &mut World, target: u64) {
        self.settle(world);
        let target = target.clamp(self.start(), self.end());
        let k = self
            .snapshots
            .partition_point(|sn| sn.state.steps <= target);
        let snap = &self.snapshots[k.saturating_sub(1)];
        let here = world.steps();
        let ahead = here > target || (here == target && self.cursor > snap.cursor);
        if ahead || here < snap.state.steps {
            let (steps, cursor) = (snap.state.steps, snap.cursor);
            // Snapshots come from this world's own save_state: restoring cannot fail.
            let restored = world.restore_state(&snap.state);
            debug_assert!(restored.is_ok(), "{restored:?}");
            self.cursor = cursor;
            self.next_check = self.rec.checkpoints.partition_point(|c| c.0 <= steps);
            if self.divergence.is_some_and(|d| d.step > steps) {
                self.divergence = None;
            }
        }
        while world.steps() < target {
            self.step(world);
        }
        self.apply_due(world);
    }
}
