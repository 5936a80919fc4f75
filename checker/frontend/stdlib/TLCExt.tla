------------------------------- MODULE TLCExt -------------------------------
\* kipcheck's own text of TLC's module TLCExt. AssertEq, AssertError, TLCModelValue, TLCNoOp,
\* TLCCache, TLCDefer, TLCGetOrDefault, TLCGetAndSet and PickSuccessor (on its TRUE branch) are
\* evaluated, and Trace in an ALIAS; elsewhere Trace, and CounterExample, ToTrace, TLCFP and
\* TLCEvalDefinition, stop the check with an error saying they are not supported.
LOCAL INSTANCE TLC
LOCAL INSTANCE Integers

\* a = b; when they differ, both are printed first.
AssertEq(a, b) ==
    IF a # b THEN PrintT("Assertion failed") /\ PrintT(a) /\ PrintT(b) /\ a = b ELSE a = b

\* TRUE when evaluating exp fails with the error message err.
AssertError(err, exp) == TRUE

\* The value of register key, or defaultVal when it was never set.
TLCGetOrDefault(key, defaultVal) == CHOOSE n : TRUE

\* Sets register key to Op(old, val), old being its value (defaultVal if unset); equals old.
TLCGetAndSet(key, Op(_, _), val, defaultVal) ==
    LET oldVal == TLCGetOrDefault(key, defaultVal)
    IN  CHOOSE v \in {oldVal} : TLCSet(key, Op(oldVal, val))

\* The behavior from an initial state to the current one, as a sequence of records.
Trace == TRUE

\* The counterexample, in the scope of a POSTCONDITION.
CounterExample == TRUE

ToTrace(CE) == TRUE

\* The model value named str.
TLCModelValue(str) == CHOOSE v : ToString(v) = str

\* expression, evaluated at once (there is no simulation to defer it to).
TLCDefer(expression) == TRUE

TLCNoOp(val) == val

\* TRUE where exp holds; interactive picking of successors is not supported.
PickSuccessor(exp) == IF exp THEN TRUE ELSE CHOOSE bool \in BOOLEAN : TRUE

TLCCache(expression, closure) == expression

TLCFP(var) == CHOOSE i \in Int : TRUE

TLCEvalDefinition(definitionName) == TRUE
=============================================================================
