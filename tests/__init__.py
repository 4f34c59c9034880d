"""The test suite; tests/README.md maps its folders to subjects."""
