"""Grievous: the Discord bot, its services and its command line."""
