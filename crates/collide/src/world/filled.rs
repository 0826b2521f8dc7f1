//! What a fill did ([`World::fill_random`](super::World::fill_random)): the balls placed, their
//! largest radius, and why fewer than asked, in words. Kept apart from the fill itself so that
//! the world can hold the last one ([`World::last_fill`](super::World::last_fill)) without the
//! two files naming each other.

/// What [`World::fill_random`](super::World::fill_random) did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Filled {
    /// Balls added.
    pub balls: u32,
    /// Largest radius used (px): the asked maximum, or less when the balls had to shrink to fit.
    pub max_radius: f32,
    /// Why fewer balls than asked were added; `None` when all were.
    pub short: Option<Shortfall>,
}

/// Why a fill added fewer balls than asked; its `Display` says it in words.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shortfall {
    /// The play area is smaller than one cell even for the smallest balls tried.
    TooSmall {
        /// Radius of the smallest balls tried (px).
        radius: f32,
    },
    /// Cells fit in the play area, but every one touches an obstacle, the sweep of a turning
    /// shape or a ball already there.
    Covered {
        /// Radius of the smallest balls tried (px).
        radius: f32,
    },
    /// Fewer cells are clear than balls were asked for, even for the smallest balls tried.
    Crowded {
        /// Balls that found room.
        room: u32,
        /// Radius of the smallest balls tried (px).
        radius: f32,
    },
}

impl std::fmt::Display for Shortfall {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Shortfall::TooSmall { radius } => write!(
                f,
                "the play area is too small for even a ball of radius {radius:.2} px"
            ),
            Shortfall::Covered { radius } => write!(
                f,
                "obstacles (or balls already there) cover every place a ball of radius \
                 {radius:.2} px could go"
            ),
            Shortfall::Crowded { room, radius } => {
                write!(
                    f,
                    "room for only {room} balls, even at radius {radius:.2} px"
                )
            }
        }
    }
}
