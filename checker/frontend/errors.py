"""Source spans and the errors the front end raises.

Every problem found in a user's spec or config is a `KipcheckError` carrying the span where it
was found, so the CLI can print it like a compiler does (file:line:col, the line, a caret) and
exit with TLC's code for that kind of failure.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..verdicts import CONFIG_ERROR, EXIT_CONFIG_ERROR, EXIT_SPEC_ERROR, SPEC_ERROR


@dataclass(frozen=True, slots=True)
class Span:
    """Where a piece of source text lies: 1-based line and column, end exclusive."""

    file: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = Span("<builtin>", 0, 0)


class KipcheckError(Exception):
    """An error in user input; `exit_code` is the TLC exit code the CLI uses."""

    exit_code = EXIT_SPEC_ERROR
    verdict = SPEC_ERROR  # the verdict of the JSON report
    kind = "error"

    def __init__(self, message: str, span: Span | None = None, source: str | None = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.source = source  # the text of span.file, when the caller has it at hand

    def format(self) -> str:
        """Compiler-style report: `file:line:col: error: message`, the source line, a caret."""
        if self.span is None or self.span.line <= 0:
            return f"error: {self.message}"
        head = f"{self.span}: error: {self.message}"
        line = _source_line(self.span, self.source)
        if line is None:
            return head
        line = line.expandtabs(1)
        width = 1
        if self.span.end_line == self.span.line and self.span.end_col > self.span.col:
            width = self.span.end_col - self.span.col
        caret = " " * (self.span.col - 1) + "^" + "~" * (max(width, 1) - 1)
        return f"{head}\n{line}\n{caret}"


class SpecError(KipcheckError):
    """Syntax, module or name error in a .tla file."""

    exit_code = EXIT_SPEC_ERROR


class ConfigError(KipcheckError):
    """Error in a TLC .cfg file."""

    exit_code = EXIT_CONFIG_ERROR
    verdict = CONFIG_ERROR


def read_source(path: Path, error=None) -> str:
    """The text of a UTF-8 source file. Bytes that are not UTF-8 raise `error` (a
    KipcheckError class) at their line and column; OSError passes through."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        line = data.count(b"\n", 0, e.start) + 1
        col = len(data[line_start:e.start].decode("utf-8", errors="replace")) + 1
        text = data.decode("utf-8", errors="replace")
        raise (error or KipcheckError)(
            f"the file is not UTF-8 text: byte {data[e.start]:#04x} cannot be read "
            f"(save the file as UTF-8)", Span(str(path), line, col, line, col + 1),
            source=text) from None


def _source_line(span: Span, source: str | None) -> str | None:
    text = source
    if text is None:
        try:
            text = Path(span.file).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
    lines = text.splitlines()
    if 1 <= span.line <= len(lines):
        return lines[span.line - 1]
    return None
