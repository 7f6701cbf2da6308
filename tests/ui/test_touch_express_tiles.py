"""Battleship Express's ship tiles: what a ship attacks with ("3 Würfel · 1 Wurf") stands
inside the frame a chosen tile wears, in a size a player reads at arm's length.

The German table of four at 800x480 drew the U-Boot's "3 Würfel · 1 Wurf" from one edge of its
tile to the other, a pixel or two from it, and the Schlachtschiff's "8 Würfel · 4 Würfe" under
its own white frame when chosen (the note was as wide as the tile, the frame inside it); the
Finnish "8 noppaa · 4 heittoa" took two lines as "8 noppaa · 4" / "heittoa" (the screenshots
of 2026-12-02).
"""

from __future__ import annotations

import pytest


def _ink(label):
    """Where the label's text has ink, in its parent's coordinates (`ui.touch.fitting.ink`)."""
    from ui.touch.fitting import ink

    box = ink(label)
    assert box is not None, f"{label.text!r} draws nothing"
    return box


@pytest.mark.parametrize("language", ["de", "fi", "en"])
@pytest.mark.parametrize("players", [3, 4])
def test_a_ship_s_dice_stand_inside_its_tile_s_frame(tour, language: str, players: int, artefacts) -> None:
    from kiosk.app.tour.express import ExpressTour
    from kiosk.express.rules import Ship
    from ui.touch import theme
    from ui.touch.express.lines import NOTE_SMALLEST, frame_room
    from ui.touch.fingers import frames
    from ui.touch.fitting import SLACK, laid_out, whole

    x = ExpressTour(tour)
    seats = [("Ann", None), ("Bo", None), ("C3", "easy"), ("C4", "normal")][:players]
    try:
        tour.at("home", language)
        x.set_up(seats, points=6)
        x.lay_out()
        assert tour.app.sm.current == "express"
        table = tour.screen()
        x.tap_ship(x.match.turn, Ship.BATTLESHIP)  # chosen: the tile wears its frame
        assert x.settle_slides()
        frames(2)
        tour.save(artefacts / f"express_tiles_{players}_{language}.png")
        s = theme.sizes()
        for row in table.rows:
            for ship, tile in row.tiles.items():
                note = tile.note
                if not note.text or tile.opacity <= 0:
                    continue
                room = frame_room() - SLACK  # Kivy draws a text at whole pixels
                left, bottom, right, _top = _ink(note)
                where = (language, players, ship.name, note.text, (left, right), (tile.x, tile.right))
                assert left >= tile.x + room and right <= tile.right - room, where
                assert bottom >= tile.y + room, where
                lines = laid_out(note)
                assert whole(note.text, lines), (where, lines)
                # On two lines it breaks after the dot: no number apart from its word.
                assert not any(line.split()[-1].isdigit() or line.startswith("·") for line in lines), lines
                assert note.font_size >= s(NOTE_SMALLEST) - 0.01, (where, note.font_size)
    finally:
        tour.at("home")


def test_the_real_dice_panel_covers_the_frame_of_the_row_on_turn(tour, artefacts) -> None:
    """The real dice's panel lies over the lines; the frame of the row on turn, drawn half
    outside its row, showed as two thin lines in the player's colour beside the panel (the
    screenshots of 2026-12-02, express_real_dice). The window's own pixels are read."""
    from kivy.graphics.opengl import GL_RGB, GL_UNSIGNED_BYTE, glReadPixels

    from kiosk.app.tour.driver import label
    from kiosk.app.tour.express import ExpressTour
    from ui.touch.express.look import player_colour
    from ui.touch.fingers import frames

    x = ExpressTour(tour)
    try:
        tour.at("home")
        x.set_up([("Ann", None), ("Bo", None)])
        x.lay_out()
        table = x.table
        tour.press(label("Real dice"))
        match = x.match
        me = match.turn
        ship = next(s for s in match.line(me) if not match.setup.ship(s).roll_first)
        x.attack(ship, match.targets(ship)[0])  # the dice to type in: the panel is up
        frames(2)
        panel = table.real_panel
        assert panel.parent is not None, "no real dice panel"
        tour.save(artefacts / "express_real_dice_frame.png")
        row = table.rows[me]
        colour = tuple(round(c * 255) for c in player_colour(me)[:3])
        left, right = int(panel.x), int(panel.right)
        strips = [(left - 3, 3), (right, 3)]
        found = []
        for x0, width in strips:
            y0, height = int(row.y) + 12, int(row.height) - 24
            data = glReadPixels(x0, y0, width, height, GL_RGB, GL_UNSIGNED_BYTE)
            pixels = [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]
            found += [p for p in pixels if sum(abs(a - b) for a, b in zip(p, colour, strict=True)) < 60]
        assert not found, (colour, found[:5], (left, right), (row.x, row.right))
    finally:
        tour.press(label("Real dice")) if x.table.real_on else None
        tour.at("home")


@pytest.mark.parametrize("language", ["en", "de", "fi"])
def test_four_players_dice_and_rolls_are_drawn_whole_on_the_lineup_and_the_table(
    tour, language: str, artefacts
) -> None:
    """Every text of the line-up and the table fits (`faults`): Finnish's "8 noppaa · 4
    heittoa", two lines 22 px tall in a band of 18, lost the bottom of its second line (seen in
    the real window at 800x480); the band now grows into the defense's where it must."""
    from kiosk.app.tour.driver import label
    from kiosk.app.tour.express import ExpressTour
    from ui.touch.fingers import frames
    from ui.touch.fitting import faults

    found = {}
    x = ExpressTour(tour)
    try:
        tour.at("home", language)
        x.set_up([("Ann", None), ("Bo", None), ("Cy", None), ("Di", None)], points=3)
        tour.press_start(label("Lay out the lines"))
        frames(3)
        found["lineup"] = [str(f) for f in faults()]
        tour.press_start(label("Start"))
        frames(3)
        assert tour.app.sm.current == "express"
        found["table"] = [str(f) for f in faults()]
        notes = [t.note for row in tour.screen().rows for t in row.tiles.values()]
        assert len(notes) == 20 and all(n.text for n in notes)
        tour.save(artefacts / f"express_four_players_{language}.png")
    finally:
        tour.at("home")
    assert not any(found.values()), found
