"""Played games kept: one record of a game's line (``saved``: the rules, the start and the
moves by name, the file ``parlour play --load`` takes up) and one SQLite store of finished
games and games under way (``store``), for the terminal's files, the arena and the web."""
