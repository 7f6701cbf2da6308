"""The league's hub: one server for many kiosks, all of its state in PostgreSQL.

It imports the pure games from `kiosk` to replay and verify what kiosks upload, never `ui` or
`hardware`. `dartship hub` runs it (`hub.cli`).
"""
