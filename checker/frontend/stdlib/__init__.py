"""kipcheck's own TLA+ text of the standard modules (Naturals, Sequences, TLC, ...).

The front end parses these .tla files to learn the names and arities of the operators each
standard module exports; the checker evaluates those operators natively. This package holds
only the .tla files, so that they ship as package data.
"""
