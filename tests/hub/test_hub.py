"""The hub against a real PostgreSQL, with the kiosk's real outbox and sync task: pairing,
signed uploads replayed and checked, idempotency, refusals, and what the hub gives."""

from __future__ import annotations

import datetime
import json
import logging
import random

import aiohttp
import pytest

from hub import admin, db
from kiosk.app.league import LeagueSync, pair
from kiosk.league import membership as members
from kiosk.league import reasons, signing
from kiosk.league.outbox import REFUSED, SENT
from kiosk.store import Store
from tests import league_games as games

from .conftest import Hub


async def _kiosk(hub: Hub, tmp_path, name: str = "k", venue: int | None = None) -> tuple[Store, LeagueSync]:
    member = await pair(hub.url, await hub.code(venue), name)
    store = Store(tmp_path / f"{name}.db")
    store.meta.remember(members.MEMBERSHIP, member.to_json())
    return store, LeagueSync(store, member, rng=random.Random(1))


async def _get(url: str) -> dict:
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        assert answer.status == 200, await answer.text()
        return await answer.json()


async def _flush(sync: LeagueSync) -> int:
    async with aiohttp.ClientSession() as session:
        return await sync.flush(session)


async def test_migrations_are_numbered_and_applied_once(database):
    pool = await db.open_pool(database, 2)
    again = await db.open_pool(database, 2)  # a second hub process on the same database
    async with pool.connection() as conn:
        rows = await (await conn.execute("SELECT version FROM schema_migrations")).fetchall()
        assert await db.migrate(conn) == []
    assert [r[0] for r in rows] == [n for n, _p in db.migrations()] == [1, 2, 3]
    await pool.close()
    await again.close()


async def test_games_of_every_kind_reach_the_table_ratings_and_boards(hub, tmp_path):
    anchor, sync = await _kiosk(hub, tmp_path, "anchor")
    crown, sync2 = await _kiosk(hub, tmp_path, "crown", hub.other_venue)
    rng = random.Random(5)
    today = datetime.date.today()
    games.play_darts(anchor, [["Ann", "Bo"], ["Cy"]], rng, winner=0)  # Ann and Bo beat Cy
    games.play_classic(anchor, ["Cy", "Ann"], rng, winner=0)  # Cy beats Ann
    games.play_express(crown, ["ann ", "Dee", "Cy"], rng)  # "ann " is Ann: one player
    # The league's daily challenge: the seed of today's fleet comes with the boards.
    async with aiohttp.ClientSession() as session:
        assert await sync.refresh(session) and await sync2.refresh(session)
    seed = members.daily_seed(anchor.meta, today)
    assert seed is not None and seed == members.daily_seed(crown.meta, today)
    games.play_classic(anchor, ["Ann"], rng, daily=today, seed=seed)
    games.play_classic(crown, ["Dee"], rng, daily=today, seed=seed)
    games.play_classic(crown, ["Eve"], rng, daily=today)  # the kiosk's own daily: not the league's
    assert await _flush(sync) == 3 and await _flush(sync2) == 3
    assert anchor.outbox is not None and anchor.outbox.counts()[SENT] == 3

    table = await _get(f"{hub.url}/api/leagues/{hub.league}")
    by_key = {r["key"]: r for r in table["rows"]}
    express_winner = json.loads(
        crown.db.execute(
            "SELECT report FROM outbox WHERE json_extract(report, '$.kind') = 'express'"
        ).fetchone()[0]
    )
    won = {r["player"].strip().casefold() for r in express_winner["results"] if r["won"]}
    # Every person: the dart game, the duel and the Express game (daily games do not count:
    # the other side is the kiosk).
    assert by_key["ann"]["games"] == 3 and by_key["cy"]["games"] == 3
    assert by_key["ann"]["wins"] == 1 + ("ann" in won)
    assert by_key["bo"] == {**by_key["bo"], "games": 1, "wins": 1, "points": 3}
    assert sum(r["wins"] for r in table["rows"]) == 2 + 1 + 1  # two dart winners, a duel, Express

    ratings = await _get(f"{hub.url}/api/leagues/{hub.league}/ratings/darts")
    order = [r["key"] for r in ratings["rows"]]
    assert set(order) == {"ann", "bo", "cy"} and order[-1] == "cy"
    daily = await _get(f"{hub.url}/api/leagues/{hub.league}/daily")
    assert [r["venue"] for r in daily["rows"]] and {r["player"] for r in daily["rows"]} == {"Ann", "Dee"}
    assert daily["rows"][0]["shots"] <= daily["rows"][1]["shots"]
    venue = await _get(f"{hub.url}/api/venues/{hub.venue}")
    assert {r["key"] for r in venue["rows"]} == {"ann", "bo", "cy"}
    player = await _get(f"{hub.url}/api/leagues/{hub.league}/players/ann")
    assert len(player["games"]) == 4 and set(player["ratings"]) == {"darts", "classic", "express"}
    async with aiohttp.ClientSession() as session, session.get(f"{hub.url}/leagues/{hub.league}") as page:
        text = await page.text()
    assert page.content_type == "text/html" and "Test league" in text and "Bo" in text

    # The kiosk's boards, for its Stats screen, kept with their age.
    async with aiohttp.ClientSession() as session:
        assert await sync.refresh(session)
    kept = members.boards(anchor.meta)
    assert kept is not None and kept.age_seconds() < 60
    assert kept.table["rows"] == table["rows"] and len(kept.daily["rows"]) == 2


async def test_the_same_game_twice_changes_nothing(hub, tmp_path):
    store, sync = await _kiosk(hub, tmp_path)
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(2))
    assert await _flush(sync) == 1
    store.db.execute("UPDATE outbox SET state='pending', attempts=0")  # lost the answer: again
    assert await _flush(sync) == 1
    assert '"duplicate"' in store.db.execute("SELECT answer FROM outbox").fetchone()[0]
    async with hub.pool.connection() as conn:
        assert (await (await conn.execute("SELECT count(*) FROM games")).fetchone())[0] == 1
        assert (await (await conn.execute("SELECT count(*) FROM game_players")).fetchone())[0] == 2


async def test_a_result_the_log_does_not_give_is_refused_and_named_in_both_logs(hub, tmp_path, caplog):
    store, sync = await _kiosk(hub, tmp_path)
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(3), winner=1)
    report = json.loads(store.db.execute("SELECT report FROM outbox").fetchone()[0])
    report["winner"] = 0
    for r in report["results"]:
        r["won"] = r["side"] == 0
    store.db.execute("UPDATE outbox SET report=?", [json.dumps(report)])
    with caplog.at_level(logging.INFO):
        assert await _flush(sync) == 0
    state, answer = store.db.execute("SELECT state, answer FROM outbox").fetchone()
    told = reasons.told(answer)  # kept with how to say it again, told in the kiosk's language
    assert (
        state == REFUSED
        and told is not None
        and told.startswith("HTTP 422: ")
        and "the replay gives 1" in told
    )
    hub_lines = [r.message for r in caplog.records if r.name == "dartship.hub"]
    kiosk_lines = [r.getMessage() for r in caplog.records if r.name == "dartship.league"]
    assert any(report["uuid"] in m and "the replay gives 1" in m for m in hub_lines)
    assert any(report["uuid"] in m and "the replay gives 1" in m for m in kiosk_lines)
    async with hub.pool.connection() as conn:
        assert (await (await conn.execute("SELECT count(*) FROM games")).fetchone())[0] == 0


async def test_a_name_with_a_trailing_space_lands_cleaned_and_a_refusal_blocks_nothing(hub, tmp_path):
    # A team and a player typed "Ann " and "Ann 's team " by a program that does not clean
    # names (the store keeps a setup as it is given); the hub's replay cleans them
    # (`kiosk.names.clean_name`) and, before, refused the game: 422, "player 'Ann ' ... is not
    # in the replay".
    store, sync = await _kiosk(hub, tmp_path)
    games.play_darts(store, [["Ann "], ["Cy"]], random.Random(3))
    forged = games.play_darts(store, [["Bo"], ["Di"]], random.Random(4))
    report = json.loads(store.db.execute("SELECT report FROM outbox WHERE game=?", [forged]).fetchone()[0])
    report["results"][0]["hits"] += 1
    store.db.execute("UPDATE outbox SET report=? WHERE game=?", [json.dumps(report), forged])
    games.play_darts(store, [["Cleo"], ["Dev"]], random.Random(5))
    # The forged game (refused for good, 422) does not hold up the one queued behind it.
    assert await _flush(sync) == 2
    states = dict(store.db.execute("SELECT game, state FROM outbox ORDER BY game").fetchall())
    assert list(states.values()) == [SENT, REFUSED, SENT]
    store.close()
    async with hub.pool.connection() as conn:
        players = await (await conn.execute("SELECT player FROM game_players ORDER BY player")).fetchall()
    assert [p for (p,) in players] == ["Ann", "Cleo", "Cy", "Dev"]


async def _post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.post(url, data=body, headers=headers) as answer:
        return answer.status, await answer.text()


async def test_hostile_kiosks_are_refused_and_nothing_is_written(hub, tmp_path):
    store, sync = await _kiosk(hub, tmp_path)
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(4))
    body = store.db.execute("SELECT report FROM outbox").fetchone()[0].encode()
    member = sync.member

    def signed(data: bytes, key: str = member.key) -> dict[str, str]:
        return signing.signed_headers(member.kiosk, key, "POST", "/api/games", data)

    other = json.loads(body)
    other["venue"] = hub.other_venue
    other_body = json.dumps(other).encode()
    status, text = await _post(f"{hub.url}/api/games", other_body, signed(other_body))
    assert status == 403 and "may write only venue" in text
    status, text = await _post(f"{hub.url}/api/games", body, signed(body, signing.new_key()))
    assert status == 401 and "signature is wrong" in text
    headers = signed(body)
    status, text = await _post(f"{hub.url}/api/games", body.replace(b'"Ann"', b'"Eve"'), headers)
    assert status == 401 and "signature is wrong" in text  # changed on the way
    old = signing.signed_headers(member.kiosk, member.key, "POST", "/api/games", body, at=1_700_000_000)
    status, text = await _post(f"{hub.url}/api/games", body, old)
    assert status == 401 and "clock" in text
    status, text = await _post(
        f"{hub.url}/api/games", b"x" * (10 * 1024 * 1024), signed(b"x" * (10 * 1024 * 1024))
    )
    assert status == 413
    status, text = await _post(f"{hub.url}/api/games", body, headers)
    assert status == 201
    status, text = await _post(f"{hub.url}/api/games", body, headers)  # the same request again
    assert status == 401 and "sent before" in text
    async with hub.pool.connection() as conn:
        await admin.revoke(conn, member.kiosk)
    status, text = await _post(f"{hub.url}/api/games", body, signed(body))
    assert status == 403 and "revoked" in text
    async with hub.pool.connection() as conn:
        assert (await (await conn.execute("SELECT count(*) FROM games")).fetchone())[0] == 1


async def test_games_waiting_when_the_kiosk_is_paired_anew_go_with_the_new_key(hub, tmp_path):
    from kiosk.app.league import keep_membership

    old = await pair(hub.url, await hub.code(), "bar")
    store = Store(tmp_path / "k.db")
    keep_membership(store, old)
    sync = LeagueSync(store, old, rng=random.Random(1))  # the running kiosk's sync task
    for seed in (1, 2):
        games.play_darts(store, [["Ann"], ["Cy"]], random.Random(seed))
    async with hub.pool.connection() as conn:
        await admin.revoke(conn, old.kiosk)  # the bar's old key is revoked
    assert await _flush(sync) == 0  # 403: kept, tried again later
    assert store.outbox is not None and store.outbox.counts()["pending"] == 2

    # `dartship league join` with a new code for the same venue, from another process.
    new = await pair(hub.url, await hub.code(), "bar")
    other = Store(tmp_path / "k.db")
    keep_membership(other, new)
    other.close()
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(3))  # the kiosk had not seen it yet
    assert await _flush(sync) == 3  # all three, with the new key, no restart
    assert sync.member.kiosk == new.kiosk and sync.problem is None
    assert store.outbox_of(new).counts() == {"pending": 0, "sent": 3, "refused": 0}
    assert store.outbox_of(old).counts() == {"pending": 0, "sent": 0, "refused": 0}
    store.close()
    async with hub.pool.connection() as conn:
        rows = await (await conn.execute("SELECT kiosk, count(*) FROM games GROUP BY kiosk")).fetchall()
    assert rows == [(new.kiosk, 3)]


async def test_a_kiosk_started_after_it_was_paired_anew_sends_what_waited(hub, tmp_path):
    from kiosk.app.league import keep_membership

    old = await pair(hub.url, await hub.code(), "bar")
    store = Store(tmp_path / "k.db")
    keep_membership(store, old)
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(1))
    keep_membership(store, await pair(hub.url, await hub.code(), "bar"))  # kiosk stopped
    new = members.kept(store.meta)
    assert new is not None
    assert await _flush(LeagueSync(store, new, rng=random.Random(1))) == 1  # its next start
    # Paired with another venue: that one's games are not this venue's to send.
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(2))
    keep_membership(store, await pair(hub.url, await hub.code(hub.other_venue), "bar"))
    assert store.outbox_of(new).counts() == {"pending": 0, "sent": 1, "refused": 1}
    store.close()


async def test_guessed_pairing_codes_are_refused_then_throttled(hub):
    answers = []
    rng = random.Random(9)
    for _ in range(40):
        guess = "".join(rng.choice(admin.CODE_ALPHABET) for _ in range(12))
        answers.append(
            (
                await _post(
                    f"{hub.url}/api/pair",
                    json.dumps({"code": guess, "name": "x"}).encode(),
                    {"Content-Type": "application/json"},
                )
            )[0]
        )
    assert set(answers[:10]) == {403} and set(answers[12:]) == {429}
    async with hub.pool.connection() as conn:
        assert (await (await conn.execute("SELECT count(*) FROM kiosks")).fetchone())[0] == 0


async def test_a_pairing_code_works_once(hub, tmp_path):
    code = await hub.code()
    await pair(hub.url, code, "first")
    with pytest.raises(ValueError, match="not valid"):
        await pair(hub.url, code.lower(), "second")


async def test_the_outbox_waits_out_a_hub_that_is_away(hub, tmp_path):
    store, sync = await _kiosk(hub, tmp_path)
    games.play_darts(store, [["Ann"], ["Cy"]], random.Random(6))
    away = LeagueSync(store, members.Membership(**{**sync.member.__dict__, "hub": "http://127.0.0.1:9"}))
    assert await _flush(away) == 0
    attempts, next_try, state = store.db.execute("SELECT attempts, next_try, state FROM outbox").fetchone()
    assert state == "pending" and attempts == 1 and next_try > 0
    assert await _flush(sync) == 0  # not due yet: backoff
    store.db.execute("UPDATE outbox SET next_try=0")
    assert await _flush(sync) == 1


def _mutations(report: dict, rng: random.Random) -> bytes:
    """A report broken at random: a key dropped or given a value of another type, a command
    garbled, or the bytes cut."""
    broken = json.loads(json.dumps(report))
    junk = rng.choice([None, 0, -1, 2**70, "", "x" * 300, [], {}, True, 1.5, ["A1"], {"cmd": 1}])
    where = rng.randrange(5)
    if where == 0:
        broken.pop(rng.choice(list(broken)))
    elif where == 1:
        broken[rng.choice(list(broken))] = junk
    elif where == 2 and broken["log"]:
        entry = rng.choice(broken["log"])
        entry[rng.choice(["body", "secret"])] = junk
    elif where == 3 and broken["log"]:
        body = rng.choice(broken["log"])["body"]
        if body:
            body[rng.choice(list(body))] = junk
    else:
        text = json.dumps(broken).encode()
        return text[: rng.randrange(len(text))]
    return json.dumps(broken).encode()


async def test_garbled_reports_get_an_answer_never_a_crash(hub, tmp_path):
    store, sync = await _kiosk(hub, tmp_path)
    games.play_darts(store, [["Ann", "Bo"], ["Cy"]], random.Random(12))
    report = json.loads(store.db.execute("SELECT report FROM outbox").fetchone()[0])
    rng = random.Random(3)
    seen = set()
    async with aiohttp.ClientSession() as session:
        for _ in range(150):
            body = _mutations(report, rng)
            headers = signing.signed_headers(sync.member.kiosk, sync.member.key, "POST", "/api/games", body)
            async with session.post(f"{hub.url}/api/games", data=body, headers=headers) as answer:
                seen.add(answer.status)
                if answer.status >= 300:
                    assert "error" in await answer.json()
    # 201: a mutation the replay does not care about (a dropped 'turns': the hub keeps the
    # replay's); after it, the same UUID is a duplicate (200) or a conflict (409).
    assert seen <= {200, 201, 403, 409, 422, 429} and 422 in seen
    async with hub.pool.connection() as conn:
        rows = await (await conn.execute("SELECT p.player, p.won, p.hits FROM game_players p")).fetchall()
    truth = {(r["player"], r["won"], r["hits"]) for r in report["results"]}
    assert not rows or set(rows) == truth  # whatever got in, it is the game as played


async def test_names_are_escaped_on_the_pages(hub, tmp_path):
    store, sync = await _kiosk(hub, tmp_path)
    games.play_darts(store, [["<script>x()</script>"], ["Cy & Co"]], random.Random(13))
    assert await _flush(sync) == 1
    async with aiohttp.ClientSession() as session:
        for path in (
            f"/leagues/{hub.league}",
            f"/venues/{hub.venue}",
            f"/leagues/{hub.league}/ratings/darts",
        ):
            async with session.get(hub.url + path) as page:
                text = await page.text()
            assert "<script>x()" not in text and "&lt;script&gt;x()" in text
            assert "Cy &amp; Co" in text


async def test_a_hub_behind_on_uploads_says_busy_at_once():
    import asyncio

    from hub.kiosks import Refused
    from hub.web import Turns

    turns = Turns(1, waiting=1)
    inside, release = asyncio.Event(), asyncio.Event()

    async def upload() -> None:
        async with turns.take():
            inside.set()
            await release.wait()

    first = asyncio.create_task(upload())
    await inside.wait()
    second = asyncio.create_task(upload())  # waits its turn
    await asyncio.sleep(0)
    assert turns.waiting == 1
    with pytest.raises(Refused) as refused:
        async with turns.take():
            pass
    assert refused.value.status == 503
    release.set()
    await asyncio.gather(first, second)
    assert turns.waiting == 0


async def test_a_bar_whose_day_is_the_hubs_yesterday_plays_the_leagues_daily(hub, tmp_path):
    """A kiosk's daily game is of the kiosk's own date: a bar west of the hub, still on the hub's
    yesterday, has that day's seed from the boards and its game lands on that day's board."""
    store, sync = await _kiosk(hub, tmp_path)
    async with aiohttp.ClientSession() as session:
        assert await sync.refresh(session)
    yesterday = datetime.date.today() - datetime.timedelta(days=1)
    seed = members.daily_seed(store.meta, yesterday)
    assert seed is not None
    games.play_classic(store, ["Ann"], random.Random(8), daily=yesterday, seed=seed)
    assert await _flush(sync) == 1
    board = await _get(f"{hub.url}/api/leagues/{hub.league}/daily?date={yesterday.isoformat()}")
    assert [r["player"] for r in board["rows"]] == ["Ann"]
