//! The state the window's parts share: the overlays to draw ([`Show`]), what the user chose
//! beside the world ([`Choices`]), what each frame measured and said ([`Feedback`]), and the
//! read-outs of the frame's load ([`Load`]). The world's settings and broad phase, the sound's
//! mute and volume and the scene's name are not copied here: the panels read them from their
//! owners each frame and return messages that change them; the windows' open flags are the
//! windows' (`ui/windows.rs`).

/// The Show toggles: the overlays drawn over the world.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Show {
    /// Fading dot at each impact.
    pub hit_points: bool,
    /// Fading trails behind balls.
    pub tracks: bool,
    /// Tangent lines at impacts on arcs, segments and circles.
    pub tangents: bool,
    /// Every box, plus the broad phase's structure (quadtree leaf grid, sectors, …).
    pub aabbs: bool,
    /// Spinning marker at impacts, styled by collision type.
    pub reticles: bool,
    /// Velocity arrows.
    pub velocity: bool,
    /// Arc interiors shaded.
    pub sectors: bool,
    /// Shapes lit briefly when hit.
    pub lights: bool,
    /// Each ball's path in the last step and the impacts found on it.
    pub sweeps: bool,
    /// The broad phase's places coloured by the box tests they cost (`render/heat.rs`).
    pub heat: bool,
    /// The probe: what the broad phase did for the ball under the pointer (`render/probe.rs`).
    pub probe: bool,
    /// Soft contacts drawn with their normal impulse as thickness (`render/solver_view.rs`).
    pub impulses: bool,
    /// What the solver view's colours say.
    pub colouring: Colouring,
}

/// What the solver view's colours say (`render/solver_view.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Colouring {
    /// What a contact touches: another ball or an obstacle.
    #[default]
    Kind,
    /// The constraint colour the solver gave it.
    Colours,
    /// The island of its ball.
    Islands,
}

impl Show {
    /// Whether `name` is an overlay [`Show::enable`] turns on.
    pub fn knows(name: &str) -> bool {
        let mut s = Show::default();
        s.enable(name);
        s != Show::default()
    }

    /// Turns on the overlay called `name` (one of [`crate::cli::OVERLAYS`]).
    pub fn enable(&mut self, name: &str) {
        match name {
            "hit-points" => self.hit_points = true,
            "tracks" => self.tracks = true,
            "tangents" => self.tangents = true,
            "aabbs" => self.aabbs = true,
            "reticles" => self.reticles = true,
            "velocity" => self.velocity = true,
            "sectors" => self.sectors = true,
            "lights" => self.lights = true,
            "sweeps" => self.sweeps = true,
            "heat" => self.heat = true,
            "probe" => self.probe = true,
            "impulses" => self.impulses = true,
            "colours" => (self.impulses, self.colouring) = (true, Colouring::Colours),
            "islands" => (self.impulses, self.colouring) = (true, Colouring::Islands),
            _ => {}
        }
    }
}

/// What the user chose beside the world's settings: the overlays (saved with the
/// preferences, `prefs.rs`), pause, the time scale, hidden panels, edit mode, and whether the
/// broad phase and the solver were chosen by hand. Changed only by [`crate::message::Message`]s,
/// in `App::apply`. Mute and the volume are the sound's (`sound/`), the scene's name and
/// its fill's ball count the scene's: they are read from their owners.
#[derive(Clone, Debug)]
pub struct Choices {
    /// Overlays.
    pub show: Show,
    /// The user chose the broad phase (the panel, `--broad-phase`): Fill and Restart keep it.
    /// Otherwise they pick one for the ball count (`advice.rs`).
    pub broad_chosen: bool,
    /// The user chose the contact solver (the panel, `--solver`): a Fill keeps it. Otherwise
    /// a Fill of many balls takes soft contacts (`advice.rs`).
    pub solver_chosen: bool,
    /// Simulation paused.
    pub paused: bool,
    /// Simulated seconds per real second (below 1: slow motion).
    pub time_scale: f32,
    /// Tab hid the panels and windows.
    pub panels_hidden: bool,
    /// Edit mode asked for (toolbar Edit, F2); the app enters or leaves it to match.
    pub editing: bool,
}

impl Default for Choices {
    fn default() -> Self {
        Self {
            show: Show {
                lights: true,
                sweeps: true,
                ..Show::default()
            },
            broad_chosen: false,
            solver_chosen: false,
            paused: false,
            time_scale: 1.0,
            panels_hidden: false,
            editing: false,
        }
    }
}

/// What a frame measured and said, for the frames after it: where the panels ended, whether
/// egui has the keyboard or the pointer, how the frame is drawn, and the notes.
#[derive(Clone, Debug)]
pub struct Feedback {
    /// Width the panel took last frame (px), so the table fits beside it.
    pub panel_width: f32,
    /// Height the toolbar took last frame (px).
    pub toolbar_height: f32,
    /// egui has keyboard focus (keys then go to egui, not the toy).
    pub egui_wants_keys: bool,
    /// The pinball controls' keys held last frame (flippers, plunger): a control changes when
    /// its key does.
    pub controls_held: [bool; 3],
    /// egui has the pointer (over a panel or window, or dragging): the table's gestures and
    /// the wheel's zoom leave it alone. Set after every panel and window of egui's pass.
    pub egui_wants_pointer: bool,
    /// How the frame is drawn (set by the app): the path and the GL renderer.
    pub renderer_line: String,
    /// What the panel says about the last changes.
    pub notes: Notes,
}

impl Default for Feedback {
    fn default() -> Self {
        Self {
            panel_width: 320.0,
            toolbar_height: 60.0,
            egui_wants_keys: false,
            controls_held: [false; 3],
            egui_wants_pointer: false,
            renderer_line: String::new(),
            notes: Notes::default(),
        }
    }
}

/// The panel's words about what the last changes did.
#[derive(Clone, Debug, Default)]
pub struct Notes {
    /// A note for the user (screenshot written, scene loaded, a refusal), under the heading.
    pub message: Option<String>,
    /// Why the toy picked the broad phase it did, or why the chosen one is slow for a Fill.
    pub broad_note: Option<String>,
    /// Why the toy picked soft contacts for a Fill.
    pub solver_note: Option<String>,
    /// What the last fill did, when worth saying.
    pub fill_message: Option<String>,
    /// Last refusal of a parameter change, shown under the sliders.
    pub param_message: Option<String>,
}

/// Read-outs the panel shows (measured by the app).
#[derive(Clone, Copy, Debug, Default)]
pub struct Load {
    /// Frames per second.
    pub fps: f32,
    /// The main thread's time in the frame (input, panels, drawing; not its wait for the
    /// physics thread) over the frame time.
    pub cpu: f32,
    /// Physics time per frame (ms).
    pub physics_ms: f32,
    /// The physics thread's time over the frame time: near 1, it cannot keep up.
    pub physics_share: f32,
    /// Physics cannot keep up: one frame of simulated time per frame.
    pub slow_motion: bool,
}
