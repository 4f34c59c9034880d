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

ROOT = Path(__file__).resolve().parents[2]


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


# Issue 21, item 4: $RAY_ADDRESS is honoured (--address wins), and every Ray failure is an error with a hint.
# A stand-in for the ray module records how Ray was started and runs the tasks here, so these run without Ray.


class FakeRay:
    """Just enough of ``ray`` for run_ray: init, remote tasks run at once, wait, get."""

    def __init__(self, init_error: Exception | None = None, get_error: Exception | None = None) -> None:
        self.inits: list[dict] = []
        self.init_error, self.get_error = init_error, get_error
        self.on = False

    def is_initialized(self) -> bool:
        return self.on

    def init(self, **kwargs: object) -> None:
        self.inits.append(kwargs)
        if self.init_error is not None:
            raise self.init_error
        self.on = True

    def shutdown(self) -> None:
        self.on = False

    def cluster_resources(self) -> dict:
        return {"CPU": 2.0}

    def remote(self, fn):
        return type("Task", (), {"remote": staticmethod(lambda *args: (fn, args))})

    def wait(self, pending: list, num_returns: int = 1) -> tuple[list, list]:
        return pending[:num_returns], pending[num_returns:]

    def get(self, ref):
        if self.get_error is not None:
            raise self.get_error
        fn, args = ref
        return fn(*args)


def _fake(monkeypatch: pytest.MonkeyPatch, **errors: Exception) -> FakeRay:
    import sys

    fake = FakeRay(**errors)
    monkeypatch.setitem(sys.modules, "ray", fake)
    return fake


CHICKEN_RUN = ["simulate", str(ROOT / "games/chicken.rules"), "-n", "12", "--json", "--backend", "ray"]


def _local_stats() -> dict:
    stats = json.loads(CliRunner().invoke(main, CHICKEN_RUN[:-2] + ["-j", "1"]).stdout)
    stats.pop("timing")
    return stats


def test_ray_address_from_the_environment_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _fake(monkeypatch)
    monkeypatch.setenv("RAY_ADDRESS", "head.example:6379")
    result = CliRunner().invoke(main, CHICKEN_RUN)
    assert result.exit_code == 0, result.output
    assert [i["address"] for i in fake.inits] == ["head.example:6379"]
    assert "num_cpus" not in fake.inits[0]  # Ray refuses num_cpus when it joins a cluster (the old traceback)
    stats = json.loads(result.stdout)
    stats.pop("timing")
    assert stats == _local_stats()


def test_the_address_option_wins_over_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _fake(monkeypatch)
    monkeypatch.setenv("RAY_ADDRESS", "head.example:6379")
    result = CliRunner().invoke(main, CHICKEN_RUN + ["--address", "other.example:10001"])
    assert result.exit_code == 0, result.output
    assert [i["address"] for i in fake.inits] == ["other.example:10001"]


@pytest.mark.parametrize("env", [None, "", "local"])
def test_without_an_address_a_new_local_ray_is_started(monkeypatch: pytest.MonkeyPatch, env: str | None) -> None:
    fake = _fake(monkeypatch)
    if env is None:
        monkeypatch.delenv("RAY_ADDRESS", raising=False)
    else:
        monkeypatch.setenv("RAY_ADDRESS", env)
    result = CliRunner().invoke(main, CHICKEN_RUN + ["-j", "2"])
    assert result.exit_code == 0, result.output
    assert len(fake.inits) == 1
    assert fake.inits[0]["address"] == "local" and fake.inits[0]["num_cpus"] == 2


def test_a_cluster_that_cannot_be_reached_is_an_error_with_a_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake(monkeypatch, init_error=ConnectionError("Failed to connect to Ray cluster at 10.0.0.9:6379"))
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.9:6379")
    result = CliRunner().invoke(main, CHICKEN_RUN)
    assert result.exit_code == 1, result.output
    assert ("error: cannot connect to the Ray cluster at 10.0.0.9:6379 (from $RAY_ADDRESS): ConnectionError: "
            "Failed to connect") in result.stderr
    assert "hint: check the address" in result.stderr and "unset RAY_ADDRESS" in result.stderr
    assert "Traceback" not in result.output


def test_a_bad_address_option_is_an_error_with_a_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake(monkeypatch, init_error=ValueError("invalid address 'nonsense'"))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    result = CliRunner().invoke(main, CHICKEN_RUN + ["--address", "nonsense"])
    assert result.exit_code == 1, result.output
    assert "error: cannot connect to the Ray cluster at nonsense: ValueError: invalid address" in result.stderr
    assert "(from $RAY_ADDRESS)" not in result.stderr and "hint:" in result.stderr


def test_a_local_ray_that_does_not_start_is_an_error_with_a_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    _fake(monkeypatch, init_error=RuntimeError("could not start the GCS"))
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    result = CliRunner().invoke(main, CHICKEN_RUN)
    assert result.exit_code == 1, result.output
    assert "error: cannot start a local Ray: RuntimeError: could not start the GCS" in result.stderr
    assert "hint: try --backend local" in result.stderr


def test_a_task_that_fails_on_a_worker_is_an_error_with_a_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = _fake(monkeypatch, get_error=RuntimeError("The worker died unexpectedly\n" + "detail " * 200))
    monkeypatch.setenv("RAY_ADDRESS", "head.example:6379")
    result = CliRunner().invoke(main, CHICKEN_RUN)
    assert result.exit_code == 1, result.output
    assert "error: a Ray task failed on the Ray cluster at head.example:6379" in result.stderr
    assert "RuntimeError: The worker died unexpectedly detail" in result.stderr
    assert len(result.stderr) < 1200  # Ray's pages of detail are cut to one line
    assert "hint: every node needs the same rulelang" in result.stderr
    assert not fake.on  # the Ray this run joined is let go


def test_without_ray_and_with_ray_address_the_cli_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)
    monkeypatch.setenv("RAY_ADDRESS", "head.example:6379")
    result = CliRunner().invoke(main, CHICKEN_RUN)
    assert result.exit_code == 1
    assert "error: --backend ray needs Ray: pip install 'rulelang[ray]'" in result.stderr
    assert "Traceback" not in result.output
