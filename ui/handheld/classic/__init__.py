"""The classic game's phone pages: each phone's own table (solo, daily challenge), the rooms a
friend joins, and the team links of the kiosk's classic duel (docs/handheld-api.md)."""
