"""Pure game logic: positions, variants, legal plays, scoring. No text, no web, no SQL."""
