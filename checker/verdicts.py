"""Every verdict kipcheck can reach and the exit code each one ends with: the one catalogue.

The codes are TLC's (`tlc2.output.EC.ExitStatus`) wherever TLC has the case, so a CI script
written for TLC reads kipcheck's the same way; kipcheck adds 1, 2, 3, 4, 5 and 130. This module
imports nothing from the package, so every stage (front end, engine, outputs, CLI) can use it.
The README's exit-code table lists the same codes.
"""
from __future__ import annotations

# The verdict of a check (Outcome.verdict, the "verdict" of the JSON report).
OK = "ok"  # every reachable state checked, nothing violated
ASSUMPTION = "assumption"  # an ASSUME is false
POSTCONDITION = "postcondition"  # the .cfg's POSTCONDITION is false after the search
DEADLOCK = "deadlock"
INVARIANT = "invariant"  # an INVARIANT (or a []P property) is violated
PROPERTY = "property"  # a temporal or action property is violated
ASSERT = "assert"  # Assert(FALSE, ...) was evaluated
ERROR = "error"  # an expression could not be evaluated (Head(<<>>), 1 + "a", ...)
INCOMPLETE = "incomplete"  # the search was cut (--max-depth) with a property left undecided
SPEC_ERROR = "spec-error"  # the .tla could not be read, parsed or resolved: nothing was checked
CONFIG_ERROR = "config-error"  # the .cfg (or -D) could not be read or is wrong
INTERRUPTED = "interrupted"  # stopped by Ctrl-C or SIGTERM before the search finished
CHECKPOINT_ERROR = "checkpoint-error"  # --recover: the checkpoint is another model's, or damaged
WITNESS = "witness"  # no property failed, but no reachable state satisfies a --witness

# Exit codes.
EXIT_OK = 0
EXIT_FAILURE = 1  # `traces regenerate --check` found a differing file; an internal error
EXIT_USAGE = 2  # bad command line, unreadable option file, or an output that could not be written
EXIT_INCOMPLETE = 3  # a cut search left a property undecided: neither holds nor fails
EXIT_MUTANT_SURVIVED = 4  # `kipcheck mutate`: a mutant survived (or its search was cut)
EXIT_WITNESS = 5  # a --witness was not reached (and no property failed)
EXIT_ASSUMPTION = 10
EXIT_DEADLOCK = 11
EXIT_SAFETY = 12
EXIT_LIVENESS = 13  # temporal or action property
EXIT_ASSERT = 14
EXIT_EVAL_ERROR = 75
EXIT_INVARIANT_EVAL_ERROR = 76  # TLC's FAILURE_SAFETY_EVAL: an invariant failed to evaluate
EXIT_SPEC_ERROR = 150
EXIT_CONFIG_ERROR = 151
EXIT_INTERRUPTED = 130  # Ctrl-C or SIGTERM (128 + SIGINT, as a shell reports it)

EXIT_CODES = {
    OK: EXIT_OK,
    INCOMPLETE: EXIT_INCOMPLETE,
    ASSUMPTION: EXIT_ASSUMPTION,
    POSTCONDITION: EXIT_ASSUMPTION,  # TLC's code too (TLC_POSTCONDITION_FALSE)
    DEADLOCK: EXIT_DEADLOCK,
    INVARIANT: EXIT_SAFETY,
    PROPERTY: EXIT_LIVENESS,
    ASSERT: EXIT_ASSERT,
    ERROR: EXIT_EVAL_ERROR,
    SPEC_ERROR: EXIT_SPEC_ERROR,
    CONFIG_ERROR: EXIT_CONFIG_ERROR,
    INTERRUPTED: EXIT_INTERRUPTED,
    CHECKPOINT_ERROR: EXIT_USAGE,
    WITNESS: EXIT_WITNESS,
}

# Verdicts that come with a counterexample to a property.
VIOLATIONS = (INVARIANT, PROPERTY, DEADLOCK)

# Every code kipcheck exits with, and what it means (the README's table says the same).
MEANINGS = {
    EXIT_OK: "no error found (with --max-depth: none within that depth, every property decided)",
    EXIT_FAILURE: "`traces regenerate --check`: a golden trace differs; or an internal error",
    EXIT_USAGE: "bad command line, an unreadable option file, a checkpoint that cannot be "
                "resumed (--recover: another model's, damaged), or an output "
                "file that could not be written (when the check itself found no error)",
    EXIT_INCOMPLETE: "--max-depth cut the search and a property (liveness) was left undecided",
    EXIT_MUTANT_SURVIVED: "`kipcheck mutate`: a mutant survived, or reached --max-states "
                          "undecided",
    EXIT_WITNESS: "a witness (`--witness`) was not reached: no reachable state satisfies it "
                  "(no property failed)",
    EXIT_ASSUMPTION: "an ASSUME is false, or the POSTCONDITION is false after the search",
    EXIT_DEADLOCK: "deadlock",
    EXIT_SAFETY: "an invariant (or `[]P` property) is violated",
    EXIT_LIVENESS: "a temporal property (liveness, or an action property `[][A]_v`) is violated",
    EXIT_ASSERT: "`Assert` failed",
    EXIT_EVAL_ERROR: "evaluation error (e.g. `Head(<<>>)`)",
    EXIT_INVARIANT_EVAL_ERROR: "evaluation error in an invariant (or `[]P` property) on a state "
                               "after the initial ones (TLC's code; on an initial state: 75)",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C or SIGTERM; with --checkpoint, resumable)",
    EXIT_SPEC_ERROR: "error in a `.tla` file",
    EXIT_CONFIG_ERROR: "error in a `.cfg` file, a `-D` option or a `--witness` name",
}


# Where an evaluation error can happen that has its own exit code (Outcome.error_in).
IN_INVARIANT = "invariant"  # an invariant or []P property, on a state after the initial ones


def exit_code(verdict: str, error_in: str | None = None) -> int:
    """The exit code of a verdict; `error_in` says where an evaluation error happened (TLC
    ends one in an invariant with a code of its own)."""
    if verdict == ERROR and error_in == IN_INVARIANT:
        return EXIT_INVARIANT_EVAL_ERROR
    return EXIT_CODES[verdict]
