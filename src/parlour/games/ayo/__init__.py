"""Ayo (seed 000): rules (``game``), compiled kernel (``kernel``), the Referee's
``Stoned`` notices (``notices``), the terminal screen (``screen``) and the kit (``kit``).
Importing the package loads nothing: ``game`` registers the preset."""
