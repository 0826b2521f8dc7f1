//! Where the world is. Between two frames' physics the world and its tape are here, on the
//! window's thread ([`Sim::Here`]); while a frame's physics runs they are away on the physics
//! thread ([`Sim::Away`]), and nothing stands in for them. Every read goes through
//! [`Sim::world`] and its siblings, which name the mistake if the world is away instead of
//! answering from an empty stand-in.

use collide::World;
use collide_replay::Tape;

/// The world and the tape that records every change and step of it.
pub(super) struct Held {
    pub world: World,
    pub tape: Tape,
}

/// Where the world and its tape are.
pub(super) enum Sim {
    /// On this thread: readable and changeable.
    Here(Box<Held>),
    /// On the physics thread, until the frame's physics is taken back (`App::land`).
    Away,
}

/// What a read of the world while it is away says.
const AWAY: &str = "the world is on the physics thread: read it after the frame's physics lands";

impl Sim {
    /// The world and its tape, here.
    pub fn new(world: World, tape: Tape) -> Self {
        Sim::Here(Box::new(Held { world, tape }))
    }

    /// Both, to change together (an input through the tape, a step, a seek).
    pub fn held(&mut self) -> &mut Held {
        match self {
            Sim::Here(held) => held,
            Sim::Away => panic!("{AWAY}"),
        }
    }

    /// The world.
    pub fn world(&self) -> &World {
        match self {
            Sim::Here(held) => &held.world,
            Sim::Away => panic!("{AWAY}"),
        }
    }

    /// The world, to change between steps (not through the tape: a probe asked, a setting
    /// that is no input).
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.held().world
    }

    /// The tape.
    pub fn tape(&self) -> &Tape {
        match self {
            Sim::Here(held) => &held.tape,
            Sim::Away => panic!("{AWAY}"),
        }
    }

    /// Sends the world and tape away (to the physics thread); this is [`Sim::Away`] until
    /// [`Sim::land`].
    pub fn send(&mut self) -> Box<Held> {
        match std::mem::replace(self, Sim::Away) {
            Sim::Here(held) => held,
            Sim::Away => panic!("the world was sent away twice"),
        }
    }

    /// Takes them back.
    pub fn land(&mut self, held: Box<Held>) {
        debug_assert!(matches!(self, Sim::Away), "landed a world that was here");
        *self = Sim::Here(held);
    }
}

#[cfg(test)]
mod tests {
    use super::Sim;
    use collide::World;
    use collide_replay::Tape;

    fn sim() -> Sim {
        let world = World::new(Vec::new(), Default::default(), 1);
        let tape = Tape::recording("", "", 1, &world);
        Sim::new(world, tape)
    }

    /// The world once stood in for by an empty one while the physics ran: a read then
    /// answered "no balls" without a word. Away, a read says where the world is.
    #[test]
    #[should_panic(expected = "the world is on the physics thread")]
    fn a_read_of_the_world_while_it_is_away_says_so() {
        let mut sim = sim();
        let _held = sim.send();
        let _ = sim.world().balls().len();
    }

    #[test]
    fn the_world_sent_away_comes_back_as_it_went() {
        let mut sim = sim();
        let mut held = sim.send();
        assert!(matches!(sim, Sim::Away));
        held.world.launch(3);
        sim.land(held);
        assert_eq!(sim.world().pending_launches(), 3);
    }
}
