---- MODULE FiniteSetTheorems ----
\* kipcheck's stand-in for the TLAPS proof library module FiniteSetTheorems: specs extend it for the
\* theorems their proofs cite, which model checking does not use, so it states none of them.
====
