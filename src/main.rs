use macroquad::prelude::*;
#[macroquad::main("t")]
async fn main() {
    loop {
        clear_background(BLACK);
        egui_macroquad::ui(|_ctx| {});
        egui_macroquad::draw();
        next_frame().await
    }
}
