"""nardy-referee: a referee and record server for backgammon, long nardy and khachapuri."""

__version__ = "0.1.0"
