"""Chicken! and its Eggspansion! (games/chicken.rules, games/chicken-eggspansion.rules)."""
