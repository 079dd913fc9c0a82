"""Pure syntax: position strings, play texts and match records to plain data and back.

Nothing here knows the rules or imports from ``referee``.
"""
