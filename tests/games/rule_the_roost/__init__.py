"""Rule the Roost (games/rule-the-roost.rules)."""
