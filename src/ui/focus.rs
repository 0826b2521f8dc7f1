//! Who has the keyboard: the toy, unless a text field the user clicked into has it.
//!
//! egui moves its keyboard focus with Tab and the arrows, and Space or Enter then press the
//! focused button. Tab is the toy's own key (it hides and shows the panels), and a button
//! left focused by it would take Space (launch) and press itself: the record bar's first
//! button rewinds the run. So after each egui pass only a text field keeps the focus, and
//! only one the pointer gave it (clicked this pass, or kept since); anything else egui
//! focused is let go, and the keys go to the toy.

use egui_macroquad::egui;

/// The focus after an egui pass, from what egui focused: `Some` only for a text field that
/// the pointer gave the focus this pass (`pointer_used`) or that kept it from the last pass.
pub fn kept_focus(
    focused: Option<egui::Id>,
    text_field: bool,
    pointer_used: bool,
    kept_before: Option<egui::Id>,
) -> Option<egui::Id> {
    let id = focused?;
    (text_field && (pointer_used || kept_before == Some(id))).then_some(id)
}

/// After the pass's last widget: lets go of any focus [`kept_focus`] does not keep, and
/// returns the focus kept (the text field that has the keyboard, if any).
pub fn settle(ctx: &egui::Context, kept_before: Option<egui::Id>) -> Option<egui::Id> {
    let focused = ctx.memory(|m| m.focused());
    let text_field =
        focused.is_some_and(|id| egui::text_edit::TextEditState::load(ctx, id).is_some());
    let pointer_used = ctx.input(|i| i.pointer.any_pressed() || i.pointer.any_released());
    let kept = kept_focus(focused, text_field, pointer_used, kept_before);
    if let (Some(id), None) = (focused, kept) {
        ctx.memory_mut(|m| m.surrender_focus(id));
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One egui pass over a button and a text field, with these events; returns the focus
    /// kept after it and the response of the button.
    fn pass(
        ctx: &egui::Context,
        events: Vec<egui::Event>,
        text: &mut String,
        kept: Option<egui::Id>,
    ) -> (Option<egui::Id>, bool) {
        let input = egui::RawInput {
            events,
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(400.0, 300.0),
            )),
            ..Default::default()
        };
        let (mut out, mut clicked) = (None, false);
        let _ = ctx.run(input, |ctx| {
            egui::CentralPanel::default().show(ctx, |ui| {
                clicked = ui.button("rewind").clicked();
                ui.add(egui::TextEdit::singleline(text).id(egui::Id::new("file")));
            });
            out = settle(ctx, kept);
        });
        (out, clicked)
    }

    fn key(key: egui::Key) -> Vec<egui::Event> {
        vec![egui::Event::Key {
            key,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        }]
    }

    #[test]
    fn tab_tab_space_presses_no_button_and_leaves_the_keys_to_the_toy() {
        let ctx = egui::Context::default();
        let mut text = String::from("recording.ron");
        let mut kept = None;
        for events in [vec![], key(egui::Key::Tab), key(egui::Key::Tab)] {
            (kept, _) = pass(&ctx, events, &mut text, kept);
            assert_eq!(kept, None, "Tab gave egui the keys");
            assert_eq!(
                ctx.memory(|m| m.focused()),
                None,
                "a widget kept Tab's focus"
            );
        }
        let (kept, clicked) = pass(&ctx, key(egui::Key::Space), &mut text, kept);
        assert!(!clicked, "Space pressed the focused button");
        assert_eq!(kept, None);
    }

    #[test]
    fn only_a_text_field_the_pointer_chose_keeps_the_keyboard() {
        let id = Some(egui::Id::new("file"));
        assert_eq!(kept_focus(id, true, true, None), id);
        assert_eq!(kept_focus(id, true, false, id), id, "kept while typing");
        assert_eq!(kept_focus(id, true, false, None), None, "reached by Tab");
        assert_eq!(kept_focus(id, false, true, None), None, "a button clicked");
        assert_eq!(kept_focus(None, false, true, id), None);
    }
}
