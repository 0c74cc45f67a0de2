"""Game-independent search over the game core's states (``minimax``: the seed's levels)."""
