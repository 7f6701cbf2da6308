"""Classic 10x10 Battleship (RULES.md section 4): grid, fleet, match, wire, referee."""
