"""Five in a row (seed 002): rules (``game``), the ``.psq`` record (``psq``), the engine
(``engine``: threats, patterns, alpha-beta, driver), the Gomocup protocol (``gomocup``:
brain and engine player), the terminal screen (``screen``) and the kit (``kit``).
Importing the package loads nothing: ``game`` registers the preset."""
