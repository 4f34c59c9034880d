"""Barnyard Roundup (games/barnyard.rules, games/barnyard-2p.rules)."""
