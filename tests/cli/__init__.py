"""Tests of the command line and the package as a user meets them: commands, streams, start-up, shipped games."""
