"""The tour's every touch (`kiosk.app.tour.driver.Tour.tap_at`: a button's press, a cell of the
board, a game on Home, an Express tile or Roll) waits for a popup it closed to leave the window.
Kivy's popup fades out for 0.1 s and takes every touch meanwhile: only the tour's `press` waited
(`ui.touch.fingers.popups_leave`), so a tap on Home or on the board right after a tap that
closed a popup fell on the fading popup and was lost.
"""

from __future__ import annotations


def test_a_tap_right_after_one_that_closed_a_popup_meets_the_screen(tour) -> None:
    from kivy.uix.label import Label
    from kivy.uix.modalview import ModalView

    try:
        tour.at("home")
        view = ModalView(auto_dismiss=True, size_hint=(0.1, 0.1))
        view.add_widget(Label(text="?"))
        view.open(animation=False)
        tour.choose_game("classic")  # lands beside the popup: it closes it, and does no more
        assert tour.app.sm.current == "home"
        assert view.parent is None, "the popup is still on the window"
        tour.choose_game("express")
        assert tour.app.sm.current == "express_setup"
    finally:
        tour.at("home")
