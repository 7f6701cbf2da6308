"""The dart game: Battleship on a dartboard (RULES.md sections 1-3)."""
