---- MODULE SequencesExtTheorems ----
\* kipcheck's stand-in for the TLAPS proof library module SequencesExtTheorems: specs extend it for the
\* theorems their proofs cite, which model checking does not use, so it states none of them.
====
