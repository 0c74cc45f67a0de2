"""War (seed 004): options (``options``, light: no compiled code), rules and notation
(``rules``), the kernel (``kernel``), the Game and State (``game``), the Dealer and its
Players (``dealer``), the table on screen (``screen``) and the kit (``kit``).  Importing
the package loads nothing: ``game`` registers the preset."""
