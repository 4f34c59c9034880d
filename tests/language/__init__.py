"""Tests of the language: grammar, constructs, the checker's and the run's errors, compatibility, docs."""
