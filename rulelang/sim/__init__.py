"""Balance testing: many games in parallel (processes or Ray), statistics, comparison, coverage, report."""
