"""Tests of the scripts of benchmarks/ (the hand-written baselines are tested beside their games, in games/<game>/)."""
