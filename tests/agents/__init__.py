"""Tests of the agents (rulelang/agents/): the search agents and the human player's prompt."""
