---- MODULE LiveAbs ----
(* An hour clock with three hours, weakly fair. *)
EXTENDS Naturals
VARIABLE hr
Tick == hr' = (hr + 1) % 3
Spec == hr = 0 /\ [][Tick]_hr /\ WF_hr(Tick)
====
