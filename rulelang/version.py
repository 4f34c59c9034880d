"""rulelang's version (pyproject.toml's), in a module of its own that imports nothing."""

__version__ = "0.1.0"
