"""Playing-card packs, reproducible deals, the solitaire games of our rule texts, and game state
as a deck of punched cards that a 1013 can send.
"""
