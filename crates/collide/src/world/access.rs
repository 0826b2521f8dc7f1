//! Reading and editing the world between steps: accessors, the broad phase in use, launching,
//! adding and removing balls, the hits, the state's hash, and the records a viewer asks for
//! (the broad phase's probe, the soft contacts' impulses).

use super::contacts::SolverContact;
use super::counters::{Counters, Tally};
use super::launch::Launcher;
use super::probing::{ProbeAsk, ProbeRecord};
use super::settings::{Settings, Solver};
use super::sweep::SweptImpact;
use super::{BallId, StaleBall, World};
use crate::broad::{BroadKind, BroadPhase, Pair};
use crate::geom::{Aabb, Ball, Shape};
use crate::response::Hit;
use glam::Vec2;

impl World {
    /// This world with balls launched from `launcher`.
    pub fn with_launcher(mut self, launcher: Launcher) -> Self {
        self.stages.set_launcher(launcher);
        self
    }

    /// Obstacles: statics `[0, first_moving)`, then kinematic shapes.
    pub fn shapes(&self) -> &[Shape] {
        &self.shapes
    }

    /// The balls.
    pub fn balls(&self) -> &[Ball] {
        &self.balls
    }

    /// The play area (px).
    pub fn bounds(&self) -> Aabb {
        self.bounds
    }

    /// Where balls are launched from.
    pub fn launcher(&self) -> Launcher {
        self.stages.launcher()
    }

    /// Balls waiting to be launched.
    pub fn pending_launches(&self) -> u32 {
        self.stages.pending_launches()
    }

    /// The counters.
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// What the last [`World::fill_random`] did (also a recorded fill's, and a scene's own
    /// fill when it was built): balls placed, their largest radius, and why fewer than asked.
    pub fn last_fill(&self) -> Option<super::filled::Filled> {
        self.last_fill
    }

    /// Whether the pair cache is standing aside for now, passing calls straight to the broad
    /// phase because most of its recent calls had to query (`world/cache.rs`).
    pub fn pair_cache_resting(&self) -> bool {
        self.settings.pair_cache && self.stages.pair_cache_resting()
    }

    /// The broad phase in use.
    pub fn broad(&self) -> &dyn BroadPhase {
        self.stages.broad()
    }

    /// The broad phase in use, for setting its parameters.
    pub(crate) fn broad_mut(&mut self) -> &mut dyn BroadPhase {
        self.stages.broad_mut()
    }

    /// Switches the broad phase. The simulation is unaffected (all return the same pairs).
    pub fn set_broad_phase(&mut self, kind: BroadKind) {
        if self.stages.broad().kind() != kind {
            self.stages.set_broad(kind.create());
        }
    }

    /// Replaces the broad phase with a configured instance.
    pub fn set_broad_phase_boxed(&mut self, broad: Box<dyn BroadPhase>) {
        self.stages.set_broad(broad);
    }

    /// The candidate pairs of the last collision iteration.
    pub fn last_pairs(&self) -> &[Pair] {
        self.stages.last_pairs()
    }

    /// The boxes of the last collision iteration (obstacles, then balls).
    pub fn last_aabbs(&self) -> &[Aabb] {
        self.stages.last_aabbs()
    }

    /// The longest side of a ball's box the broad phase was last given (px): the balls' boxes
    /// of the last collision iteration, or, while the pair cache answers, the grown boxes of
    /// its last query, which the broad phases' automatic sizes follow. Sleepers are static
    /// boxes to the broad phase, not balls, so theirs do not count. 0 without awake balls.
    pub fn largest_ball_box(&self) -> f32 {
        let first_ball = self.shapes().len();
        let boxes = self.last_aabbs().get(first_ball..).unwrap_or(&[]);
        let sleepers = self.stages.sleepers();
        let given = |i: usize| sleepers.binary_search(&(i as u32)).is_err();
        let own = boxes.iter().enumerate().filter(|&(i, _)| given(i));
        let own = own
            .map(|(_, b)| b.size().max_element())
            .fold(0.0f32, f32::max);
        let cached = match self.settings.pair_cache {
            true => self.stages.cached_largest_ball_box(),
            false => None,
        };
        own.max(cached.unwrap_or(0.0))
    }

    /// A function returning nanoseconds from any fixed origin, used only to time the broad
    /// phase for the counters (the library never reads a clock by itself).
    pub fn set_clock(&mut self, clock: fn() -> u64) {
        self.clock = Some(clock);
    }

    /// Steps run since the scene was loaded.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Length of one step (s) at the current motion iterations.
    pub fn step_seconds(&self) -> f64 {
        1.0 / self.steps_per_second() as f64
    }

    /// Physics steps per simulated second: 60 × motion iterations.
    pub fn steps_per_second(&self) -> u32 {
        60 * self.settings.motion_iterations.clamp(1, 64)
    }

    /// Queues `n` balls for launch; they enter one at a time as the launch point clears.
    pub fn launch(&mut self, n: u32) {
        let pending = self.stages.pending_launches();
        self.stages.set_pending_launches(pending.saturating_add(n));
    }

    /// Removes every ball and cancels queued launches.
    pub fn clear(&mut self) {
        self.balls.clear();
        self.stages.balls_cleared();
        self.counters.launched = 0;
        self.counters.co_located = 0;
        self.counters.strays = 0;
        self.rules.scene.balls_cleared();
    }

    /// Adds a ball directly (scenes, tests, benchmarks); returns its id.
    pub fn add_ball(&mut self, ball: Ball) -> BallId {
        self.balls.push(ball)
    }

    /// The id of ball `i` (by its place in [`World::balls`]), if there is one.
    pub fn ball_id(&self, i: usize) -> Option<BallId> {
        self.balls.id(i)
    }

    /// The place in [`World::balls`] of the ball `id` names, or why there is none.
    pub fn ball_index(&self, id: BallId) -> Result<usize, StaleBall> {
        self.balls.index(id)
    }

    /// The ball `id` names, or why there is none.
    pub fn ball(&self, id: BallId) -> Result<&Ball, StaleBall> {
        self.balls.index(id).map(|i| &self.balls[i])
    }

    /// Removes ball `i` (keeps the order of the others; every other ball keeps its id).
    pub(crate) fn remove_ball(&mut self, i: usize) {
        if i < self.balls.len() {
            let id = self.stages.take_ball(&mut self.balls, i, self.shapes.len());
            self.rules.scene.ball_removed(id);
        }
    }

    /// Removes the ball `id` names, as [`World::remove_ball`] does; refuses a stale id.
    #[cfg(test)]
    pub(crate) fn remove_ball_id(&mut self, id: BallId) -> Result<(), StaleBall> {
        let i = self.balls.index(id)?;
        self.remove_ball(i);
        Ok(())
    }

    /// Takes the impacts recorded since the last call.
    pub fn drain_hits(&mut self) -> std::vec::Drain<'_, Hit> {
        self.hits.drain(..)
    }

    /// A hash of the state, bit exact: every ball's position and velocity, every kinematic
    /// angle and plunger pull (FNV-1a, 64 bit).
    pub fn state_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |x: u32| {
            for byte in x.to_le_bytes() {
                h ^= byte as u64;
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        eat(self.balls.len() as u32);
        for b in &self.balls {
            for v in [b.pos.x, b.pos.y, b.vel.x, b.vel.y] {
                eat(v.to_bits());
            }
        }
        for s in &self.shapes[self.first_moving..] {
            eat(s.angle.to_bits());
            if matches!(s.motion, crate::geom::Motion::Plunger { .. }) {
                eat(s.pull.to_bits());
            }
        }
        if self.settings.solver == Solver::Soft {
            for b in &self.balls {
                eat(b.spin.to_bits());
            }
        }
        if self.sleep_enabled() {
            for r in self.balls.rests() {
                eat(r.asleep as u32);
                eat(r.slow_for.to_bits());
                eat(r.group);
            }
        }
        h
    }

    /// True when every ball's position and velocity is finite.
    pub fn all_finite(&self) -> bool {
        self.balls
            .iter()
            .all(|b| b.pos.is_finite() && b.vel.is_finite())
    }

    /// What the panel shows as "the last second": the last complete simulated second, and
    /// until one has completed, the second in progress (just after a load, and for as long as
    /// a simulated second takes: half a minute with 100,000 balls in slow motion). Returns
    /// the tally and the factor that turns its counts into rates per simulated second: 1 for
    /// a complete second, `steps per second / steps so far` for the one in progress.
    pub fn recent_second(&self) -> (&Tally, f64) {
        let c = &self.counters;
        if c.full_second || c.steps_in_second == 0 {
            (&c.last_second, 1.0)
        } else {
            let factor = self.steps_per_second() as f64 / c.steps_in_second as f64;
            (&c.current_second, factor)
        }
    }

    /// The settings (read every step).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Replaces the settings; a change of those that govern motion (gravity, elasticity,
    /// iterations, solver, sleep, stiffness, tunnelling, rotation) wakes every ball.
    pub fn set_settings(&mut self, settings: Settings) {
        let before = self.settings.motion_key();
        self.settings = settings;
        if self.settings.motion_key() != before {
            self.wake_all();
        }
    }

    /// Changes the settings in place with `edit`, under the rules of [`Self::set_settings`].
    ///
    /// ```
    /// let mut world = collide::Scene::builtin("table").expect("built in").build(7);
    /// world.edit_settings(|s| s.gravity = 0.0);
    /// assert_eq!(world.settings().gravity, 0.0);
    /// ```
    pub fn edit_settings(&mut self, edit: impl FnOnce(&mut Settings)) {
        let mut settings = self.settings.clone();
        edit(&mut settings);
        self.set_settings(settings);
    }

    /// Whether balls may fall asleep now: the setting, or else on with soft contacts.
    pub(crate) fn sleep_enabled(&self) -> bool {
        self.settings.sleep_on()
    }

    /// Whether the ball `id` names sleeps now (false for no such ball).
    pub fn asleep(&self, id: BallId) -> bool {
        self.balls.index(id).is_ok_and(|i| self.balls.asleep(i))
    }

    /// Whether each ball sleeps now, in the order of [`World::balls`].
    pub fn asleep_each(&self) -> impl ExactSizeIterator<Item = bool> + '_ {
        self.balls.rests().iter().map(|r| r.asleep)
    }

    /// Balls asleep now.
    pub fn asleep_count(&self) -> usize {
        self.balls.rests().iter().filter(|r| r.asleep).count()
    }

    /// Wakes every ball.
    pub(crate) fn wake_all(&mut self) {
        self.balls.wake_all();
    }

    /// Each ball's position at the start of the last step (in every mode).
    pub fn step_starts(&self) -> &[Vec2] {
        self.balls.starts()
    }

    /// The contact list: the contacts the solver answered in the last step, each with its
    /// collision iteration, in the order answered (with the push-out, every iteration's in
    /// pair order, then the walls' last word; with soft contacts, those of the frame's
    /// search; empty in the swept modes, see [`World::step_impacts`]), for a viewer to draw.
    pub fn contacts(&self) -> &[super::PairContact] {
        self.stages.contacts()
    }

    /// The contact list's frame's end: the contacts touching at the end of the last frame
    /// (the last of its `motion_iterations` steps), with every solver and mode, where the
    /// balls ended it: those of the balls awake at the frame's last broad-phase call, and
    /// those among the balls asleep then and with the obstacles. Each is numbered
    /// [`PairContact::FRAME_END`](super::PairContact::FRAME_END); the overlap meter
    /// ([`Counters::overlap`](super::Counters::overlap)) is measured from them. Empty
    /// until a frame's end; [`World::clear`] and a restore empty it, and its sleepers' part
    /// is written again when the sleepers change or one wakes (the meter keeps its figure
    /// of them till then).
    pub fn frame_end_contacts(&self) -> super::FrameEndContacts<'_> {
        self.stages.frame_end_contacts()
    }

    /// The impacts answered in the last step, in order (swept modes only).
    pub fn step_impacts(&self) -> &[SweptImpact] {
        self.stages.step_impacts()
    }
}

impl World {
    /// Asks the broad phase to record its work per ball from the next call on (`None`: stop).
    /// Changes no simulation; while on, the pair cache stands aside (see the module notes).
    pub fn set_probe(&mut self, ask: Option<ProbeAsk>) {
        self.stages.set_probe(ask);
    }

    /// What the probe recorded, while it is on.
    pub fn probe(&self) -> Option<&ProbeRecord> {
        self.stages.probe()
    }

    /// Makes the broad phase's last call again, probed as now asked, so that a viewer of a
    /// world standing still (paused) can point at another ball and read what that call did
    /// for it. The call's boxes are its own (where each ball was then), the candidates'
    /// contacts are tested where the balls are now. Changes no simulation, no counter and no
    /// pair kept. Returns false when the probe is off or the balls changed since the call (a
    /// ball added or removed): the record is then left as it was, until the next step.
    pub fn probe_again(&mut self) -> bool {
        let w = super::context::frame!(self);
        self.stages.probe_again(&w)
    }
}

impl World {
    /// The soft contacts of the last step with their normal impulses (none with the
    /// push-out, which keeps no contacts).
    pub fn solver_contacts(&self) -> Vec<SolverContact> {
        if self.settings.solver != Solver::Soft {
            return Vec::new();
        }
        let view = |solved: (&super::contacts::SoftContact, f32, _)| {
            let c = solved.0;
            SolverContact {
                ball: c.ball.ix(),
                other: c.other.into(),
                point: c.point,
                normal: c.normal,
                impulse: solved.1,
                colour: solved.2,
            }
        };
        self.stages.soft_contacts().map(view).collect()
    }
}
