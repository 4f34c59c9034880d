"""The games of examples/new-games/, written from the documentation alone."""
