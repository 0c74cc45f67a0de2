"""The arena: programs playing each other by the thousand, every game recorded.

``plan``: a match's or tournament's settings and its games (jobs), openings.  ``worker``:
one game through the Referee (``play_job``).  ``executors``: local processes or Ray.
``records``: the SQLite database.  ``match``: running a plan, standings, crosstables.
``stats``: Elo, LOS, SPRT on game pairs, Bradley-Terry ratings.  ``replay``: a recorded
game on the terminal.
"""
