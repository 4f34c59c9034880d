"""Hippe Kippen (games/hippe-kippen.rules)."""
