"""Battleship Express, the dice game (EXPRESS.md, PROTOCOLS.md section 5).

`rules` (ships, faces, house rules), `dice` (seeded faces), `match` (the pure state machine),
`odds` (exact chances to sink), `wire` (JSON and the `GameKind`), `referee` (the line protocol).
"""
