//! Collision Math Toy in a browser, first page: the built-in table with balls flying, or, with
//! `?headless`, the README's headless example run to its summary line, which goes to the
//! console and into the page (`#summary`), the same text the desktop prints.
//!
//! URL parameters: `launch=N` (balls to launch, 0-1000), `frames=N` (frames of 1/60 s to run
//! before the summary), `headless` (run the frames as fast as possible and print the line).

mod draw;
mod entropy;
mod page;
mod params;
mod run;

use macroquad::prelude::*;

fn window() -> Conf {
    Conf {
        window_title: "Collision Math Toy".to_owned(),
        window_width: 960,
        window_height: 704,
        high_dpi: true,
        ..Default::default()
    }
}

#[macroquad::main(window)]
async fn main() {
    let params = match params::Params::parse(&page::query()) {
        Ok(p) => p,
        Err(e) => {
            page::error(&e);
            loop {
                clear_background(BLACK);
                next_frame().await;
            }
        }
    };
    run::run(params).await;
}
