-------------------------------- MODULE TLAPS -------------------------------
\* kipcheck's own text of the standard module TLAPS; the checker evaluates its operators natively.
(***************************************************************************)
(* Pragmas that select a back end of the TLA+ proof system when cited in a *)
(* BY or USE clause.  Each is simply TRUE; the model checker ignores them. *)
(* An argument X is a timeout in seconds; for IsaM and IsaMT it is the     *)
(* Isabelle tactic, and Y the timeout.                                     *)
(***************************************************************************)

\* SMT solvers.
SMT == TRUE
SMTT(X) == TRUE
CVC3 == TRUE
CVC3T(X) == TRUE
Yices == TRUE
YicesT(X) == TRUE
veriT == TRUE
veriTT(X) == TRUE
Z3 == TRUE
Z3T(X) == TRUE
SimpleArithmetic == TRUE

\* The SPASS superposition prover.
Spass == TRUE
SpassT(X) == TRUE

\* The Zenon tableau prover.
Zenon == TRUE
ZenonT(X) == TRUE
SlowZenon == TRUE
SlowerZenon == TRUE
VerySlowZenon == TRUE
SlowestZenon == TRUE

\* Isabelle and its tactics.
Isa == TRUE
IsaT(X) == TRUE
IsaM(X) == TRUE
IsaMT(X, Y) == TRUE
IsaWithSetExtensionality == TRUE
Auto == TRUE
AutoT(X) == TRUE
SlowAuto == TRUE
SlowerAuto == TRUE
SlowestAuto == TRUE
Force == TRUE
ForceT(X) == TRUE
SlowForce == TRUE
SlowerForce == TRUE
SlowestForce == TRUE
Blast == TRUE
BlastT(X) == TRUE
SlowBlast == TRUE
SlowerBlast == TRUE
SlowestBlast == TRUE
AutoBlast == TRUE
SimplifyAndSolve == TRUE
SimplifyAndSolveT(X) == TRUE
SlowSimplifyAndSolve == TRUE
SlowerSimplifyAndSolve == TRUE
SlowestSimplifyAndSolve == TRUE
Simplification == TRUE
SimplificationT(X) == TRUE
SlowSimplification == TRUE
SlowerSimplification == TRUE
SlowestSimplification == TRUE

\* Several back ends tried one after another.
AllProvers == TRUE
AllProversT(X) == TRUE
AllSMT == TRUE
AllSMTT(X) == TRUE
AllIsa == TRUE
AllIsaT(X) == TRUE

\* Propositional temporal logic, decided by LS4.
LS4 == TRUE
LS4T(X) == TRUE
PTL == TRUE
PropositionalTemporalLogic == TRUE

\* Handling of ENABLED and the action composition operator.
ExpandENABLED == TRUE
ExpandCdot == TRUE
AutoUSE == TRUE
Lambdify == TRUE
ENABLEDaxioms == TRUE
ENABLEDrewrites == TRUE
ENABLEDrules == TRUE
LevelComparison == TRUE

\* Cited with BY ONLY to test the proof system's check for trivial goals.
Trivial == TRUE
=============================================================================
