"""Stats in German and Finnish at 800x480: no heading cut short, and the classic computer is
not listed among the bar's players (issue 20, point 10)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


def _rendered_lines(label) -> list[str]:
    label.texture_update()
    return ["".join(word.text for word in line.words) for line in label._label._cached_lines]


def _row_of(label) -> int:
    table = label.parent
    return list(reversed(table.children)).index(label) // table.cols


@pytest.mark.parametrize("language", ["de", "fi"])
def test_stats_headings_are_whole_words(tour, language):
    from kivy.uix.label import Label

    from kiosk.i18n import _, set_language

    tour.at("home")
    set_language(language)
    tour.app.rebuild("home")
    try:
        for kind in ("darts", "classic", "express"):
            tour.app.go("stats")
            screen = tour.screen()
            screen.choose(kind)
            tour.drain()
            from ui.touch import theme

            # The tables' heading rows and their "no games yet": the words of the page (a
            # dimmed row of games, an abandoned one, is the players' names, shortened as any).
            headings = [
                w
                for w in screen.walk()
                if isinstance(w, Label)
                and w.color == list(theme.TEXT_DIM)
                and w.text
                and w.parent is not None
                and type(w.parent).__name__ == "Table"
                and (_row_of(w) == 0 or w.text == _("no games yet"))
            ]
            assert headings, kind
            for label in headings:
                lines = _rendered_lines(label)
                assert not any("..." in line or "…" in line for line in lines), (kind, lines)
    finally:
        set_language("en")
        tour.app.rebuild("home")


def test_the_classic_computer_is_no_player_of_the_bar(tour):
    from kivy.uix.label import Label

    from kiosk.app.tour.classic import ClassicWalk
    from kiosk.classic.match import COMPUTER

    tour.at("home")
    walk = ClassicWalk(tour)  # a solo game won on the touchscreen, by touch
    walk.start_solo()
    screen = tour.screen()
    for square in walk.enemy_squares(0):
        if classic_winner(tour) is None and square not in walk.match.radar(0).shots:
            tour.pump(walk.computer_done)
            walk.fire(screen.big, square)
    assert classic_winner(tour) == 0
    rows = {row.name for row in tour.kiosk.store.stats.player_stats(kind="classic", venue="kiosk")}
    assert COMPUTER in rows and "Sharks" in rows  # stored, as the results of any game are
    tour.app.go("stats")
    tour.screen().choose("classic")
    tour.drain()
    words = [w.text for w in tour.screen().walk() if isinstance(w, Label)]
    assert COMPUTER not in words
    tour.app.go("home")


def classic_winner(tour):
    from kiosk.classic.wire import CLASSIC

    match = CLASSIC.in_play(tour.kiosk.service)
    return match.winner if match is not None else None


def test_the_last_express_games_name_four_players_whole(tour):
    """Stats -> Battleship Express at 800x480: the last games' players column names all four
    players of a game of four, on two lines where one is too narrow; it cut them at 60 % of the
    font, "Pelaaja 1, Pelaaja 2, Tietokone 3, Ti…" (build/artefacts/qa6/136-stats-express-de.png)."""
    from kivy.uix.label import Label

    from kiosk.app.tour.express import ExpressTour
    from ui.touch import theme

    names = ["Pelaaja 1", "Pelaaja 2", "Tietokone 3", "Tietokone 4"]
    tour.at("home")
    x = ExpressTour(tour)
    x.set_up([(name, "easy") for name in names], points=1)
    x.lay_out()
    assert x.computers_play(seconds=120)
    assert x.wait(lambda: tour.app.sm.current == "express_result", 30)
    tour.app.go("stats")
    screen = tour.screen()
    screen.choose("express")
    tour.drain()
    listed = ", ".join(names)
    (cell,) = [w for w in screen.walk() if isinstance(w, Label) and w.text == listed]
    lines = _rendered_lines(cell)
    assert " ".join(lines).split() == listed.split(), lines  # every word, none cut to "…"
    assert cell.font_size >= 0.8 * theme.sizes()(18), cell.font_size  # read, not 60 %


def test_a_long_winner_s_name_in_another_game_leaves_the_four_players_their_font(tour):
    """The last games' table of Express as the Stats screen makes it (`ui.touch.express.stats`),
    as wide as at 800x480: a game won by a long name of one word (an emoji name, a long
    computer's name) is listed too. Its winner column took what the players' column could
    spare down to its longest word, and four players' names were drawn at 77 % of the font
    (a fresh clone's shuffled run, where an earlier test had played such a game)."""
    from kivy.uix.label import Label

    from ui.touch import theme
    from ui.touch.express.stats import tables
    from ui.touch.fingers import frames

    tour.at("home")
    _players, games = tables()
    names = "Pelaaja 1, Pelaaja 2, Tietokone 3, Tietokone 4"
    games.add_row(["2 Dec", "Ann, Bo", "Kapteenikapteenikapteeni", "12"], lines=2)
    games.add_row(["2 Dec", names, "Tietokone 3", "30"], lines=2)
    games.size_hint_x, games.width = None, 372  # the games' column at 800x480
    tour.app.root_window.add_widget(games)
    try:
        frames(3)
        (cell,) = [w for w in games.children if isinstance(w, Label) and w.text == names]
        lines = _rendered_lines(cell)
        assert " ".join(lines).split() == names.split(), lines
        assert cell.font_size >= 0.8 * theme.sizes()(18), cell.font_size
    finally:
        tour.app.root_window.remove_widget(games)
