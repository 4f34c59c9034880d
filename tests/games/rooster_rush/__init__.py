"""Rooster Rush (games/rooster-rush.rules)."""
