"""Exact odds of a declared action: the unchanged engines driven through every branch of their dice."""
