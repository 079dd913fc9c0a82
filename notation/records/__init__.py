"""Match records: the JellyFish ``.mat`` format (a superset of it) to plain data and back."""
