"""King Arthur Pendragon opposed combat (seed 001): knockdown, major wounds, healing."""
