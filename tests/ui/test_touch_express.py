"""Battleship Express on the touchscreen, headless, driven by simulated touches (kiosk/app/tour/).

One window per process: these tests share the session's `tour`; each builds its game first
(`tour.at("express_setup")`, `"express_turn"`, `"express_played"`: the players' taps replayed,
see tests/ui/stages.py), so each passes alone and in any order. The kiosk's pace is 0 here
(build_offline), so an attack is shown before its tap returns; the computer seats live on the
tour's loop, which `ExpressTour.wait` runs. Screenshots go to the artefacts folder.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from kiosk.app.tour.express import ExpressTour
from kiosk.express import odds
from kiosk.express.luck import luck
from kiosk.express.match import Attack, Phase, QueueDice, Rolled, Sunk, Target
from kiosk.express.rolls import last_attack
from kiosk.express.rules import Face, Ship, Variant
from kiosk.service import MatchUpdate, Source
from kiosk.sound import Sound

pytestmark = pytest.mark.slow

B, D, C, S, P = Ship.BATTLESHIP, Ship.DESTROYER, Ship.CARRIER, Ship.SUBMARINE, Ship.PATROL_BOAT


def labels_text(root) -> str:
    from kivy.uix.label import Label

    return "\n".join(w.text for w in root.walk() if isinstance(w, Label) and w.opacity > 0)


@pytest.fixture
def x(tour):
    return ExpressTour(tour)


def test_setup_refuses_what_makes_no_game_and_lays_out_lines(tour, x, artefacts: Path) -> None:
    tour.at("home")
    x.set_up([("Ann", None), ("ann", None)])
    tour.press("Lay out the lines")
    assert tour.app.sm.current == "express_setup"
    assert "same name" in tour.app.toast_label.text  # the rules' own words, not a crash
    x.set_up([("Ann", None), ("Bo", None), ("Kiosk", "hard")], points=3)
    screen = tour.screen()
    assert screen.points.value == 3 and screen.variant.value is Variant.ADMIRAL
    tour.save(artefacts / "express_setup.png")
    tour.press("Lay out the lines")
    lineup = tour.screen()
    assert tour.app.sm.current == "express_lineup"
    assert x.wait(lambda: lineup.ready)
    before = list(lineup.lines[0])
    x.tap_tile(lineup.rows[0], before[0])
    x.tap_tile(lineup.rows[0], before[3])  # two taps swap two ships of a line
    assert lineup.lines[0] == [before[3], *before[1:3], before[0], before[4]]
    kiosk_line = list(lineup.lines[2])
    x.tap_tile(lineup.rows[2], kiosk_line[0])
    assert lineup.lines[2] == kiosk_line and "own line" in tour.app.toast_label.text


def test_a_turn_by_taps_then_the_dice_show_it(tour, x, artefacts: Path) -> None:
    tour.at("express_setup")
    x.lay_out([[B, C, D, S, P], [P, D, B, C, S]], start=False)
    tour.screen().seed = x.sinking_seed(B, Target(1, D), rolls=2)  # dice that sink on roll 2
    tour.press_start("Start")
    assert tour.app.sm.current == "express"
    match, table = x.match, x.table
    assert match.players == ("Ann", "Bo", "Kiosk") and match.setup.computer(2) == "hard"
    assert len(table.rows) == 3 and table.rows[0]._turn_colour.a == 1  # Ann is up: framed
    x.tap_ship(0, B)
    assert table.rows[0].order[0] is B  # the attacker slides to the front before the roll
    assert match.line(0)[0] is B  # (the rules move it when the attack is sent)
    # A ship out of reach is dimmed, and says why when tapped, in the rules' words.
    assert table.rows[1].tiles[B].opacity < 1 and table.rows[1].tiles[D].opacity == 1
    x.tap_ship(1, B)
    assert "first two ships of Bo's line" in tour.app.toast_label.text
    assert table.target is None
    x.tap_ship(1, D)
    assert table.target == Target(1, D) and not table.roll_button.disabled
    tour.save(artefacts / "express_turn.png")
    heard: list[MatchUpdate] = []
    unsubscribe = tour.kiosk.service.subscribe(
        lambda e: heard.append(e) if isinstance(e, MatchUpdate) else None
    )
    played = len(tour.kiosk.buzzer.played)
    x.roll()
    unsubscribe()
    rolls = [e for u in heard for e in u.events if isinstance(e, Rolled)]
    assert rolls and all(r.side == 0 and r.ship is B for r in rolls)
    assert heard[0].source is Source.TOUCH
    last = rolls[-1]
    # The table lies as the last roll fell: those faces, the hits counted against the defense.
    shown = [d.face for d in table.tray.rolling[: table.tray.in_play]]
    assert shown == list(last.faces)
    assert table.tray.count.text.startswith(f"{last.total}/4")
    assert len(rolls) == 2 and any(isinstance(e, Sunk) for u in heard for e in u.events)
    assert table.announcement.text.startswith("SUNK!") and "Bo's Destroyer" in table.announcement.text
    assert tour.kiosk.buzzer.played[played:] == [Sound.SUNK]
    assert "sank it and attacks again" in table.prompt.text
    assert table.rows[1].order[-1] is D and table.rows[1].tiles[D].wreck  # at the end, a wreck
    assert "1[size" in table.rows[0].points.text


def test_the_coach_shows_the_exact_chance_of_every_legal_pair(tour, x, artefacts: Path) -> None:
    from ui.touch.express.look import percent  # not at the top: see tests/ui/conftest.py

    tour.at("express_turn")
    assert x.computers_play()
    match, table = x.match, x.table
    if match.phase is Phase.OVER:
        pytest.skip("the kiosk won at once")
    tour.press("Coach")
    assert x.wait(lambda: table.chances is not None and table.chances.version == match.version)
    from ui.touch.fingers import tap

    me = match.turn
    setup = match.setup
    checked = carriers = 0
    for ship in match.line(me):
        rules = setup.ship(ship)
        x.tap_ship(me, ship)
        assert x.wait(lambda: table.chances is not None)
        if rules.stays and match.line(me)[0] is not ship:
            # The Admiral's Carrier attacks from where it stands, unless it is moved.
            assert table.rows[me].order[:5] == list(match.line(me))
            tap(table.move_choice)
            assert table.rows[me].order[0] is ship and table.command().move
            tap(table.move_choice)
            assert table.rows[me].order[:5] == list(match.line(me))
            carriers += 1
        if rules.roll_first:
            targets = [(t.ship, setup.ship(t.ship).defense) for t in match.targets(ship)]
            exact = odds.best_declared(rules, targets)
            assert table.rows[me].tiles[ship].note.text == percent(float(exact))
            continue
        for target in match.targets(ship):
            exact = odds.chance(rules, setup.ship(target.ship).defense)
            tile = table.rows[target.side].tiles[target.ship]
            assert tile.note.text == percent(float(exact)), (ship, target)
            checked += 1
    assert checked >= 4 and carriers == 1  # Ann's line: Battleship, Carrier, ...
    tour.save(artefacts / "express_coach.png")
    tour.press("Coach")
    assert "%" not in table.rows[me].tiles[match.line(me)[0]].note.text
    # Home and back: Home offers to continue the Express game, and the table is as it was.
    faces = [d.face for d in table.tray.rolling[: table.tray.in_play]]
    tour.press("Home")
    tour.press("Continue: Battleship Express")
    assert tour.app.sm.current == "express"
    assert [d.face for d in table.tray.rolling[: table.tray.in_play]] == faces


def test_real_dice_are_asked_roll_by_roll_and_rolled_as_typed(tour, x, artefacts: Path) -> None:
    tour.at("express_played")
    match, table = x.match, x.table
    me = match.turn
    ship = next(s for s in match.line(me) if not match.setup.ship(s).roll_first)
    target = match.targets(ship)[0]
    rules = match.setup.ship(ship)
    tour.press("Real dice")
    played = len(tour.kiosk.buzzer.played)
    x.attack(ship, target)
    assert table.entry is not None and table.entry.wanted == rules.dice
    # the side prompt says what the panel asks, not "roll!" (a tap of Roll, which is off)
    name = match.setup.players[me]
    assert table.prompt.text == f"{name}: roll the real dice, then tap what each one shows"
    miss = next(f for f in Face if f is not Face.BURST and f is not target.ship.face)
    typed: list[Face] = []
    x.type_faces([target.ship.face])  # one hit, then a slip: undone
    x.type_faces([miss])
    tour.press("Undo die")
    typed.append(target.ship.face)
    tour.save(artefacts / "express_real_dice.png")
    rolls = 1
    while table.entry is not None:
        wanted = table.entry.wanted - table.entry.current
        x.type_faces([miss] * wanted)
        typed += [miss] * wanted
        rolls += 1
        assert rolls <= rules.rolls + 1
    queued = [c for c in match.log if isinstance(c, QueueDice)][-1]
    assert list(queued.faces) == typed
    assert match.queued == 0  # every typed face was rolled, none left for the next attack
    thrown = [f for r in last_attack(match) for f in r.faces]
    assert thrown == typed  # the dice rolled are the dice typed
    assert tour.kiosk.buzzer.played[played:] == [Sound.MISS]
    tour.press("Real dice")
    assert not table.real_on


def test_real_dice_typed_in_are_asked_on_where_they_stopped_after_a_restart(tour, x, artefacts: Path) -> None:
    """A power cut halfway through typing an attack's real dice in: the screen of the kiosk
    started again has the same attack, the rolls typed in and this roll's faces, and asks for
    the next face; the dice rolled at the end are every face typed, before and after."""
    from ui.touch.express import typed_dice

    tour.at("express_played")
    match, table = x.match, x.table
    me = match.turn
    ship = next(s for s in match.line(me) if not match.setup.ship(s).roll_first)
    target = match.targets(ship)[0]
    tour.press("Real dice")
    x.attack(ship, target)
    miss = next(f for f in Face if f is not Face.BURST and f is not target.ship.face)
    first = [target.ship.face] + [miss] * (table.entry.wanted - 1)  # one hit: a second roll
    x.type_faces(first)
    assert table.entry is not None and table.entry.rolls
    x.type_faces([miss])  # one face of the second roll
    typed = [*first, miss]
    wanted = table.entry.wanted
    # The kiosk starts again: the screen knows nothing but what the store kept.
    table.real_on = False
    table.reset()
    table.refresh()
    entry = table.entry
    assert entry is not None and table.real_on
    assert entry.command == Attack(ship, target, side=me) and entry.entered == typed
    assert entry.wanted == wanted and entry.current == 1
    assert table.attacker is ship and table.target == target
    tour.save(artefacts / "express_real_dice_resumed.png")
    while table.entry is not None:
        rest = [miss] * (table.entry.wanted - table.entry.current)
        x.type_faces(rest)
        typed += rest
    thrown = [f for r in last_attack(match) for f in r.faces]
    assert thrown == typed
    assert typed_dice.recall(tour.kiosk.service.store, tour.kiosk.service.game, match.version) is None
    tour.press("Real dice")


def test_computers_and_people_play_by_taps_to_the_result_card(tour, x, artefacts: Path) -> None:
    from ui.touch.express.result import signed  # not at the top: see tests/ui/conftest.py

    tour.at("express_played")
    rng = random.Random(8)
    sources: set[Source] = set()
    unsubscribe = tour.kiosk.service.subscribe(
        lambda e: (
            sources.add(e.source)
            if isinstance(e, MatchUpdate) and any(isinstance(v, Rolled) and v.side == 2 for v in e.events)
            else None
        )
    )
    for _turn in range(300):
        assert x.computers_play()
        if x.match.phase is Phase.OVER:
            break
        x.play_a_turn(rng)
    unsubscribe()
    match = x.match
    assert match.phase is Phase.OVER and sources <= {Source.COMPUTER}
    assert x.wait(lambda: tour.app.sm.current == "express_result", 30)
    text = labels_text(tour.root)
    assert f"Victory for {match.players[match.winner]}!" in text
    for player, value in enumerate(luck(match)):
        assert signed(value) in text, match.players[player]
    tour.save(artefacts / "express_result.png")
    tour.app.go("stats")
    stats = tour.screen()
    stats.choose("express")
    text = labels_text(tour.root)
    assert "Sink rate" in text and all(name in text for name in match.players)
    stats.choose("darts")


def test_rematch_and_an_all_computer_game_play_themselves(tour, x) -> None:
    tour.at("home")
    x.set_up(
        [("Easy", "easy"), ("Normal", "normal"), ("Hard", "hard"), ("Also hard", "hard")],
        variant=Variant.CAPTAIN,
    )
    x.lay_out()
    assert x.computers_play(seconds=120)
    match = x.match
    assert match.phase is Phase.OVER and match.setup.variant is Variant.CAPTAIN
    assert x.wait(lambda: tour.app.sm.current == "express_result", 30)
    tour.press("Rematch")
    again = x.match
    assert again is not match and again.setup.lines == match.setup.lines
    assert again.setup.computers == match.setup.computers and again.setup.seed != match.setup.seed
    assert x.computers_play(seconds=120) and again.phase is Phase.OVER


def _restarted(tour) -> object:
    """The app as a kiosk started again on the same database finds it: every screen built
    anew (none remembers anything), then the start's own choice of screen."""
    tour.app.rebuild("home")
    tour.app.follow_phase(initial=True)
    tour.drain()
    return tour.screen()


def test_a_line_up_comes_back_as_it_was_after_a_restart(tour, x, artefacts: Path) -> None:
    """Swaps made on the line-up, the computer's line laid: the app rebuilt on the same
    database opens the line-up by itself, every line as it stood; Start plays those lines,
    and the next start goes where the game is, not to the line-up."""
    from kiosk.express.lineup import DRAFT

    store = tour.kiosk.service.store
    tour.at("home")
    store.drafts.put_away()
    x.set_up([("Ann", None), ("Bo", None), ("Kiosk", "normal")], variant=Variant.CAPTAIN, points=2)
    tour.press("Lay out the lines")
    lineup = tour.screen()
    assert x.wait(lambda: lineup.ready)
    before = list(lineup.lines[1])
    x.tap_tile(lineup.rows[1], before[0])
    x.tap_tile(lineup.rows[1], before[4])  # Bo swaps his first and last ship
    swapped = [before[4], *before[1:4], before[0]]
    assert lineup.lines[1] == swapped
    lines = [list(line) for line in lineup.lines]
    again = _restarted(tour)
    assert tour.app.sm.current == "express_lineup" and again is not lineup
    assert again.lines == lines and again.lines[1] == swapped
    assert again.draft.names == ("Ann", "Bo", "Kiosk") and again.draft.computers == (None, None, "normal")
    assert again.draft.variant is Variant.CAPTAIN and again.draft.points_to_win == 2
    assert again.ready  # the computer's line came back laid, not asked again
    tour.save(artefacts / "express_lineup_resumed.png")
    again.seed = 5
    tour.press_start("Start")
    assert tour.app.sm.current == "express"
    assert [list(line) for line in x.match.setup.lines] == lines
    assert store.drafts.kept(DRAFT) is None  # the game started: the line-up is put away
    assert _restarted(tour).name == "express"


def test_back_puts_the_line_up_away(tour, x) -> None:
    from kiosk.express.lineup import DRAFT

    store = tour.kiosk.service.store
    tour.at("home")
    store.drafts.put_away()
    x.set_up([("Ann", None), ("Bo", None)])
    tour.press("Lay out the lines")
    assert store.drafts.kept(DRAFT) is not None  # kept as soon as it is laid out
    tour.press("Back")
    assert tour.app.sm.current == "express_setup" and store.drafts.kept(DRAFT) is None
    assert _restarted(tour).name == (tour.app.flow_screen() or "home")  # not the line-up


@pytest.mark.parametrize(
    "kept",
    ['{"format": 1, "players": ["Ann"], "computers": [null], "lines": [null]}', "{broken", '{"format": 9}'],
)
def test_a_broken_or_foreign_line_up_is_refused_in_words_and_loses_nothing_else(tour, x, kept: str) -> None:
    store = tour.kiosk.service.store
    tour.at("home")
    store.drafts.put_away()
    store.meta.remember("lineup6.witness", "kept")
    store.drafts.keep("express.lineup", {})
    store.db.execute("UPDATE meta SET value=? WHERE key='draft.express.lineup'", [kept])
    screen = _restarted(tour)
    assert screen.name == (tour.app.flow_screen() or "home")  # where it went without a line-up
    assert "The line-up kept before the restart could not be laid out again" in tour.app.toast_label.text
    assert store.drafts.names() == [] and store.meta.recall("lineup6.witness") == "kept"


def test_a_game_resumed_or_rebuilt_leaves_the_line_up_kept_and_a_new_one_puts_it_away(tour, x) -> None:
    """The service says GameStarted(resumed=True) when it resumes a game at the start or
    rebuilds one after a failed commit: no new game, the line-up being laid stays kept."""
    from kiosk.express.lineup import DRAFT
    from kiosk.service import GameStarted

    store = tour.kiosk.service.store
    tour.at("express_setup")
    store.drafts.put_away()
    tour.press("Lay out the lines")
    assert store.drafts.kept(DRAFT) is not None
    game = tour.kiosk.service.game
    tour.app.on_service_event(GameStarted(game, resumed=True))
    assert store.drafts.kept(DRAFT) is not None
    tour.app.on_service_event(GameStarted(game, resumed=False))
    assert store.drafts.kept(DRAFT) is None
