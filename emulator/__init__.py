"""Generic unit-record hardware: punched cards, card codes, deck files, pictures, SimPy devices.

Nothing in here knows about the IBM 1013 or about solitaire; those packages build on this one.
"""
