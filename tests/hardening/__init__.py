"""Tests of untrusted input: bounds, files, leaks, limits, seeds, and the fuzz runs."""
