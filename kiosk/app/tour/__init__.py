"""The scripted tour of the touchscreen: simulated fingers on a kiosk the composition root built
(`driver.Tour`; `express.ExpressTour`, `classic.ClassicWalk` for those games' screens) and the
walk through every screen that `dartship screenshots` photographs (`walk`). The touchscreen
tests drive the app with the same fingers."""
