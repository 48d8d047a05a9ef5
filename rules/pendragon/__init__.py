"""King Arthur Pendragon opposed combat: knockdown, major wounds, healing (docs/rules/pendragon.md)."""
