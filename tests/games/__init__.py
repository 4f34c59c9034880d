"""Tests of each game against its rulebook: rules, snapshots, properties, hand-written baselines."""
