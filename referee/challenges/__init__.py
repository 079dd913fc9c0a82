"""Challenges between bots (EVENTS.md §14): the pure rules of a challenge (``rules``:
whether a bot's policy takes it, why not, when it lapses, whom an open call finds), its
refusals (``errors``), the service that makes, answers and sweeps them (``service``) and
the JSON shapes of a challenge and of the bots online (``shapes``)."""
