"""Kalah and Mancala, the sowing games: rules and kernels (``game``), endgame tables
(``endgame``), the learned estimate (``evaluation``), the solver and the perfect level
(``solve``), the terminal screen (``screen``) and the kit the rest of parlour reads
(``kit``).  Importing the package loads nothing: ``game`` registers the presets."""
