"""Tests of the agents (rulelang/agents/)."""
