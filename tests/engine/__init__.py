"""Tests of the engine: the state, chance, positions, load_game, fast playouts, the pinned seeded games."""
