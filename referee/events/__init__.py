"""Tournaments (EVENTS.md): round robin, Swiss and knockout events between bots (played as
live matches) or people (their records submitted and adjudicated), standings with
tie-breaks, and FIBS ratings.

* ``pairing``, ``matching``, ``standings``, ``ratings``: pure functions (no storage, no
  web): who meets whom, the table of an event, the rating formula;
* ``service``: create, start, results (live matches, records, awards), the next round
  paired as soon as the current one has every result; its progress lives in storage;
* ``keeper``: one thread per process that settles the running events whose live matches
  changed, so a result arrives whichever worker sees it;
* ``stream``: the bot stream (``GET /v1/bot/stream``) and its board;
* ``views``, ``shapes``, ``exports``: the event as JSON, CSV and a zip of records.
"""
