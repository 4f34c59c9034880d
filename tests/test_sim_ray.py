"""The Ray back end on a local 2-CPU Ray: the same records as local processes (skipped without Ray)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.agents.spec import AgentSpec
from rulelang.cli import main
from rulelang.sim.driver import simulate
from rulelang.sim.ray_backend import ray_batch_size
from rulelang.sim.runner import SimJob

ROOT = Path(__file__).resolve().parent.parent


def test_batches_are_big_enough() -> None:
    assert ray_batch_size(1000, 2) == 125
    assert ray_batch_size(30, 2) == 10  # at least 10 games: a task runs well over 10 ms
    assert ray_batch_size(100_000, 8) == 200


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray", reason="needs the ray extra: pip install 'rulelang[ray]'")
    # Workers must run this checkout's rulelang, not an installed one.
    env = {"env_vars": {"PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}}
    ray.init(num_cpus=2, runtime_env=env, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()


def test_ray_gives_the_same_records_as_local(local_ray) -> None:
    path = str(ROOT / "games/chicken-eggspansion.rules")
    job = SimJob(path, (), 3, (AgentSpec("greedy"), AgentSpec("random"), AgentSpec("random")), seed=5)
    local, _ = simulate(job, 30, jobs=2, batch_size=7)
    seen: list[int] = []
    remote, _ = simulate(job, 30, backend="ray", batch_size=10, on_batch=seen.append)
    assert remote == local
    assert sorted(seen) == [10, 10, 10]


def test_cli_backend_ray(local_ray) -> None:
    args = ["simulate", str(ROOT / "games/chicken.rules"), "-n", "40", "--json"]
    local = json.loads(CliRunner().invoke(main, args + ["-j", "1"]).stdout)
    result = CliRunner().invoke(main, args + ["--backend", "ray"])
    assert result.exit_code == 0, result.output
    remote = json.loads(result.stdout)
    local.pop("timing")
    remote.pop("timing")
    assert remote == local


def test_without_ray_the_cli_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if it were not installed
    result = CliRunner().invoke(main, ["simulate", str(ROOT / "games/chicken.rules"), "-n", "4", "--backend", "ray"])
    assert result.exit_code == 1
    assert "error: --backend ray needs Ray: pip install 'rulelang[ray]'" in result.stderr
    assert "Traceback" not in result.output
