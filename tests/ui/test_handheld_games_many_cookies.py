"""One person with many cookies (a fresh cookie jar for every request, as a script sends them)
starts no more phone solo games than one phone of that address: the allowance is the
address's, and a new cookie is a new phone of the same address (docs/decisions.md, "Under
attack"). The daily's and the rooms' are in test_handheld_daily_trust.py and
test_handheld_rooms_end.py."""

from __future__ import annotations

from tests.ui.conftest_classic import classic_phones
from ui.handheld.classic.api import StartLimits


async def test_one_address_starts_its_allowance_of_solo_games_however_many_cookies(tmp_path):
    async with classic_phones(tmp_path, 6, limits=StartLimits(capacity=3, per_minute=1)) as (phones, _c):
        statuses = []
        for phone in phones:
            answer = await phone.post("/api/classic/play/solo", json={"level": "easy"})
            statuses.append((answer.status, (await answer.json()).get("error")))
        assert statuses == [(200, None)] * 3 + [(429, "too_many_games")] * 3
