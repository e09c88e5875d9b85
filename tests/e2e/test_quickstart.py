"""The README's commands as a newcomer runs them: on a fresh clone, without REDIS_URL (the embedded
pipeline), each command's exit code checked."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.helpers.plain_python import plain_env

ROOT = Path(__file__).resolve().parents[2]


def _readme_block(after: str) -> list[str]:
    """The commands of the first ``bash`` block after ``after`` in the README, comments dropped."""
    text = (ROOT / "README.md").read_text()
    block = text[text.index(after):].split("```bash\n", 1)[1].split("```", 1)[0]
    return [line.split("  #", 1)[0].strip() for line in block.splitlines() if line.strip()
            and not line.lstrip().startswith("#")]


def _fresh_clone(dest: Path) -> Path:
    """The checkout as a clone of it would be once committed: tracked and new files, nothing ignored
    (no .venv, no var/), symlinks kept."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        src, dst = ROOT / name, dest / name
        if not src.exists() and not src.is_symlink():
            continue  # deleted in the working tree
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), dst)
        else:
            shutil.copy2(src, dst)
    return dest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_readme_quick_start_and_everyday_use_run_top_to_bottom_on_a_fresh_clone(tmp_path):
    """``./run demo`` installs the runtime set only, ``./run test`` adds the development set, and every
    everyday command works after the demo, ``./run up`` last (on HTTP_PORT, until Ctrl-C)."""
    clone = _fresh_clone(tmp_path / "rcaloop")
    env = plain_env(HTTP_PORT=str(_free_port()), METRICS_PORT=str(_free_port()), COLUMNS="200")
    for name in [k for k in env if k.startswith(("RCALOOP_", "LOG_", "HTTP_HOST", "METRICS_HOST"))]:
        env.pop(name)
    python = clone / ".venv" / "bin" / "python"

    def has(package: str) -> bool:
        return subprocess.run([str(python), "-c", f"import {package}"], capture_output=True).returncode == 0

    quick = _readme_block("## Quick start")
    assert quick[:2] == ["./run demo", "./run test"], quick
    demo = _run(clone, env, quick[0])
    out = demo.stdout + demo.stderr
    assert demo.returncode == 0 and "Traceback" not in out, out[-3000:]
    _assert_every_sample_went_through(out)
    assert has("rcaloop.cli") and not has("playwright") and not has("kubernetes_validate") and not has("pytest")
    tests = _run(clone, env, quick[1] + " --collect-only -q -p no:cacheprovider")  # the suite itself runs in CI
    assert tests.returncode == 0 and " tests collected" in tests.stdout, (tests.stdout + tests.stderr)[-3000:]
    assert has("playwright") and has("pytest")

    everyday = _readme_block("Everyday use")
    assert everyday[-1] == "./run up", everyday
    for command in everyday[:-1]:
        done = _run(clone, env, command)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (
            command, done.stdout[-2000:], done.stderr[-2000:])
        if command.startswith("./run show"):
            assert "verdict" in done.stdout and "by None" not in done.stdout, done.stdout
    up = subprocess.Popen(shlex.split(everyday[-1]), cwd=clone, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        seen, deadline = [], time.monotonic() + 120
        while "pipeline running" not in (line := up.stdout.readline()):
            seen.append(line)
            assert line and time.monotonic() < deadline, "".join(seen)
        assert f"review UI on http://127.0.0.1:{env['HTTP_PORT']}/ui/" in "".join(seen), "".join(seen)
        with urllib.request.urlopen(f"http://127.0.0.1:{env['HTTP_PORT']}/ui/login", timeout=10) as page:
            assert page.status == 200
        os.killpg(up.pid, signal.SIGINT)  # Ctrl-C
        _, stderr = up.communicate(timeout=60)
    finally:
        if up.poll() is None:
            up.kill()
    assert up.returncode == 0 and "Traceback" not in stderr, stderr[-3000:]


def _run(clone: Path, env: dict[str, str], command: str) -> subprocess.CompletedProcess:
    return subprocess.run(shlex.split(command), cwd=clone, env=env, capture_output=True, text=True, timeout=900,
                          stdin=subprocess.DEVNULL)


def _assert_every_sample_went_through(out: str) -> None:
    rows = {line.split("│")[1].strip(): line for line in out.splitlines() if line.count("│") > 3}
    samples = len([p for p in (ROOT / "examples" / "jobs").iterdir() if p.is_dir()])
    samples += len(list((ROOT / "examples" / "skill_outputs").glob("*.txt")))
    samples += len(list((ROOT / "examples" / "captures").glob("*.json")))
    assert int(rows["rca.evaluated"].split("│")[3]) == samples, out
    assert int(rows["review.tasks"].split("│")[3]) == samples, out


def test_bad_configuration_is_one_line_and_starts_no_embedded_redis(tmp_path):
    """A bad environment variable: a one-line error (not an import-time traceback), no orphan redis-server."""
    base = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ}
    base["RCALOOP_DATA_DIR"] = str(tmp_path / "var")
    rcaloop = Path(sys.executable).with_name("rcaloop")
    for extra, code, message in (
        ({"MAX_DELIVERIES": "many"}, 2, "error: configuration: MAX_DELIVERIES:"),
        ({"RCALOOP_ANNOTATOR_TOKENS": "alice"}, 1, "RCALOOP_ANNOTATOR_TOKENS entry 1 is not name:token"),
        ({"RCALOOP_ANNOTATOR_TOKENS": "alice:t1"}, 1,
         "RCALOOP_ANNOTATOR_TOKENS entry 1 (alice): the token is too weak"),
        ({"RCALOOP_REVIEWER_TOKENS": "mira:x"}, 1, "RCALOOP_REVIEWER_TOKENS entry 1 (mira): the token is too weak"),
        ({"REDIS_URL": "http://x"}, 2, "error: configuration: REDIS_URL: Value error, must start with redis://"),
        ({"REDIS_URL": "127.0.0.1:6380"}, 2, "error: configuration: REDIS_URL: Value error, must start with redis://"),
        ({"REDIS_URL": "redis://:hunter2@h:port/0"}, 2, "error: configuration: REDIS_URL: Value error, must be a URL"),
    ):
        proc = subprocess.run(
            [str(rcaloop), "up", "--http-port", "0", "--metrics-port", "0"], cwd=tmp_path, env=base | extra,
            capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )
        assert proc.returncode == code, proc.stdout + proc.stderr
        assert message in proc.stderr and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert "hunter2" not in proc.stdout + proc.stderr and "t1" not in proc.stderr.replace("entry 1", "")
        assert not (tmp_path / "var" / "redis" / "redis.sock").exists(), "the embedded Redis was left running"
    help_run = subprocess.run(
        [str(rcaloop), "--help"], env=base | {"MAX_DELIVERIES": "many"}, capture_output=True, text=True, timeout=60
    )
    assert help_run.returncode == 0 and "Traceback" not in help_run.stderr


def test_ctrl_c_drains_before_the_embedded_redis_stops(tmp_path):
    """Ctrl-C signals the whole foreground process group; the embedded redis-server must not die with it."""
    import signal
    import time

    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ}
    env["RCALOOP_DATA_DIR"] = str(tmp_path / "var")
    rcaloop = Path(sys.executable).with_name("rcaloop")
    proc = subprocess.Popen(
        [str(rcaloop), "up", "--http-port", "0", "--metrics-port", "0"], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, stdin=subprocess.DEVNULL, start_new_session=True,  # a terminal's group
    )
    try:
        deadline = time.monotonic() + 60
        while "pipeline running" not in (line := proc.stdout.readline()):
            assert line and time.monotonic() < deadline, "rcaloop up did not start"
        time.sleep(1)
        os.killpg(proc.pid, signal.SIGINT)
        _, stderr = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "stopped" in stderr and "Traceback" not in stderr
    assert "redis_unreachable" not in stderr, stderr
    sock = tmp_path / "var" / "redis" / "redis.sock"
    assert not sock.exists() or _socket_dead(sock), "the embedded Redis outlived rcaloop up"


def _socket_dead(path: Path) -> bool:
    import socket

    with socket.socket(socket.AF_UNIX) as s:
        try:
            s.connect(str(path))
        except OSError:
            return True
    return False
