"""How files are named in what kipcheck writes (reports, traces, pages): never an absolute path
of the user's machine, since such files get committed and shared."""
from __future__ import annotations

import os
from pathlib import Path


def shown_path(path: str | os.PathLike | None) -> str | None:
    """`path` relative to the working directory when it lies below it, else its file name."""
    if path is None:
        return None
    p = Path(path)
    try:
        return Path(os.path.abspath(p)).relative_to(Path.cwd()).as_posix()
    except ValueError:
        return p.name
