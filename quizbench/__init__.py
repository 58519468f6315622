"""The project's benchmark tools (``python -m quizbench.<tool>``), kept apart from the app.

- ``quizbench.capacity``: event-day capacity. Many websocket sessions answering cards
  against a server, a floor app or a cluster behind HAProxy (see docs/DEPLOYMENT.md).
"""
