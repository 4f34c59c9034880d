"""Tests of traces: replay, its fast ways, seeded chance, tampering, private looks, player views, the viewer."""
