"""boardgen on systems without POSIX-only modules: every module imports with ``fcntl`` unavailable (as on
Windows), the CLI starts, and the output folder's lock falls back to a portable lock file."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = textwrap.dedent("""
    import importlib, pkgutil, sys
    sys.modules["fcntl"] = None  # import fcntl now raises ImportError, as on Windows
    import boardgen
    failed = []
    for info in pkgutil.walk_packages(boardgen.__path__, "boardgen."):
        try:
            importlib.import_module(info.name)
        except Exception as exc:
            failed.append(f"{info.name}: {type(exc).__name__}: {exc}")
    print("\\n".join(failed) or "all imported")
    from pathlib import Path
    from boardgen.io import output_lock
    root = Path(sys.argv[1])
    with output_lock(root):
        print("locked", sorted(p.name for p in root.iterdir()))
    from boardgen.cli import main
    try:
        main(["--help"])
    except SystemExit as exc:
        assert not exc.code, exc.code
""")


def test_every_module_imports_and_the_lock_works_without_fcntl(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0] == "all imported", done.stdout[:2000]
    assert lines[1] == "locked ['.boardgen.lock']"
    assert "Usage:" in done.stdout
