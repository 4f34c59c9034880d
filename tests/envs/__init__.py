"""Tests of the environment adapters (OpenSpiel, PettingZoo) and of agreement with OpenSpiel's games."""
