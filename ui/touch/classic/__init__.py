"""The classic game's screens on the touchscreen: its start screen, solo against the computer,
the duel of two teams (fleets on their phones), the result card; and the grid they draw."""
