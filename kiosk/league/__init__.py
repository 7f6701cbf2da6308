"""The kiosk's side of the league, pure: the signed requests, the report of a finished game and
its check by replay (the hub runs the same), and the outbox in the kiosk's store.

The network is not here: the sync task that empties the outbox is started by `kiosk/app`.
"""
