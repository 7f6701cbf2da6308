"""The phones' web page and its server: private placement and a live view of the game."""
