"""The Gomocup protocol: its lines (``protocol``), parlour as a brain (``brain``) and an
outside brain as a player (``player``)."""
