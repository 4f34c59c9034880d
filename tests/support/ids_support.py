"""Shared by the action-id lockstep tests: every shipped game and example, each with its action space."""

from __future__ import annotations

from env_support import ROOT

from rulelang.envs.actions import ActionSpaceError, build_action_space
from rulelang.envs.common import load_spec

GAMES = [*sorted((ROOT / "games").glob("*.rules")), *sorted((ROOT / "examples").glob("*/*.rules"))]


def spec_of(path):
    """(engine, default players, action space) of a rules file, with a bound where the model gives none."""
    engine = load_spec(path, None, None, None).engine
    players = engine.model.default_players
    try:
        return engine, players, build_action_space(engine, players)
    except ActionSpaceError:  # a range the model does not bound: as a user would, give a bound
        return engine, players, build_action_space(engine, players, max_actions=4096)


def fresh_ids(space, spec, options):
    """The ids the action space's blocks compute from the values (no table, no kept list)."""
    table = space.choose[id(spec)]
    return [table[index].id_of(values) if values else table[index].base for index, values in options]
