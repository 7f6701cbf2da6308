"""One module per screen; `KioskScreen` is what they share."""
