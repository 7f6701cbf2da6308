"""Team names with emoji, as bar customers type them on their phones ("🎯 Jets", "Die 🍺 Brüder"),
drawn on the kiosk's screens as emoji (Noto Emoji's outlines, `ui.touch.emoji`), not as empty
boxes: every label that names a team, on the dart game's screens, classic's duel, Battleship
Express's and a toast; the text-fit check still passes a long name with emoji; a name with
markup's brackets stays as typed. Screenshots go to the artefacts folder for a human to look at.

"Not a box" is judged on each label's own texture: it is drawn again with every emoji of the
name replaced by a character that no font here has (drawn as the font's box), and the two must
differ. Without the fallback the emoji IS that box and the two are the same pixels.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.darts.match import Team

pytestmark = pytest.mark.slow

TARGET, BEER = "🎯", "🍺"
TEAMS = (Team(f"{TARGET} Jets", ("Anna", "Ben")), Team(f"Die {BEER} Brüder", (f"Die {BEER} Brüder",)))
# The longest name the kiosk keeps (kiosk.names.MAX_NAME, 32 characters), with emoji in it.
LONG = f"Die {BEER}{BEER} Brüder vom Stammtisch {TARGET}"
BOX = "\U000f0000"  # private use: in no font here, drawn as the font's empty box


def named(root, name: str) -> list:
    """Every label drawn under `root` whose text has an emoji of `name`."""
    from kivy.uix.label import Label

    signs = {c for c in name if c in (TARGET, BEER)}
    return [
        w
        for w in root.walk()
        if isinstance(w, Label) and w.opacity > 0 and w.width > 1 and signs & set(str(w.text))
    ]


def boxed(labels: list) -> list[str]:
    """The texts of `labels` whose emoji draw as the box (the same pixels as with BOX)."""
    found = []
    for label in labels:
        text = label.text
        label.texture_update()
        drawn = (tuple(label.texture.size), label.texture.pixels)
        label.text = text.replace(TARGET, BOX).replace(BEER, BOX)
        label.texture_update()
        as_box = (tuple(label.texture.size), label.texture.pixels)
        label.text = text
        label.texture_update()
        if drawn == as_box:
            found.append(text)
    return found


def test_an_emoji_is_drawn_with_ink_of_its_own_not_as_a_box(tour) -> None:
    """A label's "🎯 Jets": where the emoji stands there is ink, and not the box's."""
    from kivy.core.text import Label as CoreLabel

    def alpha(text: str) -> tuple[tuple[int, int], bytes]:
        core = CoreLabel(text=text, font_size=40)
        core.refresh()
        return tuple(core.texture.size), bytes(core.texture.pixels[3::4])

    (width, height), ink = alpha(f"{TARGET} Jets")
    box_size, box = alpha(f"{BOX} Jets")
    jets_width = alpha(" Jets")[0][0]
    emoji_width = width - jets_width
    assert emoji_width > box_size[0] - jets_width  # wider than the box: it is another glyph
    columns = [ink[row * width : row * width + emoji_width] for row in range(height)]
    inked = sum(1 for row in columns for a in row if a > 128)
    assert inked > emoji_width * height * 0.15, inked  # an outlined target, not a thin frame
    assert (width, height) != box_size or ink != box


def test_runs_split_a_name_where_the_font_has_no_glyph() -> None:
    from kivy import kivy_data_dir

    from ui.touch import emoji

    font = str(Path(kivy_data_dir) / "fonts" / "Roboto-Regular.ttf")
    # The fonts' character maps (formats 12 and 4) as read: what fontTools reads of them too.
    noto, roboto = emoji.code_points(emoji.FONT), emoji.code_points(font)
    assert len(noto) == 1512 and len(roboto) == 896
    assert ord(TARGET) in noto and ord(TARGET) not in roboto and ord("ü") in roboto
    assert emoji.code_points(emoji.__file__) == frozenset()  # not a font: nothing, no error
    assert emoji.runs("Die 🍺 Brüder", font) == [("Die ", False), ("🍺", True), (" Brüder", False)]
    # A sequence stays one run (the font's shaping draws it as one); a keycap's digit is Roboto's
    # but drawn with its keycap; © without the emoji selector stays Roboto's.
    assert emoji.runs("👍🏽1️⃣👨\u200d👩\u200d👧 ©", font) == [("👍🏽1️⃣👨\u200d👩\u200d👧", True), (" ©", False)]
    assert emoji.runs("Jets", font) == [("Jets", False)]
    # DejaVu Sans has ✓ (with_symbols draws it there): it stays DejaVu's.
    dejavu = str(Path(kivy_data_dir) / "fonts" / "DejaVuSans.ttf")
    assert emoji.runs("✓ 🎯", dejavu) == [("✓ ", False), ("🎯", True)]


def test_a_name_with_markup_s_brackets_stays_as_typed(tour) -> None:
    """Labels with markup (the hand-over's, the duel's) escape a name: "[b]🎯[/b]" is shown as
    typed, in the label's weight, its emoji drawn."""
    from kivy.uix.label import Label

    from ui.touch.controls import with_symbols
    from ui.touch.fitting import laid_out

    name = f"[b]{TARGET}[/b] [color=ff0000]Jets"
    label = Label(text=with_symbols(name + " ✓"), markup=True, font_size=30, size=(600, 60))
    assert laid_out(label) == [name + " ✓"]
    assert not boxed([label])
    plain = Label(text=name, font_size=30, size=(600, 60))
    assert laid_out(plain) == [name] and not boxed([plain])


class Looks:
    """What the screens looked at show: the labels whose emoji are boxes, the texts that do not
    fit (`faults`, but those `allowed`), each screen's photograph in the artefacts."""

    def __init__(self, tour, artefacts: Path) -> None:
        self.tour, self.artefacts = tour, artefacts
        self.boxes: dict[str, list[str]] = {}
        self.faults: dict[str, list[str]] = {}

    def look(self, key: str, names: str, shot: str | None = None, allowed=lambda fault: False) -> None:
        from ui.touch.fingers import frames
        from ui.touch.fitting import faults

        frames(2)  # as drawn: texts are fitted before the frame after their last change
        labels = named(self.tour.root, names)
        assert labels, f"{key}: no label names the teams"
        self.boxes[key] = boxed(labels)
        self.faults[key] = [str(f) for f in faults() if not allowed(f)]
        if shot:
            self.tour.save(self.artefacts / f"emoji-{shot}.png")

    def check(self) -> None:
        assert not any(self.boxes.values()), self.boxes
        assert not any(self.faults.values()), self.faults


def test_emoji_names_draw_on_every_dart_screen_and_fit(tour, artefacts: Path) -> None:
    """Placement and the hand-over, placing, the bull-off, the scoreboard, the result card and
    Stats: every label naming a team draws its emoji; nothing breaks or runs over."""
    looks = Looks(tour, artefacts)
    try:
        for teams in (TEAMS, (Team(LONG, ("Anna",)), TEAMS[1])):
            long = teams[0].name == LONG
            names = teams[0].name + teams[1].name
            for stage in ("placement", "bull_off", "game", "visit", "over"):
                tour.at(stage, "de" if long else "en", teams=teams)
                # The scoreboard's one line ends a long name in "…" (test_touch_long_names.py).
                scoreboard = stage in ("game", "visit")
                looks.look(
                    f"{stage} {teams[0].name}",
                    names,
                    f"{stage}{'-long' if long else ''}",
                    allowed=lambda f, scoreboard=scoreboard: scoreboard and f.text == LONG,
                )
            tour.at("placement", teams=teams)  # placing: the team's own title
            tour.app.screen("placement").open_for(0)
            looks.look(f"placing {teams[0].name}", teams[0].name)
        tour.at("over", teams=TEAMS)
        tour.app.go("stats")
        # Stats' tables shorten a name longer than their column ("…"), with or without emoji
        # (the long name's game from above is among the last games).
        looks.look("stats", TEAMS[0].name + TEAMS[1].name, "stats", allowed=lambda f: LONG in f.text)
    finally:
        tour.at("home")
    looks.check()


def test_emoji_names_in_a_classic_duel_and_in_battleship_express(tour, artefacts: Path) -> None:
    from kiosk.app.tour.classic import ClassicWalk
    from kiosk.app.tour.driver import label
    from kiosk.app.tour.express import ExpressTour

    looks = Looks(tour, artefacts)
    duel_names = (TEAMS[0].name, TEAMS[1].name)
    try:
        tour.at("home")
        walk = ClassicWalk(tour)
        walk.start_duel(duel_names)
        looks.look("duel, hand-over", "".join(duel_names), "classic-handover")
        walk.claim(0)
        walk.claim(1)
        looks.look("duel", "".join(duel_names), "classic-duel")
        walk.close()

        tour.at("home")
        x = ExpressTour(tour)
        players = (TEAMS[0].name, LONG)
        x.set_up([(players[0], None), (players[1], None), ("Kiosk", "hard")], points=3)
        tour.save(artefacts / "emoji-express-setup.png")
        x.lay_out(start=False)  # the line-up: each person's line under its name
        looks.look("express, line-up", "".join(players), "express-lineup")
        tour.press_start(label("Start"))
        looks.look("express, table", "".join(players), "express-table")
        assert x.computers_play()
        looks.look("express, seats", "".join(players), "express-seats")
    finally:
        tour.at("home")
    looks.check()


def test_a_toast_that_names_a_team_draws_its_emoji(tour, artefacts: Path) -> None:
    from ui.touch.fingers import frames

    try:
        tour.at("game", teams=TEAMS)
        tour.app.toast(f"{TEAMS[1].name} plays on its new phone")
        frames(2)
        assert tour.app.toast_label.text.startswith(TEAMS[1].name)
        assert not boxed([tour.app.toast_label])
        tour.save(artefacts / "emoji-toast.png")
    finally:
        tour.at("home")


def test_emoji_names_draw_in_a_real_window(tmp_path: Path, artefacts: Path) -> None:
    """`dartship run`'s app in a real X window (Xvfb here): a resumed game of "🎯 Jets" and
    "Die 🍺 Brüder"; the window's own pixels over each label naming a team change when its emoji
    is swapped for the box (tests/ui/real_window_emoji_probe.py)."""
    import shutil

    from tests.ui.probes import run_probe

    (report,) = run_probe(
        "tests.ui.real_window_emoji_probe", str(tmp_path), "800", "480", folder=tmp_path, timeout=180
    )
    shutil.copy(tmp_path / "emoji_real_window.png", artefacts / "emoji_real_window.png")
    assert report["window"] == [800, 480] and report["screen"] == "game", report
    assert len(report["labels"]) >= 3, report  # the two team columns and whose turn it is
    assert all(differs for _text, differs in report["labels"]), report["labels"]


def test_a_name_typed_with_emoji_on_the_kiosk_shows_in_its_field(tour, artefacts: Path) -> None:
    """The new-game screen's text fields draw what is typed (Kivy's TextInput lays its lines
    out with the same text provider), and the game starts with the name as typed."""
    from ui.touch.fingers import frames

    try:
        tour.at("home")
        tour.app.go("new_game")
        screen = tour.screen()
        screen.names[0].text, screen.names[1].text = TEAMS[0].name, TEAMS[1].name
        frames(2)
        tour.save(artefacts / "emoji-new-game.png")
        for field, team in zip(screen.names, TEAMS, strict=True):
            core = field._lines_labels[0]  # the texture of the field's one line, as drawn
            box = field._create_line_label(team.name.replace(TARGET, BOX).replace(BEER, BOX))
            assert (tuple(core.size), core.pixels) != (tuple(box.size), box.pixels), team.name
        tour.new_game((TEAMS[0].name, TEAMS[1].name), ("Anna, Ben", ""))
        assert [t.name for t in tour.match.teams] == [TEAMS[0].name, TEAMS[1].name]
    finally:
        tour.at("home")


def test_emoji_names_in_the_league_s_tables(tour, artefacts: Path) -> None:
    """The league's table and daily board as the hub last gave them (kept in the store: no hub
    is asked here; tests/ui/test_touch_league.py fetches them from a real one), with names and
    a bar typed with emoji."""
    from datetime import UTC, datetime

    from kiosk.league import membership as members

    kiosk = tour.kiosk
    hub = "http://127.0.0.1:9"  # nothing listens there: the boards are the ones kept
    member = members.Membership(hub, 1, "key", 1, f"The {BEER} Anchor", 1, f"{TARGET} League")
    boards = {
        "table": {
            "name": f"{TARGET} League",
            "season": "2026",
            "rows": [
                {"rank": 1, "player": TEAMS[0].name, "games": 3, "wins": 3, "points": 9},
                {"rank": 2, "player": LONG, "games": 3, "wins": 0, "points": 0},
            ],
        },
        "daily": {
            "date": datetime.now(UTC).date().isoformat(),
            "rows": [{"rank": 1, "player": TEAMS[1].name, "venue": f"The {BEER} Anchor", "shots": 41}],
        },
        "venue": {},
    }
    looks = Looks(tour, artefacts)
    try:
        tour.at("home")
        kiosk.store.meta.remember(members.MEMBERSHIP, member.to_json())
        members.keep_boards(kiosk.store.meta, boards)
        kiosk.config.save({"league.hub": hub})
        tour.app.go("stats")
        stats = tour.screen()
        stats.refresh()
        stats.choose("league")
        looks.look("league", TEAMS[0].name + TEAMS[1].name + LONG, "league", allowed=lambda f: LONG in f.text)
    finally:
        kiosk.store.meta.remember(members.BOARDS, "{}")
        kiosk.store.meta.remember(members.MEMBERSHIP, "{}")
        kiosk.config.save({"league.hub": ""})
        tour.at("home")
    looks.check()


def test_emoji_names_on_the_result_cards_of_classic_and_battleship_express(tour, artefacts: Path) -> None:
    """Classic solo played to the win by "🎯 Jets", and a Battleship Express game of computer
    seats named with emoji that plays itself: their result cards and Stats pages."""
    from kiosk.app.tour.classic import ClassicWalk
    from kiosk.app.tour.express import ExpressTour

    looks = Looks(tour, artefacts)
    try:
        tour.at("home")
        walk = ClassicWalk(tour)
        walk.start_solo(TEAMS[0].name)
        looks.look("classic solo", TEAMS[0].name, "classic-solo")
        solo = tour.screen()
        for square in walk.enemy_squares(0):
            walk.fire(solo.big, square)
        assert tour.frames_until(lambda: tour.app.sm.current == "classic_result")
        looks.look("classic result", TEAMS[0].name, "classic-result")
        tour.app.go("stats")
        tour.press("Classic 10×10")
        looks.look("classic stats", TEAMS[0].name, "classic-stats")

        tour.at("home")
        x = ExpressTour(tour)
        players = (TEAMS[0].name, LONG)
        x.set_up([(players[0], "easy"), (players[1], "easy")], points=2)
        x.lay_out()
        assert x.computers_play(seconds=120)
        assert x.wait(lambda: tour.app.sm.current == "express_result", 30)
        looks.look("express result", "".join(players), "express-result")
        tour.app.go("stats")
        tour.screen().choose("express")
        looks.look("express stats", "".join(players), "express-stats", allowed=lambda f: LONG in f.text)
        tour.screen().choose("darts")
    finally:
        tour.at("home")
    looks.check()
