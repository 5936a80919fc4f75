"""What `kipcheck check` writes besides its TLC-style report: --trace-out, --junit-xml and
--dump-graph. Kept here so the command line stays a thin layer."""
from __future__ import annotations

from pathlib import Path

from ..frontend import default_config
from .counterexample import from_outcome
from .formats import EXTENSIONS, write_all
from .graph import StateGraph, to_dot, to_graphml
from .junit import cases_of, junit_error, junit_xml, suite_name
from .lanes import LanesError, find_lanes, load_lanes

GRAPH_FORMATS = {".dot": to_dot, ".gv": to_dot, ".graphml": to_graphml}


class CheckOutputs:
    """Collects what the options ask for; `graph` is the engine hook when --dump-graph is on.
    Bad options (an unreadable lanes file, an unknown graph extension) raise LanesError or
    ValueError before the check starts."""

    def __init__(self, spec, config, trace_out=None, lanes_file=None, junit=None,
                 dump_graph=None, no_deadlock: bool = False):
        self.spec = str(spec)
        self.config = config = config if config is not None else default_config(spec)
        self.trace_out, self.junit, self.dump_graph = trace_out, junit, dump_graph
        self.no_deadlock = no_deadlock
        self.lanes = None
        if trace_out:
            found = lanes_file or find_lanes(spec, config)
            self.lanes = load_lanes(found) if found else None
        elif lanes_file:
            load_lanes(lanes_file)  # still report a bad file
        self.graph = None
        if dump_graph:
            if Path(dump_graph).suffix not in GRAPH_FORMATS:
                raise ValueError(f"--dump-graph {dump_graph}: the file name must end in "
                                 f"{', '.join(GRAPH_FORMATS)}")
            self.graph = StateGraph()

    @property
    def suite(self) -> str:
        return suite_name(self.spec, self.config)

    def write(self, outcome) -> tuple[list[str], list[str]]:
        """Write every requested file. Returns (notes, errors): one line per file written, and
        one per file that could not be written (the others are still written)."""
        notes: list[str] = []
        errors: list[str] = []
        cx = None
        if outcome.trace:
            cx = from_outcome(outcome, spec=self.spec, model=self.config, lanes=self.lanes)
        if self.trace_out:
            if cx is None:
                notes.append(f"No counterexample to write to {self.trace_out}.")
            elif _guard(errors, "the counterexample", self.trace_out,
                        lambda: write_all(cx, self.trace_out, self.suite, self.lanes)):
                exts = ",".join(e.lstrip(".") for e in EXTENSIONS.values())
                notes.append(f"Counterexample written to {Path(self.trace_out) / self.suite}"
                             f".{{{exts}}}")
        if self.graph is not None:
            g = self.graph.graph(outcome.variables, cx, name=self.suite)
            writer = GRAPH_FORMATS[Path(self.dump_graph).suffix]
            if _guard(errors, "the state graph", self.dump_graph,
                      lambda: Path(self.dump_graph).write_text(writer(g), encoding="utf-8")):
                notes.append(f"State graph ({g.number_of_nodes()} states, "
                             f"{g.number_of_edges()} transitions) written to {self.dump_graph}")
        if self.junit:
            text = junit_xml(outcome, self._cases(), self._deadlock(), self.suite)
            if _guard(errors, "the JUnit report", self.junit,
                      lambda: Path(self.junit).write_text(text, encoding="utf-8")):
                notes.append(f"JUnit report written to {self.junit}")
        return notes, errors

    def write_error(self, message: str) -> list[str]:
        """A check that could not run still leaves a JUnit report saying why; returns the
        write errors, as `write` does."""
        errors: list[str] = []
        if self.junit:
            text = junit_error(message, self.suite)
            _guard(errors, "the JUnit report", self.junit,
                   lambda: Path(self.junit).write_text(text, encoding="utf-8"))
        return errors

    def _config(self):
        """The .cfg as the check read it (it was read successfully before this is asked)."""
        from ..frontend.cfg import load_config

        if self.config is None:
            return None
        return load_config(self.config)

    def _cases(self):
        cfg = self._config()
        return cases_of(cfg) if cfg is not None else []

    def _deadlock(self) -> bool:
        cfg = self._config()
        on = cfg.check_deadlock if cfg is not None and cfg.check_deadlock is not None else True
        return on and not self.no_deadlock


def _guard(errors: list[str], what: str, path, write) -> bool:
    """Run `write`; on failure add a line naming the file and the reason to `errors`."""
    try:
        write()
    except OSError as e:
        errors.append(f"error: cannot write {what} to {path}: {e.strerror or e}")
        return False
    return True


__all__ = ["CheckOutputs", "LanesError"]
