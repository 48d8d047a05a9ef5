"""Fading Suns with J. Ruszczyk's Size, hit-location and wound-severity adaptation (docs/rules/fading-suns.md)."""
