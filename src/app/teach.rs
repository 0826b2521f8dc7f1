//! The teaching tools in the app: Things to try set up (`tour/`, the window `ui/tour.rs`), the
//! probe's focus (the ball under the pointer, or one pinned by a click) asked of the world
//! before each frame's steps, and the probe, heat map and solver view drawn over the table
//! (`render/probe.rs`, `render/heat.rs`, `render/solver_view.rs`). None changes the
//! simulation: a set-up goes through the messages like any panel's, and the probe is a
//! request for a record.

use super::App;
use crate::message::Message;
use crate::render::heat;
use crate::render::view::View;
use crate::render::{probe, screen, solver_view};
use crate::tour::{self, Setup};
use collide::world::ProbeAsk;
use collide::{Input, Settings, Vec2};
use macroquad::prelude::{get_time, is_mouse_button_pressed, MouseButton};

impl App {
    /// Sets the toy up for experiment `k` of Things to try: what its set-up names, in the
    /// order a person would (scene, broad phase and parameters, settings, balls, overlays),
    /// through the same messages as the panel; nothing else changes.
    pub(super) fn start_tour(&mut self, k: usize) {
        let Some(x) = tour::list().get(k) else {
            return;
        };
        let (setup, title) = (&x.setup, &x.title);
        let Ok(names) = setup.resolved() else {
            return; // the shipped list resolves (tested)
        };
        if let Some(scene) = names.scene {
            self.apply(Message::LoadScene(scene));
        }
        if let Some(n) = setup.scene_fill {
            self.apply(Message::SceneFill(n));
        }
        if let Some(kind) = names.broad {
            self.apply(Message::ChooseBroad(kind));
        }
        self.set_params(setup);
        let mut sim = self.sim.world().settings().clone();
        edit_settings(&mut sim, setup, &names);
        if sim != *self.sim.world().settings() {
            self.input_shown(Input::Settings(sim));
        }
        if let Some((n, r)) = setup.fill {
            let (radius, speed) = (crate::start::fill_radii(r), crate::start::FILL_SPEED);
            self.apply(Message::World(Input::Fill { n, radius, speed }));
        }
        if let Some(n) = setup.launch {
            self.apply(Message::World(Input::Launch(n)));
        }
        let mut show = self.choices.show.clone();
        for name in &setup.show {
            show.enable(name);
        }
        self.apply(Message::Show(show));
        self.windows.tour.shown = k;
        self.windows.tour.place();
        self.teach.pinned = None;
        self.feedback.notes.message = Some(format!("Things to try {}: {title}", k + 1));
    }

    /// The set-up's broad-phase parameters, by the names the broad phase gives them.
    fn set_params(&mut self, setup: &Setup) {
        for (name, v) in &setup.params {
            let params = self.sim.world().broad().params();
            match params.iter().find(|p| p.name == name) {
                Some(p) => self.apply(Message::World(Input::SetParam {
                    name: p.name.to_string(),
                    value: *v,
                })),
                None => self.feedback.notes.param_message = Some(format!("no parameter {name:?}")),
            }
        }
    }

    /// `--tour N`: the window open on experiment N, the toy set up for it.
    pub(super) fn start_tour_from_args(&mut self) {
        if let Some(crate::cli::TourArg::Start(k)) = self.args.tour {
            self.windows.set_open(crate::ui::tour::NAME, true);
            self.start_tour(k);
        }
    }

    /// Asks the world for the probe's record while the probe or the heat map is shown.
    pub(super) fn sync_probe(&mut self) {
        let show = &self.choices.show;
        let ask = (show.probe || show.heat).then(|| ProbeAsk {
            focus: if show.probe {
                self.teach.pinned.or(self.teach.hover)
            } else {
                None
            },
            heat: show.heat,
        });
        self.teach.asked = ask;
        self.sim.world_mut().set_probe(ask);
    }

    /// Paused, the probe follows the pointer: when it points at another ball, or pins one,
    /// the world's last broad-phase call is made again for that ball (`World::probe_again`),
    /// so its record is shown at once rather than at the next step.
    pub(super) fn probe_while_paused(&mut self) {
        let before = self.teach.asked;
        self.sync_probe();
        let focus = self.teach.asked.and_then(|a| a.focus);
        if self.teach.asked != before && focus.is_some() {
            self.sim.world_mut().probe_again();
        }
    }

    /// The probe's record, when it is of the ball the probe is on now (the pinned one, else
    /// the one under the pointer): a record of another ball is never shown as this one's.
    fn probe_record(&self) -> Option<&collide::world::ProbeRecord> {
        let rec = self.sim.world().probe()?;
        let focus = self.teach.pinned.or(self.teach.hover);
        (rec.focus.as_ref().map(|f| f.ball) == focus && focus.is_some()).then_some(rec)
    }

    /// With the probe on, notes the ball under the pointer, and a left click asks to pin the
    /// ball under it (or, on the empty field, to let go of the pinned one). Returns the click's
    /// message when it was the probe's (no other gesture starts from it).
    pub(super) fn probe_mouse(&mut self, view: &View, over_table: bool) -> Option<Message> {
        if !self.choices.show.probe || !over_table {
            self.teach.hover = None;
            return None;
        }
        let p = view.to_world(screen::mouse());
        // The nearest ball within a generous reach: small balls are hard to point at.
        let world = self.sim.world();
        // The probe names its focus by place (as the world's probe asks).
        let under = world.ball_at(p, PROBE_REACH / view.scale());
        let under = under.and_then(|id| world.ball_index(id).ok());
        self.teach.hover = under;
        if !is_mouse_button_pressed(MouseButton::Left) {
            return None;
        }
        Some(Message::Pin(match (under, self.teach.pinned) {
            (Some(b), Some(p)) if b == p => None,
            (under, _) => under,
        }))
    }

    /// The colour seeds of the balls while the heat map shows on them (algorithms without
    /// places to colour).
    pub(super) fn heat_tints(&self) -> Option<Vec<u32>> {
        let kind = self.sim.world().broad().kind();
        if !self.choices.show.heat || self.editor.active || heat::on_places(kind) {
            return None;
        }
        let rec = self.sim.world().probe()?;
        Some(heat::ball_tints(rec, self.sim.world().balls().len()))
    }

    /// Hands the balls' drawing the heat map's places to draw under them, or none.
    pub(super) fn sync_heat(&mut self) {
        let kind = self.sim.world().broad().kind();
        let wanted = self.choices.show.heat && !self.editor.active;
        let grid = match self.sim.world().probe() {
            Some(rec) if wanted => self.teach.heat.grid(rec, kind, get_time()),
            _ => None,
        };
        self.sprites.set_heat(grid);
    }

    /// The heat map under the balls' overlays, then the solver view and the probe over them.
    pub(super) fn draw_teaching(&mut self, view: &View) {
        if self.editor.active {
            return;
        }
        let world = self.sim.world();
        if self.choices.show.impulses {
            solver_view::draw(view, world, self.choices.show.colouring);
        }
        let Some(rec) = world.probe() else {
            return;
        };
        if self.choices.show.heat {
            heat::draw(view, rec, world.broad().kind(), &mut self.teach.heat);
        }
        if let Some(rec) = self.probe_record().filter(|_| self.choices.show.probe) {
            let pinned = self.teach.pinned.and_then(|i| world.balls().get(i));
            let near = match pinned {
                Some(b) => view.pt(b.pos + Vec2::new(b.radius, b.radius)),
                None => screen::mouse(),
            };
            probe::draw(view, rec, near);
        }
    }
}

/// How far from a ball the pointer may be and still probe it (screen px).
const PROBE_REACH: f32 = 14.0;

/// The set-up's settings written into `sim`.
fn edit_settings(sim: &mut Settings, setup: &Setup, names: &tour::Resolved) {
    if let Some(on) = setup.pair_cache {
        sim.pair_cache = on;
    }
    if let Some(s) = names.solver {
        sim.solver = s;
    }
    if let Some(on) = setup.sleep {
        sim.sleep.enabled = Some(on);
    }
    if let Some(t) = names.tunnelling {
        sim.tunnelling = t;
    }
    let numbers = [
        (setup.gravity, &mut sim.gravity),
        (setup.radius, &mut sim.ball_radius),
        (setup.speed, &mut sim.launch_speed),
    ];
    for (value, field) in numbers {
        if let Some(v) = value {
            *field = v;
        }
    }
    if let Some(n) = setup.motion {
        sim.motion_iterations = n;
    }
    if let Some(n) = setup.collision {
        sim.collision_iterations = n;
    }
}

#[cfg(test)]
mod tests {
    use super::App;
    use crate::message::Message;
    use crate::tour;

    /// An app as a `--frames` run builds it, with these extra flags.
    fn app(extra: &[&str]) -> App {
        crate::app::tests::app_on(extra)
    }

    #[test]
    fn every_experiment_sets_up_what_it_names_and_nothing_else() {
        for (k, x) in tour::list().iter().enumerate() {
            let mut app = app(&[]);
            // Named by no set-up, kept by a scene load: must stay.
            app.sim.world_mut().edit_settings(|s| s.rotate = true);
            app.apply(Message::Tour(k));
            let (s, names, w) = (&x.setup, x.setup.resolved().unwrap(), app.sim.world());
            let name = &x.title;
            if let Some(scene) = &s.scene {
                assert_eq!(&app.scene.name, scene, "{name}");
            }
            if let Some(kind) = names.broad {
                assert_eq!(w.broad().kind(), kind, "{name}");
            }
            for (p, v) in &s.params {
                let got = w.broad().params().into_iter().find(|q| q.name == p);
                assert_eq!(got.map(|q| q.value), Some(*v), "{name}: {p}");
            }
            let st = w.settings();
            assert!(st.rotate, "{name}: untouched");
            if let Some(c) = s.collision {
                assert_eq!(st.collision_iterations, c, "{name}");
            }
            if let Some(m) = s.motion {
                assert_eq!(st.motion_iterations, m, "{name}");
            }
            if let Some(on) = s.pair_cache {
                assert_eq!(st.pair_cache, on, "{name}");
            }
            if let Some(solver) = names.solver {
                assert_eq!(st.solver, solver, "{name}");
            }
            if let Some(t) = names.tunnelling {
                assert_eq!(st.tunnelling, t, "{name}");
            }
            if let Some(n) = s.launch {
                assert_eq!(w.pending_launches(), n, "{name}");
            }
            if let Some((n, _)) = s.fill {
                assert_eq!(w.balls().len(), n as usize, "{name}");
            }
            let shown = crate::prefs::Prefs::shown(&app.choices.show);
            for o in s.show.iter().filter(|o| *o != "probe") {
                assert!(shown.contains(o), "{name}: {o} shown");
            }
            let message = app.feedback.notes.message.clone().unwrap_or_default();
            assert!(message.contains(name.as_str()), "{message}");
        }
    }

    /// The solver's colours: the pile fell asleep within seconds and its colours went before
    /// a student had looked; the experiment runs with sleep off, and the pile keeps its
    /// contacts (with sleep on, the same pile sleeps by then).
    #[test]
    fn the_solver_colours_pile_stays_awake_with_its_contacts() {
        let k = tour::list()
            .iter()
            .position(|x| x.title == "The solver's colours")
            .expect("listed");
        let run = |sleep: bool| {
            let mut app = app(&[]);
            app.apply(Message::Tour(k));
            if sleep {
                app.sim
                    .world_mut()
                    .edit_settings(|s| s.sleep.enabled = Some(true));
            }
            for _ in 0..240 {
                app.step_frame();
            }
            (
                app.sim.world().asleep_count(),
                app.sim.world().solver_contacts().len(),
            )
        };
        let (asleep, contacts) = run(false);
        assert_eq!(asleep, 0, "set up: nobody sleeps");
        assert!(contacts > 300, "{contacts} contacts coloured");
        assert!(run(true).0 > 0, "with sleep on the pile sleeps by then");
    }

    #[test]
    fn tour_n_starts_set_up_with_the_window_open() {
        let app = app(&["--tour", "2"]);
        assert!(app.windows.is_open(crate::ui::tour::NAME));
        assert_eq!(app.sim.world().broad().kind(), collide::BroadKind::Quadtree);
        assert_eq!(app.windows.tour.shown, 1);
    }

    /// The ball the probe's record is of, as the table would show it.
    fn shown_ball(app: &App) -> Option<usize> {
        app.probe_record()
            .and_then(|r| r.focus.as_ref())
            .map(|f| f.ball)
    }

    /// P, then I, then the pointer on a ball, then O: paused, the probe shows the ball under
    /// the pointer at once, and after O that ball's record of the new step; never the ball
    /// pointed at before.
    #[test]
    fn paused_the_probe_follows_the_pointer_and_o_steps_with_it() {
        let mut app = app(&["--scene", "field", "--fill", "300"]);
        for _ in 0..5 {
            app.sync_probe();
            app.step_frame();
        }
        app.choices.paused = true;
        app.choices.show.probe = true;
        app.teach.hover = Some(7);
        app.probe_while_paused();
        assert_eq!(shown_ball(&app), Some(7), "shown at once, paused");
        app.teach.hover = Some(12);
        assert_eq!(
            shown_ball(&app),
            None,
            "ball 7's record is not shown for 12"
        );
        app.probe_while_paused();
        assert_eq!(shown_ball(&app), Some(12));
        app.teach.pinned = Some(3);
        app.probe_while_paused();
        assert_eq!(shown_ball(&app), Some(3), "a click pins another");
        let steps = app.sim.world().steps();
        app.apply(Message::Step);
        assert!(app.sim.world().steps() > steps, "O stepped");
        assert_eq!(
            shown_ball(&app),
            Some(3),
            "the step's record is the pinned ball's"
        );
    }

    #[test]
    fn the_probe_is_asked_while_shown_and_changes_no_simulation() {
        let run = |probe: bool| {
            let mut app = app(&["--tour", "15"]);
            app.choices.show.probe = probe;
            app.choices.show.heat = probe;
            app.teach.pinned = Some(5);
            for _ in 0..30 {
                app.sync_probe();
                app.step_frame();
            }
            let rec = app
                .sim
                .world()
                .probe()
                .map(|r| r.focus.as_ref().map(|f| f.ball));
            (app.sim.world().state_hash(), rec)
        };
        let (plain, none) = run(false);
        let (probed, focus) = run(true);
        assert_eq!(plain, probed);
        assert_eq!(none, None, "no record unless asked");
        assert_eq!(focus, Some(Some(5)), "the pinned ball");
    }
}
